public import DynamicUIStorage
public import Foundation
public import Logging

/// What interceptors know about the request they see.
public struct RequestContext: Sendable {
    /// Whether the request carries the session's bearer token.
    public let authenticated: Bool
    /// 0 for the first attempt, then 1, 2, … for retries.
    public let attempt: Int
}

/// Changes or checks a request before it is sent.
public protocol RequestInterceptor: Sendable {
    /// The request to send instead, or an error to stop it.
    func intercept(_ request: TransportRequest, context: RequestContext) async throws(NetworkError) -> TransportRequest
}

/// Sees every response before the client interprets it.
public protocol ResponseInterceptor: Sendable {
    /// The response to use instead, or an error.
    func intercept(
        _ response: TransportResponse, for request: TransportRequest, context: RequestContext
    ) async throws(NetworkError)
        -> TransportResponse
}

/// Lets requests, and their redirects, through only under the configured base URLs (origin and
/// path), over https — plain http only to a loopback host, when allowed (debug and demo builds).
public struct SecurityGuardInterceptor: RequestInterceptor {
    /// The configured base URLs: the origins allowed, and the paths requests stay under.
    public let origins: [URL]
    /// Whether `http://127.0.0.1`, `http://localhost` and `http://[::1]` are allowed.
    public let allowInsecureLoopback: Bool
    /// Further hosts plain http may reach (a development preview on the local network).
    public var insecureHosts: Set<String> = []

    /// Creates a guard.
    public init(origins: [URL], allowInsecureLoopback: Bool) {
        self.origins = origins
        self.allowInsecureLoopback = allowInsecureLoopback
    }

    /// Throws `forbiddenURL` for any other destination; a request without a redirect scope
    /// gets the configured base URLs as its scope.
    public func intercept(_ request: TransportRequest, context: RequestContext) async throws(NetworkError) -> TransportRequest {
        try check(request.url)
        var request = request
        if request.redirectScope.isEmpty { request.redirectScope = origins }
        return request
    }

    /// Throws `forbiddenURL` unless `url` is allowed: the scheme rule above, the origin of a base
    /// URL, and a path under that base's path without `.` or `..` segments.
    public func check(_ url: URL) throws(NetworkError) {
        let scheme = url.scheme?.lowercased()
        let host = url.host?.lowercased() ?? ""
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        guard scheme == "https" || (scheme == "http" && ((loopback && allowInsecureLoopback) || insecureHosts.contains(host)))
        else {
            throw NetworkError(.forbiddenURL, message: "refusing \(scheme ?? "no")-scheme request to \(Redaction.url(url))")
        }
        let allowed = origins.contains { origin in
            origin.scheme?.lowercased() == scheme && origin.host?.lowercased() == host && origin.port == url.port
        }
        guard allowed else {
            throw NetworkError(.forbiddenURL, message: "\(Redaction.url(url)) is not one of the configured APIs")
        }
        guard URLScope.contains(url, underAnyOf: origins) else {
            throw NetworkError(
                .forbiddenURL,
                message: "\(Redaction.url(url)) leaves the configured APIs' base paths (another path, or a . or .. segment)")
        }
    }
}

/// Adds `Authorization: Bearer <token>` from the token store to authenticated requests.
public struct BearerAuthInterceptor: RequestInterceptor {
    /// Where the token comes from.
    public let tokens: any TokenStore

    /// Creates the interceptor.
    public init(tokens: any TokenStore) { self.tokens = tokens }

    /// The request with the current token (unchanged when unauthenticated or signed out).
    public func intercept(_ request: TransportRequest, context: RequestContext) async throws(NetworkError) -> TransportRequest {
        guard context.authenticated, let token = try? await tokens.load()?.accessToken else { return request }
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}

/// Logs each request and response through swift-log with credentials masked by `Redaction` (in
/// headers, user info, query and fragment items, and path segments). Bodies are not logged.
public struct LoggingInterceptor: RequestInterceptor, ResponseInterceptor {
    /// The logger.
    public let logger: Logger

    /// Creates the interceptor.
    public init(logger: Logger) { self.logger = logger }

    /// Logs the request at debug level.
    public func intercept(_ request: TransportRequest, context: RequestContext) async throws(NetworkError) -> TransportRequest {
        logger.debug(
            "→ \(request.method) \(Redaction.url(request.url))",
            metadata: ["headers": .string(Redaction.headers(request.headers)), "attempt": .stringConvertible(context.attempt)])
        return request
    }

