import DynamicUIModels
import Foundation

extension DynamicScreenViewModel {
    /// Declares the timers of `definition` (clamped) and starts those marked `autostart`.
    func startTimers(of definition: ScreenDefinition) async {
        stopTimers()
        timerBank = TimerBank(definition.timers ?? [], keeping: timerBank)
        for timer in definition.timers ?? [] where timer.autostart == true { await command(.start, timer: timer.id) }
    }

    /// Runs `command` on the timer `id`, writes its time and runs the triggers that fire; an
    /// unknown timer, or a start (or resume) beyond `TimerDefinition.maxLiveTimers`, is
    /// reported and changes nothing.
    func command(_ command: TimerCommand, timer id: String) async {
        do throws(TimerBank.Refusal) {
            try timerBank.apply(command, to: id, at: timerTime())
        } catch {
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers", message: "\(error)")))
            return
        }
        timerTasks[id]?.cancel()
        timerTasks[id] = nil
        let changed = writeTime(of: id)
        schedule(id)
        await runTriggers(changed: changed)
    }

    /// Stops every timer (the screen is gone for good); the variables keep their last values.
    public func stopTimers() {
        for task in timerTasks.values { task.cancel() }
        timerTasks = [:]
        timerBank.stopAll()
    }

    /// Binds the timers that declare `endsAtField` to the end their data now gives: each counts
    /// down to it from now (0 left when it is past, at most `TimerDefinition.maximumDuration`),
    /// so a reload, or a refused submit that reloads, keeps the time left instead of starting
    /// over. A timer whose data lacks the field keeps its declared duration; a value that is no
    /// date is reported.
    func bindTimersToData() async {
        var changed = Set<String>()
        for id in timerBank.timers.keys.sorted() {
            guard let timer = timerBank.timers[id], let field = timer.definition.endsAtField else { continue }
            guard let value = data[path: field], !value.isNull else { continue }
            guard let end = Self.endDate(value) else {
                let message = "'\(field)' is no date: \(JSONWriter().string(from: value).prefix(40))"
                observers.emit(
                    .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers.\(id)", message: message)))
                continue
            }
            changed.formUnion(bind(id, toEnd: end))
        }
        await runTriggers(changed: changed)
    }

    /// Sets the timer `id` to end at `end`; returns the variables that changed.
    private func bind(_ id: String, toEnd end: Date) -> Set<String> {
        guard timerBank.timers[id] != nil else { return [] }
        timerBank.bind(id, toEnd: end.timeIntervalSince1970, at: timerTime())
        timerTasks[id]?.cancel()
        timerTasks[id] = nil
        let changed = writeTime(of: id)
        schedule(id)
        return changed
    }

    /// A date from the wire: ISO 8601 (with or without fractions of a second) or milliseconds
    /// since 1970.
    static func endDate(_ value: JSONValue) -> Date? {
        if let milliseconds = value.doubleValue, value.stringValue == nil {
            return milliseconds.isFinite ? Date(timeIntervalSince1970: milliseconds / 1000) : nil
        }
        guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 64 else { return nil }
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// The screen was covered (another screen pushed over it, a tab switch) or shown again:
    /// running timers stop ticking while it is hidden and, shown again, catch up from the clock
    /// at once (a countdown keeps counting while the user is elsewhere).
    public func screenDidChange(isVisible: Bool) async {
        guard timerBank.hidden == isVisible else { return }
        timerBank.hidden = !isVisible
        visibilityTracker.set(suspended: timerBank.isSuspended)
        await resumeTicking()
    }

    /// The app went to the background or came back (`appDidChange(isActive:)`).
    func timersDidChange(inBackground: Bool) async {
        guard timerBank.inBackground != inBackground else { return }
        timerBank.inBackground = inBackground
        visibilityTracker.set(suspended: timerBank.isSuspended)
        await resumeTicking()
    }

    /// Cancels the sleeping ticks, and when no longer suspended, ticks each running timer at
    /// once (catching up) and again on its schedule.
    private func resumeTicking() async {
        for task in timerTasks.values { task.cancel() }
        timerTasks = [:]
        guard !timerBank.isSuspended else { return }
        for id in timerBank.running { await tick(id) }
    }

    /// The time timers count by: the clock's wall time, which keeps going while the device
    /// sleeps (a locked phone does not stretch a countdown).
    private func timerTime() -> Double { clock.now().timeIntervalSince1970 }

    /// The elapsed and remaining milliseconds of `id` written to its variables; returns the
    /// names whose value changed.
    @discardableResult
    private func writeTime(of id: String) -> Set<String> {
        let values = timerBank.values(of: id, at: timerTime())
        guard !values.isEmpty else { return [] }
        do throws(VariableError) {
            return try assignVariables(values, at: JSONLocation(components: [.key("timers"), .key(id)]))
        } catch {
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers.\(id)", message: "\(error)")))
            return []
        }
    }

    /// Sleeps until the timer's next tick or its end, then ticks.
    private func schedule(_ id: String) {
        guard let wait = timerBank.wait(for: id, at: timerTime()) else { return }
        let clock = self.clock
        timerTasks[id] = Task { [weak self] in
            do { try await clock.sleep(seconds: Double(wait) / 1000) } catch { return }
            await self?.tick(id)
        }
    }

    /// A tick: the time written, the triggers it fires and the tick actions run, then the end
    /// actions when the duration is reached. A command during those actions (a stop, a reset)
    /// ends this tick's work.
    private func tick(_ id: String) async {
        guard !Task.isCancelled, let tick = timerBank.tick(id, at: timerTime()) else { return }
        timerTasks[id] = nil
        await runTriggers(changed: writeTime(of: id))
        for action in tick.actions where timerBank.isCurrent(id, generation: tick.generation) {
            await perform(actionId: action)
        }
        guard !tick.ended, timerBank.isCurrent(id, generation: tick.generation), timerTasks[id] == nil else { return }
        schedule(id)
    }
}
