public import DynamicUIModels
public import Foundation

/// Reports whether the network is reachable.
public protocol ConnectivityMonitor: Sendable {
    /// The current state.
    func isConnected() async -> Bool
    /// The current state, then every change.
    func updates() async -> AsyncStream<Bool>
}

/// A monitor set by hand: for tests, previews and hosts with their own reachability source.
public actor ManualConnectivityMonitor: ConnectivityMonitor {
    private var connected: Bool
    private var continuations: [UUID: AsyncStream<Bool>.Continuation] = [:]

    /// A monitor in state `connected`.
    public init(connected: Bool = true) { self.connected = connected }

    /// The current state.
    public func isConnected() -> Bool { connected }

    /// The current state, then every change.
    public func updates() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let id = UUID()
        continuations[id] = continuation
        continuation.yield(connected)
        continuation.onTermination = { _ in Task { await self.remove(id) } }
        return stream
    }

    /// Changes the state; listeners hear only real changes.
    public func set(connected: Bool) {
        guard connected != self.connected else { return }
        self.connected = connected
        for continuation in continuations.values { continuation.yield(connected) }
    }

    private func remove(_ id: UUID) { continuations[id] = nil }
}

/// The default monitor on Linux (and anywhere without a system path monitor): probes a URL
/// (a `HEAD` through the given transport) every `interval` seconds; any HTTP answer means
/// connected, a transport failure means disconnected.
public actor ProbingConnectivityMonitor: ConnectivityMonitor {
    private let transport: any HTTPTransport
    private let url: URL
    private let interval: Double
    private let clock: any DynamicUIClock
    private let state: ManualConnectivityMonitor
    private var task: Task<Void, Never>?

    /// Creates a monitor that probes `url`.
    public init(transport: any HTTPTransport, url: URL, interval: Double = 10, clock: any DynamicUIClock = SystemClock()) {
        self.transport = transport
        self.url = url
        self.interval = interval
        self.clock = clock
        self.state = ManualConnectivityMonitor(connected: true)
    }

    /// The last probed state.
    public func isConnected() async -> Bool { await state.isConnected() }

    /// The state, then every change; probing starts with the first listener.
    public func updates() async -> AsyncStream<Bool> {
        startIfNeeded()
        return await state.updates()
    }

    /// Probes once now and returns the state.
    @discardableResult
    public func probe() async -> Bool {
        let connected: Bool
        do {
            _ = try await transport.send(TransportRequest(method: .head, url: url, timeout: min(interval, 10)))
            connected = true
        } catch {
            connected = error.failure == .cancelled ? await state.isConnected() : false
        }
        await state.set(connected: connected)
        return connected
    }

    /// Stops probing.
    public func stop() {
        task?.cancel()
        task = nil
    }

    private func startIfNeeded() {
        guard task == nil else { return }
        task = Task { [interval, clock] in
            while !Task.isCancelled {
                await self.probe()
                do { try await clock.sleep(seconds: interval) } catch { return }
            }
        }
    }
}
