public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// One request as `LoopbackHTTPServer` hands it to its handler.
public struct LoopbackRequest: Sendable {
    /// The method, upper-case (`GET`, `POST`, …).
    public var method: String
    /// The path, percent-encoded as sent.
    public var path: String
    /// The query without its `?`, percent-encoded as sent; empty when there is none.
    public var query: String
    /// The headers by lower-case name (repeated headers joined with ", ").
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a request (the server makes them; tests may too).
    public init(method: String, path: String, query: String = "", headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        self.body = body
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The query's name–value pairs, percent- and `+`-decoded, in order.
    public var queryItems: [(name: String, value: String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

/// A response from a `LoopbackHTTPServer` handler.
public struct LoopbackResponse: Sendable {
    /// What the response carries.
    public enum Body: Sendable {
        /// A complete body, written with the head in one write.
        case bytes([UInt8])
        /// A body written chunk by chunk as the stream yields (server-sent events); the response
        /// ends when the stream finishes or the client goes away.
        case stream(AsyncStream<[UInt8]>)
    }

    /// The status code.
    public var status: Int
    /// The headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// A response with a complete body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// A response whose body streams.
    public init(status: Int, headers: [(name: String, value: String)] = [], stream: AsyncStream<[UInt8]>) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }
}

/// An HTTP/1.1 server on 127.0.0.1 (Hummingbird over SwiftNIO) that hands every request to one
/// handler: keep-alive, `TCP_NODELAY`, each complete response written in one write. The demo
/// backend and the web preview run on it. It prints nothing: callers keep their own logs.
public final class LoopbackHTTPServer: Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (LoopbackRequest) async -> LoopbackResponse

    /// The largest request body read (larger requests get 413).
    public static let maxRequestBytes = 16 << 20

    /// What a slow or idle client may hold.
    public struct Limits: Sendable {
        /// How long a connection may stay without a complete request: a client that connects
        /// and never finishes its headers, or keeps an idle connection open, is closed then.
        public var idleTimeout: Duration
        /// The most connections served at once (the server stops accepting there; one accept
        /// batch may add a few); more wait in the listening socket's queue (256 deep; beyond it
        /// the system refuses them) until one closes.
        public var maxConnections: Int

        /// Limits (defaults: 15 s idle, 512 connections).
        public init(idleTimeout: Duration = .seconds(15), maxConnections: Int = 512) {
            self.idleTimeout = idleTimeout
            self.maxConnections = max(1, maxConnections)
        }
    }

    private let handler: Handler
    private let limits: Limits
    private let connections = ConnectionCount()
    private let running = NSLock()
    nonisolated(unsafe) private var task: Task<Void, any Error>?
    nonisolated(unsafe) private var group: ServiceGroup?

    /// A server that answers with `handler` once started, within `limits`.
    public init(limits: Limits = Limits(), handler: @escaping Handler) {
        self.handler = handler
        self.limits = limits
    }

    /// How many connections are open now.
    public var openConnections: Int { connections.value }

    /// Starts listening on `port` (0 picks a free one) of `host` (127.0.0.1; `0.0.0.0` is every
    /// interface, for `sdui serve --lan`) and returns the port.
    public func start(port: UInt16 = 0, host: String = "127.0.0.1") async throws -> UInt16 {
        let handler = self.handler
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: Self.maxRequestBytes)
            } catch {
                return Response(status: .contentTooLarge)
            }
            // HTTP/1.1's `Host` arrives as the request's authority, not among its fields.
            var headers: [String: String] = request.head.authority.map { ["host": $0] } ?? [:]
            for field in request.headers {
                let name = field.name.canonicalName
                headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
            }
            let incoming = LoopbackRequest(
                method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "", headers: headers,
                body: Data(body.readableBytesView))
            return Self.response(await handler(incoming))
        }
        var logger = Logger(label: "dynamicui.loopback-http")
        logger.logLevel = .critical
        let bound = BoundPort()
        let (seconds, attoseconds) = limits.idleTimeout.components
        let idle = TimeAmount.nanoseconds(
            Int64(clamping: seconds) &* 1_000_000_000 &+ Int64(clamping: attoseconds / 1_000_000_000))
        let connections = self.connections
        let maxConnections = limits.maxConnections
        let application = Application(
            responder: responder,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [ConnectionCounter(count: connections)], idleTimeout: idle)),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: Int(port)),
                availableConnectionsDelegate: MaximumAvailableConnections(maxConnections)),
            onServerRunning: { channel in bound.resolve(channel.localAddress?.port) },
            logger: logger)
        // Run in a service group, so that stopping is a graceful shutdown: cancelling the serving
        // task while an accepted connection waits to be served traps in NIO.
        let group = ServiceGroup(services: [application], logger: logger)
        let task = Task {
            do {
                try await group.run()
            } catch {
                bound.fail(error)
                throw error
            }
            bound.fail(CancellationError())
        }
        running.withLock {
            self.task = task
            self.group = group
        }
        guard let listening = try await bound.value(), let value = UInt16(exactly: listening) else {
            throw URLError(.cannotConnectToHost)
        }
        return value
    }

    /// Stops listening and closes the connections; waits until the server is down.
    public func stop() async {
        let (task, group) = running.withLock {
            defer {
                self.task = nil
                self.group = nil
            }
            return (self.task, self.group)
        }
        guard let task else { return }
        // No new connection is accepted, and those accepted are served or closed; a response
        // that never ends by itself (a live page's stream) is cancelled after a moment.
        await group?.triggerGracefulShutdown()
        let deadline = Task {
            try? await Task.sleep(nanoseconds: 2_000_000_000)
            task.cancel()
        }
        _ = await task.result
        deadline.cancel()
    }

    private static func response(_ reply: LoopbackResponse) -> Response {
        var fields = HTTPFields()
        for (name, value) in reply.headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        let status = HTTPResponse.Status(code: min(max(reply.status, 100), 999))
        switch reply.body {
        case .bytes(let bytes):
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .stream(let stream):
            return Response(
                status: status, headers: fields,
                body: ResponseBody { writer in
                    for await chunk in stream { try await writer.write(ByteBuffer(bytes: chunk)) }
                    try await writer.finish(nil)
                })
        }
    }
}

/// The port the server reports once it listens, or the error that stopped it first.
private final class BoundPort: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var result: Result<Int?, any Error>?
    nonisolated(unsafe) private var waiter: CheckedContinuation<Int?, any Error>?

    func resolve(_ port: Int?) { finish(.success(port)) }
    func fail(_ error: any Error) { finish(.failure(error)) }

    private func finish(_ outcome: Result<Int?, any Error>) {
        let waiting: CheckedContinuation<Int?, any Error>? = lock.withLock {
            guard result == nil else { return nil }
            result = outcome
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(with: outcome)
    }

    func value() async throws -> Int? {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int?, any Error>? = lock.withLock {
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// The number of open connections, shared by every connection's `ConnectionCap`.
final class ConnectionCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The open connections.
    var value: Int { lock.withLock { count } }

    /// Counts one more.
    func enter() { lock.withLock { count += 1 } }

    /// Counts one fewer.
    func leave() { lock.withLock { count -= 1 } }
}

/// Counts a connection while it is open (`LoopbackHTTPServer.openConnections`).
final class ConnectionCounter: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny

    private let count: ConnectionCount
    private var counted = false

    init(count: ConnectionCount) { self.count = count }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        count.enter()
    }

    func handlerRemoved(context: ChannelHandlerContext) { leave() }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    private func leave() {
        guard counted else { return }
        counted = false
        count.leave()
    }
}
