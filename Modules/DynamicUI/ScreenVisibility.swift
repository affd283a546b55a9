import DynamicUIModels
public import DynamicUIRendering

/// Times the visibility and disappear actions of one screen or node document: the elements that
/// report their visible share, and where each of their actions stands. Waits run on the
/// model's clock; a fired action goes to `fire`.
@MainActor
final class VisibilityTracker {
    /// One action of one element.
    struct ActionState {
        /// How many times it fired while the screen was shown.
        var fired = 0
        /// An appear action fires again only after the element fell below its share; a
        /// disappear action fires only after the element was seen (above its share).
        var armed: Bool
        /// The wait before it fires, and its number (a wait replaced or cancelled does not fire).
        var task: Task<Void, Never>?
        var wait = 0
    }

    /// One element: its actions, its last reported share, each action's state.
    struct Watch {
        var visibility: RenderVisibility
        var fraction = 0.0
        var appear: [ActionState]
        var disappear: [ActionState]

        init(_ visibility: RenderVisibility, keeping old: Watch?) {
            self.visibility = visibility
            // An action keeps its count across a patch when it keeps its place and log id.
            func carried(
                _ actions: [VisibilityAction], _ states: [ActionState]?, _ olds: [VisibilityAction]?, armed: Bool
            )
                -> [ActionState]
            {
                actions.indices.map { index in
                    guard let states, let olds, index < olds.count, olds[index].logId == actions[index].logId else {
                        return ActionState(armed: armed)
                    }
                    return ActionState(fired: states[index].fired, armed: states[index].armed)
                }
            }
            appear = carried(visibility.appear, old?.appear, old?.visibility.appear, armed: true)
            disappear = carried(visibility.disappear, old?.disappear, old?.visibility.disappear, armed: false)
            fraction = old?.fraction ?? 0
        }

        func cancelAll() {
            for state in appear + disappear { state.task?.cancel() }
        }

        /// Nothing waits and nothing fired: the element may be forgotten.
        var isIdle: Bool { (appear + disappear).allSatisfy { $0.task == nil && $0.fired == 0 } }
    }

    private var watches: [String: Watch] = [:]
    private var nextWait = 0
    /// The screen is covered or the app is in the background: every element counts as hidden.
    private(set) var suspended = false
    private let clock: any DynamicUIClock
    private let fire: @MainActor (VisibilityAction, _ disappear: Bool) async -> Void

    /// The most elements watched at once; past it, new elements are not watched.
    static let maximumWatches = 10_000

    /// A tracker waiting on `clock` and handing each action that fires to `fire`.
    init(clock: any DynamicUIClock, fire: @escaping @MainActor (VisibilityAction, _ disappear: Bool) async -> Void) {
        self.clock = clock
        self.fire = fire
    }

    /// How many elements are watched.
    var count: Int { watches.count }

    /// `id`'s visible share (0…1) changed; its visibility actions are `visibility`.
    func changed(_ id: String, visibility: RenderVisibility, fraction: Double) {
        let old = watches[id]
        guard old != nil || watches.count < Self.maximumWatches else { return }
        var watch =
            old.map { $0.visibility == visibility ? $0 : Watch(visibility, keeping: $0) } ?? Watch(visibility, keeping: nil)
        if let old, old.visibility != visibility { old.cancelAll() }
        watch.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        watches[id] = watch
        evaluate(id)
        // An element out of view that waits for nothing and never fired is forgotten (a long
        // feed scrolled by does not fill the table); one that fired keeps its count.
        if let kept = watches[id], kept.fraction == 0, kept.isIdle { watches[id] = nil }
    }

    /// While suspended every element counts as hidden (its disappear actions may fire); resumed,
    /// each counts as its view last reported it (views report only changes), so an element still
    /// on screen cancels its disappear wait and may be seen again.
    func set(suspended: Bool) {
        guard self.suspended != suspended else { return }
        self.suspended = suspended
        for id in watches.keys.sorted() { evaluate(id) }
    }

    /// Cancels every wait and forgets every element (a document closed for good).
    func cancelAll() {
        for watch in watches.values { watch.cancelAll() }
        watches.removeAll()
    }

