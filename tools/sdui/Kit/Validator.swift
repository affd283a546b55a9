import DynamicUI
public import DynamicUIActions
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUIMediaPlayer
public import DynamicUIModels
import DynamicUINavigationPlugin
import DynamicUINetwork
public import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
public import Foundation

/// How serious a validation finding is.
public enum ValidationSeverity: String, Sendable, Hashable, CaseIterable {
    /// The document is wrong: the SDK rejects it or cannot do what it says.
    case error
    /// The document works, but something in it is probably a mistake.
    case warning
}

/// One problem found by ``ScreenValidator``: the file, the JSON path inside it, how serious it
/// is and what is wrong.
public struct ValidationFinding: Sendable, Hashable, CustomStringConvertible {
    /// How serious the finding is.
    public let severity: ValidationSeverity
    /// The file, as given or as found below a given folder.
    public let file: String
    /// Where in the document (`template.zones[2].slots[0].control_type`); `$` is the whole document.
    public let path: String
    /// What is wrong.
    public let message: String

    /// Creates a finding.
    public init(_ severity: ValidationSeverity, file: String, path: String, _ message: String) {
        self.severity = severity
        self.file = file
        self.path = path
        self.message = message
    }

    /// `file: path: error|warning: message`.
    public var description: String { "\(file): \(path): \(severity.rawValue): \(message)" }
}

/// What `sdui validate` reports: every finding in file order, and the counts.
public struct ValidationReport: Sendable {
    /// Every finding, in the order of the files and, inside a file, of the checks.
    public let findings: [ValidationFinding]
    /// How many documents were checked; skipped files are not counted.
    public let filesChecked: Int
    /// JSON files found in folders that are not DynamicUI documents (demo data, recorded responses).
    public let skippedFiles: [String]

    /// Creates a report.
    public init(findings: [ValidationFinding], filesChecked: Int, skippedFiles: [String] = []) {
        self.findings = findings
        self.filesChecked = filesChecked
        self.skippedFiles = skippedFiles
    }

    /// How many findings are errors.
    public var errorCount: Int { findings.filter { $0.severity == .error }.count }

    /// How many findings are warnings.
    public var warningCount: Int { findings.filter { $0.severity == .warning }.count }

    /// Whether any finding is an error (the command then exits with a failure).
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// The counts, such as `38 files, 0 errors, 2 warnings`.
    public var summary: String {
        [Self.count(filesChecked, "file"), Self.count(errorCount, "error"), Self.count(warningCount, "warning")]
            .joined(separator: ", ")
    }

    /// One finding per line, then the summary.
    public var text: String { (findings.map(\.description) + [summary]).joined(separator: "\n") }

    /// The report of `--format json`:
    /// `{"files": n, "errors": n, "warnings": n, "findings": [{"file", "path", "severity", "message"}]}`.
    public var json: JSONValue {
        let items: [JSONValue] = findings.map { finding in
            let members: [(String, JSONValue)] = [
                ("file", .string(finding.file)), ("path", .string(finding.path)),
                ("severity", .string(finding.severity.rawValue)), ("message", .string(finding.message)),
            ]
            return .object(JSONObject(members))
        }
        let members: [(String, JSONValue)] = [
            ("files", .number(JSONNumber(filesChecked))), ("errors", .number(JSONNumber(errorCount))),
            ("warnings", .number(JSONNumber(warningCount))), ("findings", .array(items)),
        ]
        return .object(JSONObject(members))
    }

    /// `json` as text written by `JSONWriter`.
    public func jsonText(prettyPrinted: Bool = true) -> String {
        JSONWriter(prettyPrinted: prettyPrinted).string(from: json)
    }

    private static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}

/// The engine of `sdui validate`: checks DynamicUI documents the way a compiler checks source
/// files and reports every finding with its file and JSON path.
///
/// It recognises screen definitions, catalog screen instances (composed with their template as
/// `ScreenComposer` does; the template is looked up among the validated files, then in a
/// `templates` folder beside the instance's folder), templates, navigation definitions,
/// view-node documents, themes and component libraries. Folders are walked recursively in name
/// order; files below a `data` folder, and JSON found in folders that is no DynamicUI document
/// (recorded API responses), are skipped without a finding.
///
/// Errors: malformed JSON, decoding errors, expressions that do not compile, duplicate ids,
/// `trigger_slot_id` naming no slot, unknown handler keys, malformed endpoints, pagination that
/// makes no sense, navigation to screens that do not exist. Warnings: unknown placeholders,
/// types and presets, icon-only buttons without an accessibility label, pagination without a
/// data endpoint, actions that navigate to unknown screens.
public struct ScreenValidator: Sendable {
    /// The handler keys the app serves; `nil` leaves `handler_key` unchecked.
    public var handlerPatterns: [HandlerKeyPattern]?
    /// Screen keys and node document names that exist besides the validated ones. Navigation
    /// targets are checked when this is set or when at least one screen is validated.
    public var knownScreens: Set<String>?
    /// The largest accepted `page_size`.
    public var maxPageSize: Int
    /// The app's `OPEN_URL` policy: a literal URL it refuses is a warning. The SDK's default
    /// (https to no host) unless the app registers hosts and schemes.
    public var urlPolicy: URLSecurityPolicy = URLSecurityPolicy(hosts: [])
    /// The app's native components: their `control_type`s and node `type`s are known, and
    /// their actions are checked.
    public var nativeComponents: NativeComponentRegistry = .empty
    /// An app version's capability manifest (`--client`): an element it cannot draw is an
    /// error unless it has a `fallback` the app can draw (or `drop`), so a backend change that
    /// would break a shipped app fails in the backend's CI.
    public var clientManifest: ClientCapabilities?

    /// Creates a validator. A handler key is known when it is in `handlerKeys` (a key ending in
    /// `*` is a prefix pattern) or when a pattern of one of `plugins` matches it; with neither,
    /// handler keys are not checked.
    public init(
        handlerKeys: Set<String>? = nil, plugins: [any ScreenHandlerPlugin] = [], knownScreens: Set<String>? = nil,
        maxPageSize: Int = 500
    ) {
        var patterns: [HandlerKeyPattern]? = handlerKeys.map { keys in keys.sorted().map { HandlerKeyPattern($0) } }
        if !plugins.isEmpty { patterns = (patterns ?? []) + Self.patterns(of: plugins) }
        self.handlerPatterns = patterns
        self.knownScreens = knownScreens
        self.maxPageSize = maxPageSize
    }

    /// Declares more of the app's native components from the command line: `video-player` or
    /// `video-player:play,ended` (the type and the actions it fires).
    public mutating func declareNativeComponents(_ specifications: [String]) throws(ComponentRegistrationError) {
        let declared = specifications.map { specification -> any NativeComponent in
            let parts = specification.split(separator: ":", maxSplits: 1)
            let actions = parts.count == 2 ? parts[1].split(separator: ",").map(String.init) : []
            return DeclaredComponent(type: String(parts.first ?? ""), actionNames: actions)
        }
        try register(declared)
    }

    /// Adds `components` to those already known; a type known already is an error.
    mutating func register(_ components: [any NativeComponent]) throws(ComponentRegistrationError) {
        let known = nativeComponents.types.compactMap { nativeComponents.component(for: $0) }
        nativeComponents = try NativeComponentRegistry(known + components)
    }

    /// Lets `OPEN_URL` reach `hosts` (and their subdomains) over https and `schemes`.
    public mutating func allowOpenURL(hosts: [String], schemes: [String] = []) {
        urlPolicy = URLSecurityPolicy(schemes: urlPolicy.schemes.union(schemes), hosts: urlPolicy.hosts.union(hosts))
    }

    /// The screen-handler plugins shipped with the SDK: `AuthPlugin`, `CRUDPlugin` and `NavigationPlugin`.
    public static var shippedPlugins: [any ScreenHandlerPlugin] { [AuthPlugin(), CRUDPlugin(), NavigationPlugin()] }

    /// The native components shipped with the SDK: `MediaPlayerComponent`.
    public static var shippedComponents: [any NativeComponent] { [MediaPlayerComponent()] }

    /// A validator that knows the handler keys of the shipped plugins and the shipped native components.
    public static func shipped(knownScreens: Set<String>? = nil) -> ScreenValidator {
        var validator = ScreenValidator(plugins: shippedPlugins, knownScreens: knownScreens)
        validator.nativeComponents = (try? NativeComponentRegistry(shippedComponents)) ?? .empty
        return validator
    }

    /// The handler-key patterns `plugins` register (read with throwaway in-memory services).
    public static func patterns(of plugins: [any ScreenHandlerPlugin]) -> [HandlerKeyPattern] {
        let services = ActionServices(
            api: nil, tokens: InMemoryTokenStore(), settings: InMemorySettingsStore(), security: URLSecurityPolicy(hosts: []))
        return plugins.flatMap { plugin in plugin.handlers(services: services).map { $0.0 } }
    }

    /// Validates the `.json` files at `paths`; folders are walked recursively in name order.
    public func validate(paths: [URL]) -> ValidationReport {
        var run = ValidationRun(validator: self)
        for url in paths { run.collect(url) }
        run.index()
        return run.report()
    }
}

// MARK: - Documents

/// What a JSON file holds, decided from its top-level members.
private enum DocumentKind: Hashable {
    case screen, instance, template, navigation, node, components, theme, manifest, plugin, other

    /// The schema definition (`$defs` name) documents of this kind follow.
    var schemaDefinition: String? {
        switch self {
        case .screen: "ScreenDefinition"
        case .instance: "ScreenInstance"
        case .template: "ScreenTemplateDocument"
        case .navigation: "NavigationDefinition"
        case .node: "ViewNode"
        case .components: "ComponentLibrary"
        case .theme: "Theme"
        case .manifest: "ClientCapabilities"
        case .plugin, .other: nil
        }
    }

