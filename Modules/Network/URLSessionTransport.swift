import DynamicUIModels

// `URLSessionConfiguration` appears in the public initializer: it comes from Foundation on Apple
// platforms and from FoundationNetworking on Linux.
#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The production transport: one long-lived `URLSession` with its URL cache disabled, so the
/// SDK's own ETag logic sees raw 304 responses on every platform. Bodies are read as they
/// arrive and the exchange stops once one passes the request's `maxResponseBytes` (or declares
/// a larger `Content-Length`), so a hostile server cannot make the client hold gigabytes.
/// A redirect is followed only within the request's `redirectScope` (its own origin when the
/// scope is empty), and credentials never follow one to another origin.
/// Works on Linux through FoundationNetworking.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate = ExchangeDelegate()

    /// Creates the transport (ephemeral configuration, no URL cache, no cookie storage).
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request`; URL errors map to `TransportFailure`, and a request that could inject
    /// lines is refused (`invalidRequest`). The request's `timeout` is a deadline for the whole
    /// exchange (FoundationNetworking on Linux does not apply `timeoutInterval` to a server that
    /// accepts the connection and then stays silent).
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        do throws(NetworkError) {
            try request.validate(at: "request to \(Redaction.url(request.url))")
        } catch {
            throw TransportError(.invalidRequest(error.message))
        }
        let timeout = request.timeout
        do {
            return try await withThrowingTaskGroup(of: TransportResponse.self) { group in
                group.addTask { try await self.exchange(request) }
                group.addTask {
                    try await Task.sleep(nanoseconds: WireNumber.sleepNanoseconds(seconds: timeout))
                    throw TransportError(.timeout)
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw TransportError(.other("no result")) }
                return first
            }
        } catch let error as TransportError {
            throw error
        } catch is CancellationError {
            throw TransportError(.cancelled)
        } catch {
            throw TransportError(.other("\(error)"))
        }
    }

    private func exchange(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, any Error>) in
                delegate.begin(task, request: request, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    static func failure(for code: URLError.Code) -> TransportFailure {
        switch code {
        case .timedOut: .timeout
        case .cancelled: .cancelled
        case .notConnectedToInternet, .cannotConnectToHost, .networkConnectionLost, .cannotFindHost, .dnsLookupFailed,
            .internationalRoamingOff, .dataNotAllowed, .secureConnectionFailed:
            .noConnection
        default: .other("URL error \(code.rawValue)")
        }
    }
}

/// Collects each data task's response and body, enforcing the body limit as bytes arrive and
/// the redirect scope at every hop, and completes the task's continuation exactly once.
private final class ExchangeDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Exchange {
        let limit: Int?
        let continuation: CheckedContinuation<TransportResponse, any Error>
        /// Where redirects may lead (`TransportRequest.redirectScope`).
        let scope: [URL]
        /// The URL asked for.
        let requested: URL
        /// The URL of the current hop: the request's, then each redirect's.
        var current: URL
        var redirects = 0
        var response: HTTPURLResponse?
        var body = Data()
    }

    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    func begin(
        _ task: URLSessionTask, request: TransportRequest, continuation: CheckedContinuation<TransportResponse, any Error>
    ) {
        lock.withLock {
            exchanges[task.taskIdentifier] = Exchange(
                limit: request.maxResponseBytes, continuation: continuation, scope: request.redirectScope,
                requested: request.url, current: request.url)
        }
    }

    /// Removes the task's exchange and completes it (once: later calls find nothing).
    private func finish(_ task: URLSessionTask, _ result: (inout Exchange) -> Result<TransportResponse, any Error>) {
        let completion: (CheckedContinuation<TransportResponse, any Error>, Result<TransportResponse, any Error>)? =
            lock.withLock {
                guard var exchange = exchanges.removeValue(forKey: task.taskIdentifier) else { return nil }
                return (exchange.continuation, result(&exchange))
            }
        if let (continuation, result) = completion { continuation.resume(with: result) }
    }

    private func tooLarge(_ task: URLSessionTask, limit: Int) {
        finish(task) { _ in .failure(TransportError(.tooLarge(limit: limit))) }
        task.cancel()
    }

    /// Follows a redirect only when its target is within the exchange's scope; a hop to another
    /// origin goes without the credential headers. Anything else ends the exchange with
    /// `redirectRefused` before a byte is sent to the target.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let decision: Result<URLRequest, TransportError>? = lock.withLock {
            guard var exchange = exchanges[task.taskIdentifier] else { return nil }
            let from = Redaction.url(exchange.current)
            guard let target = request.url else {
                return .failure(TransportError(.redirectRefused("redirect from \(from) without a target refused")))
            }
            exchange.redirects += 1
            guard exchange.redirects <= URLScope.maxRedirects else {
                return .failure(
                    TransportError(
                        .redirectRefused("more than \(URLScope.maxRedirects) redirects from \(Redaction.url(exchange.requested))")
                    ))
            }
            let allowed =
                exchange.scope.isEmpty
                ? URLScope.contains(target, withinOriginOf: exchange.requested)
                : URLScope.contains(target, underAnyOf: exchange.scope)
            guard allowed else {
                return .failure(
                    TransportError(
                        .redirectRefused(
                            "redirect (\(response.statusCode)) from \(from) to \(Redaction.url(target)) refused: outside the configured APIs"
                        )))
            }
            var hop = request
            if !URLScope.sameOrigin(target, exchange.current) {
                for name in (hop.allHTTPHeaderFields ?? [:]).keys where URLScope.isCredential(name) {
                    hop.setValue(nil, forHTTPHeaderField: name)
                }
            }
            exchange.current = target
            exchanges[task.taskIdentifier] = exchange
            return .success(hop)
        }
        switch decision {
        case .success(let hop)?:
            completionHandler(hop)
        case .failure(let error)?:
            finish(task) { _ in .failure(error) }
            completionHandler(nil)
            task.cancel()
        case nil:
            completionHandler(nil)
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let limit: Int? = lock.withLock {
            exchanges[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            return exchanges[dataTask.taskIdentifier]?.limit
        }
        if let limit, response.expectedContentLength > Int64(limit) {
            completionHandler(.cancel)
            tooLarge(dataTask, limit: limit)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let exceeded: Int? = lock.withLock {
            let id = dataTask.taskIdentifier
            guard let received = exchanges[id]?.body.count else { return nil }
            if let limit = exchanges[id]?.limit, received + data.count > limit { return limit }
            exchanges[id]?.body.append(data)  // in place: the body is never copied
            return nil
        }
        if let exceeded { tooLarge(dataTask, limit: exceeded) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(task) { exchange in
            if let error {
                if let urlError = error as? URLError {
                    return .failure(TransportError(URLSessionTransport.failure(for: urlError.code)))
                }
                return .failure(TransportError(.other("\(error)")))
            }
            guard let http = exchange.response ?? (task.response as? HTTPURLResponse) else {
                return .failure(TransportError(.other("not an HTTP response")))
            }
            var headers = HeaderFields()
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            // Without a redirect the answer is the request's URL as given (URLSession may spell
            // it differently); after one, or from another origin, the URL that answered.
            var answered = exchange.requested
            if exchange.redirects > 0 || http.url.map({ !URLScope.sameOrigin($0, exchange.requested) }) == true {
                answered = http.url ?? exchange.current
            }
            return .success(TransportResponse(status: http.statusCode, headers: headers, body: exchange.body, url: answered))
        }
    }
}
