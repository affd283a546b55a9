public import Foundation

/// The time source every component takes through its initialiser (DESIGN rule 5): wall time
/// for timestamps and expiry, and sleeping for backoff and polling.
public protocol DynamicUIClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
    /// Seconds on a clock that never jumps (since boot), for measuring a wait while the wall
    /// clock may be changed under it (the user setting the time, a network time correction).
    func uptime() -> Double
}

extension DynamicUIClock {
    /// The wall time in seconds since 1970: right for a clock that does not jump (a test's
    /// manual clock); a clock whose `now()` can jump must give a monotonic `uptime()` of its own.
    public func uptime() -> Double { now().timeIntervalSince1970 }
}

/// The real clock.
public struct SystemClock: DynamicUIClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// `ProcessInfo.systemUptime`: monotonic, unaffected by changes of the wall clock.
    public func uptime() -> Double { ProcessInfo.processInfo.systemUptime }

    /// `Task.sleep`; a negative or NaN duration returns at once and a huge one waits a
    /// century (`WireNumber.sleepNanoseconds`), so a server's interval never traps.
    public func sleep(seconds: Double) async throws {
        let nanoseconds = WireNumber.sleepNanoseconds(seconds: seconds)
        guard nanoseconds > 0 else { return }
        try await Task.sleep(nanoseconds: nanoseconds)
    }
}

/// A clock that moves only when told to, for tests and previews: `sleep` suspends until
/// `advance(by:)` moves the time past the sleeper's deadline.
public final class ManualClock: DynamicUIClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var sleepers: [(deadline: Date, id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextId: UInt64 = 0
    private var recordedSleeps: [Double] = []

    /// A clock reading `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_773_570_600)) { current = start }

    /// The current manual time.
    public func now() -> Date { lock.withLock { current } }

    /// Every duration passed to `sleep`, in order.
    public var sleeps: [Double] { lock.withLock { recordedSleeps } }

    /// The number of tasks currently sleeping.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Suspends until the clock is advanced past `now + seconds`.
    public func sleep(seconds: Double) async throws {
        let id: UInt64 = lock.withLock {
            nextId += 1
            recordedSleeps.append(seconds)
            return nextId
        }
        if seconds <= 0 { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.withLock {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        sleepers.append((current.addingTimeInterval(seconds), id, continuation))
                    }
                }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward and wakes every sleeper whose deadline has passed.
    public func advance(by seconds: Double) {
        let woken: [CheckedContinuation<Void, any Error>] = lock.withLock {
            current = current.addingTimeInterval(seconds)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until at least `count` tasks are sleeping, for tests that advance the clock only
    /// once the code under test has started waiting. Polls every millisecond of real time and
    /// gives up after `timeout` seconds, returning whether the sleepers arrived.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeout: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while sleeperCount < count {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }
}