    init(classifying json: JSONValue) {
        guard case .object(let object) = json else {
            self = .other
            return
        }
        func has(_ key: String) -> Bool { object[key] != nil }
        if has("template_id") {
            self = has("screen_key") || has("screen_id") ? .instance : .template
        } else if has("screen_key") || has("screen_id") || (has("template") && has("pattern")) {
            self = .screen
        } else if has("sdk_version") && has("schema_version") {
            // An app version's capability manifest (`sdui capabilities`), not a screen.
            self = .manifest
        } else if has("dynamicui_plugin") {
            // A plugin's manifest (`sdui validate --plugin`), not a screen.
            self = .plugin
        } else if has("bottom_nav") || has("drawer_items") {
            self = .navigation
        } else if has("type") {
            self = .node
        } else if has("components") {
            self = .components
        } else if has("colors") || has("fonts") || has("presets") {
            self = .theme
        } else {
            self = .other
        }
    }
}

/// One JSON file named on the command line or found in a folder.
private struct SourceDocument {
    /// The file as reported.
    let display: String
    /// The file-system path.
    let path: String
    /// Whether the file was named explicitly rather than found by walking a folder.
    let isExplicit: Bool
    /// The parsed JSON, when the file is valid JSON.
    var json: JSONValue?
    /// What the document is.
    var kind: DocumentKind = .other
    /// Why the file could not be read or parsed.
    var failure: String?
    /// The first repeated object key, if any.
    var duplicateKey: JSONReadError?
}

/// Findings of one document, located by JSON path.
private struct FindingSink {
    struct Item: Hashable {
        let severity: ValidationSeverity
        let location: JSONLocation
        let message: String
    }

    var items: [Item] = []

    mutating func error(_ location: JSONLocation, _ message: String) {
        items.append(Item(severity: .error, location: location, message: message))
    }

    mutating func warning(_ location: JSONLocation, _ message: String) {
        items.append(Item(severity: .warning, location: location, message: message))
    }

    mutating func add(_ diagnostic: Diagnostic) {
        let severity: ValidationSeverity = diagnostic.severity == .error ? .error : .warning
        items.append(Item(severity: severity, location: diagnostic.location, message: diagnostic.message))
    }

    mutating func add(_ decodingError: ModelDecodingError) {
        error(decodingError.location, decodingError.message)
    }

    /// Records the id of an element (`kind`: zone, slot, …) at `location`; an id `seen` before is
    /// an error that says where it was first.
    mutating func unique(_ kind: String, _ id: String, at location: JSONLocation, seen: inout [String: JSONLocation]) {
        if let first = seen[id] {
            error(location, "duplicate \(kind) id '\(id)' (first at \(first))")
        } else {
            seen[id] = location
        }
    }

    /// `json` decoded as `Model`, or `nil` with its decoding error added.
    mutating func decoded<Model: JSONModelDecodable>(_ type: Model.Type, _ json: JSONValue) -> Model? {
        do throws(ModelDecodingError) {
            return try Model(json: json)
        } catch {
            add(error)
            return nil
        }
    }

    /// Findings of fitting a document to an older app: an element it cannot draw and that has no
    /// fallback is an error; a fallback the app uses is fine.
    mutating func add(clientFindings events: [RequirementEvent], manifest: ClientCapabilities) {
        for event in events where event.outcome == .dropped && !event.hadFallback {
            error(
                event.location,
                "app \(manifest.sdkVersion) cannot draw this \(event.type): it lacks \(event.missing.joined(separator: ", ")); "
                    + "add a fallback (another element, or \"drop\")")
        }
    }

    mutating func checkEndpoint(_ text: String, at location: JSONLocation) {
        if let problem = endpointProblem(text) { error(location, problem) }
    }
}

/// What the checks of one document know about the others.
private struct CheckContext {
    /// The handler keys served; `nil` leaves them unchecked.
    let handlerPatterns: [HandlerKeyPattern]?
    /// Screen keys that exist; `nil` leaves navigation targets unchecked.
    let screens: Set<String>?
    /// Node document names that exist; `nil` leaves node-dialect navigation unchecked.
    let nodeScreens: Set<String>?
    /// Theme preset names; `nil` when no theme was validated.
    let presets: Set<String>?
    /// Component names and their parameters; `nil` when no library was validated.
    let components: [String: Set<String>]?
    /// The largest accepted `page_size`.
    let maxPageSize: Int
    /// The app's `OPEN_URL` policy.
    let urlPolicy: URLSecurityPolicy
    /// The app's native components.
    let nativeComponents: NativeComponentRegistry
    /// An older app's capabilities to check against, if any.
    let clientManifest: ClientCapabilities?
}

// MARK: - The run

/// One `validate(paths:)` call: collects the files, indexes what documents refer to, then
/// checks each document.
private struct ValidationRun {
    let validator: ScreenValidator
    var documents: [SourceDocument] = []
    var pathFindings: [ValidationFinding] = []
    var skipped: [String] = []
    var screenKeyOwners: [String: Int] = [:]
    var templateIndex: [String: Int] = [:]
    var nodeNames: Set<String> = []
    var presets: Set<String>?
    var components: [String: Set<String>]?
    var folderTemplates: [String: [String: JSONValue]] = [:]

    init(validator: ScreenValidator) { self.validator = validator }

    // MARK: Collecting

    mutating func collect(_ url: URL) {
        let path = url.path
        var display = url.relativePath.isEmpty ? path : url.relativePath
        while display.count > 1, display.hasSuffix("/") { display.removeLast() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            pathFindings.append(ValidationFinding(.error, file: display, path: "$", "no such file or folder"))
            return
        }
        if isDirectory.boolValue {
            walk(folder: path, display: display, inData: url.lastPathComponent == "data")
        } else {
            documents.append(Self.load(path: path, display: display, isExplicit: true))
        }
    }

