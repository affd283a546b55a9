#if canImport(Network)
    import Foundation
    import Network

    /// The default monitor on Apple platforms: the system's `NWPathMonitor`, which reports a
    /// path change as it happens (no polling). A path is connected when it is `.satisfied`.
    public final class PathConnectivityMonitor: ConnectivityMonitor, @unchecked Sendable {
        private let monitor = NWPathMonitor()
        private let queue = DispatchQueue(label: "DynamicUI.connectivity")
        private let lock = NSLock()
        private var connected = true
        private var continuations: [UUID: AsyncStream<Bool>.Continuation] = [:]

        /// Starts monitoring the default path.
        public init() {
            monitor.pathUpdateHandler = { [weak self] path in self?.update(path.status == .satisfied) }
            monitor.start(queue: queue)
        }

        deinit { monitor.cancel() }

        /// The current state.
        public func isConnected() async -> Bool { lock.withLock { connected } }

        /// The current state, then every change.
        public func updates() async -> AsyncStream<Bool> {
            let (stream, continuation) = AsyncStream<Bool>.makeStream()
            let id = UUID()
            let current: Bool = lock.withLock {
                continuations[id] = continuation
                return connected
            }
            continuation.yield(current)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                _ = self.lock.withLock { self.continuations.removeValue(forKey: id) }
            }
            return stream
        }

        private func update(_ isConnected: Bool) {
            let listeners: [AsyncStream<Bool>.Continuation] = lock.withLock {
                guard isConnected != connected else { return [] }
                connected = isConnected
                return Array(continuations.values)
            }
            for listener in listeners { listener.yield(isConnected) }
        }
    }
#endif
