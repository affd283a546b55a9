import Foundation

/// Which backend serves an endpoint (dual-API routing).
public enum APIService: String, Sendable, Hashable, CaseIterable {
    /// The administration API (`admin:` prefix).
    case admin
    /// The mobile API (`mobile:` prefix, and the default without a prefix).
    case mobile
}

/// An endpoint as screens write it: `admin:/v1/users/{id}`, `mobile:/v1/materials`, or a bare
/// path (mobile).
public struct Endpoint: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The API that serves it.
    public var service: APIService
    /// The path with `{name}` parameters.
    public var pathTemplate: String

    /// Creates an endpoint.
    public init(service: APIService, path: String) {
        self.service = service
        self.pathTemplate = path
    }

    /// Parses `admin:`/`mobile:` prefixes; no prefix means mobile.
    public init(_ text: String) {
        if text.hasPrefix("admin:") {
            self.init(service: .admin, path: String(text.dropFirst(6)))
        } else if text.hasPrefix("mobile:") {
            self.init(service: .mobile, path: String(text.dropFirst(7)))
        } else {
            self.init(service: .mobile, path: text)
        }
    }

    /// Parses `admin:`/`mobile:` prefixes.
    public init(stringLiteral value: String) { self.init(value) }

    /// The names of the path parameters, in order (`["id"]`).
    public var parameterNames: [String] {
        var names: [String] = []
        var rest = pathTemplate[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The path with every `{name}` replaced by its percent-encoded value (a `/`, `?` or `#` in a
    /// value is encoded, so a value can never change the path's shape). Throws when a parameter
    /// has no value, is `.` or `..`, or the template has a dot segment or a `;` in its path.
    public func path(with parameters: [String: String]) throws(NetworkError) -> String {
        try checkTemplate()
        var result = ""
        var rest = pathTemplate[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw NetworkError.invalidRequest("unclosed '{' in endpoint \(description)")
            }
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            guard let value = parameters[name], !value.isEmpty else {
                throw NetworkError.invalidRequest("endpoint \(description) needs a value for '\(name)'")
            }
            guard value != ".", value != ".." else {
                throw NetworkError.invalidRequest(
                    "endpoint \(description): '\(name)' is \(value), a segment that leaves the path")
            }
            result += Self.encodePathSegment(value)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Throws `invalidRequest` when the template's path (before any `?` or `#`) has a `.` or `..`
    /// segment, raw or `%2e`-encoded, or a `;`: servers and proxies resolve these to other paths.
    private func checkTemplate() throws(NetworkError) {
        let path = pathTemplate.prefix { $0 != "?" && $0 != "#" }
        if path.contains(";") {
            throw NetworkError.invalidRequest("endpoint \(description): ';' in a path is refused")
        }
        if URLScope.hasDotSegment(String(path)) {
            throw NetworkError.invalidRequest("endpoint \(description): a '.' or '..' segment is refused")
        }
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    public static func encodePathSegment(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var result = ""
        for byte in value.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, allowed.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    public var description: String { "\(service.rawValue):\(pathTemplate)" }
}
