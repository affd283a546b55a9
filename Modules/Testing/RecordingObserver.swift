public import DynamicUI
import Foundation

/// An observer that keeps every event it is told, in order: give it to a configuration's
/// `observer` and read what the runtime reported (loads, actions, errors, impressions, renders).
public final class RecordingObserver: DynamicUIObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [DynamicUIEvent] = []

    /// An observer that has recorded nothing yet.
    public init() {}

    /// Records `event`.
    public func observe(_ event: DynamicUIEvent) { lock.withLock { recorded.append(event) } }

    /// Every event so far, in the order told.
    public var events: [DynamicUIEvent] { lock.withLock { recorded } }

    /// The screen loads so far.
    public var loads: [ScreenLoadEvent] { events.compactMap { if case .screenLoaded(let load) = $0 { load } else { nil } } }
    /// The actions performed so far.
    public var actions: [ActionEvent] {
        events.compactMap { if case .actionPerformed(let action) = $0 { action } else { nil } }
    }
    /// The errors reported so far.
    public var errors: [ErrorEvent] { events.compactMap { if case .error(let error) = $0 { error } else { nil } } }
    /// The impressions so far: screen key and log id.
    public var impressions: [(screen: String, logId: String)] {
        events.compactMap { if case .impression(let screen, let logId) = $0 { (screen, logId) } else { nil } }
    }
    /// The renders so far: screen key and node count.
    public var renders: [(screen: String, nodes: Int)] {
        events.compactMap { if case .screenRendered(let screen, _, let nodes) = $0 { (screen, nodes) } else { nil } }
    }
}