    /// Logs the response at debug level (warning for 5xx).
    public func intercept(
        _ response: TransportResponse, for request: TransportRequest, context: RequestContext
    ) async throws(NetworkError)
        -> TransportResponse
    {
        let level: Logger.Level = response.status >= 500 ? .warning : .debug
        logger.log(
            level: level, "← \(response.status) \(request.method) \(Redaction.url(request.url)) (\(response.body.count) bytes)",
            metadata: ["headers": .string(Redaction.headers(response.headers))])
        return response
    }
}

/// Redaction of credentials for logs and reports.
public enum Redaction {
    /// The placeholder written instead of a secret.
    public static let mask = "<redacted>"

    /// The mask as it is written inside a URL.
    private static let encodedMask = "%3Credacted%3E"

    /// Whether a header, query or fragment item name holds a credential (`Authorization`,
    /// cookies, any name with token, key, secret, password, session, signature or credential).
    public static func isSensitive(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["authorization", "cookie", "set-cookie", "proxy-authorization", "pwd", "sig", "otp"].contains(lower)
            || ["token", "key", "secret", "password", "passwd", "session", "signature", "credential", "jwt"].contains {
                lower.contains($0)
            }
    }

    /// `url` with the mask instead of its user info, the values of sensitive query and fragment
    /// items, path segments after one that names a secret (`/reset/<token>`), and JWTs.
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<invalid URL>" }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            components.percentEncodedUser = encodedMask
            components.percentEncodedPassword = nil
        }
        components.percentEncodedPath = path(components.percentEncodedPath)
        if let query = components.percentEncodedQuery { components.percentEncodedQuery = items(query) }
        if let fragment = components.percentEncodedFragment { components.percentEncodedFragment = items(fragment) }
        return components.string ?? "<invalid URL>"
    }

    /// The headers as `Name: value` lines with sensitive values masked.
    public static func headers(_ headers: HeaderFields) -> String {
        headers.map { "\($0.name): \(isSensitive($0.name) ? mask : $0.value)" }.joined(separator: "; ")
    }

    /// Words of a path segment that say the next segment is a secret (`/tokens/<token>`,
    /// `/password/reset/<token>`, `/verify-email/<code>`, `/api-keys/<key>`).
    private static let secretNamingWords: Set<String> = [
        "token", "tokens", "password", "passwords", "passwd", "secret", "secrets", "key", "keys", "apikey", "apikeys",
        "session", "sessions", "reset", "verify", "verification", "confirm", "confirmation", "invite", "invites",
        "invitation", "invitations", "magic", "otp", "activate", "activation", "signature", "credential", "credentials",
        "jwt",
    ]

    /// The words of a (decoded) path segment, lower-cased.
    private static func words(_ segment: String) -> [String] {
        segment.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Whether `text` has the shape of a JSON Web Token: `eyJ…` and three base64url parts.
    private static func isJWT(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.hasPrefix("eyJ") && parts.count == 3 && parts[0].count > 3 && !parts[1].isEmpty
            && parts.allSatisfy { part in
                part.unicodeScalars.allSatisfy {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0))
                }
            }
    }

    /// A percent-encoded path with every JWT masked, and every segment that follows one naming a
    /// secret (a word of it in the list), unless it is itself only such words (`/password/reset/`).
    private static func path(_ path: String) -> String {
        var afterSecretName = false
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { encoded -> String in
            let segment = String(encoded)
            let decoded = segment.removingPercentEncoding ?? segment
            let words = words(decoded)
            let naming = words.contains { secretNamingWords.contains($0) }
            let onlyNames = !words.isEmpty && words.allSatisfy { secretNamingWords.contains($0) }
            defer { afterSecretName = naming }
            if segment.isEmpty { return segment }
            return (afterSecretName && !onlyNames) || isJWT(decoded) ? encodedMask : segment
        }
        return segments.joined(separator: "/")
    }

    /// `name=value` items joined by `&` (a query or a fragment), percent-encoded as written, with
    /// the values of sensitive names and JWTs masked.
    private static func items(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard pair.count == 2 else { return isJWT(decode(item[...])) ? encodedMask : String(item) }
            return isSensitive(decode(pair[0])) || isJWT(decode(pair[1])) ? "\(pair[0])=\(encodedMask)" : String(item)
        }.joined(separator: "&")
    }
}
