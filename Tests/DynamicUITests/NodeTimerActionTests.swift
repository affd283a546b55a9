import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

@testable import DynamicUI

/// A node document's timers run its named actions on each tick and at the end, as a screen's
/// timers run its actions by id.
@Suite("Node document timer actions")
@MainActor
struct NodeTimerActionTests {
    /// A three-second quiz: each tick reports, the end submits; `stop` and `restart` are there to
    /// be named.
    static func document(tickActions: [String], endActions: [String] = ["submit"]) -> JSONValue {
        [
            "type": "screen", "id": "quiz",
            "timers": [
                [
                    "id": "clock", "tick_interval": 1000, "duration": 3000, "value_variable": "elapsed",
                    "tick_actions": .array(tickActions.map { .string($0) }),
                    "end_actions": .array(endActions.map { .string($0) }), "autostart": true,
                ]
            ],
            "props": [
                "title": "Quiz",
                "actions": [
                    // The time in the query: each tick is its own request, not the cached answer of the last.
                    "report": [
                        "actionType": "api", "endpoint": "/v1/quiz/tick", "params": ["at": "$.state.elapsed"],
                        "resultKey": "tick",
                    ],
                    "submit": ["actionType": "api", "endpoint": "/v1/quiz/submit", "resultKey": "result"],
                    "stop": ["actionType": "timer", "id": "clock", "command": "stop"],
                ],
                "body": ["type": "text", "props": ["content": "$.state.elapsed"]],
            ],
        ]
    }

    /// The document shown on a manual clock, its timer started.
    static func shown(_ document: JSONValue) async throws -> (ManualClock, ScriptedTransport, NodeScreenModel, NodeAppRuntime) {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let transport = ScriptedTransport()
        for name in ["theme", "components"] { await transport.on(.get, "/v1/documents/\(name)", .json(404, nil)) }
        await transport.on(.get, "/v1/documents/quiz", .json(200, document))
        await transport.on(.get, "/v1/quiz/tick", .json(200, ["ok": true]))
        await transport.on(.get, "/v1/quiz/submit", .json(200, ["score": 7]))
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://api.example.com")!, documents: .remote("/v1/documents/{name}"),
                rootDocument: "quiz", retryPolicy: .none, clock: clock),
            transport: transport)
        await app.start()
        let model = app.model(for: try #require(app.current))
        await model.appeared()
        return (clock, transport, model, app)
    }

    /// Advances the clock by a tick once the timer sleeps, and waits for its actions.
    static func tick(_ clock: ManualClock, _ model: NodeScreenModel) async {
        #expect(await clock.waitForSleepers(1, timeout: 5), "the timer sleeps until its next tick")
        clock.advance(by: 1)
        for _ in 0..<500 where clock.sleeperCount == 0 && model.state["elapsed"] != .number(JSONNumber(3000)) {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    @Test func eachTickRunsItsNamedActionsAndTheEndItsOwn() async throws {
        let (clock, transport, model, app) = try await Self.shown(Self.document(tickActions: ["report"]))
        #expect(model.phase == .ready)
        for second in 1...3 {
            await Self.tick(clock, model)
            #expect(model.state["elapsed"] == .number(JSONNumber(second * 1000)))
        }
        for _ in 0..<500 where model.state["result"] == nil { try await Task.sleep(nanoseconds: 1_000_000) }
        let ticks = await transport.requests(to: "/v1/quiz/tick").count
        #expect(ticks == 3, "a tick action on every tick, the last one too")
        let times = await transport.requests(to: "/v1/quiz/tick").map { $0.url.query ?? "" }
        #expect(times == ["at=1000", "at=2000", "at=3000"], "each after its time was written")
        #expect(await transport.requests(to: "/v1/quiz/submit").count == 1, "the end action once")
        #expect(model.state["result"] == ["score": 7])
        #expect(clock.sleeperCount == 0, "an ended timer sleeps no more")
        #expect(app.phase == .ready)
    }

    @Test func aCommandAmongTheActionsEndsThatTicksWork() async throws {
        let (clock, transport, model, app) = try await Self.shown(Self.document(tickActions: ["stop", "report"]))
        await Self.tick(clock, model)
        #expect(model.state["elapsed"] == .number(JSONNumber(0)), "the stop resets the time")
        #expect(await transport.requests(to: "/v1/quiz/tick").isEmpty, "stopped before the action after it")
        #expect(!(await clock.waitForSleepers(1, timeout: 0.2)), "a stopped timer does not sleep again")
        #expect(await transport.requests(to: "/v1/quiz/submit").isEmpty)
        #expect(app.phase == .ready)
    }

    @Test func aHiddenDocumentCatchesUpAndRunsItsEndWhenShownAgain() async throws {
        let (clock, transport, model, app) = try await Self.shown(Self.document(tickActions: []))
        #expect(await clock.waitForSleepers(1, timeout: 5))
        model.disappeared()
        clock.advance(by: 10)
        #expect(await transport.requests(to: "/v1/quiz/submit").isEmpty, "nothing runs while it is hidden")
        await model.appeared()
        #expect(model.state["elapsed"] == .number(JSONNumber(3000)), "it catches up at once")
        for _ in 0..<500 where model.state["result"] == nil { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(await transport.requests(to: "/v1/quiz/submit").count == 1)
        #expect(app.phase == .ready)
    }

    @Test func anUnknownNameRunsNothingAndTheTimerGoesOn() async throws {
        let (clock, transport, model, app) = try await Self.shown(Self.document(tickActions: ["nope"], endActions: []))
        await Self.tick(clock, model)
        await Self.tick(clock, model)
        #expect(model.state["elapsed"] == .number(JSONNumber(2000)))
        #expect(await transport.requests(to: "/v1/quiz/tick").isEmpty)
        #expect(app.phase == .ready && model.phase == .ready)
    }

    @Test func aHideAndShowInOneTurnLosesNoEnd() async throws {
        let (clock, transport, model, app) = try await Self.shown(Self.document(tickActions: []))
        #expect(await clock.waitForSleepers(1, timeout: 5))
        model.disappeared()
        clock.advance(by: 10)
        await model.appeared()
        // Hidden again before the catch-up tick ran: the end is still to come.
        model.disappeared()
        await model.appeared()
        for _ in 0..<500 where model.state["result"] == nil { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(await transport.requests(to: "/v1/quiz/submit").count == 1, "the end action runs once")
        #expect(app.phase == .ready)
    }

    @Test func aTicksActionsLeaveTheBannerAndAClosedDocumentGoesNowhere() async throws {
        let (clock, _, model, app) = try await Self.shown(Self.document(tickActions: ["report"]))
        await model.apply(.error(message: "No se pudo guardar"))
        await Self.tick(clock, model)
        #expect(model.banner?.message == "No se pudo guardar", "an error stays until it is closed")
        await model.apply(.success(message: nil))
        #expect(model.banner?.kind == .error, "a result that says nothing leaves it")
        await model.load()
        #expect(model.banner == nil, "loading again starts without the last load's message")
        let shown = app.current
        model.closed()
        await model.apply(.navigateTo(screenKey: "elsewhere", params: [:], presentation: .push))
        #expect(app.current == shown, "an action that ends after the document closed navigates nowhere")
    }
}
