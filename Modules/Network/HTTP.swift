public import Foundation

/// An HTTP method.
public struct RequestMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The upper-case method name.
    public let rawValue: String

    /// A method from its name (upper-cased).
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    /// A method from its name.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// `GET`.
    public static let get = RequestMethod(rawValue: "GET")
    /// `POST`.
    public static let post = RequestMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = RequestMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = RequestMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = RequestMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = RequestMethod(rawValue: "HEAD")

    /// Whether the method changes server state (and so is queued when offline).
    public var isMutating: Bool { ["POST", "PUT", "PATCH", "DELETE"].contains(rawValue) }

    public var description: String { rawValue }
}

/// HTTP header fields in order, with case-insensitive lookup.
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    public private(set) var fields: [(name: String, value: String)]

    /// Headers from name–value pairs.
    public init(_ fields: [(String, String)] = []) { self.fields = fields.map { (name: $0.0, value: $0.1) } }
    /// Headers from a literal.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of `name` (case-insensitive); setting replaces every field of that name,
    /// `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// Every field as a dictionary (the last value of a repeated name wins).
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields { result[field.name] = field.value }
        return result
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        lhs.fields.map { "\($0.name.lowercased()):\($0.value)" } == rhs.fields.map { "\($0.name.lowercased()):\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

/// A request as it goes on the wire.
public struct TransportRequest: Sendable, Hashable {
    /// The method.
    public var method: RequestMethod
    /// The absolute URL.
    public var url: URL
    /// Header fields.
    public var headers: HeaderFields
    /// The body.
    public var body: Data?
    /// Seconds before the transport gives up.
    public var timeout: Double
    /// The largest response body the transport reads; past it the exchange stops with
    /// `TransportFailure.tooLarge` instead of holding the rest. `nil` reads any size.
    public var maxResponseBytes: Int?
    /// The base URLs a redirect may lead under (same origin, path at or below); any other hop
    /// ends the exchange with `TransportFailure.redirectRefused`. Empty: the request's origin.
    public var redirectScope: [URL]

    /// Creates a request.
    public init(
        method: RequestMethod, url: URL, headers: HeaderFields = [:], body: Data? = nil, timeout: Double = 30,
        maxResponseBytes: Int? = nil, redirectScope: [URL] = []
    ) {
        self.maxResponseBytes = maxResponseBytes
        self.redirectScope = redirectScope
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A response as it came off the wire.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields.
    public var headers: HeaderFields
    /// The body.
    public var body: Data
    /// The URL that answered: the request's URL, or where a redirect led. `nil` when the
    /// transport does not say (then it is the request's URL).
    public var url: URL?

    /// Creates a response.
    public init(status: Int, headers: HeaderFields = [:], body: Data = Data(), url: URL? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// Why a transport could not produce a response.
public enum TransportFailure: Sendable, Hashable {
    /// No route to the server (offline, refused, reset, DNS failure, lost connection).
    case noConnection
    /// The server did not answer in time.
    case timeout
    /// The task was cancelled.
    case cancelled
    /// The response body was larger than `TransportRequest.maxResponseBytes`; reading stopped.
    case tooLarge(limit: Int)
    /// The server redirected outside `TransportRequest.redirectScope`; the redirect was not
    /// followed and nothing was sent there. The message names both ends (credentials redacted).
    case redirectRefused(String)
    /// Anything else, with a description.
    case other(String)
}

/// A transport failure.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public let failure: TransportFailure

    /// Creates an error.
    public init(_ failure: TransportFailure) { self.failure = failure }

    public var description: String {
        switch failure {
        case .noConnection: "no connection"
        case .timeout: "timed out"
        case .cancelled: "cancelled"
        case .tooLarge(let limit): "response larger than \(limit) bytes"
        case .redirectRefused(let message): message
        case .other(let message): message
        }
    }
}

/// Sends requests. The SDK ships a URLSession transport; tests use a fake one.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, or throws `TransportError`.
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}