    private mutating func walk(folder: String, display: String, inData: Bool) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            pathFindings.append(ValidationFinding(.error, file: display, path: "$", "cannot read the folder: \(error)"))
            return
        }
        for name in names {
            let childPath = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let childDisplay = display.hasSuffix("/") ? display + name : display + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: childPath, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                walk(folder: childPath, display: childDisplay, inData: inData || name == "data")
            } else if name.lowercased().hasSuffix(".json") {
                if inData {
                    skipped.append(childDisplay)
                } else {
                    documents.append(Self.load(path: childPath, display: childDisplay, isExplicit: false))
                }
            }
        }
    }

    private static func load(path: String, display: String, isExplicit: Bool) -> SourceDocument {
        var document = SourceDocument(display: display, path: path, isExplicit: isExplicit)
        guard let data = FileManager.default.contents(atPath: path) else {
            document.failure = "cannot read the file"
            return document
        }
        do throws(JSONReadError) {
            let json = try JSONReader().read(data)
            document.json = json
            document.kind = DocumentKind(classifying: json)
        } catch {
            document.failure = "malformed JSON: \(error)"
            return document
        }
        do throws(JSONReadError) {
            _ = try JSONReader(rejectDuplicateKeys: true).read(data)
        } catch {
            if error.code == .duplicateKey { document.duplicateKey = error }
        }
        return document
    }

    // MARK: Indexing

    mutating func index() {
        for (position, document) in documents.enumerated() {
            guard document.failure == nil, let json = document.json else { continue }
            switch document.kind {
            case .screen, .instance:
                if let key = json["screen_key"]?.stringValue, screenKeyOwners[key] == nil { screenKeyOwners[key] = position }
            case .template:
                if let id = json["template_id"]?.stringValue, templateIndex[id] == nil { templateIndex[id] = position }
            case .node:
                nodeNames.insert(URL(fileURLWithPath: document.path).deletingPathExtension().lastPathComponent)
            case .theme:
                presets = (presets ?? []).union(json["presets"]?.objectValue?.keys ?? [])
            case .components:
                var library = components ?? [:]
                for (name, definition) in json["components"]?.objectValue ?? JSONObject() {
                    library[name] = Set(definition["parameters"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                }
                components = library
            case .navigation, .manifest, .plugin, .other:
                break
            }
        }
    }

    private func checkContext() -> CheckContext {
        let known = validator.knownScreens
        let screens: Set<String>? =
            known != nil || !screenKeyOwners.isEmpty ? Set(screenKeyOwners.keys).union(known ?? []) : nil
        let nodeScreens: Set<String>? = known != nil || !nodeNames.isEmpty ? nodeNames.union(known ?? []) : nil
        return CheckContext(
            handlerPatterns: validator.handlerPatterns, screens: screens, nodeScreens: nodeScreens, presets: presets,
            components: components, maxPageSize: validator.maxPageSize, urlPolicy: validator.urlPolicy,
            nativeComponents: validator.nativeComponents, clientManifest: validator.clientManifest)
    }

    // MARK: Checking

    mutating func report() -> ValidationReport {
        let context = checkContext()
        // Templates first: instances drop the findings their template already reports.
        var templateResults: [Int: [FindingSink.Item]] = [:]
        for (position, document) in documents.enumerated() where document.kind == .template && document.failure == nil {
            guard let json = document.json else { continue }
            var sink = FindingSink()
            Self.checkTemplateDocument(json, context: context, into: &sink)
            templateResults[position] = sink.items
        }
        var findings = pathFindings
        var skipped = self.skipped
        var checked = 0
        for position in documents.indices {
            let document = documents[position]
            if let failure = document.failure {
                checked += 1
                findings.append(ValidationFinding(.error, file: document.display, path: "$", failure))
                continue
            }
            guard let json = document.json else { continue }
            if document.kind == .other {
                if document.isExplicit {
                    checked += 1
                    findings.append(
                        ValidationFinding(
                            .warning, file: document.display, path: "$",
                            "not a DynamicUI document: expected a screen, a screen instance, a template, a navigation "
                                + "definition, a view node, a theme, a component library or a manifest"))
                } else {
                    skipped.append(document.display)
                }
                continue
            }
            checked += 1
            var sink = FindingSink()
            if let duplicate = document.duplicateKey {
                sink.warning(
                    .root, "duplicate key at line \(duplicate.line), column \(duplicate.column); the last value is used")
            }
            if document.kind != .navigation, document.kind != .theme {
                NumberChecks.check(json, at: .root, into: &sink)
            }
            switch document.kind {
            case .template:
                sink.items += templateResults[position] ?? []
            case .screen:
                checkScreenKey(json, position: position, into: &sink)
                Self.checkScreenDocument(json, context: context, into: &sink)
            case .instance:
                checkScreenKey(json, position: position, into: &sink)
                checkInstance(json, position: position, context: context, templateResults: templateResults, into: &sink)
            case .navigation:
                Self.checkNavigationDocument(json, context: context, into: &sink)
            case .node:
                guard let node = sink.decoded(ViewNode.self, json) else { break }
                var checks = NodeChecks(context: context)
                checks.checkDocument(node)
                sink.items += checks.sink.items
            case .components:
                guard let library = sink.decoded(ComponentLibrary.self, json) else { break }
                var checks = NodeChecks(context: context)
                checks.checkLibrary(library)
                sink.items += checks.sink.items
            case .theme:
                Self.checkThemeDocument(json, into: &sink)
            case .manifest:
                _ = sink.decoded(ClientCapabilities.self, json)
            case .plugin:
                do throws(PluginManifestError) {
                    _ = try PluginManifest(json: json)
                } catch {
                    sink.error(error.location, error.message)
                }
            case .other:
                break
            }
            SchemaChecks.check(json, kind: document.kind, into: &sink)
            findings += sink.items.map { item in
                ValidationFinding(item.severity, file: document.display, path: item.location.description, item.message)
            }
        }
        return ValidationReport(findings: findings, filesChecked: checked, skippedFiles: skipped)
    }

    /// A screen key defined by an earlier file too.
    private func checkScreenKey(_ json: JSONValue, position: Int, into sink: inout FindingSink) {
        guard let key = json["screen_key"]?.stringValue, let owner = screenKeyOwners[key], owner != position else { return }
        sink.error("screen_key", "screen key '\(key)' is also used by \(documents[owner].display)")
    }

    private static func checkScreenDocument(_ json: JSONValue, context: CheckContext, into sink: inout FindingSink) {
        guard let screen = sink.decoded(ScreenDefinition.self, json) else { return }
        var checks = ScreenChecks(context: context)
        checks.check(screen, isScreen: true)
        sink.items += checks.sink.items
    }

    /// A template alone: its body is checked as the template of a screen without instance fields.
    private static func checkTemplateDocument(_ json: JSONValue, context: CheckContext, into sink: inout FindingSink) {
        // An empty or missing template_id is the schema's finding.
        guard let templateId = json["template_id"]?.stringValue, !templateId.isEmpty else { return }
        do throws(ModelDecodingError) {
            guard let patternJSON = json["pattern"], !patternJSON.isNull else {
                throw ModelDecodingError(.missingField, at: "pattern", "required field 'pattern' is missing")
            }
            let pattern = try ScreenPattern(json: patternJSON, at: "pattern")
            guard let body = json["template"], !body.isNull else {
                throw ModelDecodingError(.missingField, at: "template", "required field 'template' is missing")
            }
            let template = try ScreenTemplate(json: body, at: "template")
            let screen = ScreenDefinition(
                screenId: templateId, screenKey: templateId, screenName: templateId, pattern: pattern, version: 0,
                template: template, updatedAt: "")
            var checks = ScreenChecks(context: context)
            checks.check(screen, isScreen: false)
            sink.items += checks.sink.items
        } catch {
            sink.add(error)
        }
    }

    /// A screen instance: composed with its template, checked as a screen, with findings inside
    /// `zone_overrides` located there and findings the template reports itself left out.
    private mutating func checkInstance(
        _ json: JSONValue, position: Int, context: CheckContext, templateResults: [Int: [FindingSink.Item]],
        into sink: inout FindingSink
    ) {
        guard let templateId = json["template_id"]?.stringValue, !templateId.isEmpty else { return }
        guard let found = findTemplate(templateId, near: documents[position]) else {
            sink.error(
                "template_id",
                "no template '\(templateId)' among the validated files or in a 'templates' folder next to this one")
            return
        }
        let composed: JSONValue
        do throws(ModelDecodingError) {
            composed = try ScreenComposer.compose(template: found.json, instance: json)
        } catch {
            sink.add(error)
            return
        }
        var composedSink = FindingSink()
        Self.checkScreenDocument(composed, context: context, into: &composedSink)
        let templateOwn = Set(found.position.flatMap { templateResults[$0] } ?? [])
        let overrides = json["zone_overrides"]?.objectValue
        for item in composedSink.items {
            let (location, fromTemplate) = Self.instanceLocation(item.location, composed: composed, overrides: overrides)
            if fromTemplate {
                if templateOwn.contains(item) { continue }
                sink.items.append(
                    FindingSink.Item(
                        severity: item.severity, location: location, message: item.message + " (in template '\(templateId)')"))
            } else {
                sink.items.append(FindingSink.Item(severity: item.severity, location: location, message: item.message))
            }
        }
    }

    /// Where a location of the composed screen is in the instance file: inside `zone_overrides`
    /// when an override supplied that member of the zone; otherwise unchanged, and marked as
    /// coming from the template when it lies in `template` or `pattern`.
    private static func instanceLocation(
        _ location: JSONLocation, composed: JSONValue, overrides: JSONObject?
    ) -> (JSONLocation, fromTemplate: Bool) {
        let components = location.components
        guard let first = components.first, first == .key("template") || first == .key("pattern") else {
            return (location, false)
        }
        guard let overrides, components.count >= 4, components[1] == .key("zones"), case .index(let top) = components[2]
        else { return (location, true) }
        var zone = composed["template"]?["zones"]?[top]
        var position = 3
        while let current = zone, let zoneId = current["id"]?.stringValue, position < components.count,
            case .key(let member) = components[position]
        {
            if let fields = overrides[zoneId]?.objectValue, fields[member] != nil {
                var mapped: [JSONLocation.Component] = [.key("zone_overrides"), .key(zoneId)]
                mapped.append(contentsOf: components[position...])
                return (JSONLocation(components: mapped), false)
            }
            guard member == "zones", position + 1 < components.count, case .index(let nested) = components[position + 1]
            else { break }
            zone = current["zones"]?[nested]
            position += 2
        }
        return (location, true)
    }

    /// The template `id`: a validated template document, else one in a `templates` folder next
    /// to the instance's folder (or inside it), else one beside the instance.
    private mutating func findTemplate(_ id: String, near document: SourceDocument) -> (json: JSONValue, position: Int?)? {
        if let position = templateIndex[id], let json = documents[position].json { return (json, position) }
        let folder = URL(fileURLWithPath: document.path).deletingLastPathComponent()
        let candidates = [
            folder.deletingLastPathComponent().appendingPathComponent("templates"), folder.appendingPathComponent("templates"),
            folder,
        ]
        for candidate in candidates {
            if let json = templates(in: candidate.path)[id] { return (json, nil) }
        }
        return nil
    }

    /// The template documents of `folder` by `template_id`, read once.
    private mutating func templates(in folder: String) -> [String: JSONValue] {
        if let cached = folderTemplates[folder] { return cached }
        var found: [String: JSONValue] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.lowercased().hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name),
                let json = try? JSONReader().read(data), DocumentKind(classifying: json) == .template,
                let templateId = json["template_id"]?.stringValue, found[templateId] == nil
            else { continue }
            found[templateId] = json
        }
        folderTemplates[folder] = found
        return found
    }

    private static func checkNavigationDocument(_ json: JSONValue, context: CheckContext, into sink: inout FindingSink) {
        guard let navigation = sink.decoded(NavigationDefinition.self, json) else { return }
        if navigation.bottomNav.count > 5 {
            sink.warning("bottom_nav", "bottom_nav has \(navigation.bottomNav.count) items; a tab bar shows at most five")
        }
        var tabKeys: [String: JSONLocation] = [:]
        checkNavItems(navigation.bottomNav, at: "bottom_nav", keys: &tabKeys, context: context, into: &sink)
        var drawerKeys: [String: JSONLocation] = [:]
        checkNavItems(navigation.drawerItems ?? [], at: "drawer_items", keys: &drawerKeys, context: context, into: &sink)
    }

    private static func checkNavItems(
        _ items: [NavItem], at base: JSONLocation, keys: inout [String: JSONLocation], context: CheckContext,
        into sink: inout FindingSink
    ) {
        for (index, item) in items.enumerated() {
            let location = base.appending(index: index)
            let keyLocation = location.appending(key: "key")
            if let first = keys[item.key] {
                sink.error(keyLocation, "duplicate navigation key '\(item.key)' (first at \(first))")
            } else {
                keys[item.key] = keyLocation
            }
            let screenLocation = location.appending(key: "screen_key")
            if !isBlank(item.screenKey), let screens = context.screens, !screens.contains(item.screenKey) {
                sink.error(screenLocation, "navigates to unknown screen '\(item.screenKey)'")
            }
            if let children = item.children {
                checkNavItems(children, at: location.appending(key: "children"), keys: &keys, context: context, into: &sink)
            }
        }
    }

    private static func checkThemeDocument(_ json: JSONValue, into sink: inout FindingSink) {
        guard let theme = sink.decoded(Theme.self, json) else { return }
        // Colors that are not #RRGGBB[AA] and font sizes that are not positive: the schema's findings.
        for name in theme.darkColors.keys.sorted() where theme.colors[name] == nil {
            let location = JSONLocation(components: [.key("dark_colors"), .key(name)])
            sink.warning(location, "dark color '\(name)' has no light value in colors")
        }
        for name in theme.presets.keys.sorted() {
            guard let style = theme.presets[name] else { continue }
            let location = JSONLocation(components: [.key("presets"), .key(name)])
            for (member, color) in [("foregroundColor", style.foregroundColor), ("backgroundColor", style.backgroundColor)] {
                if let color, !isHexColor(color), theme.colors[color] == nil {
                    sink.warning(location.appending(key: member), "unknown color '\(color)'; not a theme color or #RRGGBB[AA]")
                }
            }
            if let font = style.font, theme.fonts[font] == nil {
                sink.warning(location.appending(key: "font"), "unknown font '\(font)'; not a font of the theme")
            }
        }
    }
}

