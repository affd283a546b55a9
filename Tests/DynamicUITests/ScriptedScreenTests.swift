import DynamicUI
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// A countdown bound to its data's end, against scripted answers: the deadline is clamped.
@Suite("A countdown bound to its data")
@MainActor
struct BoundCountdownTests {
    @Test(arguments: [
        (JSONValue.string("2020-01-01T00:00:00Z"), 0), (.string("2999-01-01T00:00:00.250Z"), 86_400_000),
        (.number(JSONNumber(-5)), 0), (.string("mañana"), 900_000), (.bool(true), 900_000), (.null, 900_000),
    ])
    func aCountdownBoundToItsDataEndIsClamped(deadline: JSONValue, left: Int) async throws {
        // Past (or before 1970): nothing left, and time is up; far away: at most a day; not a
        // date: the declared duration.
        let fixture = Fixture()
        let assessment = try #require(try catalog.data("assessments").arrayValue?.first?.objectValue)
        let material = try #require(assessment["material_id"]?.stringValue)
        var served = assessment
        served["deadline"] = deadline
        await fixture.harness.transport.on(.get, "/v1/materials/\(material)/assessment", .json(200, .object(served)))
        await fixture.harness.transport.on(
            .post, "/v1/materials/\(material)/assessment/attempts", .json(201, ["id": "att-new"]))
        let model = try await fixture.model(catalogRoute: Route(screenKey: "assessment-take", params: ["id": material]))
        await model.load()
        #expect(model.variables["remaining"]?.intValue == left)
        if left == 0 {
            for _ in 0..<200
            where await fixture.harness.transport.requests(to: "/v1/materials/\(material)/assessment/attempts").isEmpty {
                await Task.yield()
            }
            #expect(
                await fixture.harness.transport.requests(to: "/v1/materials/\(material)/assessment/attempts").count == 1,
                "time is up: the screen's end action submits")
        }
        model.stopTimers()
    }
}

/// The screen loader reports what the app can draw and what it dropped, against scripted answers.
@Suite("Screen requests carry the capabilities; broken screens are reported")
struct CapabilityReportTests {
    @Test func screenRequestsCarryTheCapabilitiesAndBrokenScreensAreReported() async throws {
        let recorder = RecordingObserver()
        let transport = ScriptedTransport()
        await transport.on(
            .get, "/v1/screens/broken",
            .json(
                200,
                [
                    "screen_id": "b", "screen_key": "broken", "screen_name": "Roto", "pattern": "detail", "version": 1,
                    "updated_at": "2026-01-01T00:00:00Z", "actions": [], "template": ["zones": [["type": "container"]]],
                ]))
        let capabilities = ClientCapabilities.sdk(platform: .mac)
        let loader = ScreenLoader(
            client: client(transport), cache: ScreenCache(), capabilities: capabilities,
            observers: DynamicUIObservers([recorder]))
        await #expect(throws: ScreenLoadError.self) { try await loader.load("broken") }
        let sent = try #require(await transport.requests.first)
        #expect(sent.headers["DynamicUI-Capabilities"] == capabilities.compact)
        #expect(sent.url.query?.contains("capabilities=\(capabilities.hash)") == true)
        let decode = try #require(recorder.errors.first { $0.kind == .decode })
        #expect(decode.screen == "broken" && decode.path == "template.zones[0].id")

        // A condition that does not compile, and a control type the app does not know.
        await transport.on(
            .get, "/v1/screens/odd",
            .json(
                200,
                [
                    "screen_id": "o", "screen_key": "odd", "screen_name": "Raro", "pattern": "detail", "version": 1,
                    "updated_at": "2026-01-01T00:00:00Z", "actions": [],
                    "template": [
                        "zones": [["id": "z", "type": "container", "slots": [["id": "h", "control_type": "hologram"]]]]
                    ],
                ]),
            .json(
                200,
                [
                    "screen_id": "o", "screen_key": "odd", "screen_name": "Raro", "pattern": "detail", "version": 2,
                    "updated_at": "2026-01-01T00:00:00Z", "actions": [],
                    "template": ["zones": [["id": "z", "type": "container", "condition": "a ==", "slots": []]]],
                ]))
        _ = try await loader.load("odd")
        let dropped = try #require(recorder.errors.first { $0.kind == .elementDropped })
        #expect(
            dropped.screen == "odd" && dropped.path == "template.zones[0].slots[0]"
                && dropped.message.contains("control:hologram"))
        await loader.expire("odd")
        await #expect(throws: ScreenLoadError.self) { try await loader.load("odd") }
        let compile = try #require(recorder.errors.first { $0.kind == .compile })
        #expect(compile.screen == "odd" && compile.path == "template.zones[0].condition")
    }
}
