import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITesting
import Foundation
import Testing

/// Screen timers on the injectable clock: ticks write the elapsed and remaining time, end
/// actions run once, wire values are clamped, and the background suspends them.
@Suite("Timers")
@MainActor
struct TimerTests {
    static func screen(timers: [JSONValue], triggers: [JSONValue] = []) -> JSONValue {
        [
            "screen_id": "scr_timer", "screen_key": "timed", "screen_name": "Evaluación", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-25T00:00:00Z",
            "variables": [
                ["name": "remaining", "type": "integer"], ["name": "elapsed", "type": "integer"],
                ["name": "finished", "type": "boolean"], ["name": "warned", "type": "boolean"],
            ],
            "timers": .array(timers), "triggers": .array(triggers),
            "template": [
                "zones": [
                    [
                        "id": "clock", "type": "container",
                        "slots": [["id": "left", "control_type": "label", "value": "{variables.remaining | duration:mm:ss}"]],
                    ]
                ]
            ],
            "actions": [
                ["id": "done", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "finished", "value": true]],
                ["id": "warn", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "warned", "value": true]],
                ["id": "start", "trigger": "SCREEN", "type": "TIMER", "config": ["id": "t", "command": "start"]],
                ["id": "pause", "trigger": "SCREEN", "type": "TIMER", "config": ["id": "t", "command": "pause"]],
                ["id": "resume", "trigger": "SCREEN", "type": "TIMER", "config": ["id": "t", "command": "resume"]],
                ["id": "reset", "trigger": "SCREEN", "type": "TIMER", "config": ["id": "t", "command": "reset"]],
                ["id": "stop", "trigger": "SCREEN", "type": "TIMER", "config": ["id": "t", "command": "stop"]],
            ],
        ]
    }

    static func shown(
        _ screen: JSONValue, observers: DynamicUIObservers = .none
    ) async throws -> (Fixture, DynamicScreenViewModel) {
        let fixture = Fixture()
        return (fixture, try await fixture.shown(screen, observers: observers))
    }

    /// Moves the clock and waits until the timer sleeps again (its tick ran).
    static func advance(_ clock: ManualClock, by seconds: Double, sleepers: Int = 1) async {
        #expect(await clock.waitForSleepers(sleepers, timeout: 5), "the timer sleeps before the clock moves")
        clock.advance(by: seconds)
        #expect(await clock.waitForSleepers(sleepers, timeout: 5))
        await settle()
    }

    @Test func aCountdownTicksWarnsAtTheLastSecondAndEndsOnce() async throws {
        let countdown: JSONValue = [
            "id": "t", "duration": 3000, "tick_interval": 1000, "remaining_variable": "remaining", "value_variable": "elapsed",
            "end_actions": ["done"], "autostart": true,
        ]
        let (fixture, model) = try await Self.shown(
            Self.screen(timers: [countdown], triggers: [["condition": "variables.remaining <= 1000", "actions": ["warn"]]]))
        let clock = fixture.harness.clock
        #expect(model.variables["remaining"] == 3000)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        await Self.advance(clock, by: 1)
        #expect(model.variables["remaining"] == 2000 && model.variables["elapsed"] == 1000)
        #expect(model.variables["warned"] == false)
        await Self.advance(clock, by: 1)
        #expect(model.variables["remaining"] == 1000 && model.variables["warned"] == true)
        clock.advance(by: 1)
        for _ in 0..<50 where model.variables["finished"] != true { await Task.yield() }
        #expect(model.variables["remaining"] == 0 && model.variables["finished"] == true)
        #expect(clock.sleeperCount == 0, "an ended timer does not tick")
    }

    @Test func aZeroTickAndANegativeDurationAreClamped() async throws {
        let fast: JSONValue = ["id": "t", "tick_interval": 0, "value_variable": "elapsed", "autostart": true]
        let (fixture, model) = try await Self.shown(Self.screen(timers: [fast]))
        let clock = fixture.harness.clock
        #expect(await clock.waitForSleepers(1, timeout: 5))
        #expect(clock.sleeps.last == 0.1, "a tick of 0 waits the minimum, 100 ms")
        await Self.advance(clock, by: 0.1)
        #expect(model.variables["elapsed"] == 100)
        #expect(TimerDefinition(id: "x", duration: -5, tickInterval: -1).clamped.duration == 0)
        #expect(TimerDefinition(id: "x", duration: .max, tickInterval: .min).clamped.tickInterval == 100)
        #expect(TimerDefinition(id: "x", duration: .max).clamped.duration == TimerDefinition.maximumDuration)
    }

    @Test func pauseResumeResetAndTheBackground() async throws {
        let timer: JSONValue = ["id": "t", "duration": 60000, "tick_interval": 1000, "value_variable": "elapsed"]
        let (fixture, model) = try await Self.shown(Self.screen(timers: [timer]))
        let clock = fixture.harness.clock
        #expect(clock.sleeperCount == 0, "not started without autostart")
        await model.perform(actionId: "start")
        await Self.advance(clock, by: 2)
        #expect(model.variables["elapsed"] == 2000)
        await model.perform(actionId: "pause")
        clock.advance(by: 30)
        await settle()
        #expect(model.variables["elapsed"] == 2000, "paused: the time does not count")
        await model.perform(actionId: "resume")
        await Self.advance(clock, by: 1)
        #expect(model.variables["elapsed"] == 3000)
        // In the background nothing ticks; back, the timer catches up from the clock at once.
        await model.appDidChange(isActive: false)
        clock.advance(by: 10)
        await settle()
        #expect(model.variables["elapsed"] == 3000)
        await model.appDidChange(isActive: true)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        await settle()
        #expect(model.variables["elapsed"] == 13000)
        await model.perform(actionId: "reset")
        #expect(model.variables["elapsed"] == 0)
        await model.perform(actionId: "stop")
        await settle()
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCoveredScreenKeepsCountingAndCatchesUpWhenShownAgain() async throws {
        let timer: JSONValue = [
            "id": "t", "duration": 10000, "tick_interval": 1000, "value_variable": "elapsed", "end_actions": ["done"],
            "autostart": true,
        ]
        let (fixture, model) = try await Self.shown(Self.screen(timers: [timer]))
        let clock = fixture.harness.clock
        await Self.advance(clock, by: 1)
        #expect(model.variables["elapsed"] == 1000)
        // Another screen pushed over this one: no ticks, but the time counts.
        await model.screenDidChange(isVisible: false)
        #expect(clock.sleeperCount == 0)
        clock.advance(by: 4)
        await settle()
        #expect(model.variables["elapsed"] == 1000)
        await model.screenDidChange(isVisible: true)
        #expect(model.variables["elapsed"] == 5000)
        // Covered again until past the end: shown, it ends at once, once.
        await model.screenDidChange(isVisible: false)
        clock.advance(by: 60)
        await model.screenDidChange(isVisible: true)
        #expect(model.variables["elapsed"] == 10000, "the time is written at once")
        // The end (its actions) runs right after, in its own task, unless hidden again first.
        for _ in 0..<500 where model.variables["finished"] != true { await Task.yield() }
        #expect(model.variables["finished"] == true)
        #expect(clock.sleeperCount == 0)
        // A stop during the end's actions would have ended them; a restart runs again.
        await model.perform(actionId: "start")
        #expect(model.variables["elapsed"] == 0)
        model.stopTimers()
    }

    @Test func aHideAndShowInOneTurnRunsTheEndOnce() async throws {
        let timer: JSONValue = [
            "id": "t", "duration": 3000, "tick_interval": 1000, "value_variable": "elapsed", "end_actions": ["done"],
            "autostart": true,
        ]
        let recorder = RecordingObserver()
        let (fixture, model) = try await Self.shown(Self.screen(timers: [timer]), observers: DynamicUIObservers([recorder]))
        let clock = fixture.harness.clock
        #expect(await clock.waitForSleepers(1, timeout: 5))
        await model.screenDidChange(isVisible: false)
        clock.advance(by: 10)
        await model.screenDidChange(isVisible: true)
        // Hidden again before the catch-up tick ran: the end is still to come, and comes once.
        await model.screenDidChange(isVisible: false)
        #expect(model.variables["finished"] != true)
        await model.screenDidChange(isVisible: true)
        await model.screenDidChange(isVisible: true)
        for _ in 0..<500 where model.variables["finished"] != true { await Task.yield() }
        await settle()
        #expect(model.variables["elapsed"] == 3000 && model.variables["finished"] == true)
        #expect(recorder.actions.filter { $0.action == "done" }.count == 1)
    }

    @Test func atMostEightTimersRunAtOnce() async throws {
        let recorder = RecordingObserver()
        let timers: [JSONValue] = (0..<10).map { ["id": .string("t\($0)"), "tick_interval": 1000, "autostart": true] }
        let (fixture, model) = try await Self.shown(Self.screen(timers: timers), observers: DynamicUIObservers([recorder]))
        #expect(await fixture.harness.clock.waitForSleepers(TimerDefinition.maxLiveTimers, timeout: 5))
        await settle()
        #expect(fixture.harness.clock.sleeperCount == TimerDefinition.maxLiveTimers)
        #expect(recorder.errors.filter { $0.message.contains("timers already run") }.count == 2)
        model.stopTimers()
    }
}

