public import DynamicUIModels
import Foundation

/// Starts replaying the offline queue whenever connectivity returns, and on demand. A pass that leaves a change waiting for its retry (the server was
/// busy, the connection dropped again) is followed by another when that retry is due, as long
/// as the connection is up: a change never waits for the next sign-in or connectivity change.
public actor NetworkSyncCoordinator {
    private let monitor: any ConnectivityMonitor
    private let queue: OfflineQueue
    private let clock: any DynamicUIClock
    private var task: Task<Void, Never>?
    /// The pass waiting for the next retry to be due.
    private var retry: Task<Void, Never>?
    /// The report of the last pass.
    public private(set) var lastReport: SyncReport?

    /// The shortest wait before a retry pass, in seconds: a change due again at once (queued
    /// during the pass) never makes the passes spin.
    static let minimumRetryWait = 1.0

    /// Creates a coordinator; `clock` times the passes that follow scheduled retries.
    public init(monitor: any ConnectivityMonitor, queue: OfflineQueue, clock: any DynamicUIClock = SystemClock()) {
        self.monitor = monitor
        self.queue = queue
        self.clock = clock
    }

    /// Whether monitoring is running.
    public var isMonitoring: Bool { task != nil }

    /// Begins listening; each transition to connected triggers a pass. Calling twice is harmless.
    public func startMonitoring() {
        guard task == nil else { return }
        task = Task { [monitor] in
            for await connected in await monitor.updates() {
                if Task.isCancelled { break }
                if connected {
                    await self.sync()
                } else {
                    self.cancelRetry()
                }
            }
        }
    }

    /// Stops listening (and the pass waiting for a retry).
    public func stopMonitoring() {
        task?.cancel()
        task = nil
        cancelRetry()
    }

    /// One pass now, if connected; returns its report (`nil` when offline).
    @discardableResult
    public func syncNow() async -> SyncReport? {
        guard await monitor.isConnected() else { return nil }
        return await sync()
    }

    @discardableResult
    private func sync() async -> SyncReport {
        let report = await queue.process()
        lastReport = report
        await scheduleRetry(after: report)
        return report
    }

    private func cancelRetry() {
        retry?.cancel()
        retry = nil
    }

    /// While monitoring, a pass that left changes waiting is followed by one when the first of
    /// them is due.
    private func scheduleRetry(after report: SyncReport) async {
        cancelRetry()
        guard task != nil, report.remaining > 0, let wait = await queue.secondsUntilNextAttempt() else { return }
        let clock = self.clock
        retry = Task { [weak self] in
            do { try await clock.sleep(seconds: max(wait, Self.minimumRetryWait)) } catch { return }
            guard let self, !Task.isCancelled else { return }
            await self.retryPass()
        }
    }

    private func retryPass() async {
        retry = nil
        guard task != nil, await monitor.isConnected() else { return }
        await sync()
    }
}