// MARK: - Screen dialect

/// The checks of one screen (or of a template alone), beyond decoding.
private struct ScreenChecks {
    let context: CheckContext
    var sink = FindingSink()
    private var zoneIds: [String: JSONLocation] = [:]
    private var slotIds: [String: JSONLocation] = [:]
    /// The slots of the screen drawn by a native component, by slot id.
    private var componentSlots: [String: any NativeComponent] = [:]

    init(context: CheckContext) { self.context = context }

    /// Checks `screen`; `isScreen` is `false` for a template alone, which has no actions,
    /// endpoint or handler.
    mutating func check(_ screen: ScreenDefinition, isScreen: Bool) {
        compile(screen)
        if case .unknown(let raw) = screen.pattern {
            sink.warning("pattern", "unknown pattern '\(raw)'; this SDK draws the screen as a fallback")
        }
        checkZones(screen.template.zones, at: JSONLocation(components: [.key("template"), .key("zones")]))
        checkPlatformOverrides(screen.template.platformOverrides ?? [:])
        if let manifest = context.clientManifest {
            let resolver = RequirementResolver(capabilities: manifest)
            let missing = resolver.missing(for: screen)
            if isScreen, !missing.isEmpty {
                sink.error(
                    "requires",
                    "app \(manifest.sdkVersion) cannot draw this screen: it lacks \(missing.joined(separator: ", "))")
            }
            sink.add(clientFindings: resolver.resolve(screen).1, manifest: manifest)
            if isScreen {
                for (index, action) in screen.actions.enumerated() where !manifest.has("action:\(action.type.rawValue)") {
                    let location = JSONLocation(components: [.key("actions"), .index(index), .key("type")])
                    let message = "app \(manifest.sdkVersion) does not know action type '\(action.type.rawValue)'"
                    if action.trigger == .screen {
                        // Only the screen's triggers and timers run it, and that app has neither.
                        sink.warning(location, message + "; only triggers and timers run this action, so it never runs there")
                    } else {
                        sink.error(location, message)
                    }
                }
            }
        }
        guard isScreen else { return }
        checkActions(screen)
        checkVariables(screen)
        checkSections(
            screen.template.zones, at: JSONLocation(components: [.key("template"), .key("zones")]),
            actionIds: Set(screen.actions.map(\.id)))
        if let key = screen.handlerKey, let patterns = context.handlerPatterns, !patterns.contains(where: { $0.matches(key) }) {
            sink.error("handler_key", "no screen-handler plugin serves handler key '\(key)'")
        }
        if let endpoint = screen.dataEndpoint { sink.checkEndpoint(endpoint, at: "data_endpoint") }
        checkDataConfig(screen)
    }

    private mutating func compile(_ screen: ScreenDefinition) {
        do throws(CompilationError) {
            let compiled = try ScreenCompiler().compile(screen)
            for diagnostic in compiled.warnings { sink.add(diagnostic) }
        } catch {
            for diagnostic in error.diagnostics { sink.add(diagnostic) }
        }
    }

    private mutating func checkZones(_ zones: [Zone], at base: JSONLocation) {
        for (index, zone) in zones.enumerated() {
            let location = base.appending(index: index)
            sink.unique("zone", zone.id, at: location.appending(key: "id"), seen: &zoneIds)
            if case .unknown(let raw) = zone.type {
                sink.warning(location.appending(key: "type"), "unknown zone type '\(raw)'; this SDK draws it as a fallback")
            }
            if case .unknown(let raw)? = zone.distribution {
                sink.warning(location.appending(key: "distribution"), "unknown distribution '\(raw)'")
            }
            for (slotIndex, slot) in (zone.slots ?? []).enumerated() {
                checkSlot(slot, at: location.appending(key: "slots").appending(index: slotIndex))
            }
            for (slotIndex, slot) in (zone.itemLayout?.slots ?? []).enumerated() {
                checkSlot(slot, at: location.appending(key: "item_layout").appending(key: "slots").appending(index: slotIndex))
            }
            if let nested = zone.zones { checkZones(nested, at: location.appending(key: "zones")) }
        }
    }

    private mutating func checkSlot(_ slot: Slot, at location: JSONLocation) {
        sink.unique("slot", slot.id, at: location.appending(key: "id"), seen: &slotIds)
        if case .unknown(let raw) = slot.controlType, !context.nativeComponents.contains(raw) {
            sink.warning(
                location.appending(key: "control_type"),
                "unknown control type '\(raw)'; this SDK draws it as a fallback "
                    + "(a plugin's component: declare it with --plugin MANIFEST or --native-component \(raw))")
        }
        if case .unknown(let raw) = slot.controlType, let component = context.nativeComponents.component(for: raw) {
            componentSlots[slot.id] = component
            for (key, message) in DeclaredComponent.undeclaredProps(of: component, among: (slot.props ?? [:]).keys) {
                sink.warning(location.appending(key: "props").appending(key: key), message)
            }
        } else if slot.props != nil {
            sink.warning(location.appending(key: "props"), "props reach only a native component; '\(slot.id)' is not one")
        }
        let hasText = !isBlank(slot.label) || slot.value != nil || slot.field != nil || slot.bind != nil
        if slot.controlType.isButton, !hasText, isBlank(slot.accessibilityLabel) {
            if isBlank(slot.icon) {
                sink.warning(location, "button '\(slot.id)' has neither a label nor an accessibility_label")
            } else {
                sink.warning(location, "icon-only button '\(slot.id)' has no accessibility_label; VoiceOver cannot name it")
            }
        }
    }

    private mutating func checkPlatformOverrides(_ overrides: [String: PlatformOverride]) {
        let platforms = RenderPlatform.allCases.map(\.rawValue)
        for platform in overrides.keys.sorted() {
            guard let override = overrides[platform] else { continue }
            let location = JSONLocation(components: [.key("template"), .key("platform_overrides"), .key(platform)])
            if !platforms.contains(platform) {
                sink.warning(location, "unknown platform '\(platform)'; expected \(platforms.joined(separator: ", "))")
            }
            if case .unknown(let raw)? = override.distribution {
                sink.warning(location.appending(key: "distribution"), "unknown distribution '\(raw)'")
            }
            let zones = override.zones ?? [:]
            for zoneId in zones.keys.sorted() {
                let zoneLocation = location.appending(key: "zones").appending(key: zoneId)
                if zoneIds[zoneId] == nil { sink.error(zoneLocation, "no zone with id '\(zoneId)' to override") }
                if case .unknown(let raw)? = zones[zoneId]?.distribution {
                    sink.warning(zoneLocation.appending(key: "distribution"), "unknown distribution '\(raw)'")
                }
            }
        }
    }

