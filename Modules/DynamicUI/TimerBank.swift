import DynamicUIModels
import Foundation

/// The timers of one screen or node document, as values: what each has counted, whether it
/// runs or is paused, and what a command, a tick or an end bound to data does to it. Both
/// dialects' models hold one; they sleep between ticks, write the values and run the actions,
/// and this decides everything else (so it is tested without a clock or a task).
struct TimerBank {
    /// One timer and where it is.
    struct Timer: Equatable {
        /// The definition, clamped; a timer bound to its data's end has its duration set from it.
        var definition: TimerDefinition
        /// Milliseconds counted before the current run (pauses keep them).
        var banked = 0
        /// The clock's time (seconds since 1970) when the current run began; `nil` when not running.
        var runningSince: Double?
        var isPaused = false
        /// Bumped by every command: a tick begun before one does not act after it.
        var generation = 0
    }

    /// Why a command changed nothing, in words for the screen's message or its log.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        /// No timer has the id.
        case unknown(String)
        /// `TimerDefinition.maxLiveTimers` already run.
        case tooMany(String)

        var description: String {
            switch self {
            case .unknown(let id): "no timer '\(id)'"
            case .tooMany(let id): "\(TimerDefinition.maxLiveTimers) timers already run; '\(id)' was not started"
            }
        }
    }

    /// What a tick found: whether the timer reached its end (it stopped), the actions to run, and
    /// the generation they belong to (`isCurrent` says whether a command came since).
    struct Tick: Equatable {
        let ended: Bool
        let generation: Int
        let actions: [String]
    }

    private(set) var timers: [String: Timer] = [:]
    /// Whether the app is in the background, and whether the screen is hidden (another screen
    /// pushed over it): running timers keep their time but do not tick while either holds.
    var inBackground = false
    var hidden = false

    /// No timers.
    init() {}

    /// The timers `definitions` declares (clamped; a repeated id keeps the first), none running,
    /// keeping whether the screen is hidden or in the background from `previous`.
    init(_ definitions: [TimerDefinition], keeping previous: TimerBank = TimerBank()) {
        inBackground = previous.inBackground
        hidden = previous.hidden
        for definition in definitions where timers[definition.id] == nil {
            timers[definition.id] = Timer(definition: definition.clamped)
        }
    }

    /// Whether running timers wait instead of ticking.
    var isSuspended: Bool { inBackground || hidden }

    /// The ids of the timers that run now, in order.
    var running: [String] { timers.keys.sorted().filter { timers[$0]?.runningSince != nil } }

    /// Runs `command` on the timer `id` at `now` (seconds since 1970); an unknown timer, or a
    /// start (or resume) beyond `TimerDefinition.maxLiveTimers`, is refused and changes nothing.
    mutating func apply(_ command: TimerCommand, to id: String, at now: Double) throws(Refusal) {
        guard var timer = timers[id] else { throw .unknown(id) }
        let starts = (command == .start && timer.runningSince == nil) || (command == .resume && timer.isPaused)
        if starts, running.count >= TimerDefinition.maxLiveTimers { throw .tooMany(id) }
        timer.generation += 1
        switch command {
        case .start, .reset:
            let run = command == .start || timer.runningSince != nil
            timer.banked = 0
            timer.isPaused = false
            timer.runningSince = run ? now : nil
        case .stop:
            timer.banked = 0
            timer.isPaused = false
            timer.runningSince = nil
        case .pause:
            guard let since = timer.runningSince else { break }
            timer.banked = Self.counted(timer, since: since, now: now)
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
    }

    /// Stops every timer (the screen is gone); what they counted is kept.
    mutating func stopAll() {
        for id in timers.keys {
            timers[id]?.runningSince = nil
            timers[id]?.isPaused = false
            timers[id]?.generation += 1
        }
    }

    /// Sets the timer `id` to end at `end` (seconds since 1970), counting down from `now`: 0
    /// left when it is past, at most `TimerDefinition.maximumDuration`. A running timer runs on
    /// from now; a stopped one keeps what it counted.
    mutating func bind(_ id: String, toEnd end: Double, at now: Double) {
        guard var timer = timers[id] else { return }
        let seconds = end - now
        let left = seconds.isFinite ? WireNumber.int((max(0, seconds) * 1000).rounded()) : 0
        let remaining = min(left, TimerDefinition.maximumDuration)
        timer.generation += 1
        if timer.runningSince != nil {
            timer.banked = 0
            timer.runningSince = now
            timer.definition.duration = remaining
        } else {
            timer.definition.duration = min(timer.banked + remaining, TimerDefinition.maximumDuration)
        }
        timers[id] = timer
    }

    /// The milliseconds `id` has counted by `now` (never past its duration).
    func counted(_ id: String, at now: Double) -> Int {
        guard let timer = timers[id] else { return 0 }
        return timer.runningSince.map { Self.counted(timer, since: $0, now: now) } ?? timer.banked
    }

    /// The values `id` writes at `now`: the elapsed milliseconds to `value_variable`, the
    /// remaining to `remaining_variable` (with a duration).
    func values(of id: String, at now: Double) -> [(String, JSONValue)] {
        guard let timer = timers[id] else { return [] }
        let counted = counted(id, at: now)
        var values: [(String, JSONValue)] = []
        if let name = timer.definition.valueVariable { values.append((name, .number(JSONNumber(counted)))) }
        if let name = timer.definition.remainingVariable, let duration = timer.definition.duration {
            values.append((name, .number(JSONNumber(max(0, duration - counted)))))
        }
        return values
    }

    /// The milliseconds until `id`'s next tick or its end, from `now`; `nil` when it does not
    /// run, the screen is suspended, or it neither ticks nor ends (it only counts).
    func wait(for id: String, at now: Double) -> Int? {
        guard let timer = timers[id], let since = timer.runningSince, !isSuspended else { return nil }
        let counted = Self.counted(timer, since: since, now: now)
        var wait: Int?
        if let tick = timer.definition.tickInterval { wait = tick - counted % tick }
        if let duration = timer.definition.duration { wait = min(wait ?? Int.max, max(0, duration - counted)) }
        return wait
    }

    /// A tick of `id` at `now`: a timer that reached its duration stops there. `nil` when it does
    /// not run.
    mutating func tick(_ id: String, at now: Double) -> Tick? {
        guard let timer = timers[id], let since = timer.runningSince else { return nil }
        let counted = Self.counted(timer, since: since, now: now)
        let ended = timer.definition.duration.map { counted >= $0 } ?? false
        if ended {
            timers[id]?.runningSince = nil
            timers[id]?.banked = counted
        }
        let actions = (timer.definition.tickActions ?? []) + (ended ? timer.definition.endActions ?? [] : [])
        return Tick(ended: ended, generation: timer.generation, actions: actions)
    }

    /// Whether no command reached `id` since the tick of `generation`.
    func isCurrent(_ id: String, generation: Int) -> Bool { timers[id]?.generation == generation }

    /// The milliseconds counted by `now` of a run that began at `since` (never past the duration;
    /// rounded: the times are large, and their difference carries a little floating-point error).
    private static func counted(_ timer: Timer, since: Double, now: Double) -> Int {
        let run = WireNumber.int(((now - since) * 1000).rounded())
        let total = timer.banked.addingReportingOverflow(max(0, run))
        let counted = total.overflow ? Int.max : total.partialValue
        return timer.definition.duration.map { min(counted, $0) } ?? counted
    }
}
