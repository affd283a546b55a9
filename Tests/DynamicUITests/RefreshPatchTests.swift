import DynamicUI
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

/// A screen whose refresh asks for a patch: the shown records change in place, an empty answer
/// changes nothing, a failed request keeps what is shown, and a bad patch reloads the page.
@Suite("Refresh by patch")
@MainActor
struct RefreshPatchTests {
    static let screen: JSONValue = [
        "screen_id": "scr_feed", "screen_key": "feed", "screen_name": "Materiales", "pattern": "list", "version": 1,
        "updated_at": "2026-11-26T00:00:00Z", "data_endpoint": "/v1/feed",
        "data_config": ["refresh_interval": 30, "refresh_patch_endpoint": "/v1/feed/updates"],
        "template": [
            "zones": [
                [
                    "id": "rows", "type": "simple-list",
                    "item_layout": [
                        "slots": [
                            ["id": "title", "control_type": "list-item", "field": "title"],
                            ["id": "status", "control_type": "chip", "field": "status"],
                        ]
                    ],
                ]
            ]
        ],
        "actions": [],
    ]

    static let items: JSONValue = [
        "items": [
            ["id": "m1", "title": "Fracciones", "status": "Procesando"], ["id": "m2", "title": "Ríos", "status": "Publicado"],
        ]
    ]

    static func patch(status: String, id: String = "m1") -> JSONValue {
        ["changes": [["id": .string(id), "items": [["id": .string(id), "title": "Fracciones", "status": .string(status)]]]]]
    }

    static func text(_ model: DynamicScreenViewModel) throws -> String {
        TextRenderer().render(try model.render(options: RenderOptions()))
    }

    /// Moves the clock one interval and waits for the poll's requests.
    static func poll(_ fixture: Fixture, until count: Int, path: String) async {
        let clock = fixture.harness.clock
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 30)
        for _ in 0..<200 where await fixture.harness.transport.requests(to: path).count < count {
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        await settle()
    }

    @Test func thePatchChangesTheRecordInPlaceAndAnEmptyAnswerNothing() async throws {
        let fixture = Fixture()
        let transport = fixture.harness.transport
        await transport.on(.get, "/v1/screens/feed", .json(200, Self.screen))
        await transport.on(.get, "/v1/feed", .json(200, Self.items))
        await transport.on(
            .get, "/v1/feed/updates",
            .json(200, Self.patch(status: "Publicado")), .raw(204, Data()), .json(200, ["nota": "no"]))
        let model = try fixture.model(route: Route(screenKey: "feed"))
        await model.load()
        #expect(try Self.text(model).contains("Procesando"))
        model.startPolling()
        await Self.poll(fixture, until: 1, path: "/v1/feed/updates")
        for _ in 0..<100 where try Self.text(model).contains("Procesando") { await Task.yield() }
        #expect(!(try Self.text(model).contains("Procesando")), "the record changed in place")
        #expect(await transport.requests(to: "/v1/feed").count == 1, "without loading the page again")
        // 204: nothing changes.
        await Self.poll(fixture, until: 2, path: "/v1/feed/updates")
        #expect(await transport.requests(to: "/v1/feed").count == 1)
        #expect(try Self.text(model).contains("Ríos"))
        // Not a patch: the page is loaded again (its rows as the server has them).
        await Self.poll(fixture, until: 3, path: "/v1/feed/updates")
        for _ in 0..<200 where await transport.requests(to: "/v1/feed").count < 2 {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(await transport.requests(to: "/v1/feed").count == 2, "a body that is not a patch reloads")
        model.stopPolling()
    }

    @Test func aFailedRequestKeepsWhatIsShown() async throws {
        let fixture = Fixture()
        let transport = fixture.harness.transport
        await transport.on(.get, "/v1/screens/feed", .json(200, Self.screen))
        await transport.on(.get, "/v1/feed", .json(200, Self.items))
        await transport.on(.get, "/v1/feed/updates", .failure(.noConnection))
        let model = try fixture.model(route: Route(screenKey: "feed"))
        await model.load()
        model.startPolling()
        await Self.poll(fixture, until: 1, path: "/v1/feed/updates")
        #expect(await fixture.harness.clock.waitForSleepers(1, timeout: 5), "polling goes on")
        #expect(await transport.requests(to: "/v1/feed").count == 1)
        #expect(try Self.text(model).contains("Procesando") && model.banner == nil)
        model.stopPolling()
    }

    @Test func aPatchForARecordNotShownReloadsAndTheScreenStaysRight() async throws {
        let fixture = Fixture()
        let transport = fixture.harness.transport
        await transport.on(.get, "/v1/screens/feed", .json(200, Self.screen))
        await transport.on(.get, "/v1/feed", .json(200, Self.items))
        await transport.on(.get, "/v1/feed/updates", .json(200, Self.patch(status: "Archivado", id: "m9")))
        let recorder = RecordingObserver()
        let model = try fixture.model(route: Route(screenKey: "feed"), observers: DynamicUIObservers([recorder]))
        await model.load()
        model.startPolling()
        await Self.poll(fixture, until: 1, path: "/v1/feed/updates")
        for _ in 0..<200 where await transport.requests(to: "/v1/feed").count < 2 {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(await transport.requests(to: "/v1/feed").count == 2)
        #expect(recorder.errors.contains { $0.path == "data_config.refresh_patch_endpoint" })
        #expect(!(try Self.text(model).contains("Archivado")))
        model.stopPolling()
    }
}
