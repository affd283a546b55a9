public import DynamicUIModels
public import DynamicUIStorage
public import Foundation
public import Logging

/// Where the APIs are and how the client behaves.
public struct APIConfiguration: Sendable {
    /// Base URL of the admin API (`admin:` endpoints).
    public var adminBaseURL: URL
    /// Base URL of the mobile API (`mobile:` and unprefixed endpoints).
    public var mobileBaseURL: URL
    /// Allow plain http to loopback hosts (debug builds and the demo backend).
    public var allowInsecureLoopback: Bool
    /// Seconds before a request times out.
    public var timeout: Double
    /// Retries and backoff.
    public var retryPolicy: RetryPolicy
    /// Where an expired access token is exchanged (`POST {"refresh_token": …}`); `nil` disables
    /// refreshing.
    public var refreshEndpoint: Endpoint?
    /// Bounds on response bodies: the transport stops reading past `maxBytes`, and `json()`
    /// reads with these limits.
    public var readerLimits: JSONReader.Limits
    /// Hosts besides loopback that plain http may reach: a development preview's on the local
    /// network, in debug builds (empty otherwise).
    public var insecureHosts: Set<String> = []

    /// Creates a configuration.
    public init(
        adminBaseURL: URL, mobileBaseURL: URL, allowInsecureLoopback: Bool = false, timeout: Double = 30,
        retryPolicy: RetryPolicy = .default, refreshEndpoint: Endpoint? = "mobile:/v1/auth/refresh",
        readerLimits: JSONReader.Limits = .default
    ) {
        self.readerLimits = readerLimits
        self.adminBaseURL = adminBaseURL
        self.mobileBaseURL = mobileBaseURL
        self.allowInsecureLoopback = allowInsecureLoopback
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.refreshEndpoint = refreshEndpoint
    }

    /// The base URL of `service`.
    public func baseURL(for service: APIService) -> URL {
        service == .admin ? adminBaseURL : mobileBaseURL
    }
}

/// A request in the SDK's terms: an endpoint with path parameters, query and JSON body.
public struct APIRequest: Sendable {
    /// The method.
    public var method: RequestMethod
    /// The endpoint (`admin:/v1/users/{id}`).
    public var endpoint: Endpoint
    /// Values for the endpoint's `{name}` parameters.
    public var pathParameters: [String: String]
    /// Query items, in order.
    public var query: [(name: String, value: String)]
    /// The JSON body.
    public var body: JSONValue?
    /// Extra headers.
    public var headers: HeaderFields
    /// Whether the bearer token is sent.
    public var authenticated: Bool
    /// Whether a GET may be answered from the cache while fresh (revalidation still applies).
    public var useCache: Bool
    /// Whether a mutating request is queued when it cannot be sent.
    public var queueWhenOffline: Bool
    /// The idempotency key of a mutating request (generated when `nil`).
    public var idempotencyKey: String?
    /// Skip the response cache entirely (a caller with its own validators); a 304 is then
    /// returned as a response instead of being answered from the cache.
    public var bypassCache: Bool = false

    /// Creates a request.
    public init(
        _ method: RequestMethod, _ endpoint: Endpoint, pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [], body: JSONValue? = nil, headers: HeaderFields = [:],
        authenticated: Bool = true, useCache: Bool = true, queueWhenOffline: Bool = true, idempotencyKey: String? = nil
    ) {
        self.method = method
        self.endpoint = endpoint
        self.pathParameters = pathParameters
        self.query = query
        self.body = body
        self.headers = headers
        self.authenticated = authenticated
        self.useCache = useCache
        self.queueWhenOffline = queueWhenOffline
        self.idempotencyKey = idempotencyKey
    }
}

/// A successful response and where it came from.
public struct APIResponse: Sendable {
    /// Where the body came from.
    public enum Source: Sendable, Hashable {
        /// Fresh from the server.
        case network
        /// From the cache while fresh; the server was not asked.
        case cache
        /// From the cache after the server answered 304 Not Modified.
        case revalidated
        /// From the cache past its freshness because the server could not be reached.
        case stale
    }

