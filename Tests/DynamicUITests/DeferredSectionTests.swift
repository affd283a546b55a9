import DynamicUI
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITesting
import Foundation
import Testing

/// Deferred sections: zones with their own endpoint load beside the screen, each with its own
/// skeleton, error and retry.
@Suite("Deferred sections")
@MainActor
struct DeferredSectionTests {
    static let screen: JSONValue = [
        "screen_id": "scr_sections", "screen_key": "sections", "screen_name": "Panel", "pattern": "dashboard", "version": 1,
        "updated_at": "2026-11-25T00:00:00Z", "data_endpoint": "/v1/summary", "actions": [],
        "template": [
            "zones": [
                [
                    "id": "summary", "type": "container",
                    "slots": [["id": "total", "control_type": "label", "value": "Total {data.total}"]],
                ],
                [
                    "id": "recent", "type": "simple-list", "title": "Actividad reciente", "data_endpoint": "/v1/recent",
                    "field": "items",
                    "item_layout": ["slots": [["id": "r-title", "control_type": "list-item", "field": "title"]]],
                ],
                [
                    "id": "tips", "type": "container", "data_endpoint": "/v1/tips",
                    "slots": [["id": "tip", "control_type": "label", "value": "Consejo: {section.text}"]],
                ],
            ]
        ],
    ]

    static func shown(tips: ScriptedTransport.Reply...) async throws -> (Fixture, DynamicScreenViewModel) {
        let fixture = Fixture()
        let transport = fixture.harness.transport
        await transport.on(.get, "/v1/screens/sections", .json(200, screen))
        await transport.on(.get, "/v1/summary", .json(200, ["total": 12]))
        await transport.on(.get, "/v1/recent", .json(200, ["items": [["id": "a1", "title": "Ana entregó su evaluación"]]]))
        await transport.on(.get, "/v1/tips", replies: tips)
        let model = try fixture.model(route: Route(screenKey: "sections"))
        return (fixture, model)
    }

    static func text(_ model: DynamicScreenViewModel) throws -> String {
        TextRenderer().render(try model.render(options: RenderOptions()))
    }

    @Test func aFailedSectionShowsItsOwnRetryAndTheRestOfTheScreenWorks() async throws {
        let (fixture, model) = try await Self.shown(
            tips: .json(500, ["error": "down"]), .json(200, ["text": "Repasa antes de dormir"]))
        await model.load()
        let drawn = try Self.text(model)
        #expect(drawn.contains("Total 12"), "\(drawn)")
        #expect(drawn.contains("Ana entregó su evaluación"), "\(drawn)")
        #expect(drawn.contains("empty-state \"No se pudieron cargar los datos\""), "\(drawn)")
        #expect(model.sections["recent"] != nil && model.sections["tips"] == .failed(message: "No se pudieron cargar los datos"))
        await model.perform(actionId: SectionState.retryActionId("tips"))
        #expect(try Self.text(model).contains("Consejo: Repasa antes de dormir"))
        let transport = fixture.harness.transport
        #expect(await transport.requests(to: "/v1/tips").count == 2)
        #expect(await transport.requests(to: "/v1/recent").count == 1, "the retry loads only its section")
        #expect(await transport.requests(to: "/v1/summary").count == 1)
    }

    @Test func offlineASectionSaysSoWhileTheScreenShows() async throws {
        let (_, model) = try await Self.shown(tips: .failure(.noConnection))
        await model.load()
        let drawn = try Self.text(model)
        #expect(drawn.contains("Total 12") && drawn.contains("Ana entregó su evaluación"), "\(drawn)")
        guard case .failed(let message)? = model.sections["tips"] else {
            Issue.record("the section did not fail: \(String(describing: model.sections["tips"]))")
            return
        }
        #expect(message == model.strings(.offline))
    }

    @Test func aSectionShowsASkeletonUntilItsDataArrives() async throws {
        let (_, model) = try await Self.shown(tips: .json(200, ["text": "Lee en voz alta"]))
        let compiled = try ScreenCompiler().compile(try ScreenDefinition(json: Self.screen))
        let context = try compiled.context(user: nil, userContext: nil, data: ["total": 3], environment: evaluation)
        let waiting = PatternRouter().render(ScreenInputs(screen: compiled, context: context))
        let text = TextRenderer().render(waiting)
        #expect(text.contains("skeleton lines:3") && text.contains("skeleton lines:1"), "\(text)")
        #expect(text.contains("Total 3"))
        await model.load()
        #expect(!(try Self.text(model)).contains("skeleton"))
    }
}
