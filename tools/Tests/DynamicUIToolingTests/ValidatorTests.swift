import DynamicUICatalog
import DynamicUIModels
import DynamicUIRendering
import Foundation
import Testing

@testable import DynamicUITooling

/// One finding a broken document must produce.
struct ExpectedFinding: CustomStringConvertible, Sendable {
    let file: String
    let path: String
    let severity: ValidationSeverity
    let phrase: String

    init(_ file: String, _ path: String, _ severity: ValidationSeverity, _ phrase: String) {
        self.file = file
        self.path = path
        self.severity = severity
        self.phrase = phrase
    }

    var description: String { "\(file): \(path): \(severity.rawValue): …\(phrase)…" }

    func matches(_ finding: ValidationFinding) -> Bool {
        URL(fileURLWithPath: finding.file).lastPathComponent == file && finding.path == path && finding.severity == severity
            && finding.message.contains(phrase)
    }
}

/// The `Broken` folder next to this file (excluded from the target's sources).
let brokenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Broken")

@Suite("sdui validate")
struct ValidatorTests {
    static let expected: [ExpectedFinding] = [
        ExpectedFinding("malformed-json.json", "$", .error, "malformed JSON"),
        ExpectedFinding("malformed-json.json", "$", .error, "line 7"),
        ExpectedFinding("missing-required-field.json", "screen_name", .error, "required field 'screen_name' is missing"),
        ExpectedFinding("wrong-type.json", "template.zones[0].slots[0].id", .error, "expected a string, found integer"),
        ExpectedFinding("duplicate-slot-id.json", "template.zones[1].slots[0].id", .error, "duplicate slot id 'title'"),
        ExpectedFinding("duplicate-action-id.json", "actions[1].id", .error, "duplicate action id 'reload'"),
        ExpectedFinding("missing-trigger-slot.json", "actions[0].trigger_slot_id", .error, "no slot with id 'refresh-button'"),
        ExpectedFinding("unknown-handler-key.json", "handler_key", .error, "handler key 'no-such-handler'"),
        ExpectedFinding("bad-endpoint-prefix.json", "data_endpoint", .error, "unknown endpoint prefix 'foo:'"),
        ExpectedFinding("malformed-path-param.json", "actions[0].config.endpoint", .error, "unclosed '{'"),
        ExpectedFinding(
            "pagination-page-size-zero.json", "data_config.pagination.page_size", .error, "page_size must be positive"),
        ExpectedFinding("pagination-without-endpoint.json", "data_config.pagination", .warning, "no data_endpoint"),
        ExpectedFinding(
            "placeholder-does-not-compile.json", "template.zones[0].slots[0].label", .error, "unterminated placeholder"),
        ExpectedFinding("condition-does-not-compile.json", "template.zones[0].condition", .error, "syntax error"),
        ExpectedFinding("navigation-missing-screen.json", "bottom_nav[1].screen_key", .error, "unknown screen 'no-such-screen'"),
        ExpectedFinding("icon-only-button.json", "template.zones[0].slots[0]", .warning, "accessibility_label"),
        ExpectedFinding("malformed-path-param.json", "actions[0]", .warning, "names no permission"),
        ExpectedFinding("unknown-control-type.json", "template.zones[0].slots[0].control_type", .warning, "unknown control type"),
    ]

    /// One finding per broken file (the malformed file has two expectations on one finding).
    static var expectedErrors: Int { Set(expected.filter { $0.severity == .error }.map(\.file)).count }
    static var expectedWarnings: Int { Set(expected.filter { $0.severity == .warning }.map(\.file)).count }

    @Test func brokenDocumentsAreReportedWithFileAndPath() throws {
        let report = ScreenValidator.shipped().validate(paths: [brokenFolder])
        for expectation in Self.expected {
            #expect(report.findings.contains(where: expectation.matches), "missing \(expectation)\n\(report.text)")
        }
        #expect(report.errorCount == Self.expectedErrors, "\(report.text)")
        #expect(report.warningCount == Self.expectedWarnings, "\(report.text)")
        let files = try FileManager.default.contentsOfDirectory(atPath: brokenFolder.path).filter { $0.hasSuffix(".json") }
        #expect(report.filesChecked == files.count)
        #expect(report.skippedFiles.isEmpty)
        #expect(report.summary == "\(files.count) files, \(Self.expectedErrors) errors, \(Self.expectedWarnings) warnings")
        #expect(report.text.hasSuffix(report.summary))
        #expect(report.hasErrors)
    }

