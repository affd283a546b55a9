public import DynamicUIModels
public import DynamicUIStorage
public import Foundation

/// A request that did not succeed. The server's body is
/// kept for conflicts and validation errors; a request queued for later carries its queue entry.
public struct NetworkError: Error, Sendable, CustomStringConvertible {
    /// What kind of error this is (`ErrorCode<NetworkError>`); new codes may be added, so switch with a `default`.
    public typealias Code = ErrorCode<NetworkError>

    /// What went wrong.
    public let code: Code
    /// The HTTP status, when there was a response.
    public let status: Int?
    /// The response body as JSON, when there was one and it parsed.
    public let body: JSONValue?
    /// A readable explanation.
    public let message: String
    /// The queue entry, when a mutating request was stored for later delivery.
    public let queuedRequest: QueuedRequest?
    /// Seconds the server asked to wait (`Retry-After`), when it said so.
    public let retryAfter: Double?

    /// Creates an error.
    public init(
        _ code: Code, status: Int? = nil, body: JSONValue? = nil, message: String, queuedRequest: QueuedRequest? = nil,
        retryAfter: Double? = nil
    ) {
        self.code = code
        self.status = status
        self.body = body
        self.message = message
        self.queuedRequest = queuedRequest
        self.retryAfter = retryAfter.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// Whether the failure is temporary: no connection, a timeout (408 too), 429 or 5xx. A
    /// queued request that meets one stays queued and is tried again later.
    public var isTemporary: Bool {
        [.noConnection, .timeout, .rateLimited, .serverError].contains(code)
    }

    /// Whether the request was stored and will be delivered when the connection returns.
    public var isQueued: Bool { queuedRequest != nil }

    /// A request that cannot be built.
    public static func invalidRequest(_ message: String) -> NetworkError { NetworkError(.invalidRequest, message: message) }

    /// The error for an HTTP status that is not a success (after retries); `retryAfter` is the
    /// server's `Retry-After` in seconds, when it sent one.
    public static func status(_ status: Int, body: Data, retryAfter: Double? = nil) -> NetworkError {
        let json = try? JSONReader().read(body)
        switch status {
        case 408:
            return NetworkError(.timeout, status: status, body: json, message: "request timeout (408)", retryAfter: retryAfter)
        case 429:
            return NetworkError(
                .rateLimited, status: status, body: json, message: "too many requests (429)", retryAfter: retryAfter)
        case 401: return NetworkError(.unauthorized, status: status, body: json, message: "unauthorized (401)")
        case 403: return NetworkError(.forbidden, status: status, body: json, message: "forbidden (403)")
        case 404: return NetworkError(.notFound, status: status, body: json, message: "not found (404)")
        case 409: return NetworkError(.conflict, status: status, body: json, message: "conflict (409)")
        case 422: return NetworkError(.validation, status: status, body: json, message: "validation failed (422)")
        case 500...599:
            return NetworkError(
                .serverError, status: status, body: json, message: "server error (\(status))", retryAfter: retryAfter)
        default: return NetworkError(.clientError, status: status, body: json, message: "request failed (\(status))")
        }
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let queuedRequest { text += " — queued as #\(queuedRequest.id) for delivery when online" }
        return text
    }

    /// Whether the request was cancelled (its task ended): lifecycle, never a failure to show.
    public var isCancellation: Bool { code == .cancelled }
}

/// The codes of `NetworkError`.
extension ErrorCode where Domain == NetworkError {
    /// No route to the server. A mutating request was queued (see `queuedRequest`).
    public static var noConnection: Self { Self("no connection") }
    /// The server did not answer in time, after retries.
    public static var timeout: Self { Self("timeout") }
    /// 401 after one token refresh (or no refresh possible).
    public static var unauthorized: Self { Self("unauthorized") }
    /// 403: signed in, but this account may not use the resource.
    public static var forbidden: Self { Self("forbidden") }
    /// 404.
    public static var notFound: Self { Self("not found") }
    /// 409, with the server's body.
    public static var conflict: Self { Self("conflict") }
    /// 422, with the server's field errors in the body.
    public static var validation: Self { Self("validation failed") }
    /// Another 4xx.
    public static var clientError: Self { Self("client error") }
    /// 5xx after retries.
    public static var serverError: Self { Self("server error") }
    /// The body is not the JSON expected; `message` names the place.
    public static var decoding: Self { Self("decoding") }
    /// The task was cancelled.
    public static var cancelled: Self { Self("cancelled") }
    /// The URL is not one of the configured base URLs, or not https; or the server redirected
    /// outside them (the redirect was not followed and its answer not used).
    public static var forbiddenURL: Self { Self("forbidden URL") }
    /// The request cannot be built (missing path parameter, bad endpoint, a method outside
    /// `RequestMethod.allowed`, a header that could inject lines); nothing was sent.
    public static var invalidRequest: Self { Self("invalid request") }
    /// A response exceeded a configured bound (body size, items).
    public static var limitExceeded: Self { Self("limit exceeded") }
    /// 429 Too Many Requests: the server asks to come back later (see `retryAfter`).
    public static var rateLimited: Self { Self("rate limited") }
    /// Not sent: an earlier change to the same record waits in the offline queue, so this
    /// one was queued behind it (see `queuedRequest`) to keep the user's order.
    public static var queuedBehind: Self { Self("queued behind an earlier change") }
    /// Neither sent nor queued: the offline queue holds its capacity of changes
    /// (`OfflineQueueStore.capacity`). Nothing was stored; the app must tell the user.
    public static var queueFull: Self { Self("offline queue full") }
}
