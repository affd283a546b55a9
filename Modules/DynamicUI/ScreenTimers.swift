import DynamicUIModels
import Foundation

/// The state of a screen's timers, driven by the model's injectable clock.
struct TimerRuntime {
    /// One timer and where it is.
    struct Timer {
        /// The definition, clamped; a timer bound to its data's end (`endsAtField`) has its
        /// duration set from it.
        var definition: TimerDefinition
        /// Milliseconds counted before the current run (pauses keep them).
        var banked = 0
        /// The clock's time (seconds since 1970) when the current run began; `nil` when not running.
        var runningSince: Double?
        /// The task sleeping until the next tick or the end.
        var task: Task<Void, Never>?
        var isPaused = false
        /// Bumped by every command: a tick begun before one does not act after it.
        var generation = 0
    }

    var timers: [String: Timer] = [:]
    /// Whether the app is in the background, and whether the screen is hidden (another screen
    /// pushed over it): running timers keep their time but do not tick while either holds.
    var inBackground = false
    var hidden = false

    var isSuspended: Bool { inBackground || hidden }

    /// How many timers run now.
    var live: Int { timers.values.filter { $0.runningSince != nil }.count }
}

extension DynamicScreenViewModel {
    /// Declares the timers of `definition` (clamped) and starts those marked `autostart`.
    func startTimers(of definition: ScreenDefinition) async {
        stopTimers()
        var runtime = TimerRuntime()
        runtime.inBackground = timerRuntime.inBackground
        runtime.hidden = timerRuntime.hidden
        for timer in definition.timers ?? [] where runtime.timers[timer.id] == nil {
            runtime.timers[timer.id] = TimerRuntime.Timer(definition: timer.clamped)
        }
        timerRuntime = runtime
        for timer in definition.timers ?? [] where timer.autostart == true { await command(.start, timer: timer.id) }
    }

