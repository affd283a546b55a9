import DynamicUI
import DynamicUIModels
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

/// Visibility and disappear actions on the injectable clock: a share held long enough fires,
/// one that drops first does not, log limits hold, a covered screen counts as hidden, and
/// hostile numbers are clamped.
@Suite("Visibility actions")
@MainActor
struct VisibilityTests {
    static func screen(appear: [JSONValue], disappear: [JSONValue] = []) -> JSONValue {
        [
            "screen_id": "scr_seen", "screen_key": "seen", "screen_name": "Inicio", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-26T00:00:00Z",
            "variables": [["name": "seen", "type": "integer"]],
            "template": [
                "zones": [
                    [
                        "id": "promo", "type": "container", "visibility_actions": .array(appear),
                        "disappear_actions": .array(disappear),
                        "slots": [["id": "title", "control_type": "label", "value": "Vistas {variables.seen}"]],
                    ]
                ]
            ],
            "actions": [
                ["id": "count", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "seen", "increment": 1]]
            ],
        ]
    }

    static func shown(_ screen: JSONValue) async throws -> (ManualClock, DynamicScreenViewModel, RecordingObserver) {
        let recorder = RecordingObserver()
        let fixture = Fixture()
        let model = try await fixture.shown(screen, observers: DynamicUIObservers([recorder]))
        return (fixture.harness.clock, model, recorder)
    }

    /// The promo zone's node, as the views see it.
    static func promo(_ model: DynamicScreenViewModel) throws -> RenderNode {
        var pending = [try model.render(options: RenderOptions())]
        var found: RenderNode?
        while let node = pending.popLast(), found == nil {
            if node.id == "zone:promo" { found = node }
            pending += node.children
        }
        return try #require(found)
    }

    static func disappearances(_ recorder: RecordingObserver) -> [String] {
        recorder.events.compactMap { if case .disappearance(_, let logId) = $0 { logId } else { nil } }
    }

    @Test func aShareHeldForTheDurationFiresOnceAndADropBeforeItDoesNot() async throws {
        let (clock, model, recorder) = try await Self.shown(
            Self.screen(appear: [["log_id": "promo.seen", "visibility_percentage": 50, "action_id": "count"]]))
        let node = try Self.promo(model)
        let visibility = try #require(node.visibility)
        #expect(visibility.appear.first?.visibilityDurationMs == 800 && visibility.appear.first?.logLimit == 1)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.3)
        await settle()
        #expect(clock.sleeperCount == 0, "30 % is not enough")
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.6)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        #expect(clock.sleeps.last == 0.8)
        clock.advance(by: 0.5)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.2)
        clock.advance(by: 0.5)
        await settle()
        #expect(recorder.impressions.isEmpty, "it dropped below 50 % before 800 ms")
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.9)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 0.8)
        for _ in 0..<50 where model.variables["seen"] != 1 { await Task.yield() }
        #expect(recorder.impressions.map(\.1) == ["promo.seen"])
        #expect(model.variables["seen"] == 1, "its action ran")
        // Out and back in: the log limit (1) holds.
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 1)
        await settle()
        #expect(clock.sleeperCount == 0 && recorder.impressions.count == 1)
    }

    @Test func aLogLimitOfTwoFiresTwiceAndZeroHasNoLimit() async throws {
        let (clock, model, recorder) = try await Self.shown(
            Self.screen(appear: [
                ["log_id": "twice", "log_limit": 2, "visibility_duration_ms": 100],
                ["log_id": "always", "log_limit": 0, "visibility_duration_ms": 100],
            ]))
        let node = try Self.promo(model)
        let visibility = try #require(node.visibility)
        for round in 1...3 {
            model.visibilityChanged(of: node.id, visibility: visibility, fraction: 1)
            #expect(await clock.waitForSleepers(round <= 2 ? 2 : 1, timeout: 5))
            clock.advance(by: 0.1)
            for _ in 0..<50 where recorder.impressions.count < min(round, 2) + round { await Task.yield() }
            model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0)
        }
        let fired = recorder.impressions.map(\.1)
        #expect(fired.filter { $0 == "twice" }.count == 2)
        #expect(fired.filter { $0 == "always" }.count == 3)
    }

    @Test func aDisappearActionNeedsTheElementSeenAndACoveredScreenCountsAsHidden() async throws {
        let (clock, model, recorder) = try await Self.shown(
            Self.screen(appear: [], disappear: [["log_id": "promo.gone", "visibility_duration_ms": 500, "log_limit": 0]]))
        let node = try Self.promo(model)
        let visibility = try #require(node.visibility)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0)
        await settle()
        #expect(clock.sleeperCount == 0, "never seen: nothing disappeared")
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.4)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 0.5)
        for _ in 0..<50 where Self.disappearances(recorder).isEmpty { await Task.yield() }
        #expect(Self.disappearances(recorder) == ["promo.gone"])
        // Seen again, then another screen covers this one.
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 1)
        await model.screenDidChange(isVisible: false)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 0.5)
        for _ in 0..<50 where Self.disappearances(recorder).count < 2 { await Task.yield() }
        #expect(Self.disappearances(recorder) == ["promo.gone", "promo.gone"])
    }

    @Test func aShareIsComparedExactlyAndAResumedScreenKeepsWhatWasShown() async throws {
        let (clock, model, recorder) = try await Self.shown(
            Self.screen(
                appear: [["log_id": "at29", "visibility_percentage": 29, "visibility_duration_ms": 100]],
                disappear: [["log_id": "gone", "visibility_duration_ms": 500]]))
        let node = try Self.promo(model)
        let visibility = try #require(node.visibility)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.29)
        #expect(await clock.waitForSleepers(1, timeout: 5), "29 % is 29 %, not 28.999…")
        clock.advance(by: 0.1)
        for _ in 0..<50 where recorder.impressions.isEmpty { await Task.yield() }
        #expect(recorder.impressions.map(\.1) == ["at29"])
        // The app leaves for a moment and comes back: the element is still there.
        await model.appDidChange(isActive: false)
        #expect(await clock.waitForSleepers(1, timeout: 5), "hidden: the disappear action waits")
        await model.appDidChange(isActive: true)
        clock.advance(by: 1)
        await settle()
        #expect(Self.disappearances(recorder).isEmpty, "back at once: the element never went away")
    }

    @Test func hostileNumbersAreClampedAndTheWatchedElementsBounded() async throws {
        let wild = VisibilityAction(logId: "x", visibilityPercentage: 500, visibilityDurationMs: -4, logLimit: -1)
        #expect(wild.clamped(disappear: false).visibilityPercentage == 100)
        #expect(wild.clamped(disappear: false).visibilityDurationMs == 0)
        #expect(wild.clamped(disappear: false).logLimit == VisibilityAction.maximumLogLimit)
        #expect(wild.clamped(disappear: true).visibilityPercentage == 99)
        let long = VisibilityAction(logId: "x", visibilityPercentage: -3, visibilityDurationMs: .max, logLimit: .max)
        #expect(long.clamped(disappear: false).visibilityPercentage == 1)
        #expect(long.clamped(disappear: false).visibilityDurationMs == VisibilityAction.maximumDuration)
        #expect(long.clamped(disappear: false).logLimit == VisibilityAction.maximumLogLimit)
        #expect(RenderVisibility(appear: [], disappear: nil) == nil)
        let many = Array(repeating: VisibilityAction(logId: "x"), count: 50)
        #expect(RenderVisibility(appear: many, disappear: many)?.appear.count == RenderVisibility.maximumActions)

        // A zero duration fires at once; NaN counts as hidden.
        let (clock, model, recorder) = try await Self.shown(
            Self.screen(appear: [["log_id": "now", "visibility_duration_ms": 0, "visibility_percentage": -20]]))
        let node = try Self.promo(model)
        let visibility = try #require(node.visibility)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: .nan)
        await settle()
        #expect(recorder.impressions.isEmpty)
        model.visibilityChanged(of: node.id, visibility: visibility, fraction: 0.02)
        for _ in 0..<50 where recorder.impressions.isEmpty { await Task.yield() }
        #expect(recorder.impressions.map(\.1) == ["now"], "1 % for 0 ms: at once, without sleeping")
        #expect(clock.sleeperCount == 0)
        // Rows scrolled by that wait for nothing and never fired are forgotten…
        for index in 0..<500 { model.visibilityChanged(of: "idle-\(index)", visibility: visibility, fraction: 0) }
        #expect(model.watchedElementCount == 1, "only the element that fired is kept")
        // …and past the bound, new elements are not watched (a hostile list of thousands of rows).
        for index in 0..<10_050 { model.visibilityChanged(of: "row-\(index)", visibility: visibility, fraction: 1) }
        #expect(model.watchedElementCount == 10_000)
    }
}
