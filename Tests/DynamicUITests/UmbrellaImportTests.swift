// This file imports DynamicUIKit alone (and Foundation, whose `Dimension` no SDK type shadows):
// everything an app embedding the SDK names must come through the one import.
import DynamicUIKit
import Foundation
import Testing

@Suite("DynamicUIKit: one import for an app")
struct UmbrellaImportTests {
    @MainActor
    @Test func anAppBuildsItsRuntimeAndReadsAScreenThroughTheOneImport() async throws {
        // Storage and network: the stores and the transport an app passes in.
        let tokens = InMemoryTokenStore()
        let settings = InMemorySettingsStore()
        let configuration = DynamicUIConfiguration(
            adminBaseURL: URL(string: "https://admin.example.com")!, mobileBaseURL: URL(string: "https://api.example.com")!,
            security: URLSecurityPolicy(hosts: ["example.com"]))
        let runtime = try DynamicUIRuntime(
            configuration: configuration, plugins: [], tokens: tokens, settings: settings, queueStore: nil,
            transport: ScriptlessTransport())
        #expect(runtime.navigation.stack.isEmpty)
        // Models, the expression language and the render tree.
        let screen = try DocumentDecoder().decode(
            ScreenDefinition.self,
            from: Data(
                #"{"screen_id": "s", "screen_key": "hello", "screen_name": "Hello", "pattern": "detail", "version": 1, "updated_at": "2026-11-27T00:00:00Z", "template": {"zones": [{"id": "z", "type": "container", "slots": [{"id": "t", "control_type": "label", "value": "{user.first_name}"}]}]}, "actions": []}"#
                    .utf8))
        let compiled = try ScreenCompiler().compile(screen)
        #expect(compiled.definition.screenKey == "hello")
        let template = try ExpressionCompiler().template("Hola {user.first_name}")
        #expect(!template.isConstant)
        let axis: RenderAxis = .vertical
        #expect(axis == .vertical)
        // Actions.
        #expect(ActionResult.navigateBack.isError == false)
    }

    @Test func foundationsDimensionIsNotShadowed() {
        // `Dimension` is Foundation's (the SDK's frame dimension is `FrameDimension`).
        let meters: Dimension = UnitLength.meters
        #expect(meters.symbol == "m")
        #expect(FrameDimension.infinity != .points(1))
    }
}

/// A transport that is never called: the test builds a runtime without loading anything.
private struct ScriptlessTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        throw TransportError(.noConnection)
    }
}