    private mutating func checkActions(_ screen: ScreenDefinition) {
        var actionIds: [String: JSONLocation] = [:]
        for (index, action) in screen.actions.enumerated() {
            let location = JSONLocation(components: [.key("actions"), .index(index)])
            sink.unique("action", action.id, at: location.appending(key: "id"), seen: &actionIds)
            if case .unknown(let raw) = action.trigger {
                sink.warning(location.appending(key: "trigger"), "unknown trigger '\(raw)'; nothing fires this action")
            }
            if let slotId = action.triggerSlotId, slotIds[slotId] == nil {
                sink.error(location.appending(key: "trigger_slot_id"), "no slot with id '\(slotId)' in the screen")
            }
            // A component's slot fires the action under its `event` (`tap` without one): an event
            // the component does not fire never runs it.
            if let slotId = action.triggerSlotId, let component = componentSlots[slotId] {
                let event = action.event ?? "tap"
                if !component.actionNames.isEmpty, !component.actionNames.contains(event) {
                    sink.warning(
                        location.appending(key: action.event == nil ? "trigger_slot_id" : "event"),
                        "\(component.type) fires \(component.actionNames.joined(separator: ", ")), not '\(event)', "
                            + "so this action never runs (name the component's event with \"event\")")
                }
            } else if action.event != nil {
                sink.warning(
                    location.appending(key: "event"), "an event names what a native component's slot fires; this action has none")
            }
            let config = JSONObject((action.config ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            checkAction(type: action.type, config: config, at: location, hasHandler: screen.handlerKey != nil)
            if action.permission == nil, Self.changesThroughAdminAPI(config) {
                sink.warning(
                    location,
                    "this action changes data through the admin API but names no permission; every role is offered it "
                        + "(add \"permission\", e.g. \"users.delete\")")
            }
        }
    }

    /// Variables (unique names, known types, first values of their type), `SET_VARIABLE`
    /// (a declared variable, a literal value of its type, an increment only for numbers) and
    /// triggers (declared variables, existing actions, conditions that compile), and the
    /// trigger cycles visible statically: a trigger on a variable whose actions set it again.
    private mutating func checkVariables(_ screen: ScreenDefinition) {
        let types = sink.checkDeclarations(screen.variables ?? [])
        checkVariableInputs(screen.template.zones, at: JSONLocation(components: [.key("template"), .key("zones")]), types: types)
        // What each action sets, for the cycle check.
        var sets: [String: String] = [:]
        for (index, action) in screen.actions.enumerated() where action.type == .setVariable {
            let location = JSONLocation(components: [.key("actions"), .index(index), .key("config")])
            let config = action.config ?? [:]
            guard let name = config["name"]?.stringValue, !name.isEmpty else {
                sink.error(location.appending(key: "name"), "SET_VARIABLE needs config.name")
                continue
            }
            guard let type = types[name] else {
                sink.error(location.appending(key: "name"), "the screen declares no variable '\(name)'")
                continue
            }
            sets[action.id] = name
            if let increment = config["increment"] {
                if type != .integer && type != .number {
                    sink.error(
                        location.appending(key: "increment"), "'\(name)' is \(type.rawValue): only numbers take an increment")
                } else if case .number = increment {
                } else {
                    sink.error(location.appending(key: "increment"), "increment must be a number, found \(increment.kindName)")
                }
            } else if let value = config["value"] {
                // A value with placeholders is known only when the action runs.
                if value.stringValue?.contains("{") != true {
                    do throws(VariableError) {
                        _ = try type.checked(value, name: name, at: location.appending(key: "value"))
                    } catch {
                        sink.error(error.location, error.message)
                    }
                }
            } else {
                sink.error(location, "SET_VARIABLE needs config.value or config.increment")
            }
        }
        let actionIds = Set(screen.actions.map(\.id))
        let watching = sink.checkTriggers(screen.triggers ?? [], types: types, actions: actionIds) { "no action with id '\($0)'" }
        checkTimers(screen, types: types, actionIds: actionIds)
        // A variable's triggers set variables whose triggers set … the first again.
        var next: [String: Set<String>] = [:]
        for watch in watching {
            for id in watch.actions { if let set = sets[id] { next[watch.variable, default: []].insert(set) } }
        }
        for watch in watching {
            var seen: Set<String> = []
            var frontier = watch.actions.compactMap { sets[$0] }
            while let variable = frontier.popLast() {
                guard !seen.contains(variable) else { continue }
                seen.insert(variable)
                frontier += next[variable] ?? []
            }
            if seen.contains(watch.variable) {
                sink.warning(
                    watch.location,
                    "a cycle: this trigger sets '\(watch.variable)' again (directly or through other triggers); "
                        + "the cascade stops at depth \(VariableTrigger.maxCascadeDepth) with an error")
            }
        }
    }

    /// Inputs bound to a variable (`variable`): a declared variable, an input control, a type
    /// the input can enter.
    private mutating func checkVariableInputs(_ zones: [Zone], at base: JSONLocation, types: [String: VariableType]) {
        for (index, zone) in zones.enumerated() {
            let location = base.appending(index: index)
            for (position, slot) in (zone.slots ?? []).enumerated() {
                guard let name = slot.variable else { continue }
                let at = location.appending(key: "slots").appending(index: position).appending(key: "variable")
                guard let type = types[name] else {
                    sink.error(at, "the screen declares no variable '\(name)'")
                    continue
                }
                if !slot.controlType.isInput {
                    sink.warning(at, "a \(slot.controlType.rawValue) is not an input; only inputs edit a variable")
                } else if (slot.controlType == .switch || slot.controlType == .checkbox) && type != .boolean {
                    sink.error(at, "a \(slot.controlType.rawValue) enters a boolean; '\(name)' is \(type.rawValue)")
                } else if type == .array || type == .object {
                    sink.warning(at, "'\(name)' is \(type.rawValue): the input must hold JSON")
                }
            }
            checkVariableInputs(zone.zones ?? [], at: location.appending(key: "zones"), types: types)
        }
    }

    /// The endpoints of deferred sections, the zones' transitions and the visibility actions
    /// of zones and slots, at any depth.
    private mutating func checkSections(_ zones: [Zone], at base: JSONLocation, actionIds: Set<String>) {
        for (index, zone) in zones.enumerated() {
            let location = base.appending(index: index)
            if let endpoint = zone.dataEndpoint { sink.checkEndpoint(endpoint, at: location.appending(key: "data_endpoint")) }
            if let transition = zone.transition { sink.checkTransition(transition, at: location.appending(key: "transition")) }
            sink.checkVisibility(
                zone.visibilityActions, zone.disappearActions, at: location, actionIds: actionIds)
            let slots = [("slots", zone.slots ?? []), ("item_layout", zone.itemLayout?.slots ?? [])]
            for (key, list) in slots {
                let slotsAt = key == "slots" ? location.appending(key: key) : location.appending(key: key).appending(key: "slots")
                for (position, slot) in list.enumerated() {
                    if let transition = slot.transition {
                        sink.checkTransition(transition, at: slotsAt.appending(index: position).appending(key: "transition"))
                    }
                    sink.checkVisibility(
                        slot.visibilityActions, slot.disappearActions, at: slotsAt.appending(index: position),
                        actionIds: actionIds)
                }
            }
            checkSections(zone.zones ?? [], at: location.appending(key: "zones"), actionIds: actionIds)
        }
    }

    /// Timers (unique ids, integer variables, existing actions, numbers the app will clamp)
    /// and `TIMER` actions (an existing timer, a known command).
    private mutating func checkTimers(_ screen: ScreenDefinition, types: [String: VariableType], actionIds: Set<String>) {
        var ids: [String: JSONLocation] = [:]
        for (index, timer) in (screen.timers ?? []).enumerated() {
            let location = JSONLocation(components: [.key("timers"), .index(index)])
            sink.unique("timer", timer.id, at: location.appending(key: "id"), seen: &ids)
            for (key, name) in [("value_variable", timer.valueVariable), ("remaining_variable", timer.remainingVariable)] {
                guard let name else { continue }
                if types[name] == nil {
                    sink.error(location.appending(key: key), "the screen declares no variable '\(name)'")
                } else if types[name] != .integer {
                    sink.error(location.appending(key: key), "'\(name)' must be an integer variable (milliseconds)")
                }
            }
            if timer.remainingVariable != nil, timer.duration == nil {
                sink.warning(location.appending(key: "remaining_variable"), "a timer without a duration has no remaining time")
            }
            if let tick = timer.tickInterval, tick < TimerDefinition.minimumTick {
                sink.warning(
                    location.appending(key: "tick_interval"),
                    "ticks under \(TimerDefinition.minimumTick) ms are raised to \(TimerDefinition.minimumTick) ms")
            }
            if let duration = timer.duration, duration < 0 || duration > TimerDefinition.maximumDuration {
                sink.warning(
                    location.appending(key: "duration"),
                    "the duration is clamped to 0…\(TimerDefinition.maximumDuration) ms")
            }
            for (key, list) in [("tick_actions", timer.tickActions), ("end_actions", timer.endActions)] {
                for (position, id) in (list ?? []).enumerated() where !actionIds.contains(id) {
                    sink.error(location.appending(key: key).appending(index: position), "no action with id '\(id)'")
                }
            }
        }
        for (index, action) in screen.actions.enumerated() where action.type == .timer {
            let location = JSONLocation(components: [.key("actions"), .index(index), .key("config")])
            let config = action.config ?? [:]
            if let id = config["id"]?.stringValue {
                if ids[id] == nil { sink.error(location.appending(key: "id"), "the screen declares no timer '\(id)'") }
            } else {
                sink.error(location.appending(key: "id"), "TIMER needs config.id")
            }
            if case .unknown(let raw) = TimerCommand(rawValue: config["command"]?.stringValue ?? "") {
                sink.error(
                    location.appending(key: "command"), "unknown command '\(raw)' (start, stop, pause, resume or reset)")
            }
        }
    }

    /// Whether an action's config (or the action a `CONFIRM` guards) sends a change to an
    /// `admin:` endpoint.
    private static func changesThroughAdminAPI(_ config: JSONObject) -> Bool {
        let endpoint = config["endpoint"]?.stringValue ?? ""
        let method = (config["method"]?.stringValue ?? "GET").uppercased()
        if endpoint.hasPrefix("admin:"), method != "GET" { return true }
        guard let nested = config["action"]?["config"]?.objectValue else { return false }
        return changesThroughAdminAPI(nested)
    }

    /// The config of an action (or of an action nested in `on_success` or a `CONFIRM`).
    private mutating func checkAction(type: ActionType, config: JSONObject, at location: JSONLocation, hasHandler: Bool) {
        let configLocation = location.appending(key: "config")
        switch type {
        case .unknown(let raw):
            let message = "unknown action type '\(raw)'; it does nothing unless a screen handler serves it"
            sink.warning(location.appending(key: "type"), message)
        case .navigate:
            checkNavigate(config, at: configLocation)
        case .apiCall, .submitForm:
            if config["endpoint"] == nil, !hasHandler { sink.error(configLocation, "\(type.rawValue) needs config.endpoint") }
            checkMethod(config["method"], at: configLocation.appending(key: "method"))
        case .applyPatch:
            if config["endpoint"] == nil { sink.error(configLocation, "APPLY_PATCH needs config.endpoint") }
            if let target = config["target"], target.stringValue != "screen", target.stringValue != "data" {
                let message = "target is \"screen\" (the default) or \"data\", found \(target)"
                sink.error(configLocation.appending(key: "target"), message)
            }
        case .openURL:
            let url = config["url"]?.stringValue ?? ""
            if url.isEmpty {
                sink.error(configLocation.appending(key: "url"), "OPEN_URL needs config.url")
            } else if let refusal = urlRefusal(url, policy: context.urlPolicy) {
                sink.warning(configLocation.appending(key: "url"), refusal)
            }
        case .confirm:
            if let guarded = config["action"] {
                checkNestedAction(guarded, at: configLocation.appending(key: "action"), hasHandler: hasHandler)
            }
        default:
            break
        }
        if let endpoint = config["endpoint"] {
            let endpointLocation = configLocation.appending(key: "endpoint")
            if let text = endpoint.stringValue {
                sink.checkEndpoint(text, at: endpointLocation)
            } else {
                sink.error(endpointLocation, "endpoint must be a string")
            }
        }
        if let next = config["on_success"] {
            checkNestedAction(next, at: configLocation.appending(key: "on_success"), hasHandler: hasHandler)
        }
    }

    private mutating func checkNestedAction(_ json: JSONValue, at location: JSONLocation, hasHandler: Bool) {
        guard case .object(let object) = json, let raw = object["type"]?.stringValue else {
            sink.error(location, "expected an action object with a string 'type'")
            return
        }
        if let config = object["config"], !config.isNull, config.objectValue == nil {
            sink.error(location.appending(key: "config"), "expected an object, found \(config.kindName)")
        }
        checkAction(
            type: ActionType(parsing: raw), config: object["config"]?.objectValue ?? JSONObject(), at: location,
            hasHandler: hasHandler)
    }

    private mutating func checkNavigate(_ config: JSONObject, at location: JSONLocation) {
        guard let value = config["screen_key"] else {
            sink.error(location, "NAVIGATE needs config.screen_key")
            return
        }
        let keyLocation = location.appending(key: "screen_key")
        guard let key = value.stringValue, !key.isEmpty else {
            sink.error(keyLocation, "screen_key must be a non-empty string")
            return
        }
        if let screens = context.screens, !key.contains("{"), !screens.contains(key) {
            sink.warning(keyLocation, "navigates to unknown screen '\(key)'")
        }
        if let presentation = config["presentation"], presentation.stringValue.flatMap(Presentation.init(rawValue:)) == nil {
            sink.warning(location.appending(key: "presentation"), "unknown presentation \(presentation); expected push or sheet")
        }
    }

    private mutating func checkMethod(_ value: JSONValue?, at location: JSONLocation) {
        guard let value else { return }
        guard let method = value.stringValue else {
            sink.error(location, "method must be a string")
            return
        }
        let known = [RequestMethod.get, .post, .put, .patch, .delete].map(\.rawValue)
        if !known.contains(RequestMethod(rawValue: method).rawValue) {
            sink.warning(location, "unusual HTTP method '\(method)'; expected \(known.joined(separator: ", "))")
        }
    }

    private mutating func checkDataConfig(_ screen: ScreenDefinition) {
        guard let config = screen.dataConfig else { return }
        let location: JSONLocation = "data_config"
        if let pagination = config.pagination {
            let paginationLocation = location.appending(key: "pagination")
            if pagination.pageSize > context.maxPageSize {
                sink.error(
                    paginationLocation.appending(key: "page_size"),
                    "page_size \(pagination.pageSize) is larger than the maximum of \(context.maxPageSize)")
            }
            // Blank parameter names are the schema's finding.
            if !isBlank(pagination.limitParam), pagination.limitParam == pagination.offsetParam {
                sink.error(
                    paginationLocation.appending(key: "offset_param"),
                    "limit_param and offset_param are both '\(pagination.limitParam)'")
            }
            if screen.dataEndpoint == nil {
                sink.warning(paginationLocation, "pagination is set but the screen has no data_endpoint, so it has no effect")
            }
        }
        if let interval = config.refreshInterval, interval < 0 {
            sink.error(location.appending(key: "refresh_interval"), "refresh_interval must not be negative")
        }
        if let endpoint = config.refreshPatchEndpoint {
            let at = location.appending(key: "refresh_patch_endpoint")
            sink.checkEndpoint(endpoint, at: at)
            if (config.refreshInterval ?? 0) <= 0 {
                sink.warning(at, "without a refresh_interval the screen never asks it")
            } else if screen.dataEndpoint == nil {
                sink.warning(at, "the screen has no data_endpoint, so it has no records to patch")
            }
        }
    }
}

// MARK: - Node dialect

/// The checks of node-dialect documents and component libraries, beyond decoding.
private struct NodeChecks {
    let context: CheckContext
    var sink = FindingSink()
    private var nodeIds: [String: JSONLocation] = [:]
    /// The timers the document declares; `nil` in a component library, whose documents are not known.
    private var timerIds: Set<String>?

    init(context: CheckContext) { self.context = context }

    mutating func checkDocument(_ node: ViewNode) {
        nodeIds = [:]
        var seen: [String: JSONLocation] = [:]
        var named: Set<String> = []
        if case .screen(_, _, _, _, let actions) = node.props { named = Set(actions.keys) }
        for (index, timer) in (node.timers ?? []).enumerated() {
            let location = JSONLocation(components: [.key("timers"), .index(index)])
            sink.unique("timer", timer.id, at: location.appending(key: "id"), seen: &seen)
            for (key, list) in [("tick_actions", timer.tickActions), ("end_actions", timer.endActions)] {
                for (position, name) in (list ?? []).enumerated() where !named.contains(name) {
                    sink.error(
                        location.appending(key: key).appending(index: position),
                        "the document has no named action '\(name)' (its screen's props.actions)")
                }
            }
            if let tick = timer.tickInterval, tick < TimerDefinition.minimumTick {
                sink.warning(
                    location.appending(key: "tick_interval"),
                    "ticks under \(TimerDefinition.minimumTick) ms are raised to \(TimerDefinition.minimumTick) ms")
            }
        }
        timerIds = Set(seen.keys)
        let types = sink.checkDeclarations(node.variables ?? [])
        _ = sink.checkTriggers(node.triggers ?? [], types: types, actions: named) {
            "the document has no named action '\($0)' (its screen's props.actions)"
        }
        visit(node, at: .root)
        if let manifest = context.clientManifest {
            sink.add(clientFindings: RequirementResolver(capabilities: manifest).resolve(node).1, manifest: manifest)
        }
        do throws(CompilationError) {
            _ = try NodeCompiler().compile(node)
        } catch {
            for diagnostic in error.diagnostics { sink.add(diagnostic) }
        }
    }

    mutating func checkLibrary(_ library: ComponentLibrary) {
        timerIds = nil
        for name in library.components.keys.sorted() {
            guard let component = library.components[name] else { continue }
            nodeIds = [:]
            visit(component.body, at: JSONLocation(components: [.key("components"), .key(name), .key("body")]))
        }
        do throws(CompilationError) {
            _ = try NodeCompiler().compile(library)
        } catch {
            let sorted = error.diagnostics.sorted {
                ($0.location.description, $0.message) < ($1.location.description, $1.message)
            }
            for diagnostic in sorted { sink.add(diagnostic) }
        }
    }

    private mutating func visit(_ node: ViewNode, at location: JSONLocation) {
        for (key, declared) in [
            ("timers", node.timers != nil), ("variables", node.variables != nil), ("triggers", node.triggers != nil),
        ]
        where declared && location != .root {
            sink.warning(location.appending(key: key), "\(key) are read from the document's root node only")
        }
        if let id = node.nodeId { sink.unique("node", id, at: location.appending(key: "id"), seen: &nodeIds) }
        if let transition = node.transition { sink.checkTransition(transition, at: location.appending(key: "transition")) }
        if let endpoint = node.dataEndpoint {
            let at = location.appending(key: "data_endpoint")
            sink.checkEndpoint(endpoint, at: at)
            if timerIds == nil {
                sink.error(at, "a component's body cannot be a deferred section; put data_endpoint on the document's node")
            } else if location == .root {
                sink.error(at, "the root node cannot be a deferred section (the document needs it to show at once)")
            } else if node.nodeId == nil {
                sink.error(at, "a deferred section needs an id (its state is kept by it)")
            }
        }
        sink.checkVisibility(node.visibilityActions, node.disappearActions, at: location, actionIds: nil)
        if case .unknown(let raw) = node.type, !context.nativeComponents.contains(raw) {
            sink.warning(
                location.appending(key: "type"),
                "unknown node type '\(raw)'; this SDK draws it as a fallback "
                    + "(a plugin's component: declare it with --plugin MANIFEST or --native-component \(raw))")
        }
        if let style = node.style, let presets = context.presets, !presets.contains(style) {
            sink.warning(location.appending(key: "style"), "unknown style preset '\(style)'")
        }
        let props = location.appending(key: "props")
        switch node.props {
        case .list(_, let itemTemplate, _):
            visit(itemTemplate, at: props.appending(key: "itemTemplate"))
        case .button(let label, let action):
            checkButtonLabel(label, at: location)
            if let label { visit(label, at: props.appending(key: "label")) }
            if let action { checkAction(action, at: props.appending(key: "action")) }
        case .navigationLink(let destination, let label):
            checkScreenReference(destination.screen, at: props.appending(key: "destination"))
            if let label { visit(label, at: props.appending(key: "label")) }
        case .searchBar(_, _, let onSubmit):
            if let onSubmit { checkAction(onSubmit, at: props.appending(key: "onSubmit")) }
        case .tabView(let tabs):
            for (index, tab) in tabs.enumerated() {
                let tabLocation = props.appending(key: "tabs").appending(index: index)
                checkScreenReference(tab.screen, at: tabLocation.appending(key: "screen"))
            }
        case .navigationStack(let root):
            if let root { visit(root, at: props.appending(key: "root")) }
        case .screen(_, let body, let toolbar, let onLoad, let actions):
            if let body { visit(body, at: props.appending(key: "body")) }
            if let toolbar { visit(toolbar, at: props.appending(key: "toolbar")) }
            if let onLoad { checkAction(onLoad, at: props.appending(key: "onLoad")) }
            if location != .root, !actions.isEmpty {
                sink.warning(props.appending(key: "actions"), "named actions are read from the document's root screen only")
            }
            for name in actions.keys.sorted() {
                let at = props.appending(key: "actions").appending(key: name)
                if name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
                    sink.error(at, "a named action's name is letters, digits, '_' and '-' ('\(name)')")
                }
                if let action = actions[name] { checkAction(action, at: at) }
            }
        case .sheet(let content):
            if let content { visit(content, at: props.appending(key: "content")) }
        case .component(let name, let parameters):
            if let components = context.components {
                if let declared = components[name] {
                    for parameter in parameters.keys.sorted() where !declared.contains(parameter) {
                        sink.warning(
                            props.appending(key: "parameters").appending(key: parameter),
                            "component '\(name)' has no parameter '\(parameter)'")
                    }
                } else {
                    sink.error(props.appending(key: "name"), "unknown component '\(name)'")
                }
            }
        case .unknown(let object):
            // A native component: its actions are checked like any other, and named as it declares.
            guard let component = context.nativeComponents.component(for: node.type.rawValue) else { break }
            let propKeys = object.keys.filter { object[$0]?["actionType"] == nil }
            for (key, message) in DeclaredComponent.undeclaredProps(of: component, among: propKeys) {
                sink.warning(props.appending(key: key), message)
            }
            for (key, value) in object where value["actionType"] != nil {
                let actionLocation = props.appending(key: key)
                if !component.actionNames.contains(key) {
                    let known = component.actionNames.isEmpty ? "none" : component.actionNames.joined(separator: ", ")
                    sink.warning(actionLocation, "\(component.type) has no action '\(key)' (it fires: \(known))")
                }
                do throws(ModelDecodingError) {
                    checkAction(try NodeAction(json: value, at: actionLocation), at: actionLocation)
                } catch {
                    sink.add(error)
                }
            }
        default:
            break
        }
        for (index, child) in node.children.enumerated() {
            visit(child, at: location.appending(key: "children").appending(index: index))
        }
    }

    /// A button needs a label VoiceOver can read: text, or an image with an accessibility label.
    private mutating func checkButtonLabel(_ label: ViewNode?, at location: JSONLocation) {
        guard let label else {
            sink.warning(location, "button has no label; VoiceOver cannot name it")
            return
        }
        var hasText = false
        var hasImage = false
        var hasNamedImage = false
        var pending = [label]
        while let node = pending.popLast() {
            switch node.props {
            case .text, .component, .unknown, .textField, .searchBar:
                hasText = true
            case .image(_, _, _, _, let accessibilityLabel):
                hasImage = true
                if !isBlank(accessibilityLabel) { hasNamedImage = true }
            default:
                break
            }
            pending.append(contentsOf: node.children)
        }
        if hasImage, !hasText, !hasNamedImage {
            sink.warning(location, "icon-only button has no accessibilityLabel on its image; VoiceOver cannot name it")
        }
    }

    private mutating func checkAction(_ action: NodeAction, at location: JSONLocation) {
        switch action {
        case .navigate(let screen, _), .present(let screen, _):
            checkScreenReference(screen, at: location.appending(key: "screen"))
        case .api(let endpoint, _, _, _), .patch(let endpoint):
            sink.checkEndpoint(endpoint, at: location.appending(key: "endpoint"))
        case .sequence(let steps):
            for (index, step) in steps.enumerated() {
                checkAction(step, at: location.appending(key: "actions").appending(index: index))
            }
        case .unknown(let type, _):
            sink.warning(location.appending(key: "actionType"), "unknown action type '\(type)'; it does nothing")
        case .timer(let id, let command):
            if let timerIds, !timerIds.contains(id) {
                sink.error(location.appending(key: "id"), "the document declares no timer '\(id)'")
            }
            if case .unknown(let raw) = command {
                sink.warning(location.appending(key: "command"), "unknown timer command '\(raw)'; it does nothing")
            }
        case .dismiss, .setState, .custom:
            break
        }
    }

    private mutating func checkScreenReference(_ screen: String, at location: JSONLocation) {
        guard let screens = context.nodeScreens, !screens.contains(screen) else { return }
        sink.warning(location, "navigates to unknown screen document '\(screen)'")
    }
}

/// A native component known only by its type and actions (declared to `sdui validate` and
/// `sdui capabilities`).
struct DeclaredComponent: NativeComponent {
    let type: String
    var actionNames: [String] = []
    /// The props it reads (`nil`: any).
    var propNames: [String]? = nil

