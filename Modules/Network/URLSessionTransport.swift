import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The production transport: one long-lived `URLSession` with its URL cache disabled, so the
/// SDK's own ETag logic sees raw 304 responses on every platform. Works on Linux through
/// FoundationNetworking.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates the transport (ephemeral configuration, no URL cache, no cookie storage).
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request`; URL errors map to `TransportFailure`. The request's `timeout` is enforced
    /// here as a deadline for the whole exchange (FoundationNetworking on Linux does not apply
    /// `timeoutInterval` to a server that accepts the connection and then stays silent).
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let timeout = request.timeout
        do {
            return try await withThrowingTaskGroup(of: TransportResponse.self) { group in
                group.addTask { try await self.exchange(request) }
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1_000_000_000))
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
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { throw TransportError(.other("not an HTTP response")) }
            var headers = HeaderFields()
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return TransportResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as TransportError {
            throw error
        } catch is CancellationError {
            throw TransportError(.cancelled)
        } catch let error as URLError {
            throw TransportError(Self.failure(for: error.code))
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
