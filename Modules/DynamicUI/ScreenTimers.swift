import DynamicUIModels
import Foundation

extension DynamicScreenViewModel: TimerHost {
    /// Declares the timers of `definition` (clamped) and starts those marked `autostart`.
    func startTimers(of definition: ScreenDefinition) async {
        await timers.declare(definition.timers ?? [])
    }

    /// Runs `command` on the timer `id`, writes its time and runs the triggers that fire; an
    /// unknown timer, or a start (or resume) beyond `TimerDefinition.maxLiveTimers`, is
    /// reported and changes nothing.
    func command(_ command: TimerCommand, timer id: String) async {
        await timers.command(command, timer: id)
    }

    /// Stops every timer (the screen is gone for good); the variables keep their last values.
    public func stopTimers() { timers.stop() }

    /// Binds the timers that declare `endsAtField` to the end their data now gives: each counts
    /// down to it from now (0 left when it is past, at most `TimerDefinition.maximumDuration`),
    /// so a reload, or a refused submit that reloads, keeps the time left instead of starting
    /// over. A timer whose data lacks the field keeps its declared duration; a value that is no
    /// date is reported.
    func bindTimersToData() async {
        var changed: Set<String> = []
        for id in timers.bank.timers.keys.sorted() {
            guard let timer = timers.bank.timers[id], let field = timer.definition.endsAtField else { continue }
            guard let value = data[path: field], !value.isNull else { continue }
            guard let end = Self.endDate(value) else {
                let message = "'\(field)' is no date: \(JSONWriter().string(from: value).prefix(40))"
                observers.emit(
                    .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers.\(id)", message: message)))
                continue
            }
            changed.formUnion(timers.bind(id, toEnd: end))
        }
        // After every load: a condition on the data may have turned, bound timers or not.
        await runTriggers(changed: changed)
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
    /// running timers stop ticking while it is hidden (a countdown keeps counting meanwhile);
    /// shown again, their time is written at once and their catch-up tick (an end's actions)
    /// runs right after, in its own task.
    public func screenDidChange(isVisible: Bool) async {
        timers.setHidden(!isVisible)
        visibilityTracker.set(suspended: timers.isSuspended)
    }

    /// The app went to the background or came back (`appDidChange(isActive:)`).
    func timersDidChange(inBackground: Bool) async {
        timers.setInBackground(inBackground)
        visibilityTracker.set(suspended: timers.isSuspended)
    }

    // MARK: TimerHost

    func writeTimerValues(_ values: [(String, JSONValue)], of id: String) -> Set<String> {
        do throws(VariableError) {
            return try assignVariables(values, at: JSONLocation(components: [.key("timers"), .key(id)]))
        } catch {
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers.\(id)", message: "\(error)")))
            return []
        }
    }

    func timerValuesChanged(_ names: Set<String>) async { await runTriggers(changed: names) }

    func performTimerAction(_ action: String) async { await perform(actionId: action) }

    func timerCommandRefused(_ refusal: TimerBank.Refusal, id: String) {
        observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "timers", message: "\(refusal)")))
    }
}
