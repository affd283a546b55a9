import DynamicUIModels
import DynamicUITesting
import Foundation
import Testing

@testable import DynamicUI

/// A host whose timer actions wait until the test lets them finish.
@MainActor
final class HeldHost: TimerHost {
    var performed: [String] = []
    var written: [Set<String>] = []
    /// The trigger depth each write was told at.
    var depths: [Int] = []
    private var waiting: CheckedContinuation<Void, Never>?

    func writeTimerValues(_ values: [(String, JSONValue)], of id: String) -> Set<String> { Set(values.map(\.0)) }
    func timerValuesChanged(_ names: Set<String>) async {
        written.append(names)
        depths.append(VariableRuntime.depth.get())
    }
    func performTimerAction(_ action: String) async {
        performed.append(action)
        await withCheckedContinuation { waiting = $0 }
    }
    func timerCommandRefused(_ refusal: TimerBank.Refusal, id: String) {}

    /// Lets the action that waits finish.
    func release() {
        waiting?.resume()
        waiting = nil
    }
}

/// The timer runner both dialects use, with an action still running when the timer is
/// commanded and the document hidden and shown.
@Suite("Timer runner")
@MainActor
struct TimerRunnerTests {
    /// A runner on a manual clock for `host`, its one timer (ticking each second) declared and
    /// started.
    static func started(_ host: HeldHost, tickActions: [String]) async throws -> (ManualClock, TimerRunner) {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let runner = TimerRunner(clock: clock)
        runner.host = host
        let timer = try TimerDefinition(
            json: [
                "id": "t", "duration": 60000, "tick_interval": 1000, "value_variable": "elapsed",
                "tick_actions": .array(tickActions.map { .string($0) }), "autostart": true,
            ])
        await runner.declare([timer])
        return (clock, runner)
    }

    @Test func aTimerResetDuringItsTicksActionAndShownAgainMeanwhileTicksOn() async throws {
        let host = HeldHost()
        let (clock, runner) = try await Self.started(host, tickActions: ["save"])
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 1)
        for _ in 0..<1000 where host.performed.isEmpty { await Task.yield() }
        #expect(host.performed == ["save"], "the tick's action runs, and waits")
        // Meanwhile: a reset (which schedules the next tick), then a hide and a show (which
        // cancel it, and do not resume a timer whose tick is acting).
        await runner.command(.reset, timer: "t")
        runner.setHidden(true)
        runner.setHidden(false)
        host.release()
        #expect(await clock.waitForSleepers(1, timeout: 5), "when the action ends, the timer sleeps toward its next tick")
        clock.advance(by: 1)
        for _ in 0..<1000 where host.performed.count < 2 { await Task.yield() }
        #expect(host.performed == ["save", "save"], "and ticks")
        host.release()
        runner.stop()
    }

    @Test func aCatchUpRunsTheTriggersOfItsWriteOnceWithItsTick() async throws {
        let host = HeldHost()
        let (clock, runner) = try await Self.started(host, tickActions: [])
        host.written = []
        runner.setHidden(true)
        clock.advance(by: 5)
        runner.setHidden(false)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        #expect(host.written == [["elapsed"]], "one run of the triggers for the catch-up and its tick")
        runner.stop()
    }

    @Test func aTimerStartedByATriggerTicksAtDepthZero() async throws {
        let host = HeldHost()
        let (clock, runner) = try await Self.started(host, tickActions: [])
        runner.stop()
        // Started by an action of a trigger seven deep: its ticks are flows of their own.
        await VariableRuntime.depth.withValue(7) { await runner.command(.start, timer: "t") }
        host.depths = []
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 1)
        for _ in 0..<1000 where host.depths.isEmpty { await Task.yield() }
        #expect(host.depths == [0])
        runner.stop()
    }
}
