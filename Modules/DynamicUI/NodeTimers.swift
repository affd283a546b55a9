import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation

extension NodeScreenModel: TimerHost {
    /// Declares the timers of the document's root node (clamped, as a screen's) and starts those
    /// marked `autostart`. Their time is written to state: `value_variable` the elapsed and
    /// `remaining_variable` the remaining milliseconds.
    func startTimers(_ definitions: [TimerDefinition]) async {
        await timers.declare(definitions)
    }

    /// Stops every timer (the document closed); the state keeps their last values.
    public func stopTimers() { timers.stop() }

    // MARK: TimerHost

    func writeTimerValues(_ values: [(String, JSONValue)], of id: String) -> Set<String> {
        do throws(VariableError) {
            return try writeState(values, at: JSONLocation(components: [.key("timers"), .key(id)]))
        } catch {
            // Reported, as on a screen: a banner on every tick would say it again and again.
            app?.observers.emit(
                .error(ErrorEvent(.actionFailed, screen: route.document, path: "timers.\(id)", message: "\(error)")))
            return []
        }
    }

    func timerValuesChanged(_ names: Set<String>) async { await runTriggers(changed: names) }

    /// A timer's `tick_actions` and `end_actions` name the root screen's named actions.
    func performTimerAction(_ action: String) async { await perform(CompiledNode.namedActionKey(action)) }

    /// Shown as the document's banner.
    func timerCommandRefused(_ refusal: TimerBank.Refusal, id: String) {
        banner = Banner(kind: .error, message: refusal.description)
    }
}