    @Test func eduGoCatalogHasNoErrors() throws {
        let catalog = try EduGoCatalog()
        // The settings screen opens help pages on the app's own host, which the app allows.
        let strict = ScreenValidator.shipped().validate(paths: [catalog.folder])
        #expect(strict.errorCount == 0, "\(strict.text)")
        #expect(
            strict.findings.filter { $0.message.contains("OPEN_URL host 'edugo.test' is refused") }.count == 2, "\(strict.text)")
        var validator = ScreenValidator.shipped()
        validator.allowOpenURL(hosts: ["edugo.test"])
        let report = validator.validate(paths: [catalog.folder])
        #expect(report.errorCount == 0, "\(report.text)")
        // The only warnings are list screens that page without a data endpoint (the screen table gives them none).
        for finding in report.findings {
            #expect(finding.path == "data_config.pagination" && finding.message.contains("no data_endpoint"), "\(finding)")
        }
        let roles = try catalog.navigationRoles()
        let documents = catalog.instances.count + catalog.templates.count + roles.count
        #expect(report.filesChecked == documents, "\(report.summary)")
        #expect(!report.skippedFiles.isEmpty)
        #expect(report.skippedFiles.allSatisfy { $0.contains("/data/") }, "\(report.skippedFiles)")
    }

    @Test func podcastCatalogHasNoFindings() {
        let folder = PodcastsCatalog().folder
        let report = ScreenValidator.shipped().validate(paths: [folder])
        #expect(report.findings.isEmpty, "\(report.text)")
        #expect(report.filesChecked == PodcastsCatalog.documentNames.count + 2, "\(report.summary)")
        #expect(report.skippedFiles.allSatisfy { $0.contains("/itunes/") }, "\(report.skippedFiles)")
    }

    @Test func findingDescriptionNamesFilePathAndSeverity() {
        let finding = ValidationFinding(.warning, file: "screens/a.json", path: "template.zones[0].type", "unknown zone type 'x'")
        #expect(finding.description == "screens/a.json: template.zones[0].type: warning: unknown zone type 'x'")
        let report = ValidationReport(findings: [finding], filesChecked: 1)
        #expect(report.summary == "1 file, 0 errors, 1 warning")
        #expect(report.text == "\(finding)\n1 file, 0 errors, 1 warning")
    }

    @Test func jsonReportRoundTripsThroughTheReader() throws {
        let report = ScreenValidator.shipped().validate(paths: [brokenFolder])
        let parsed = try JSONReader().read(report.jsonText())
        #expect(parsed == report.json)
        #expect(try JSONReader().read(report.jsonText(prettyPrinted: false)) == report.json)
        #expect(parsed["files"]?.intValue == report.filesChecked)
        #expect(parsed["errors"]?.intValue == report.errorCount)
        #expect(parsed["warnings"]?.intValue == report.warningCount)
        let findings = try #require(parsed["findings"]?.arrayValue)
        #expect(findings.count == report.findings.count)
        for (json, finding) in zip(findings, report.findings) {
            #expect(json["file"]?.stringValue == finding.file)
            #expect(json["path"]?.stringValue == finding.path)
            #expect(json["severity"]?.stringValue == finding.severity.rawValue)
            #expect(json["message"]?.stringValue == finding.message)
        }
    }

    @Test func handlerKeysComeFromKeysOrPlugins() {
        let file = brokenFolder.appendingPathComponent("unknown-handler-key.json")
        #expect(ScreenValidator().validate(paths: [file]).findings.isEmpty)
        #expect(ScreenValidator(handlerKeys: ["no-such-*"]).validate(paths: [file]).findings.isEmpty)
        #expect(ScreenValidator(handlerKeys: ["no-such-handler"]).validate(paths: [file]).findings.isEmpty)
        #expect(ScreenValidator(handlerKeys: ["login"]).validate(paths: [file]).errorCount == 1)
        let patterns = ScreenValidator.patterns(of: ScreenValidator.shippedPlugins).map { "\($0)" }
        #expect(patterns.contains("login") && patterns.contains("dashboard-*") && patterns.contains("user-create"))
    }

    @Test func navigationTargetsAreCheckedAgainstValidatedOrKnownScreens() {
        let navigation = brokenFolder.appendingPathComponent("navigation-missing-screen.json")
        // Alone, with no screen validated and none known, targets are not checked.
        #expect(ScreenValidator().validate(paths: [navigation]).findings.isEmpty)
        let known = ScreenValidator(knownScreens: ["broken-unknown-control-type"]).validate(paths: [navigation])
        #expect(known.findings.map(\.path) == ["bottom_nav[1].screen_key"])
        let withScreen = ScreenValidator().validate(
            paths: [navigation, brokenFolder.appendingPathComponent("unknown-control-type.json")])
        #expect(withScreen.errorCount == 1 && withScreen.warningCount == 1, "\(withScreen.text)")
    }

    @Test func explicitFilesThatAreNoDocumentAndMissingPathsAreReported() throws {
        let data = try EduGoCatalog().folder.appendingPathComponent("data/users.json")
        let report = ScreenValidator().validate(paths: [data, brokenFolder.appendingPathComponent("no-such-file.json")])
        #expect(report.findings.count == 2, "\(report.text)")
        #expect(report.findings.contains { $0.severity == .error && $0.message.contains("no such file") })
        #expect(report.findings.contains { $0.severity == .warning && $0.message.contains("not a DynamicUI document") })
    }

    @Test func instancesAreComposedAndFindingsLandWhereTheyAreWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-validate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("screens"), withIntermediateDirectories: true)
        let template = """
            {"template_id": "simple", "pattern": "list", "template": {"zones": [
              {"id": "header", "type": "container", "slots": [{"id": "title", "control_type": "mystery-widget", "value": "Hola"}]},
              {"id": "items", "type": "simple-list", "item_layout": {"slots": [{"id": "row", "control_type": "list-item", "field": "name"}]}}
            ]}}
            """
        let instance = """
            {"screen_id": "scr_things", "screen_key": "things", "screen_name": "Cosas", "template_id": "simple", "version": 1,
             "data_endpoint": "/v1/things", "actions": [], "updated_at": "2026-01-01T00:00:00Z",
             "zone_overrides": {"items": {"item_layout": {"slots": [{"id": "row", "control_type": "hologram", "field": "name"}]}}}}
            """
        try Data(template.utf8).write(to: folder.appendingPathComponent("templates/simple.json"))
        try Data(instance.utf8).write(to: folder.appendingPathComponent("screens/things.json"))

        // The whole folder: the template's own finding is reported once, in the template.
        let report = ScreenValidator().validate(paths: [folder])
        #expect(report.filesChecked == 2)
        #expect(report.errorCount == 0, "\(report.text)")
        let byFile = Dictionary(grouping: report.findings) { URL(fileURLWithPath: $0.file).lastPathComponent }
        #expect(byFile["simple.json"]?.map(\.path) == ["template.zones[0].slots[0].control_type"], "\(report.text)")
        #expect(
            byFile["things.json"]?.map(\.path) == ["zone_overrides.items.item_layout.slots[0].control_type"],
            "\(report.text)")

        // The instance alone: its template is found in the sibling folder and its finding is kept.
        let alone = ScreenValidator().validate(paths: [folder.appendingPathComponent("screens/things.json")])
        #expect(alone.filesChecked == 1)
        #expect(alone.warningCount == 2, "\(alone.text)")
        #expect(
            alone.findings.contains {
                $0.path == "template.zones[0].slots[0].control_type" && $0.message.contains("(in template 'simple')")
            }, "\(alone.text)")
    }
}

