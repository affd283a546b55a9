import DynamicUIModels

/// The state of a screen's timers, driven by the model's injectable clock.
struct TimerRuntime {
    /// One timer and where it is.
    struct Timer {
        let definition: TimerDefinition
        /// Milliseconds counted before the current run (pauses keep them).
        var banked = 0
        /// The clock's uptime when the current run began; `nil` when not running.
        var runningSince: Double?
        /// The task sleeping until the next tick or the end.
        var task: Task<Void, Never>?
        var isPaused = false
    }

    var timers: [String: Timer] = [:]
    /// Whether the screen is in the background: running timers keep their time but do not tick.
    var isSuspended = false

    /// How many timers run now.
    var live: Int { timers.values.filter { $0.runningSince != nil }.count }
}

extension DynamicScreenViewModel {
    /// Declares the timers of `definition` (clamped) and starts those marked `autostart`.
    func startTimers(of definition: ScreenDefinition) {
        stopTimers()
        var runtime = TimerRuntime()
        for timer in definition.timers ?? [] where runtime.timers[timer.id] == nil {
            runtime.timers[timer.id] = TimerRuntime.Timer(definition: timer.clamped)
        }
        timerRuntime = runtime
        for timer in definition.timers ?? [] where timer.autostart == true { command(.start, timer: timer.id) }
    }

    /// Runs `command` on the timer `id`; an unknown timer, or a start beyond
    /// `TimerDefinition.maxLiveTimers`, is reported and changes nothing.
    func command(_ command: TimerCommand, timer id: String) {
        guard var timer = timerRuntime.timers[id] else {
            observers.emit(
                .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers", message: "no timer '\(id)'")))
            return
        }
        let now = clock.uptime()
        switch command {
        case .start, .reset:
            if command == .start, timer.runningSince == nil, timerRuntime.live >= TimerDefinition.maxLiveTimers {
                let message = "\(TimerDefinition.maxLiveTimers) timers already run; '\(id)' was not started"
                observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers", message: message)))
                return
            }
            let running = command == .start || timer.runningSince != nil
            timer.task?.cancel()
            timer = TimerRuntime.Timer(definition: timer.definition)
            if running { timer.runningSince = now }
        case .stop:
            timer.task?.cancel()
            timer = TimerRuntime.Timer(definition: timer.definition)
        case .pause:
            guard let since = timer.runningSince else { return }
            timer.task?.cancel()
            timer.banked = elapsed(timer, since: since, now: now)
            timer.runningSince = nil
            timer.isPaused = true
        case .resume:
            guard timer.isPaused else { return }
            timer.isPaused = false
            timer.runningSince = now
        case .unknown:
            return
        }
        timer.task = nil
        timerRuntime.timers[id] = timer
        writeTime(of: id)
        schedule(id)
    }

    /// Stops every timer (the screen went away); the variables keep their last values.
    public func stopTimers() {
        for id in timerRuntime.timers.keys {
            timerRuntime.timers[id]?.task?.cancel()
            timerRuntime.timers[id]?.task = nil
            timerRuntime.timers[id]?.runningSince = nil
        }
    }

    /// The app went to the background (`true`) or came back: running timers stop ticking there
    /// and, back, catch up from the clock at once (a countdown that ended meanwhile ends now).
    func suspendTimers(_ suspended: Bool) {
        timerRuntime.isSuspended = suspended
        for id in timerRuntime.timers.keys.sorted() {
            timerRuntime.timers[id]?.task?.cancel()
            timerRuntime.timers[id]?.task = nil
            if !suspended { schedule(id, catchingUp: true) }
        }
    }

    /// The milliseconds the timer has counted by `now` (never past its duration).
    private func elapsed(_ timer: TimerRuntime.Timer, since: Double, now: Double) -> Int {
        // Rounded: uptimes are large, and their difference carries a little floating-point error.
        let run = WireNumber.int(((now - since) * 1000).rounded())
        let total = timer.banked.addingReportingOverflow(max(0, run))
        let counted = total.overflow ? Int.max : total.partialValue
        return timer.definition.duration.map { min(counted, $0) } ?? counted
    }

    /// The elapsed and remaining milliseconds of `id` written to its variables.
    private func writeTime(of id: String) {
        guard let timer = timerRuntime.timers[id] else { return }
        let counted = timer.runningSince.map { elapsed(timer, since: $0, now: clock.uptime()) } ?? timer.banked
        var values: [(String, JSONValue)] = []
        if let name = timer.definition.valueVariable { values.append((name, .number(JSONNumber(counted)))) }
        if let name = timer.definition.remainingVariable, let duration = timer.definition.duration {
            values.append((name, .number(JSONNumber(max(0, duration - counted)))))
        }
        guard !values.isEmpty else { return }
        do throws(VariableError) {
            _ = try assignVariables(values, at: JSONLocation(components: [.key("timers"), .key(id)]))
        } catch {
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers.\(id)", message: "\(error)")))
        }
    }

    /// Sleeps until the timer's next tick or its end, then ticks (again and again while it
    /// runs). `catchingUp`: first tick at once (back from the background).
    private func schedule(_ id: String, catchingUp: Bool = false) {
        guard let timer = timerRuntime.timers[id], let since = timer.runningSince, !timerRuntime.isSuspended else { return }
        let counted = elapsed(timer, since: since, now: clock.uptime())
        let tick = timer.definition.tickInterval
        let duration = timer.definition.duration
        var wait: Int?
        if let tick { wait = tick - counted % tick }
        if let duration { wait = min(wait ?? Int.max, max(0, duration - counted)) }
        guard var wait else { return }  // neither ticks nor ends: it only counts
        if catchingUp { wait = 0 }
        let clock = self.clock
        timerRuntime.timers[id]?.task = Task { [weak self] in
            do { try await clock.sleep(seconds: Double(wait) / 1000) } catch { return }
            await self?.tick(id)
        }
    }

    /// A tick: the time written, the tick actions run, and the end actions when the duration
    /// is reached.
    private func tick(_ id: String) async {
        guard let timer = timerRuntime.timers[id], let since = timer.runningSince, !Task.isCancelled else { return }
        let counted = elapsed(timer, since: since, now: clock.uptime())
        let ended = timer.definition.duration.map { counted >= $0 } ?? false
        timerRuntime.timers[id]?.task = nil
        if ended {
            timerRuntime.timers[id]?.runningSince = nil
            timerRuntime.timers[id]?.banked = counted
        }
        let before = variables
        writeTime(of: id)
        let changed = Set(variables.keys.filter { before[$0] != variables[$0] })
        await runTriggers(changed: changed)
        for action in timer.definition.tickActions ?? [] { await perform(actionId: action) }
        if ended {
            for action in timer.definition.endActions ?? [] { await perform(actionId: action) }
        } else if timerRuntime.timers[id]?.runningSince != nil, timerRuntime.timers[id]?.task == nil {
            schedule(id)
        }
    }
}