/// The EduGo assessment: a 15-minute countdown that warns at one minute and sends the answers
/// as they are when the time runs out.
@Suite("EduGo: the timed assessment")
@MainActor
struct TimedAssessmentTests {
    @Test func theCountdownWarnsAtOneMinuteAndSubmitsWhenTimeRunsOut() async throws {
        let fixture = Fixture()
        let assessment = try #require(try catalog.data("assessments").arrayValue?.first)
        let material = try #require(assessment["material_id"]?.stringValue)
        await fixture.harness.transport.on(.get, "/v1/materials/\(material)/assessment", .json(200, assessment))
        await fixture.harness.transport.on(
            .post, "/v1/materials/\(material)/assessment/attempts", .json(201, ["id": "att-new", "score": 40]))
        fixture.navigation.push(Route(screenKey: "assessments-list"))
        let route = Route(screenKey: "assessment-take", params: ["id": material])
        fixture.navigation.push(route)
        let model = try await fixture.model(catalogRoute: route)
        await model.load()
        let clock = fixture.harness.clock
        #expect(model.variables["remaining"] == 900_000)
        let text = { TextRenderer().render(try model.render(options: RenderOptions())) }
        #expect(try text().contains("15:00") && !(try text()).contains("Queda un minuto"))
        model.formState.setValue("b", for: "q1")

        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 14 * 60)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        await settle()
        #expect(model.variables["remaining"] == 60_000 && model.variables["warned"] == true)
        #expect(try text().contains("01:00") && (try text()).contains("Queda un minuto"))
        #expect(await fixture.harness.transport.requests(to: "/v1/materials/\(material)/assessment/attempts").isEmpty)

