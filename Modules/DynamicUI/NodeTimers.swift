import DynamicUIModels
import Foundation

/// One timer of a node document: its clamped definition, the milliseconds counted before the
/// current run, when the run began (the clock's wall time), and the wait for its next tick.
struct NodeTimer {
    var definition: TimerDefinition
    var banked = 0
    var runningSince: Double?
    var isPaused = false
    var task: Task<Void, Never>?
}

extension NodeScreenModel {
    /// Declares the timers of the document's root node (clamped, as a screen's) and starts those
    /// marked `autostart`. Their time is written to state: `value_variable` the elapsed and
    /// `remaining_variable` the remaining milliseconds.
    func startTimers(_ definitions: [TimerDefinition]) {
        stopTimers()
        timers = [:]
        for definition in definitions where timers[definition.id] == nil {
            timers[definition.id] = NodeTimer(definition: definition.clamped)
        }
        for definition in definitions where definition.autostart == true { command(.start, timer: definition.id) }
    }

    /// Stops every timer (the document closed); the state keeps their last values.
    public func stopTimers() {
        for id in timers.keys {
            timers[id]?.task?.cancel()
            timers[id]?.task = nil
            timers[id]?.runningSince = nil
        }
    }

    /// Stops the sleeping ticks while the document is hidden or in the background; when it is
    /// neither, each running timer catches up from the clock at once and ticks on its schedule.
    func timersSuspended(_ suspended: Bool) {
        for id in timers.keys.sorted() {
            timers[id]?.task?.cancel()
            timers[id]?.task = nil
            guard !suspended, timers[id]?.runningSince != nil else { continue }
            tick(id)
        }
    }

    /// Runs `command` on the timer `id`; an unknown timer, or a start beyond
    /// `TimerDefinition.maxLiveTimers`, is reported as the document's message and changes nothing.
    func command(_ command: TimerCommand, timer id: String) {
        guard var timer = timers[id] else {
            message = "no timer '\(id)'"
            messageIsError = true
            return
        }
        let live = timers.values.filter { $0.runningSince != nil }.count
        let starts = (command == .start && timer.runningSince == nil) || (command == .resume && timer.isPaused)
        if starts, live >= TimerDefinition.maxLiveTimers {
            message = "\(TimerDefinition.maxLiveTimers) timers already run; '\(id)' was not started"
            messageIsError = true
            return
        }
        let now = timerNow()
        timer.task?.cancel()
        timer.task = nil
        switch command {
        case .start, .reset:
            let running = command == .start || timer.runningSince != nil
            timer.banked = 0
            timer.isPaused = false
            timer.runningSince = running ? now : nil
        case .stop:
            timer.banked = 0
            timer.isPaused = false
            timer.runningSince = nil
        case .pause:
            guard let since = timer.runningSince else { break }
            timer.banked = elapsed(timer, since: since, now: now)
            timer.runningSince = nil
            timer.isPaused = true
        case .resume:
            guard timer.isPaused else { break }
            timer.isPaused = false
            timer.runningSince = now
        case .unknown:
            break
        }
        timers[id] = timer
        writeTime(of: id)
        schedule(id)
    }

    private func timerNow() -> Double { (app?.configuration.clock ?? SystemClock()).now().timeIntervalSince1970 }

    private func elapsed(_ timer: NodeTimer, since: Double, now: Double) -> Int {
        let run = WireNumber.int(((now - since) * 1000).rounded())
        let total = timer.banked.addingReportingOverflow(max(0, run))
        let counted = total.overflow ? Int.max : total.partialValue
        return timer.definition.duration.map { min(counted, $0) } ?? counted
    }

    /// Writes the elapsed and remaining milliseconds of `id` to its state keys.
    private func writeTime(of id: String) {
        guard let timer = timers[id] else { return }
        let counted = timer.runningSince.map { elapsed(timer, since: $0, now: timerNow()) } ?? timer.banked
        var changes: [(String, JSONValue)] = []
        if let key = timer.definition.valueVariable { changes.append((key, .number(JSONNumber(counted)))) }
        if let key = timer.definition.remainingVariable, let duration = timer.definition.duration {
            changes.append((key, .number(JSONNumber(max(0, duration - counted)))))
        }
        setTimerState(changes)
    }

    /// Sleeps until the next tick or the end, writes the time, and again until the end.
    private func schedule(_ id: String) {
        guard let timer = timers[id], let since = timer.runningSince, !isSuspended else { return }
        let counted = elapsed(timer, since: since, now: timerNow())
        var wait: Int?
        if let tick = timer.definition.tickInterval { wait = tick - counted % tick }
        if let duration = timer.definition.duration { wait = min(wait ?? Int.max, max(0, duration - counted)) }
        guard let wait else { return }
        let clock = app?.configuration.clock ?? SystemClock()
        timers[id]?.task = Task { [weak self] in
            do { try await clock.sleep(seconds: Double(wait) / 1000) } catch { return }
            self?.tick(id)
        }
    }

    private func tick(_ id: String) {
        guard let timer = timers[id], let since = timer.runningSince, !Task.isCancelled else { return }
        let counted = elapsed(timer, since: since, now: timerNow())
        timers[id]?.task = nil
        if let duration = timer.definition.duration, counted >= duration {
            timers[id]?.runningSince = nil
            timers[id]?.banked = counted
        }
        writeTime(of: id)
        schedule(id)
    }
}
