import Foundation

/// Whether a URL stays under a base URL, the test every redirect hop (and every URL the client
/// builds) must pass; and which headers never go to another origin.
enum URLScope {
    /// The most redirects one exchange follows.
    static let maxRedirects = 10

    /// Whether `url` is under `base`: the same scheme, host and port (a missing port is the
    /// scheme's default), a path equal to the base's path or below it (segment by segment, so
    /// `/api` does not cover `/apiother`), and no `.` or `..` segment that a server could
    /// resolve to somewhere else.
    static func contains(_ url: URL, under base: URL) -> Bool {
        guard sameOrigin(url, base), let path = percentEncodedPath(of: url), !hasDotSegment(path) else { return false }
        var prefix = percentEncodedPath(of: base) ?? ""
        while prefix.hasSuffix("/") { prefix.removeLast() }
        return prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/")
    }

    /// Whether `url` has the origin of `other` and no `.` or `..` segment (any path).
    static func contains(_ url: URL, withinOriginOf other: URL) -> Bool {
        guard sameOrigin(url, other), let path = percentEncodedPath(of: url) else { return false }
        return !hasDotSegment(path)
    }

    /// Whether `url` is under one of `bases`.
    static func contains(_ url: URL, underAnyOf bases: [URL]) -> Bool {
        bases.contains { contains(url, under: $0) }
    }

    /// Whether two URLs have the same scheme, host and port.
    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        guard let scheme = lhs.scheme?.lowercased(), scheme == rhs.scheme?.lowercased(),
            let host = lhs.host?.lowercased(), !host.isEmpty, host == rhs.host?.lowercased()
        else { return false }
        return effectivePort(lhs) == effectivePort(rhs)
    }

    /// Whether a header carries a credential or identifies the request (`Authorization`,
    /// cookies, keys, tokens, `Idempotency-Key`): it never follows a redirect to another origin.
    static func isCredential(_ header: String) -> Bool {
        Redaction.isSensitive(header) || header.lowercased() == "idempotency-key"
    }

    /// Whether a percent-encoded path has a segment that is `.` or `..`, written raw or as
    /// `%2e`, also when followed by `;parameters` or cut at an encoded `/` or `\`.
    static func hasDotSegment(_ percentEncodedPath: String) -> Bool {
        var path = percentEncodedPath.lowercased()
        for separator in ["%2f", "%5c"] { path = path.replacingOccurrences(of: separator, with: "/") }
        path = path.replacingOccurrences(of: "%2e", with: ".")
        return path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let name = segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return name == "." || name == ".."
        }
    }

    private static func percentEncodedPath(of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }
}