    /// A warning for each of `keys` (sorted) that `component` does not read, when it is a
    /// declared component that names its props.
    static func undeclaredProps(
        of component: any NativeComponent, among keys: some Sequence<String>
    ) -> [(key: String, message: String)] {
        guard let names = (component as? DeclaredComponent)?.propNames else { return [] }
        let known = names.isEmpty ? "none" : names.joined(separator: ", ")
        return keys.filter { !names.contains($0) }.sorted().map {
            ($0, "\(component.type) has no prop '\($0)' (it reads: \(known))")
        }
    }

    /// A labelled box: the type and each prop with its value, so a preview shows what the
    /// component receives.
    func html(_ node: CustomNode) -> HTMLFragment {
        let props = node.props.keys.sorted().map { key -> HTMLFragment in
            .element("li", children: [.text("\(key): \(JSONWriter().string(from: node.props[key] ?? .null))")])
        }
        var children: [HTMLFragment] = [.element("strong", children: [.text(node.type)])]
        if !props.isEmpty { children.append(.element("ul", children: props)) }
        return .element("div", attributes: [HTMLAttribute("data-component", node.type)], children: children)
    }
}

// MARK: - Schema

/// The structural rules the models' declarations state beyond what decoding enforces (patterns,
/// lengths, bounds; see `tools/wire/generate.py`), checked with the exported schema. A place the
/// decoder already reported is not reported twice.
private enum SchemaChecks {
    /// A checker for each document kind the schema's root accepts.
    static let checkers: [String: JSONSchemaChecker] = {
        var result: [String: JSONSchemaChecker] = [:]
        let document = DynamicUISchema.document()
        for name in DynamicUISchema.documentKinds {
            var schema = document.objectValue ?? JSONObject()
            schema["anyOf"] = nil
            schema["$ref"] = .string("#/$defs/\(name)")
            result[name] = JSONSchemaChecker(schema: .object(schema))
        }
        return result
    }()

