import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation

extension NodeScreenModel {
    /// Declares the timers of the document's root node (clamped, as a screen's) and starts those
    /// marked `autostart`. Their time is written to state: `value_variable` the elapsed and
    /// `remaining_variable` the remaining milliseconds.
    func startTimers(_ definitions: [TimerDefinition]) {
        stopTimers()
        timerBank = TimerBank(definitions, keeping: timerBank)
        for definition in definitions where definition.autostart == true { command(.start, timer: definition.id) }
    }

    /// Stops every timer (the document closed); the state keeps their last values.
    public func stopTimers() {
        for task in timerTasks.values { task.cancel() }
        timerTasks = [:]
        timerBank.stopAll()
    }

    /// Stops the sleeping ticks while the document is hidden or in the background; when it is
    /// neither, each running timer catches up from the clock at once and ticks on its schedule.
    func timersSuspended(_ suspended: Bool) {
        // Only a change counts: an appearance of a shown document ticks nothing early.
        guard timerBank.hidden != suspended else { return }
        for task in timerTasks.values { task.cancel() }
        timerTasks = [:]
        timerBank.hidden = suspended
        guard !suspended else { return }
        for id in timerBank.running where !actingTimers.contains(id) {
            // The time is written now; the tick (its end, its actions) runs right after, unless
            // the document is hidden again first.
            setTimerState(timerBank.values(of: id, at: timerNow()))
            timerTasks[id] = Task { [weak self] in await self?.tick(id) }
        }
    }

    /// Runs `command` on the timer `id`; an unknown timer, or a start beyond
    /// `TimerDefinition.maxLiveTimers`, is reported as the document's banner and changes nothing.
    func command(_ command: TimerCommand, timer id: String) {
        do throws(TimerBank.Refusal) {
            try timerBank.apply(command, to: id, at: timerNow())
        } catch {
            banner = Banner(kind: .error, message: error.description)
            return
        }
        timerTasks[id]?.cancel()
        timerTasks[id] = nil
        setTimerState(timerBank.values(of: id, at: timerNow()))
        schedule(id)
    }

    private func timerNow() -> Double { (app?.configuration.clock ?? SystemClock()).now().timeIntervalSince1970 }

    /// Sleeps until the next tick or the end, writes the time, and again until the end.
    private func schedule(_ id: String) {
        guard let wait = timerBank.wait(for: id, at: timerNow()) else { return }
        let clock = app?.configuration.clock ?? SystemClock()
        timerTasks[id] = Task { [weak self] in
            do { try await clock.sleep(seconds: Double(wait) / 1000) } catch { return }
            await self?.tick(id)
        }
    }

    /// A tick: the time written and the tick actions run (the document's named actions), then
    /// the end actions when the duration is reached. A command during those actions (a stop, a
    /// reset) ends this tick's work.
    private func tick(_ id: String) async {
        guard !Task.isCancelled, let tick = timerBank.tick(id, at: timerNow()) else { return }
        timerTasks[id] = nil
        setTimerState(timerBank.values(of: id, at: timerNow()))
        await finish(tick, of: id)
    }

    /// Runs a tick's actions, then sleeps until the next tick unless the timer ended or a
    /// command reached it meanwhile.
    private func finish(_ tick: TimerBank.Tick, of id: String) async {
        // They run to the end even if the document is hidden meanwhile, as on a screen (an end
        // action, a quiz's submit, is not lost); one the document closed navigates nowhere.
        actingTimers.insert(id)
        for name in tick.actions where timerBank.isCurrent(id, generation: tick.generation) {
            await perform(CompiledNode.namedActionKey(name))
        }
        actingTimers.remove(id)
        guard !tick.ended, timerBank.isCurrent(id, generation: tick.generation), timerTasks[id] == nil else { return }
        schedule(id)
    }
}