@Suite("sdui validate: the declarations' constraints")
struct DeclaredConstraintValidationTests {
    @Test func patternsLengthsAndBoundsComeFromTheSchemaOnceEach() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-declared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let theme =
            ##"{"colors": {"primary": "#0A84FF", "accent": "blue"}, "dark_colors": {"primary": "#12"}, "##
            + ##""fonts": {"body": {"size": 0}}}"##
        let navigation =
            #"{"version": 1, "bottom_nav": [{"key": "home", "label": "Inicio", "icon": "house", "screen_key": "  ", "#
            + #""sort_order": 1}]}"#
        let broken = #"{"version": "one", "bottom_nav": []}"#
        let template = #"{"template_id": "", "pattern": "list", "template": {"zones": []}}"#
        let screen =
            #"{"screen_id": "s", "screen_key": "paged", "screen_name": "Paged", "pattern": "list", "version": 1, "#
            + #""updated_at": "2026-01-01T00:00:00Z", "template": {"zones": []}, "actions": [], "#
            + #""data_endpoint": "/v1/items", "data_config": {"pagination": "#
            + #"{"page_size": 20, "limit_param": " ", "offset_param": "offset"}}}"#
        let documents = [
            ("theme.json", theme), ("navigation.json", navigation), ("broken-navigation.json", broken),
            ("template.json", template), ("screen.json", screen),
        ]
        for (name, text) in documents {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        let report = ScreenValidator.shipped().validate(paths: [folder])
        func errors(in file: String) -> [String] {
            report.findings.filter { $0.file.hasSuffix(file) && $0.severity == .error }.map { "\($0.path): \($0.message)" }
        }
        let themeErrors = errors(in: "/theme.json")
        #expect(themeErrors.count == 3, "\(report.text)")
        #expect(themeErrors.contains { $0 == "colors.accent: expected a color #RRGGBB or #RRGGBBAA, found 'blue'" })
        #expect(themeErrors.contains { $0 == "dark_colors.primary: expected a color #RRGGBB or #RRGGBBAA, found '#12'" })
        #expect(themeErrors.contains { $0.hasPrefix("fonts.body.size: expected more than 0") })
        #expect(errors(in: "/navigation.json") == ["bottom_nav[0].screen_key: expected a text that is not blank, found '  '"])
        // The decoder's finding is not repeated by the schema at the same place.
        let brokenErrors = errors(in: "broken-navigation.json")
        #expect(brokenErrors.count == 1 && brokenErrors[0].hasPrefix("version:"), "\(brokenErrors)")
        #expect(errors(in: "/template.json") == ["template_id: expected at least 1 character, found 0"])
        #expect(
            errors(in: "/screen.json") == ["data_config.pagination.limit_param: expected a text that is not blank, found ' '"],
            "\(report.text)")
    }
}