    static func check(_ json: JSONValue, kind: DocumentKind, into sink: inout FindingSink) {
        guard let definition = kind.schemaDefinition else { return }
        guard let checker = checkers[definition] else {
            preconditionFailure("the schema's root does not accept \(definition)")
        }
        let reported = sink.items.filter { $0.severity == .error }.map(\.location.components)
        for violation in checker.check(json) {
            // A finding at a place the decoder reported, or inside it, says nothing new.
            let known = reported.contains { violation.location.components.starts(with: $0) }
            if !known { sink.error(violation.location, violation.message) }
        }
    }
}

// MARK: - Numbers

/// Numbers the SDK can only clamp or drop: polling intervals, grid columns, line limits,
/// ratings out of range, and constants that a `duration` or `date` transform cannot show.
private enum NumberChecks {
    static func check(_ json: JSONValue, at location: JSONLocation, into sink: inout FindingSink) {
        switch json {
        case .object(let object):
            for (key, value) in object {
                let here = location.appending(key: key)
                if let number = value.numberValue?.doubleValue, let problem = problem(key: key, number: number, in: object) {
                    sink.warning(here, problem)
                }
                check(value, at: here, into: &sink)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { check(element, at: location.appending(index: index), into: &sink) }
        case .string(let text):
            for problem in expressionProblems(text) { sink.warning(location, problem) }
        default:
            break
        }
    }

    private static func problem(key: String, number: Double, in object: JSONObject) -> String? {
        switch key {
        case "refresh_interval":
            if number <= 0 { return "refresh_interval \(format(number)) turns polling off" }
            if number > 31_536_000 { return "refresh_interval \(format(number)) s is over a year: the screen never polls" }
        case "columns":
            if number < 1 || number > Double(RenderKind.maxGridColumns) {
                return
                    "columns \(format(number)) is drawn as \(RenderKind.gridColumns(WireNumber.int(number))) (1…\(RenderKind.maxGridColumns))"
            }
        case "lineLimit":
            if number < 1 || number > 10_000 {
                return "lineLimit \(format(number)) is drawn as \(RenderKind.lineLimit(WireNumber.int(number)) ?? 0)"
            }
        case "value" where object["control_type"]?.stringValue == "rating":
            if !(0...5).contains(number) {
                return "a rating of \(format(number)) is drawn as \(format(WireNumber.clamp(number, to: 0...5))) stars"
            }
        default:
            break
        }
        return nil
    }

    /// Problems of constants piped into transforms, in an expression or a text with placeholders.
    private static func expressionProblems(_ text: String) -> [String] {
        guard text.contains("duration") || text.contains("date") else { return [] }
        if text.contains("{"), let template = try? TextTemplate.compile(text) { return template.representabilityProblems }
        if let expression = try? ExpressionCompiler().expression(text) { return expression.representabilityProblems }
        return []
    }

    private static func format(_ number: Double) -> String { JSONNumber(number).description }
}

/// Why `policy` refuses the literal part of an `OPEN_URL` target, or `nil` when it may open it
/// or the target is decided at run time (`{item.url}`).
private func urlRefusal(_ text: String, policy: URLSecurityPolicy) -> String? {
    let literal = text.prefix { $0 != "{" }
    guard let colon = literal.firstIndex(of: ":") else { return nil }
    let scheme = literal[..<colon].lowercased()
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
    guard policy.schemes.contains(scheme) else {
        return
            "OPEN_URL scheme '\(scheme)' is refused by the app's URL policy (allowed: \(policy.schemes.sorted().joined(separator: ", ")))"
    }
    if scheme == "mailto" || scheme == "tel" { return nil }
    // The host is checkable only when the literal part holds all of it.
    let afterScheme = literal[literal.index(after: colon)...]
    guard afterScheme.hasPrefix("//") else { return nil }
    let authority = afterScheme.dropFirst(2)
    guard
        let end = authority.firstIndex(where: { "/?#".contains($0) }) ?? (literal.count == text.count ? authority.endIndex : nil)
    else { return nil }
    guard let url = URL(string: "\(scheme)://\(authority[..<end])") else { return nil }
    if policy.allows(url) { return nil }
    let host = url.host ?? String(authority[..<end])
    let allowed = policy.hosts.isEmpty ? "none" : policy.hosts.sorted().joined(separator: ", ")
    return
        "OPEN_URL host '\(host)' is refused by the app's URL policy (allowed hosts: \(allowed)); pass --allow-host to sdui validate"
}

// MARK: - Helpers

/// Whether `text` is absent, empty or only white space.
private func isBlank(_ text: String?) -> Bool {
    guard let text else { return true }
    return text.allSatisfy(\.isWhitespace)
}

/// What is wrong with an endpoint as screens write it (`admin:/v1/users/{id}`), or `nil`.
private func endpointProblem(_ text: String) -> String? {
    guard !text.isEmpty else { return "endpoint is empty" }
    if let colon = text.firstIndex(of: ":") {
        let slash = text.firstIndex(of: "/")
        if slash.map({ colon < $0 }) ?? true {
            let prefix = text[..<colon]
            if prefix != "admin" && prefix != "mobile" {
                return "unknown endpoint prefix '\(prefix):' in '\(text)'; use 'admin:', 'mobile:' or no prefix"
            }
        }
    }
    let path = Endpoint(text).pathTemplate
    guard path.hasPrefix("/") else { return "endpoint path '\(path)' must start with '/'" }
    var openBrace: String.Index?
    var index = path.startIndex
    while index < path.endIndex {
        let character = path[index]
        if character == "{" {
            if openBrace != nil { return "'{' inside a path parameter in '\(text)'" }
            openBrace = index
        } else if character == "}" {
            guard let start = openBrace else { return "unmatched '}' in endpoint '\(text)'" }
            let name = path[path.index(after: start)..<index]
            if name.isEmpty { return "empty path parameter '{}' in '\(text)'" }
            if !isPlainIdentifier(name) { return "path parameter '{\(name)}' in '\(text)' is not a plain identifier" }
            openBrace = nil
        }
        index = path.index(after: index)
    }
    if openBrace != nil { return "unclosed '{' in endpoint '\(text)'" }
    return nil
}

/// ASCII digits, upper-case and lower-case letters, and the hexadecimal letters of each case.
private let asciiDigits: ClosedRange<UInt8> = 0x30...0x39
private let asciiUppercase: ClosedRange<UInt8> = 0x41...0x5A
private let asciiLowercase: ClosedRange<UInt8> = 0x61...0x7A
private let hexUppercase: ClosedRange<UInt8> = 0x41...0x46
private let hexLowercase: ClosedRange<UInt8> = 0x61...0x66

/// Whether `name` is an ASCII identifier (`id`, `school_id`), the form of a path parameter.
private func isPlainIdentifier(_ name: Substring) -> Bool {
    guard let first = name.utf8.first, !asciiDigits.contains(first) else { return false }
    return name.utf8.allSatisfy { byte in
        asciiDigits.contains(byte) || asciiUppercase.contains(byte) || asciiLowercase.contains(byte) || byte == 0x5F
    }
}

/// Whether `text` is `#RRGGBB` or `#RRGGBBAA`.
private func isHexColor(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return false }
    return bytes.dropFirst().allSatisfy { byte in
        asciiDigits.contains(byte) || hexUppercase.contains(byte) || hexLowercase.contains(byte)
    }
}

extension FindingSink {
    /// A transition this SDK draws, with a duration it keeps.
    mutating func checkTransition(_ transition: ElementTransition, at location: JSONLocation) {
        if case .unknown(let raw) = transition.type {
            warning(location.appending(key: "type"), "unknown transition '\(raw)'; the element appears without one")
        }
        if let duration = transition.durationMs, duration < 0 || duration > ElementTransition.maximumDuration {
            warning(
                location.appending(key: "duration_ms"), "the duration is clamped to 0…\(ElementTransition.maximumDuration) ms")
        }
    }

