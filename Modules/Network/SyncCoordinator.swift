import Foundation

/// Starts replaying the offline queue whenever connectivity returns, and on demand (seed 001
/// NetworkSyncCoordinator).
public actor NetworkSyncCoordinator {
    private let monitor: any ConnectivityMonitor
    private let queue: OfflineQueue
    private var task: Task<Void, Never>?
    /// The report of the last pass.
    public private(set) var lastReport: SyncReport?

    /// Creates a coordinator.
    public init(monitor: any ConnectivityMonitor, queue: OfflineQueue) {
        self.monitor = monitor
        self.queue = queue
    }

    /// Whether monitoring is running.
    public var isMonitoring: Bool { task != nil }

    /// Begins listening; each transition to connected triggers a pass. Calling twice is harmless.
    public func startMonitoring() {
        guard task == nil else { return }
        task = Task { [monitor] in
            for await connected in await monitor.updates() where connected {
                if Task.isCancelled { break }
                await self.sync()
            }
        }
    }

    /// Stops listening.
    public func stopMonitoring() {
        task?.cancel()
        task = nil
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
        return report
    }
}