    /// The HTTP status (of the stored response for cached sources).
    public let status: Int
    /// The response headers (empty for cached sources).
    public let headers: HeaderFields
    /// The body.
    public let body: Data
    /// Where it came from.
    public let source: Source
    /// The URL requested.
    public let url: URL
    /// The limits `json()` reads with (the client's `readerLimits`).
    var readerLimits: JSONReader.Limits = .default

    /// The body as JSON; a body that is not JSON is a `decoding` error with the position.
    public func json() throws(NetworkError) -> JSONValue {
        if body.isEmpty { return .null }
        do {
            return try JSONReader(limits: readerLimits).read(body)
        } catch {
            throw NetworkError(.decoding, status: status, message: "response of \(Redaction.url(url)) is not JSON: \(error)")
        }
    }

    /// The body read as a `JSONDocument` (nothing built until read; `null` for an empty body),
    /// with the same checks and errors as `json()`.
    public func document() throws(NetworkError) -> JSONDocument {
        do {
            if body.isEmpty { return try JSONReader().document("null") }
            let reader = JSONReader(limits: readerLimits)
            return try body.withUnsafeBytes { (bytes) throws(JSONReadError) in try reader.document(bytes) }
        } catch {
            throw NetworkError(.decoding, status: status, message: "response of \(Redaction.url(url)) is not JSON: \(error)")
        }
    }

    /// The body decoded as a model within `modelLimits`; errors name the JSON path.
    public func decode<T: JSONModelDecodable>(_ type: T.Type, modelLimits: ModelLimits = .default) throws(NetworkError) -> T {
        let json = try json()
        do {
            return try T(json: json, limits: modelLimits)
        } catch {
            throw NetworkError(.decoding, status: status, message: "response of \(Redaction.url(url)): \(error)")
        }
    }
}