    /// Visibility and disappear actions: numbers the app keeps, an existing action (`nil`
    /// `actionIds`: a node document, which runs none), at most `RenderVisibility.maximumActions`.
    mutating func checkVisibility(
        _ appear: [VisibilityAction]?, _ disappear: [VisibilityAction]?, at location: JSONLocation, actionIds: Set<String>?
    ) {
        for (key, actions, isDisappear) in [("visibility_actions", appear, false), ("disappear_actions", disappear, true)] {
            guard let actions else { continue }
            let list = location.appending(key: key)
            if actions.count > RenderVisibility.maximumActions {
                warning(list, "only the first \(RenderVisibility.maximumActions) actions are kept")
            }
            for (index, action) in actions.enumerated() {
                let at = list.appending(index: index)
                let range = isDisappear ? 0...99 : 1...100
                if let percentage = action.visibilityPercentage, !range.contains(percentage) {
                    warning(
                        at.appending(key: "visibility_percentage"),
                        "the percentage is clamped to \(range.lowerBound)…\(range.upperBound)")
                }
                if let duration = action.visibilityDurationMs, duration < 0 || duration > VisibilityAction.maximumDuration {
                    warning(
                        at.appending(key: "visibility_duration_ms"),
                        "the duration is clamped to 0…\(VisibilityAction.maximumDuration) ms")
                }
                if let limit = action.logLimit, limit < 0 || limit > VisibilityAction.maximumLogLimit {
                    warning(at.appending(key: "log_limit"), "the limit is lowered to \(VisibilityAction.maximumLogLimit)")
                }
                guard let id = action.actionId else { continue }
                if let actionIds {
                    if !actionIds.contains(id) { error(at.appending(key: "action_id"), "no action with id '\(id)'") }
                } else {
                    warning(
                        at.appending(key: "action_id"), "node documents run no action by id; only the impression is reported")
                }
            }
        }
    }
}

extension FindingSink {
    /// Variable declarations: unique names, known types, first values of their type. Returns
    /// each name's type (the first declaration counts).
    mutating func checkDeclarations(_ declarations: [VariableDeclaration]) -> [String: VariableType] {
        var names: [String: JSONLocation] = [:]
        var types: [String: VariableType] = [:]
        for (index, declaration) in declarations.enumerated() {
            let location = JSONLocation(components: [.key("variables"), .index(index)])
            unique("variable", declaration.name, at: location.appending(key: "name"), seen: &names)
            if types[declaration.name] == nil { types[declaration.name] = declaration.type }
            if case .unknown(let raw) = declaration.type {
                error(location.appending(key: "type"), "unknown variable type '\(raw)'")
                continue
            }
            do throws(VariableError) {
                _ = try declaration.initialValue(at: location)
            } catch {
                self.error(error.location, error.message)
            }
        }
        return types
    }

    /// Triggers: a variable to watch or a condition, declared variables, conditions that
    /// compile, actions that exist (`missing` says so of one that does not). Returns what the
    /// triggers on a variable run, for the cycle check.
    mutating func checkTriggers(
        _ triggers: [VariableTrigger], types: [String: VariableType], actions: Set<String>, missing: (String) -> String
    ) -> [(variable: String, actions: [String], location: JSONLocation)] {
        var watching: [(variable: String, actions: [String], location: JSONLocation)] = []
        for (index, trigger) in triggers.enumerated() {
            let location = JSONLocation(components: [.key("triggers"), .index(index)])
            if trigger.variable == nil, trigger.condition == nil {
                error(location, "a trigger needs a variable to watch or a condition")
            }
            if let variable = trigger.variable {
                if types[variable] == nil {
                    error(location.appending(key: "variable"), "no variable '\(variable)' is declared")
                } else {
                    watching.append((variable, trigger.actions, location))
                }
            }
            if let condition = trigger.condition {
                do throws(ExpressionError) {
                    _ = try ExpressionCompiler().expression(condition, at: location.appending(key: "condition"))
                } catch {
                    self.error(location.appending(key: "condition"), "\(error.code): \(error.message)")
                }
            }
            if trigger.actions.isEmpty { warning(location.appending(key: "actions"), "the trigger runs no action") }
            for (position, name) in trigger.actions.enumerated() where !actions.contains(name) {
                error(location.appending(key: "actions").appending(index: position), missing(name))
            }
        }
        return watching
    }
}