@Suite("sdui validate: hostile numbers and URLs")
struct HostileDocumentValidationTests {
    func validate(_ documents: [String: String], allowing hosts: [String] = []) throws -> ValidationReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in documents { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        var validator = ScreenValidator.shipped()
        validator.allowOpenURL(hosts: hosts)
        return validator.validate(paths: [folder])
    }

    static let screen = #"""
        {"screen_id": "s", "screen_key": "hostile", "screen_name": "Hostil", "pattern": "detail", "version": 1,
         "updated_at": "2026-01-01T00:00:00Z", "data_endpoint": "/v1/x", "data_config": {"refresh_interval": 20000000000},
         "template": {"zones": [{"id": "z", "type": "container", "slots": [
           {"id": "len", "control_type": "label", "label": "{1e22 | duration:mm:ss}"},
           {"id": "when", "control_type": "label", "label": "{-1e300 | date:yyyy}"},
           {"id": "ok", "control_type": "label", "label": "{item.ms | duration:mm:ss} {3723000 | duration:h:mm:ss}"},
           {"id": "stars", "control_type": "rating", "value": 1e300}]}]},
         "actions": [
           {"id": "a", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "http://evil.example/x"}},
           {"id": "b", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "javascript:alert(1)"}},
           {"id": "c", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "https://elsewhere.example/help"}},
           {"id": "d", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "{item.url}"}},
           {"id": "e", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "https://{item.host}/x"}},
           {"id": "f", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "https://help.edugo.test/faq?x={item.id}"}},
           {"id": "g", "trigger": "button_click", "type": "OPEN_URL", "config": {"url": "mailto:soporte@edugo.test"}}]}
        """#

    static let node = #"""
        {"type": "vstack", "children": [
          {"type": "grid", "props": {"columns": 1000000}},
          {"type": "text", "props": {"content": "$.x", "lineLimit": -1}},
          {"type": "text", "props": {"content": "1e300 | date:yyyy"}}]}
        """#

    @Test func numbersTheSDKWouldClampAreWarnings() throws {
        let report = try validate(["hostile.json": Self.screen, "node.json": Self.node], allowing: ["edugo.test"])
        #expect(report.errorCount == 0, "\(report.text)")
        let expected: [(String, String)] = [
            ("data_config.refresh_interval", "over a year"),
            ("template.zones[0].slots[0].label", "clamped to Int.max seconds"),
            ("template.zones[0].slots[1].label", "beyond any calendar"),
            ("template.zones[0].slots[3].value", "drawn as 5 stars"),
            ("children[0].props.columns", "drawn as 12"),
            ("children[1].props.lineLimit", "drawn as 1"),
            ("children[2].props.content", "beyond any calendar"),
        ]
        for (path, phrase) in expected {
            #expect(
                report.findings.contains { $0.path == path && $0.severity == .warning && $0.message.contains(phrase) },
                "\(path)\n\(report.text)")
        }
        #expect(!report.findings.contains { $0.path == "template.zones[0].slots[2].label" }, "\(report.text)")
    }

    @Test func openURLTargetsTheAppRefusesAreWarnings() throws {
        let report = try validate(["hostile.json": Self.screen], allowing: ["edugo.test"])
        let urls = report.findings.filter { $0.path.hasSuffix("config.url") }
        #expect(
            urls.map(\.path).sorted() == [
                "actions[0].config.url", "actions[1].config.url", "actions[2].config.url", "actions[6].config.url",
            ],
            "\(report.text)")
        // mailto: is refused too unless the app registers it, as URLSecurityPolicy does.
        #expect(urls.contains { $0.message.contains("scheme 'mailto'") })
        #expect(urls.contains { $0.message.contains("scheme 'http'") })
        #expect(urls.contains { $0.message.contains("scheme 'javascript'") })
        #expect(urls.contains { $0.message.contains("host 'elsewhere.example'") })
        // Allowing the host and the scheme silences them.
        var validator = ScreenValidator.shipped()
        validator.allowOpenURL(hosts: ["edugo.test", "elsewhere.example", "evil.example"], schemes: ["http", "mailto"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-url-\(UUID().uuidString).json")
        try Data(Self.screen.utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let relaxed = validator.validate(paths: [folder]).findings.filter { $0.path.hasSuffix("config.url") }
        #expect(relaxed.map(\.path) == ["actions[1].config.url"])
    }
}

@Suite("sdui validate: native components")
struct NativeComponentValidationTests {
    static let document = #"""
        {"type": "vstack", "children": [
          {"type": "media_player", "props": {"url": "$.episode.episodeUrl",
            "onPlay": {"actionType": "navigate", "screen": "nowhere"},
            "onRewind": {"actionType": "setState", "key": "paused", "value": true}}},
          {"type": "map_pin", "props": {"lat": 1}}]}
        """#

    func validate(_ validator: ScreenValidator) throws -> ValidationReport {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-native-\(UUID().uuidString).json")
        try Data(Self.document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return validator.validate(paths: [file])
    }

    @Test func registeredTypesAreKnownAndTheirActionsChecked() throws {
        let report = try validate(ScreenValidator.shipped(knownScreens: ["episode_detail"]))
        #expect(!report.findings.contains { $0.path == "children[0].type" }, "media_player is shipped: \(report.text)")
        #expect(
            report.findings.contains {
                $0.path == "children[0].props.onRewind" && $0.message.contains("has no action 'onRewind'")
            })
        #expect(report.findings.contains { $0.path == "children[0].props.onPlay.screen" && $0.message.contains("nowhere") })
        #expect(report.findings.contains { $0.path == "children[1].type" && $0.message.contains("unknown node type 'map_pin'") })
    }

    @Test func declaredComponentsAreKnownToo() throws {
        var validator = ScreenValidator.shipped(knownScreens: ["nowhere"])
        try validator.declareNativeComponents(["map-pin:onTap"])
        let report = try validate(validator)
        #expect(!report.findings.contains { $0.path == "children[1].type" }, "\(report.text)")
        #expect(throws: ComponentRegistrationError.self) { try validator.declareNativeComponents(["media-player"]) }
        #expect(throws: ComponentRegistrationError.self) { try validator.declareNativeComponents(["text-input"]) }
    }
}

@Suite("Validating the repository's own catalog folder")
struct CatalogFolderValidationTests {
    static let catalog = ExampleSnippetTests.root.appendingPathComponent("tools/catalog")

    @Test func theWholeCatalogFolderHasNoErrorAndManifestsAreReadAsManifests() {
        let report = ScreenValidator().validate(paths: [Self.catalog])
        #expect(report.errorCount == 0, "\(report.findings.filter { $0.severity == .error })")
        #expect(!report.findings.contains { $0.file.contains("manifests/") })
    }

    @Test func aBrokenManifestIsAnErrorThatSaysWhere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("app.json")
        try Data(#"{"schema_version": 1, "sdk_version": "0.2.0", "platform": "ios", "components": "media-player"}"#.utf8)
            .write(to: file)
        let report = ScreenValidator().validate(paths: [file])
        #expect(report.errorCount == 1)
        #expect(report.findings.first?.path == "components")
        #expect(report.findings.first?.message == "expected an array, found string")
    }
}

@Suite("sdui validate: variables and triggers")
struct VariableValidationTests {
    @Test func variablesActionsAndTriggersAreCheckedAndCyclesReported() throws {
        let screen: JSONValue = [
            "screen_id": "scr_v", "screen_key": "variables-broken", "screen_name": "V", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-25T00:00:00Z",
            "variables": [
                ["name": "count", "type": "integer", "value": 1.5], ["name": "count", "type": "string"],
                ["name": "when", "type": "date"], ["name": "tint", "type": "color", "value": "#abc"],
            ],
            "triggers": [
                ["variable": "count", "actions": ["bump"]], ["variable": "nope", "actions": ["ghost"]],
                ["condition": "variables.count >", "actions": ["paint"]], ["actions": ["paint"]],
            ],
            "template": [
                "zones": [["id": "z", "type": "container", "slots": [["id": "l", "control_type": "label", "label": "x"]]]]
            ],
            "actions": [
                ["id": "bump", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "count", "increment": 1]],
                ["id": "paint", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "tint", "value": "red"]],
                ["id": "grow", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "tint", "increment": 1]],
                ["id": "lost", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "missing", "value": 1]],
                ["id": "empty", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "count"]],
                ["id": "clock", "trigger": "SCREEN", "type": "TIMER", "config": ["id": "other", "command": "rewind"]],
            ],
            "timers": [
                ["id": "t", "tick_interval": 0, "value_variable": "tint", "end_actions": ["gone"]],
                ["id": "t", "remaining_variable": "count"],
            ],
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("variables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(JSONWriter(prettyPrinted: true).bytes(from: screen)).write(to: folder.appendingPathComponent("screen.json"))
        let report = ScreenValidator.shipped().validate(paths: [folder])
        let expected: [(String, ValidationSeverity, String)] = [
            ("variables[0].value", .error, "expected a whole number"),
            ("variables[1].name", .error, "duplicate variable id 'count'"),
            ("variables[2].type", .error, "unknown variable type 'date'"),
            ("actions[1].config.value", .error, "expected a colour"),
            ("actions[2].config.increment", .error, "only numbers take an increment"),
            ("actions[3].config.name", .error, "no variable 'missing'"),
            ("actions[4].config", .error, "needs config.value or config.increment"),
            ("triggers[0]", .warning, "a cycle"),
            ("triggers[1].variable", .error, "no variable 'nope'"),
            ("triggers[1].actions[0]", .error, "no action with id 'ghost'"),
            ("triggers[2].condition", .error, "syntax error"),
            ("triggers[3]", .error, "needs a variable to watch or a condition"),
            ("timers[0].value_variable", .error, "must be an integer variable"),
            ("timers[0].tick_interval", .warning, "raised to 100 ms"),
            ("timers[0].end_actions[0]", .error, "no action with id 'gone'"),
            ("timers[1].id", .error, "duplicate timer id 't'"),
            ("timers[1].remaining_variable", .warning, "no remaining time"),
            ("actions[5].config.id", .error, "no timer 'other'"),
            ("actions[5].config.command", .error, "unknown command 'rewind'"),
        ]
        for (path, severity, phrase) in expected {
            #expect(
                report.findings.contains { $0.path == path && $0.severity == severity && $0.message.contains(phrase) },
                "missing \(path): \(phrase)\n\(report.text)")
        }
        #expect(report.findings.count == expected.count, "\(report.text)")
    }
}

@Suite("sdui validate: visibility actions, inputs bound to variables, refresh patches, node timers")
struct LiveValidationTests {
    static func report(_ name: String, _ document: JSONValue) throws -> ValidationReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(JSONWriter(prettyPrinted: true).bytes(from: document)).write(to: folder.appendingPathComponent(name))
        return ScreenValidator.shipped().validate(paths: [folder])
    }

    static func expect(_ report: ValidationReport, _ expected: [(String, ValidationSeverity, String)]) {
        for (path, severity, phrase) in expected {
            #expect(
                report.findings.contains { $0.path == path && $0.severity == severity && $0.message.contains(phrase) },
                "missing \(path): \(phrase)\n\(report.text)")
        }
        #expect(report.findings.count == expected.count, "\(report.text)")
    }

    @Test func aScreensLiveMembersAreChecked() throws {
        let screen: JSONValue = [
            "screen_id": "scr_l", "screen_key": "live-broken", "screen_name": "L", "pattern": "form", "version": 1,
            "updated_at": "2026-11-26T00:00:00Z", "data_endpoint": "/v1/items",
            "data_config": ["refresh_patch_endpoint": "/v1/items/updates"],
            "variables": [["name": "on", "type": "boolean"], ["name": "n", "type": "integer"]],
            "template": [
                "zones": [
                    [
                        "id": "z", "type": "container",
                        "visibility_actions": [
                            ["log_id": "z.seen", "visibility_percentage": 150, "action_id": "ghost"],
                            ["log_id": "z.long", "visibility_duration_ms": 120_000, "log_limit": -1],
                        ],
                        "disappear_actions": [["log_id": "z.gone", "visibility_percentage": 100]],
                        "slots": [
                            ["id": "a", "control_type": "switch", "label": "A", "variable": "n"],
                            ["id": "b", "control_type": "text-input", "label": "B", "variable": "missing"],
                            ["id": "c", "control_type": "label", "label": "C", "variable": "on"],
                            [
                                "id": "d", "control_type": "label", "label": "D",
                                "visibility_actions": [["log_id": "d.seen", "action_id": "save"]],
                            ],
                        ],
                    ]
                ]
            ],
            "actions": [["id": "save", "trigger": "SCREEN", "type": "REFRESH"]],
        ]
        Self.expect(
            try Self.report("screen.json", screen),
            [
                ("template.zones[0].visibility_actions[0].visibility_percentage", .warning, "clamped to 1…100"),
                ("template.zones[0].visibility_actions[0].action_id", .error, "no action with id 'ghost'"),
                ("template.zones[0].visibility_actions[1].visibility_duration_ms", .warning, "clamped to 0…60000 ms"),
                ("template.zones[0].visibility_actions[1].log_limit", .warning, "lowered to 1000"),
                ("template.zones[0].disappear_actions[0].visibility_percentage", .warning, "clamped to 0…99"),
                ("template.zones[0].slots[0].variable", .error, "enters a boolean; 'n' is integer"),
                ("template.zones[0].slots[1].variable", .error, "no variable 'missing'"),
                ("template.zones[0].slots[2].variable", .warning, "only inputs edit a variable"),
                ("data_config.refresh_patch_endpoint", .warning, "without a refresh_interval"),
            ])
    }

    @Test func aNodeDocumentsTimersAndVisibilityAreChecked() throws {
        let document: JSONValue = [
            "type": "screen", "id": "doc", "data_endpoint": "/v1/doc",
            "timers": [["id": "t", "tick_interval": 10, "tick_actions": ["chime"], "end_actions": ["x"]], ["id": "t"]],
            "props": [
                "title": "Doc",
                "actions": ["chime": ["actionType": "navigate", "screen": "nowhere"], "body.action": ["actionType": "dismiss"]],
                "body": [
                    "type": "vstack",
                    "transition": ["type": "spin"],
                    "data_endpoint": "/v1/latest",
                    "visibility_actions": [["log_id": "seen", "action_id": "x"]],
                    "children": [
                        [
                            "type": "button", "timers": [["id": "inner"]],
                            "props": [
                                "label": ["type": "text", "props": ["content": "Go"]],
                                "action": ["actionType": "timer", "id": "nope", "command": "rewind"],
                            ],
                        ]
                    ],
                ],
            ],
        ]
        Self.expect(
            try Self.report("doc.json", document),
            [
                ("data_endpoint", .error, "the root node cannot be a deferred section"),
                ("timers[0].end_actions[0]", .error, "no named action 'x'"),
                ("timers[0].tick_interval", .warning, "raised to 100 ms"),
                ("timers[1].id", .error, "duplicate timer id 't'"),
                ("props.body.transition.type", .warning, "unknown transition 'spin'"),
                ("props.body.data_endpoint", .error, "a deferred section needs an id"),
                ("props.body.visibility_actions[0].action_id", .warning, "run no action by id"),
                ("props.body.children[0].timers", .warning, "root node only"),
                ("props.body.children[0].props.action.id", .error, "no timer 'nope'"),
                ("props.body.children[0].props.action.command", .warning, "unknown timer command 'rewind'"),
                ("props.actions.body.action", .error, "letters, digits, '_' and '-' ('body.action')"),
                ("props.actions.chime.screen", .warning, "unknown screen document 'nowhere'"),
            ])
    }

    @Test func aNodeDocumentsVariablesAndTriggersAreChecked() throws {
        let document: JSONValue = [
            "type": "screen", "id": "doc",
            "variables": [
                ["name": "n", "type": "integer", "value": "one"], ["name": "n", "type": "integer"],
                ["name": "mood", "type": "feeling"],
            ],
            "triggers": [
                ["variable": "n", "actions": ["report", "ghost"]], ["variable": "missing", "actions": ["report"]],
                ["condition": "$.state.n >= (", "actions": ["report"]], ["actions": []],
            ],
            "props": [
                "title": "Doc", "actions": ["report": ["actionType": "setState", "key": "seen", "value": true]],
                "body": ["type": "vstack", "triggers": [["variable": "n", "actions": ["report"]]]],
            ],
        ]
        Self.expect(
            try Self.report("doc.json", document),
            [
                ("variables[0].value", .error, "expected a whole number, found string"),
                ("variables[1].name", .error, "duplicate variable id 'n'"),
                ("variables[2].type", .error, "unknown variable type 'feeling'"),
                ("triggers[0].actions[1]", .error, "no named action 'ghost'"),
                ("triggers[1].variable", .error, "no variable 'missing'"),
                ("triggers[2].condition", .error, "syntax error"),
                ("triggers[3]", .error, "a variable to watch or a condition"),
                ("triggers[3].actions", .warning, "runs no action"),
                ("props.body.triggers", .warning, "root node only"),
            ])
    }
}