    /// Starts or cancels the waits of `id`'s actions for its share now.
    private func evaluate(_ id: String) {
        guard var watch = watches[id] else { return }
        // Compared in tenths of a percent, whole numbers: 0.29 × 100 is 28.999… in floating point.
        let permille = suspended ? 0 : Int((watch.fraction * 1000).rounded())
        for index in watch.appear.indices {
            let action = watch.visibility.appear[index]
            let met = permille >= (action.visibilityPercentage ?? 50) * 10
            if !met {
                watch.appear[index].task?.cancel()
                watch.appear[index].task = nil
                watch.appear[index].armed = true
            } else if watch.appear[index].armed, watch.appear[index].task == nil, Self.mayFire(action, watch.appear[index]) {
                watch.appear[index].task = wait(
                    for: action, id: id, index: index, disappear: false, number: &watch.appear[index].wait)
            }
        }
        for index in watch.disappear.indices {
            let action = watch.visibility.disappear[index]
            if permille > (action.visibilityPercentage ?? 0) * 10 {
                watch.disappear[index].task?.cancel()
                watch.disappear[index].task = nil
                watch.disappear[index].armed = true
            } else if watch.disappear[index].armed, watch.disappear[index].task == nil,
                Self.mayFire(action, watch.disappear[index])
            {
                watch.disappear[index].task = wait(
                    for: action, id: id, index: index, disappear: true, number: &watch.disappear[index].wait)
            }
        }
        watches[id] = watch
    }

    private static func mayFire(_ action: VisibilityAction, _ state: ActionState) -> Bool {
        let limit = action.logLimit ?? 1
        return limit == 0 || state.fired < limit
    }

    /// Waits the action's duration on the clock, then fires it if the wait was not replaced.
    private func wait(
        for action: VisibilityAction, id: String, index: Int, disappear: Bool, number: inout Int
    )
        -> Task<Void, Never>
    {
        nextWait += 1
        let wait = nextWait
        number = wait
        let clock = self.clock
        let seconds = Double(action.visibilityDurationMs ?? VisibilityAction.defaultDuration) / 1000
        return Task { [weak self] in
            if seconds > 0 {
                do { try await clock.sleep(seconds: seconds) } catch { return }
            }
            await self?.fired(id: id, index: index, disappear: disappear, wait: wait)
        }
    }

    private func fired(id: String, index: Int, disappear: Bool, wait: Int) async {
        guard var watch = watches[id] else { return }
        let states = disappear ? watch.disappear : watch.appear
        guard index < states.count, states[index].wait == wait, states[index].task != nil else { return }
        let action = disappear ? watch.visibility.disappear[index] : watch.visibility.appear[index]
        var state = states[index]
        state.task = nil
        state.fired += 1
        state.armed = false
        if disappear { watch.disappear[index] = state } else { watch.appear[index] = state }
        watches[id] = watch
        await fire(action, disappear)
    }
}

extension DynamicScreenViewModel {
    /// An element's visible share (0…1) changed: SwiftUI's geometry, the web preview's
    /// `IntersectionObserver`. Its appear actions fire once it has been at least their share
    /// visible for their duration, its disappear actions once, after being seen, it has been at
    /// most their share visible that long; each fires at most its `log_limit` times while the
    /// screen is shown, reports an impression (or a disappearance) under its `log_id` and runs
    /// its action. Waits use the model's clock.
    public func visibilityChanged(of id: String, visibility: RenderVisibility, fraction: Double) {
        visibilityTracker.changed(id, visibility: visibility, fraction: fraction)
    }

    /// How many elements with visibility actions the screen watches (at most 10,000).
    public var watchedElementCount: Int { visibilityTracker.count }

    /// The tracker of this screen's visibility actions: an impression or a disappearance reported,
    /// then the action run.
    func makeVisibilityTracker() -> VisibilityTracker {
        VisibilityTracker(clock: clock) { [weak self] action, disappear in
            guard let self else { return }
            observers.emit(
                disappear
                    ? .disappearance(screen: route.screenKey, logId: action.logId)
                    : .impression(screen: route.screenKey, logId: action.logId))
            if let actionId = action.actionId { await perform(actionId: actionId) }
        }
    }
}