/// The API client: dual-API routing, interceptors, retries
/// with backoff and `Retry-After`, ETag revalidation and `Cache-Control` on every GET, stale
/// responses when the network fails, one token refresh on 401, and durable queuing of mutating
/// requests that cannot be sent.
public actor APIClient {
    /// The configuration.
    public let configuration: APIConfiguration
    private let transport: any HTTPTransport
    private let tokens: (any TokenStore)?
    /// The response cache, when caching.
    public let cache: ResponseCache?
    /// The offline queue, when queuing.
    public let queue: OfflineQueueStore?
    private let clock: any DynamicUIClock
    private let logger: Logger
    private let guardInterceptor: SecurityGuardInterceptor
    private let requestInterceptors: [any RequestInterceptor]
    private let responseInterceptors: [any ResponseInterceptor]
    private var refreshInFlight: Task<AuthTokens?, Never>?
    private let makeIdempotencyKey: @Sendable () -> String

    /// Creates a client. Requests pass the security guard, then bearer auth (when a token store
    /// is given), then `interceptors`, then logging.
    public init(
        configuration: APIConfiguration, transport: any HTTPTransport, tokens: (any TokenStore)? = nil,
        cache: ResponseCache? = nil, queue: OfflineQueueStore? = nil, clock: any DynamicUIClock = SystemClock(),
        logger: Logger = Logger(label: "DynamicUI.network"), interceptors: [any RequestInterceptor] = [],
        responseInterceptors: [any ResponseInterceptor] = [],
        idempotencyKeys: @escaping @Sendable () -> String = { UUID().uuidString }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.tokens = tokens
        self.cache = cache
        self.queue = queue
        self.clock = clock
        self.logger = logger
        self.makeIdempotencyKey = idempotencyKeys
        var guardInterceptor = SecurityGuardInterceptor(
            origins: [configuration.adminBaseURL, configuration.mobileBaseURL],
            allowInsecureLoopback: configuration.allowInsecureLoopback)
        guardInterceptor.insecureHosts = configuration.insecureHosts
        self.guardInterceptor = guardInterceptor
        let logging = LoggingInterceptor(logger: logger)
        var chain: [any RequestInterceptor] = [guardInterceptor]
        if let tokens { chain.append(BearerAuthInterceptor(tokens: tokens)) }
        requestInterceptors = chain + interceptors + [logging]
        self.responseInterceptors = responseInterceptors + [logging]
    }

    /// The absolute URL of an endpoint with its parameters and query.
    public func url(
        for endpoint: Endpoint, parameters: [String: String] = [:], query: [(name: String, value: String)] = []
    )
        throws(NetworkError) -> URL
    {
        let base = configuration.baseURL(for: endpoint.service)
        let path = try endpoint.path(with: parameters)
        var text = base.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += path.hasPrefix("/") ? path : "/" + path
        guard var components = URLComponents(string: text) else {
            throw NetworkError.invalidRequest("cannot build a URL from \(endpoint)")
        }
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query.map { URLQueryItem(name: $0.name, value: $0.value) }
        }
        guard let url = components.url else { throw NetworkError.invalidRequest("cannot build a URL from \(endpoint)") }
        return url
    }

    /// The URL prefix of an endpoint family, for cache invalidation (`/v1/materials`).
    public func urlPrefix(for endpoint: Endpoint) -> String {
        var base = configuration.baseURL(for: endpoint.service).absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let path = endpoint.pathTemplate.split(separator: "{").first.map(String.init) ?? endpoint.pathTemplate
        return base + (path.hasSuffix("/") ? String(path.dropLast()) : path)
    }

    /// Sends `request`, applying caching, retries, refresh and queuing. A method outside
    /// `RequestMethod.allowed` or a header that could inject lines is `invalidRequest`, never sent.
    public func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        let url = try url(for: request.endpoint, parameters: request.pathParameters, query: request.query)
        try guardInterceptor.check(url)
        // Checked before anything is cached or queued: a request that could inject is never stored.
        try TransportRequest(method: request.method, url: url, headers: request.headers)
            .validate(at: "request to \(request.endpoint)")
        var headers = request.headers
        headers["Accept"] = headers["Accept"] ?? "application/json"
        var body: Data?
        if let json = request.body {
            body = JSONWriter().data(from: json)
            headers["Content-Type"] = "application/json"
        }
        if request.method.isMutating {
            // The same change made again before the first was delivered (a second tap on Send
            // while offline) is the same intent: it keeps the queued one's key, so the queue
            // holds it once and the server records it once.
            let queued = request.queueWhenOffline ? queue.flatMap { Self.queuedTwin(of: request.method, url, body, in: $0) } : nil
            headers["Idempotency-Key"] = queued?.idempotencyKey ?? request.idempotencyKey ?? makeIdempotencyKey()
        }
        let http = TransportRequest(
            method: request.method, url: url, headers: headers, body: body, timeout: configuration.timeout)
        let isGet = request.method == .get && !request.bypassCache
        var cached: CachedResponse?
        if isGet, let cache {
            cached = await cache.entry(for: url.absoluteString)
            if request.useCache, let cached, cached.isFresh(at: clock.now()) {
                return APIResponse(
                    status: cached.status, headers: [:], body: cached.body, source: .cache, url: url,
                    readerLimits: configuration.readerLimits)
            }
        }
        if request.method.isMutating, request.queueWhenOffline, let queue, Self.hasQueuedChange(to: url, in: queue) {
            // An earlier change to the same record still waits in the queue: this one goes behind
            // it, so the server applies them in the order the user made them.
            return try enqueue(
                http, url: url, body: body, queue: queue,
                because: NetworkError(.queuedBehind, message: "an earlier change to \(Redaction.url(url)) is still queued"))
        }
        do {
            return try await perform(
                http, authenticated: request.authenticated, cached: cached, retryPolicy: configuration.retryPolicy,
                storesInCache: isGet, acceptsNotModified: request.bypassCache)
        } catch {
            if isGet, let cached, error.code == .noConnection || error.code == .timeout || error.code == .serverError {
                logger.notice("serving a stale response for \(Redaction.url(url)): \(error.code)")
                return APIResponse(
                    status: cached.status, headers: [:], body: cached.body, source: .stale, url: url,
                    readerLimits: configuration.readerLimits)
            }
            if request.method.isMutating, request.queueWhenOffline, let queue,
                error.code == .noConnection || error.code == .timeout
            {
                return try enqueue(http, url: url, body: body, queue: queue, because: error)
            }
            throw error
        }
    }

    /// The change waiting in the queue that `method`, `url` and `body` would make again, if any.
    private static func queuedTwin(
        of method: RequestMethod, _ url: URL, _ body: Data?, in queue: OfflineQueueStore
    ) -> QueuedRequest? {
        let target = OfflineQueueStore.withoutCredentials(url: url.absoluteString)
        return ((try? queue.pending()) ?? []).last {
            $0.method == method.rawValue && $0.url == target && $0.body == body
        }
    }

    /// Whether a change to `url` (the same record) waits in the queue.
    private static func hasQueuedChange(to url: URL, in queue: OfflineQueueStore) -> Bool {
        let target = OfflineQueueStore.withoutCredentials(url: url.absoluteString)
        return ((try? queue.pending()) ?? []).contains { $0.url == target }
    }

    /// Stores a mutation for later delivery and throws `error` carrying its queue entry.
    private func enqueue(
        _ http: TransportRequest, url: URL, body: Data?, queue: OfflineQueueStore, because error: NetworkError
    ) throws(NetworkError) -> APIResponse {
        do {
            let queued = try queue.enqueue(
                NewQueuedRequest(
                    method: http.method.rawValue, url: url.absoluteString, headers: http.headers.dictionary, body: body,
                    idempotencyKey: http.headers["Idempotency-Key"]!),
                at: clock.now())
            logger.info("queued \(http.method) \(Redaction.url(url)) as #\(queued.id) for delivery when online")
            return try Self.rethrow(error, queued: queued)
        } catch let storageError as StorageError {
            if storageError.code == .full {
                throw NetworkError(
                    .queueFull, status: error.status, body: error.body,
                    message: "\(error.message); not queued: \(storageError.message)",
                    retryAfter: error.retryAfter)
            }
            throw NetworkError(error.code, message: "\(error.message); and it could not be queued: \(storageError)")
        } catch let networkError as NetworkError {
            throw networkError
        } catch {
            throw NetworkError(.noConnection, message: "\(error)")
        }
    }

    private static func rethrow(_ error: NetworkError, queued: QueuedRequest) throws -> APIResponse {
        throw NetworkError(
            error.code, status: error.status, body: error.body, message: error.message, queuedRequest: queued,
            retryAfter: error.retryAfter)
    }

    /// Delivers a queued request once: same method, URL, body and `Idempotency-Key`, with the
    /// current token. No retries and no queuing (the queue's own backoff applies).
    public func replay(_ queued: QueuedRequest) async throws(NetworkError) -> APIResponse {
        guard let url = URL(string: queued.url) else { throw NetworkError.invalidRequest("queued URL \(queued.url) is invalid") }
        try guardInterceptor.check(url)
        var headers = HeaderFields(queued.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        headers["Idempotency-Key"] = queued.idempotencyKey
        let http = TransportRequest(
            method: RequestMethod(rawValue: queued.method), url: url, headers: headers, body: queued.body,
            timeout: configuration.timeout)
        return try await perform(http, authenticated: true, cached: nil, retryPolicy: .none)
    }

    /// Removes cached responses whose URL starts with the endpoint family's prefix.
    public func invalidateCache(for endpoint: Endpoint) async {
        await cache?.invalidate(prefix: urlPrefix(for: endpoint))
    }

    // MARK: Pipeline

    private func perform(
        _ request: TransportRequest, authenticated: Bool, cached: CachedResponse?, retryPolicy: RetryPolicy,
        storesInCache: Bool = true,
        acceptsNotModified: Bool = false
    ) async throws(NetworkError) -> APIResponse {
        var attempt = 0
        var refreshed = false
        while true {
            if Task.isCancelled { throw NetworkError(.cancelled, message: "cancelled") }
            var outgoing = request
            outgoing.maxResponseBytes = outgoing.maxResponseBytes ?? configuration.readerLimits.maxBytes
            if let etag = cached?.etag { outgoing.headers["If-None-Match"] = etag }
            let context = RequestContext(authenticated: authenticated, attempt: attempt)
            let place = "request to \(Redaction.url(request.url))"
            try outgoing.validate(at: place)
            for interceptor in requestInterceptors { outgoing = try await interceptor.intercept(outgoing, context: context) }
            // Again with what the interceptors added (a token with a line break in it).
            try outgoing.validate(at: place)
            var response: TransportResponse
            do {
                response = try await transport.send(outgoing)
            } catch {
                switch error.failure {
                case .cancelled:
                    throw NetworkError(.cancelled, message: "cancelled")
                case .timeout where attempt < retryPolicy.maxRetries:
                    try await wait(retryPolicy.delay(forRetry: attempt))
                    attempt += 1
                    continue
                case .timeout:
                    throw NetworkError(.timeout, message: "\(request.method) \(Redaction.url(request.url)) timed out")
                case .noConnection:
                    throw NetworkError(.noConnection, message: "\(request.method) \(Redaction.url(request.url)): no connection")
                case .tooLarge(let limit):
                    throw NetworkError(
                        .limitExceeded,
                        message: "\(request.method) \(Redaction.url(request.url)): response larger than \(limit) bytes")
                case .redirectRefused(let message):
                    throw NetworkError(.forbiddenURL, message: "\(request.method) \(Redaction.url(request.url)): \(message)")
                case .invalidRequest(let message):
                    throw NetworkError.invalidRequest(message)
                case .other(let message):
                    throw NetworkError(.noConnection, message: "\(request.method) \(Redaction.url(request.url)): \(message)")
                }
            }
            // Where the answer came from: after a redirect, not the URL asked for. A transport
            // that followed one outside the configured APIs is not believed; one inside them is,
            // but its body belongs to another URL and is not cached under the one asked for.
            let answeredFrom = response.url ?? outgoing.url
            let redirected = answeredFrom.absoluteString != outgoing.url.absoluteString
            if redirected {
                try checkRedirect(to: answeredFrom, from: outgoing)
            }
            for interceptor in responseInterceptors {
                response = try await interceptor.intercept(response, for: outgoing, context: context)
            }
            let status = response.status

            if status == 304, let cached {
                if !redirected {
                    let directives = CacheDirectives(response.headers["Cache-Control"])
                    let ttl = directives.noCache ? 0 : (directives.maxAge ?? cache?.defaultTTL ?? 0)
                    let now = clock.now()
                    await cache?.store(
                        cached.refreshed(at: now, until: now.addingTimeInterval(ttl)), for: request.url.absoluteString)
                }
                return APIResponse(
                    status: cached.status, headers: response.headers, body: cached.body, source: .revalidated, url: request.url,
                    readerLimits: configuration.readerLimits)
            }
            if status == 304, acceptsNotModified {
                return APIResponse(
                    status: 304, headers: response.headers, body: Data(), source: .network, url: request.url,
                    readerLimits: configuration.readerLimits)
            }
            if (200..<300).contains(status) {
                if request.method == .get, storesInCache, !redirected, let cache {
                    let directives = CacheDirectives(response.headers["Cache-Control"])
                    if !directives.noStore {
                        await cache.store(
                            response.body, for: request.url.absoluteString, status: status, etag: response.headers["ETag"],
                            ttl: directives.noCache ? 0 : directives.maxAge)
                    }
                }
                return APIResponse(
                    status: status, headers: response.headers, body: response.body, source: .network, url: request.url,
                    readerLimits: configuration.readerLimits)
            }
            if status == 401, authenticated, !refreshed, await refreshTokens() != nil {
                refreshed = true
                continue
            }
            let retryAfter = RetryPolicy.retryAfter(response.headers["Retry-After"], now: clock.now())
            if retryPolicy.retryableStatuses.contains(status), attempt < retryPolicy.maxRetries {
                let delay: Double
                if let retryAfter {
                    guard retryAfter <= retryPolicy.maxRetryAfter else {
                        throw NetworkError.status(status, body: response.body, retryAfter: retryAfter)
                    }
                    delay = retryAfter
                } else {
                    delay = retryPolicy.delay(forRetry: attempt)
                }
                try await wait(delay)
                attempt += 1
                continue
            }
            throw NetworkError.status(status, body: response.body, retryAfter: retryAfter)
        }
    }

    /// Throws `forbiddenURL` when `request` was answered from `url` outside the redirect scope
    /// the guard gave it (a transport that follows redirects on its own).
    private func checkRedirect(to url: URL, from request: TransportRequest) throws(NetworkError) {
        let scope = request.redirectScope.isEmpty ? guardInterceptor.origins : request.redirectScope
        do {
            try guardInterceptor.check(url)
        } catch {
            throw NetworkError(
                .forbiddenURL,
                message:
                    "\(request.method) \(Redaction.url(request.url)) was redirected to \(Redaction.url(url)): \(error.message)")
        }
        guard URLScope.contains(url, underAnyOf: scope) else {
            throw NetworkError(
                .forbiddenURL,
                message:
                    "\(request.method) \(Redaction.url(request.url)) was redirected to \(Redaction.url(url)), outside the configured APIs"
            )
        }
    }

    private func wait(_ seconds: Double) async throws(NetworkError) {
        do {
            try await clock.sleep(seconds: seconds)
        } catch {
            throw NetworkError(.cancelled, message: "cancelled while waiting to retry")
        }
    }

    /// Exchanges the refresh token once for all concurrent callers; `nil` when it fails (the
    /// tokens are then cleared: the session is over).
    private func refreshTokens() async -> AuthTokens? {
        if let refreshInFlight { return await refreshInFlight.value }
        guard let tokens, let endpoint = configuration.refreshEndpoint else { return nil }
        let task = Task<AuthTokens?, Never> { await self.performRefresh(tokens: tokens, endpoint: endpoint) }
        refreshInFlight = task
        let result = await task.value
        refreshInFlight = nil
        return result
    }

    private func performRefresh(tokens: any TokenStore, endpoint: Endpoint) async -> AuthTokens? {
        guard let current = try? await tokens.load(), let refreshToken = current.refreshToken,
            let url = try? url(for: endpoint)
        else { return nil }
        let body = JSONWriter().data(from: ["refresh_token": .string(refreshToken)])
        let request = TransportRequest(
            method: .post, url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"], body: body,
            timeout: configuration.timeout)
        do {
            let response = try await perform(request, authenticated: false, cached: nil, retryPolicy: .none)
            let json = try response.json()
            guard let access = json["access_token"]?.stringValue else {
                logger.warning("token refresh answered without access_token")
                return nil
            }
            let expiresAt = json["expires_in"]?.doubleValue.flatMap { WireNumber.seconds($0) }.map {
                clock.now().addingTimeInterval($0)
            }
            let renewed = AuthTokens(
                accessToken: access, refreshToken: json["refresh_token"]?.stringValue ?? refreshToken, expiresAt: expiresAt)
            try? await tokens.save(renewed)
            logger.info("access token refreshed")
            return renewed
        } catch {
            logger.warning("token refresh failed: \(error.code); signing out")
            try? await tokens.clear()
            return nil
        }
    }
}