    /// Runs `command` on the timer `id`, writes its time and runs the triggers that fire; an
    /// unknown timer, or a start (or resume) beyond `TimerDefinition.maxLiveTimers`, is
    /// reported and changes nothing.
    func command(_ command: TimerCommand, timer id: String) async {
        guard var timer = timerRuntime.timers[id] else {
            observers.emit(
                .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers", message: "no timer '\(id)'")))
            return
        }
        let starts = (command == .start && timer.runningSince == nil) || (command == .resume && timer.isPaused)
        if starts, timerRuntime.live >= TimerDefinition.maxLiveTimers {
            let message = "\(TimerDefinition.maxLiveTimers) timers already run; '\(id)' was not started"
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers", message: message)))
            return
        }
        let now = timerTime()
        timer.task?.cancel()
        timer.task = nil
        timer.generation += 1
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
        timerRuntime.timers[id] = timer
        let changed = writeTime(of: id)
        schedule(id)
        await runTriggers(changed: changed)
    }

    /// Stops every timer (the screen is gone for good); the variables keep their last values.
    public func stopTimers() {
        for id in timerRuntime.timers.keys {
            timerRuntime.timers[id]?.task?.cancel()
            timerRuntime.timers[id]?.task = nil
            timerRuntime.timers[id]?.runningSince = nil
            timerRuntime.timers[id]?.isPaused = false
            timerRuntime.timers[id]?.generation += 1
        }
    }

    /// Binds the timers that declare `endsAtField` to the end their data now gives: each counts
    /// down to it from now (0 left when it is past, at most `TimerDefinition.maximumDuration`),
    /// so a reload, or a refused submit that reloads, keeps the time left instead of starting
    /// over. A timer whose data lacks the field keeps its declared duration; a value that is no
    /// date is reported.
    func bindTimersToData() async {
        var changed = Set<String>()
        for id in timerRuntime.timers.keys.sorted() {
            guard let timer = timerRuntime.timers[id], let field = timer.definition.endsAtField else { continue }
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
        guard var timer = timerRuntime.timers[id] else { return [] }
        let now = timerTime()
        let seconds = end.timeIntervalSince1970 - now
        let left = seconds.isFinite ? WireNumber.int((max(0, seconds) * 1000).rounded()) : 0
        let remaining = min(left, TimerDefinition.maximumDuration)
        timer.task?.cancel()
        timer.task = nil
        timer.generation += 1
        if timer.runningSince != nil {
            timer.banked = 0
            timer.runningSince = now
            timer.definition.duration = remaining
        } else {
            timer.definition.duration = min(timer.banked + remaining, TimerDefinition.maximumDuration)
        }
        timerRuntime.timers[id] = timer
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
        guard timerRuntime.hidden == isVisible else { return }
        timerRuntime.hidden = !isVisible
        visibilityTracker.set(suspended: timerRuntime.isSuspended)
        await resumeTicking()
    }

    /// The app went to the background or came back (`appDidChange(isActive:)`).
    func timersDidChange(inBackground: Bool) async {
        guard timerRuntime.inBackground != inBackground else { return }
        timerRuntime.inBackground = inBackground
        visibilityTracker.set(suspended: timerRuntime.isSuspended)
        await resumeTicking()
    }

    /// Cancels the sleeping ticks, and when no longer suspended, ticks each running timer at
    /// once (catching up) and again on its schedule.
    private func resumeTicking() async {
        for id in timerRuntime.timers.keys.sorted() {
            timerRuntime.timers[id]?.task?.cancel()
            timerRuntime.timers[id]?.task = nil
        }
        guard !timerRuntime.isSuspended else { return }
        for id in timerRuntime.timers.keys.sorted() where timerRuntime.timers[id]?.runningSince != nil {
            await tick(id)
        }
    }

    /// The time timers count by: the clock's wall time, which keeps going while the device
    /// sleeps (a locked phone does not stretch a countdown).
    private func timerTime() -> Double { clock.now().timeIntervalSince1970 }

    /// The milliseconds the timer has counted by `now` (never past its duration).
    private func elapsed(_ timer: TimerRuntime.Timer, since: Double, now: Double) -> Int {
        // Rounded: the times are large, and their difference carries a little floating-point error.
        let run = WireNumber.int(((now - since) * 1000).rounded())
        let total = timer.banked.addingReportingOverflow(max(0, run))
        let counted = total.overflow ? Int.max : total.partialValue
        return timer.definition.duration.map { min(counted, $0) } ?? counted
    }

    /// The elapsed and remaining milliseconds of `id` written to its variables; returns the
    /// names whose value changed.
    @discardableResult
    private func writeTime(of id: String) -> Set<String> {
        guard let timer = timerRuntime.timers[id] else { return [] }
        let counted = timer.runningSince.map { elapsed(timer, since: $0, now: timerTime()) } ?? timer.banked
        var values: [(String, JSONValue)] = []
        if let name = timer.definition.valueVariable { values.append((name, .number(JSONNumber(counted)))) }
        if let name = timer.definition.remainingVariable, let duration = timer.definition.duration {
            values.append((name, .number(JSONNumber(max(0, duration - counted)))))
        }
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
        guard let timer = timerRuntime.timers[id], let since = timer.runningSince, !timerRuntime.isSuspended else { return }
        let counted = elapsed(timer, since: since, now: timerTime())
        var wait: Int?
        if let tick = timer.definition.tickInterval { wait = tick - counted % tick }
        if let duration = timer.definition.duration { wait = min(wait ?? Int.max, max(0, duration - counted)) }
        guard let wait else { return }  // neither ticks nor ends: it only counts
        let clock = self.clock
        timerRuntime.timers[id]?.task = Task { [weak self] in
            do { try await clock.sleep(seconds: Double(wait) / 1000) } catch { return }
            await self?.tick(id)
        }
    }

    /// A tick: the time written, the triggers it fires and the tick actions run, then the end
    /// actions when the duration is reached. A command during those actions (a stop, a reset)
    /// ends this tick's work.
    private func tick(_ id: String) async {
        guard let timer = timerRuntime.timers[id], let since = timer.runningSince, !Task.isCancelled else { return }
        let generation = timer.generation
        let counted = elapsed(timer, since: since, now: timerTime())
        let ended = timer.definition.duration.map { counted >= $0 } ?? false
        timerRuntime.timers[id]?.task = nil
        if ended {
            timerRuntime.timers[id]?.runningSince = nil
            timerRuntime.timers[id]?.banked = counted
        }
        await runTriggers(changed: writeTime(of: id))
        let current = { [weak self] in self?.timerRuntime.timers[id]?.generation == generation }
        for action in timer.definition.tickActions ?? [] where current() { await perform(actionId: action) }
        if ended {
            for action in timer.definition.endActions ?? [] where current() { await perform(actionId: action) }
        } else if current(), timerRuntime.timers[id]?.runningSince != nil, timerRuntime.timers[id]?.task == nil {
            schedule(id)
        }
    }
}
