import DynamicUIModels
import Foundation

/// What a timer runner asks of the document it runs for (a screen's model or a node
/// document's).
@MainActor
protocol TimerHost: AnyObject {
    /// Writes a timer's elapsed and remaining milliseconds where the document reads them;
    /// returns the names whose value changed.
    func writeTimerValues(_ values: [(String, JSONValue)], of id: String) -> Set<String>
    /// What names a timer changed set off (a screen's triggers); called after each write.
    func timerValuesChanged(_ names: Set<String>) async
    /// Runs one of a tick's or an end's actions, as the timer names it.
    func performTimerAction(_ action: String) async
    /// A command changed nothing: the timer is unknown, or too many already run.
    func timerCommandRefused(_ refusal: TimerBank.Refusal, id: String)
}

/// Runs one document's timers on a clock, the same way in both dialects: `TimerBank` decides
/// what each command, tick and end does; the runner sleeps until each tick, writes the time and
/// runs the tick's and the end's actions through its host. Hidden or in the background, timers
/// keep their time but do not tick; shown again, each catches up at once.
@MainActor
final class TimerRunner {
    /// The timers, as values.
    private(set) var bank = TimerBank()
    /// The sleeping tick of each running timer.
    private var tasks: [String: Task<Void, Never>] = [:]
    /// The timers whose tick is running its actions: a tick that shows the document again does
    /// not run them a second time meanwhile.
    private var acting: Set<String> = []
    private let clock: any DynamicUIClock
    /// The document the timers run for.
    weak var host: (any TimerHost)?

    /// A runner on `clock` (the app's; a `ManualClock` in tests).
    init(clock: any DynamicUIClock) {
        self.clock = clock
    }

    /// Declares `definitions` (clamped; a repeated id keeps the first) in place of the timers
    /// before, and starts those marked `autostart`.
    func declare(_ definitions: [TimerDefinition]) async {
        stop()
        bank = TimerBank(definitions, keeping: bank)
        for definition in definitions where definition.autostart == true { await command(.start, timer: definition.id) }
    }

    /// Runs `command` on the timer `id`, writes its time and sleeps until its next tick; an
    /// unknown timer, or a start beyond `TimerDefinition.maxLiveTimers`, changes nothing.
    func command(_ command: TimerCommand, timer id: String) async {
        do throws(TimerBank.Refusal) {
            try bank.apply(command, to: id, at: now)
        } catch {
            host?.timerCommandRefused(error, id: id)
            return
        }
        await host?.timerValuesChanged(restart(id))
    }

    /// Sets the timer `id` to end at `end`, counting down from now (see `TimerBank.bind`); a
    /// running timer ticks on toward it. Returns the names its time changed: the caller runs
    /// what they set off once it has bound every timer.
    func bind(_ id: String, toEnd end: Date) -> Set<String> {
        guard bank.timers[id] != nil else { return [] }
        bank.bind(id, toEnd: end.timeIntervalSince1970, at: now)
        return restart(id)
    }

    /// Stops every timer (the document is gone for good); what they counted stays written.
    func stop() {
        cancelTasks()
        bank.stopAll()
    }

    /// The document was hidden (covered, another tab) or shown again.
    func setHidden(_ hidden: Bool) {
        guard bank.hidden != hidden else { return }
        bank.hidden = hidden
        resume()
    }

    /// The app went to the background or came back.
    func setInBackground(_ inBackground: Bool) {
        guard bank.inBackground != inBackground else { return }
        bank.inBackground = inBackground
        resume()
    }

    /// Whether running timers wait instead of ticking.
    var isSuspended: Bool { bank.isSuspended }

    /// The time timers count by: the clock's wall time, which keeps going while the device
    /// sleeps (a locked phone does not stretch a countdown).
    private var now: Double { clock.now().timeIntervalSince1970 }

    /// Writes the time of `id` through the host; returns the names that changed.
    private func write(_ id: String) -> Set<String> {
        let values = bank.values(of: id, at: now)
        guard !values.isEmpty, let host else { return [] }
        return host.writeTimerValues(values, of: id)
    }

    /// After a command or a bind: the time is written and the sleeping tick gives way to one
    /// for the new schedule. Returns the names the write changed.
    private func restart(_ id: String) -> Set<String> {
        tasks[id]?.cancel()
        tasks[id] = nil
        let changed = write(id)
        schedule(id)
        return changed
    }

    private func cancelTasks() {
        for task in tasks.values { task.cancel() }
        tasks = [:]
    }

    /// Cancels the sleeping ticks and, when no longer suspended, writes each running timer's
    /// time at once; its tick (its end, its actions) runs right after, unless the document is
    /// hidden again first. What the write changed sets off its triggers either way, once. A
    /// timer whose tick is running its actions schedules itself when they end.
    private func resume() {
        cancelTasks()
        guard !bank.isSuspended else { return }
        for id in bank.running where !acting.contains(id) {
            let written = write(id)
            tasks[id] = Self.independent { [weak self] in await self?.tick(id, carrying: written) }
        }
    }

    /// A tick's task: a flow of its own, so the triggers its write fires start a cascade at depth
    /// 0 even when a trigger's action started the timer.
    private static func independent(_ work: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        Task { await VariableRuntime.depth.withValue(0) { await work() } }
    }

    /// Sleeps until the timer's next tick or its end, then ticks.
    private func schedule(_ id: String) {
        guard let wait = bank.wait(for: id, at: now) else { return }
        let clock = self.clock
        tasks[id] = Self.independent { [weak self] in
            do { try await clock.sleep(seconds: Double(wait) / 1000) } catch { return }
            await self?.tick(id)
        }
    }

    /// A tick: the time written and what it changed set off, the tick actions run, then the end
    /// actions when the duration is reached. A command during those actions (a stop, a reset)
    /// ends this tick's work. The actions run to the end even if the document is hidden
    /// meanwhile (an end action, a quiz's submit, is not lost).
    /// `written` is what a catch-up wrote before this tick: its names count with the tick's.
    private func tick(_ id: String, carrying written: Set<String> = []) async {
        guard !Task.isCancelled, let tick = bank.tick(id, at: now) else {
            if !written.isEmpty { await host?.timerValuesChanged(written) }
            return
        }
        tasks[id] = nil
        acting.insert(id)
        defer { acting.remove(id) }
        await host?.timerValuesChanged(written.union(write(id)))
        for action in tick.actions where bank.isCurrent(id, generation: tick.generation) {
            await host?.performTimerAction(action)
        }
        // A command among the actions scheduled the next tick itself, unless a hide and show
        // meanwhile cancelled it (a timer acting is not resumed): then it is scheduled here.
        // An end that no command followed stays the end.
        guard tasks[id] == nil, !(tick.ended && bank.isCurrent(id, generation: tick.generation)) else { return }
        schedule(id)
    }
}
