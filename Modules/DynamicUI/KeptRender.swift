import Foundation
import Observation

/// Keeps a model's render tree current for both dialects' screen models: the tree is built under
/// observation tracking, marked outdated as soon as an input it read changes (from any thread),
/// and rebuilt once on the next turn of the main actor, however many inputs changed together.
/// A SwiftUI redraw never builds it.
@MainActor
final class KeptRender {
    /// How many times the tree was built.
    private(set) var count = 0
    private var isCurrent = false
    private var isScheduled = false
    private let invalidation = InvalidationFlag()
    /// The owner's `renderIfNeeded()`, called when a scheduled rebuild comes due.
    private let rebuild: @MainActor () -> Void

    /// A kept render whose scheduled rebuilds call `rebuild` (capture the owner weakly).
    init(rebuild: @escaping @MainActor () -> Void) {
        self.rebuild = rebuild
    }

    /// Whether the tree must be built now: an input changed since the last build, or nothing was
    /// built yet. Counts the build it allows; call it after the owner's own conditions hold.
    func beginIfNeeded() -> Bool {
        if invalidation.take() { isCurrent = false }
        guard !isCurrent else { return false }
        isCurrent = true
        count += 1
        return true
    }

    /// Builds with `build`, recording what it reads: a later change to any of it schedules a
    /// rebuild.
    func tracking<Output>(_ build: () -> Output) -> Output {
        withObservationTracking(build) { [weak self, invalidation] in
            // Called as the input is about to change: outdated at once, rebuilt on the next turn.
            invalidation.set()
            Task { @MainActor [weak self] in self?.schedule() }
        }
    }

    /// Marks the tree outdated (the options changed, the document became ready) and schedules
    /// the rebuild.
    func setNeedsRender() {
        isCurrent = false
        schedule()
    }

    /// Rebuilds on the next turn of the main actor, once for all the changes made until then.
    func schedule() {
        guard !isScheduled else { return }
        isScheduled = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            isScheduled = false
            rebuild()
        }
    }
}

/// A flag set from any thread and taken on the main actor (an input of the tree changed).
final class InvalidationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// Marks the tree outdated.
    func set() { lock.withLock { isSet = true } }

    /// Whether it was marked since the last call; clears the mark.
    func take() -> Bool {
        lock.withLock {
            defer { isSet = false }
            return isSet
        }
    }
}

/// The actions a screen's buttons fired (a button cannot await): they run one after another in
/// the order they were fired, and `cancelAll()` (the screen went away) drops those that have not
/// started; one already running finishes (its request may already be on the wire). Finished
/// actions are forgotten, so a long-lived screen holds only what is still to run.
@MainActor
final class FiredActions {
    private var pending: [Int: Task<Void, Never>] = [:]
    private var nextId = 0
    private var generation = 0
    private var last: Task<Void, Never>?

    /// How many fired actions have not finished.
    var count: Int { pending.count }

    /// Runs `work` after every action fired before it.
    func fire(_ work: @escaping @MainActor () async -> Void) {
        let previous = last
        let id = nextId
        let firedIn = generation
        nextId += 1
        let task = Task { @MainActor [weak self] in
            await previous?.value
            if self?.generation == firedIn { await work() }
            self?.pending[id] = nil
        }
        pending[id] = task
        last = task
    }

    /// Waits until every action fired so far has run.
    func finished() async { await last?.value }

    /// Drops the fired actions that have not started.
    func cancelAll() {
        generation += 1
    }
}
