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

    /// The only methods the SDK sends; a request with any other is refused before it is sent.
    public static let allowed: [RequestMethod] = [.get, .post, .put, .patch, .delete, .head]

    /// Whether this is one of `allowed`.
    public var isAllowed: Bool { Self.allowed.contains(self) }

    /// The method named `name` (any case); anything outside `allowed` is an `invalidRequest`
    /// error whose message starts with `place` (where the name was read).
    public init(validating name: String, at place: String) throws(NetworkError) {
        self.init(rawValue: name)
        guard isAllowed else {
            throw NetworkError.invalidRequest(
                "\(place): method \(Self.quoted(name)) is not one of \(Self.allowed.map(\.rawValue).joined(separator: ", "))")
        }
    }

    public var description: String { rawValue }

    /// `text` as a Swift literal (control characters escaped), cut at 64 characters, for messages.
    static func quoted(_ text: String) -> String {
        text.count > 64 ? String(reflecting: String(text.prefix(64))) + "…" : String(reflecting: text)
    }
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

    /// Throws `invalidRequest` (its message starts with `place`) for a name that is not an HTTP
    /// token, or a value with CR, LF, NUL or another control character: either could add lines.
    public func validate(at place: String) throws(NetworkError) {
        for field in fields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte) else {
                throw NetworkError.invalidRequest(
                    "\(place): header name \(RequestMethod.quoted(field.name)) is not an HTTP token")
            }
            // The value is not quoted: it may be a credential.
            guard field.value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw NetworkError.invalidRequest(
                    "\(place): the value of header \(field.name) holds a CR, LF, NUL or other control character")
            }
        }
    }

    /// Whether `byte` may appear in a field name (RFC 9110 `tchar`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
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

extension TransportRequest {
    /// Throws `invalidRequest` (naming `place`) when the method is not one of
    /// `RequestMethod.allowed` or a header field could inject into the request.
    func validate(at place: String) throws(NetworkError) {
        guard method.isAllowed else {
            throw NetworkError.invalidRequest(
                "\(place): method \(RequestMethod.quoted(method.rawValue)) is not one of "
                    + RequestMethod.allowed.map(\.rawValue).joined(separator: ", "))
        }
        try headers.validate(at: place)
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
    /// The request was not sent: its method is not one of `RequestMethod.allowed`, or a header
    /// field could inject into it (`HeaderFields.validate(at:)`). The message says which.
    case invalidRequest(String)
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
        case .invalidRequest(let message): message
        case .other(let message): message
        }
    }
}

/// Sends requests. The SDK ships a URLSession transport; tests use a fake one.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, or throws `TransportError`.
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}