        clock.advance(by: 60)
        for _ in 0..<200
        where await fixture.harness.transport.requests(to: "/v1/materials/\(material)/assessment/attempts").isEmpty {
            await Task.yield()
        }
        let sent = await fixture.harness.transport.requests(to: "/v1/materials/\(material)/assessment/attempts")
        #expect(sent.count == 1, "sent once, unanswered questions included")
        #expect(model.variables["remaining"] == 0)
        #expect(clock.sleeperCount == 0)
    }
}

/// The EduGo teacher dashboard: every 30 seconds it asks for updates and applies the patch it
/// gets, so news such as a material that finished processing shows in place, as a notice of its
/// own: the metric cards keep their captions.
@Suite("EduGo: the dashboard that updates in place")
@MainActor
struct DashboardUpdateTests {
    /// Every node of `root`, depth first.
    /// The metric cards drawn, by caption: their values.
    static func metrics(in root: RenderNode) -> [String: String] {
        var metrics: [String: String] = [:]
        for node in root.nodes() {
            if case .metric(let label, let value, _) = node.kind { metrics[label] = value }
        }
        return metrics
    }

    /// The texts drawn at or below `root`.
    static func texts(in root: RenderNode) -> [String] {
        root.nodes().compactMap { node in
            if case .text(let text, _, _) = node.kind { return text }
            return nil
        }
    }

    @Test func aTimerFetchesThePatchAndANoticeShowsBesideUnchangedCards() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/stats/global", .json(200, try catalog.data("stats_global")))
        await fixture.harness.transport.on(
            .get, "/v1/dashboard/teacher/updates", .json(200, try catalog.data("dashboard_teacher_updates")))
        let model = try await fixture.model("dashboard-teacher")
        await model.load()
        let tree = { try model.render(options: RenderOptions()) }
        let before = try tree()
        let cards = Self.metrics(in: before)
        #expect(cards["Materiales"] != nil, "the materials card as loaded")
        #expect(!before.nodes().contains { $0.id == "zone:update_notice" }, "no notice before any news")
        let clock = fixture.harness.clock
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 30)
        #expect(await clock.waitForSleepers(1, timeout: 5), "the timer ticks again after the patch")
        let shown = { (try? tree()).map { $0.nodes().contains { $0.id == "zone:update_notice" } } ?? false }
        for _ in 0..<100 where !shown() { await Task.yield() }
        let after = try tree()
        let notice = try #require(after.nodes().first { $0.id == "zone:update_notice" }, "the notice shows")
        #expect(Self.texts(in: notice) == ["«Fracciones equivalentes» ya publicado"])
        #expect(Self.metrics(in: after) == cards, "every card keeps its caption and its figure")
        #expect(!TextRenderer().render(after).contains("Materiales ·"), "the news is not in a card's caption")
        #expect(await fixture.harness.transport.requests(to: "/v1/dashboard/teacher/updates").count == 1)
        #expect(await fixture.harness.transport.requests(to: "/v1/screens/dashboard-teacher").count == 1, "no reload")
        model.stopTimers()
    }
}
