import DynamicUICatalog
import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUITooling

@Suite("sdui capabilities and validate --client")
struct ContractToolingTests {
    static let manifests = CatalogLocation.root.appendingPathComponent("manifests")

    @Test func theShippedManifestIsWhatTheSDKDerives() throws {
        let shipped = try String(contentsOf: Self.manifests.appendingPathComponent("dynamicui-0.3.0-ios.json"), encoding: .utf8)
        #expect(try CapabilityManifest.text(platform: "ios", components: ["media-player"]) == shipped)
        // The app before patches reads and lacks them.
        let before = try DocumentDecoder().decode(
            ClientCapabilities.self, from: try Data(contentsOf: Self.manifests.appendingPathComponent("dynamicui-0.2.0-ios.json"))
        )
        #expect(before.sdkVersion == "0.2.0" && !before.has("action:APPLY_PATCH"))
        #expect(try CapabilityManifest.manifest(platform: "ios", components: []).has("action:APPLY_PATCH"))
        let manifest = try CapabilityManifest.manifest(platform: "ipad", components: ["map_pin"])
        #expect(manifest.platform == "ipad" && manifest.components == ["map-pin"])
        #expect(throws: (any Error).self) { try CapabilityManifest.manifest(platform: "android", components: []) }
        #expect(throws: (any Error).self) { try CapabilityManifest.manifest(platform: "ios", components: ["text-input"]) }
        // The older app's manifest reads and lacks what came later.
        let old = try DocumentDecoder().decode(
            ClientCapabilities.self, from: try Data(contentsOf: Self.manifests.appendingPathComponent("dynamicui-0.1.0-ios.json"))
        )
        #expect(old.schemaVersion == 1 && !old.has("component:media-player") && old.has("control:text-input"))
    }

    static func screen(videoSlot: String) -> String {
        """
        {"screen_id": "s", "screen_key": "lesson", "screen_name": "Lección", "pattern": "detail", "version": 1,
         "updated_at": "2026-01-01T00:00:00Z", "actions": [],
         "template": {"zones": [{"id": "main", "type": "container", "slots": [\(videoSlot)]}]}}
        """
    }

    func validate(_ text: String, client: String) throws -> ValidationReport {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-client-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var validator = ScreenValidator.shipped()
        try validator.checkAgainstClient(manifestAt: Self.manifests.appendingPathComponent(client))
        return validator.validate(paths: [file])
    }

    @Test func anElementNeedingANewerTypeIsAnErrorWithoutAFallbackAndFineWithOne() throws {
        let bare = #"{"id": "video", "control_type": "media-player", "value": "https://media.example/v.mp4"}"#
        let withFallback =
            #"{"id": "video", "control_type": "media-player", "value": "https://media.example/v.mp4", "fallback": {"id": "hint", "control_type": "label", "label": "Vídeo"}}"#
        let dropped = #"{"id": "video", "control_type": "media-player", "fallback": "drop"}"#

        let old = try validate(Self.screen(videoSlot: bare), client: "dynamicui-0.1.0-ios.json")
        let finding = try #require(old.findings.first { $0.severity == .error }, "\(old.text)")
        #expect(finding.path == "template.zones[0].slots[0]")
        #expect(
            finding.message.contains("app 0.1.0 cannot draw this media-player")
                && finding.message.contains("control:media-player"))
        #expect(try validate(Self.screen(videoSlot: withFallback), client: "dynamicui-0.1.0-ios.json").errorCount == 0)
        #expect(try validate(Self.screen(videoSlot: dropped), client: "dynamicui-0.1.0-ios.json").errorCount == 0)
        // The current app has the component: no fallback needed.
        #expect(try validate(Self.screen(videoSlot: bare), client: "dynamicui-0.2.0-ios.json").errorCount == 0)
    }

    @Test func requirementsAndScreenLevelNeedsAreCheckedToo() throws {
        let future = #"{"id": "new", "control_type": "label", "label": "Nuevo", "requires": ["schema:2"]}"#
        let report = try validate(Self.screen(videoSlot: future), client: "dynamicui-0.1.0-ios.json")
        #expect(report.findings.contains { $0.severity == .error && $0.message.contains("schema:2") }, "\(report.text)")
        #expect(try validate(Self.screen(videoSlot: future), client: "dynamicui-0.2.0-ios.json").errorCount == 0)
        let kanban = Self.screen(videoSlot: "").replacingOccurrences(of: "\"detail\"", with: "\"kanban\"")
        let screenLevel = try validate(kanban, client: "dynamicui-0.2.0-ios.json")
        #expect(
            screenLevel.findings.contains { $0.path == "requires" && $0.message.contains("pattern:kanban") },
            "\(screenLevel.text)")
    }

    @Test func theEduGoCatalogFitsTheOlderApp() throws {
        var validator = ScreenValidator.shipped()
        validator.allowOpenURL(hosts: ["edugo.test"])
        try validator.checkAgainstClient(manifestAt: Self.manifests.appendingPathComponent("dynamicui-0.1.0-ios.json"))
        let report = validator.validate(paths: [try EduGoCatalog().folder])
        #expect(report.errorCount == 0, "\(report.text)")
    }

    @Test func theSchemaDescribesTheContract() throws {
        let schema = DynamicUISchema.document()
        let definitions = try #require(schema["$defs"]?.objectValue)
        #expect(definitions["ClientCapabilities"] != nil)
        for model in ["Zone", "Slot", "ViewNode"] {
            let properties = try #require(definitions[model]?["properties"]?.objectValue, "\(model)")
            #expect(properties["requires"] != nil && properties["fallback"] != nil && properties["log_id"] != nil, "\(model)")
        }
        let checker = JSONSchemaChecker()
        let manifest = try JSONReader().read(
            try Data(contentsOf: Self.manifests.appendingPathComponent("dynamicui-0.2.0-ios.json")))
        #expect(checker.check(manifest).isEmpty)
        #expect(
            checker.check(
                try JSONReader().read(
                    Self.screen(
                        videoSlot:
                            #"{"id": "a", "control_type": "label", "fallback": "drop", "requires": ["schema:2"], "log_id": "a"}"#)
                )
            ).isEmpty)
    }
}
