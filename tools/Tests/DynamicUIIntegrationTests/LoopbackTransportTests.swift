import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

/// A handler of one route of a loopback test server.
typealias RouteHandler = @Sendable (LoopbackRequest) async throws -> LoopbackResponse

/// A loopback server (the demo backend's HTTP server) answering from `routes`: the key
/// `"METHOD /path"` first, then `"/path"` for any method, then `"*"`; 404 otherwise.
func startServer(_ routes: [String: RouteHandler]) async throws -> (server: LoopbackHTTPServer, url: URL) {
    let server = LoopbackHTTPServer { request in
        let route = routes["\(request.method) \(request.path)"] ?? routes[request.path] ?? routes["*"]
        guard let route else { return LoopbackResponse(status: 404) }
        return (try? await route(request)) ?? LoopbackResponse(status: 500)
    }
    let port = try await server.start()
    return (server, URL(string: "http://127.0.0.1:\(port)")!)
}

/// A response with `status`, `headers` and a UTF-8 `body`.
func answer(_ status: Int, _ headers: [(name: String, value: String)] = [], _ body: String = "") -> LoopbackResponse {
    LoopbackResponse(status: status, headers: headers, body: Array(body.utf8))
}

/// An API client of both APIs at `base`, over URLSession, with quick retries.
func loopbackClient(_ base: URL, tokens: (any TokenStore)? = nil, cache: ResponseCache? = nil, timeout: Double = 10) -> APIClient
{
    APIClient(
        configuration: APIConfiguration(
            adminBaseURL: base, mobileBaseURL: base, allowInsecureLoopback: true, timeout: timeout,
            retryPolicy: RetryPolicy(maxRetries: 2, baseDelay: 0.01, jitter: 0)),
        transport: URLSessionTransport(), tokens: tokens, cache: cache)
}

/// Counts things across the server's handler tasks.
actor Counter {
    private(set) var values: [String: Int] = [:]
    func increment(_ key: String) -> Int {
        values[key, default: 0] += 1
        return values[key]!
    }
}

/// Every request a loopback server received: method, path and headers (names lower-cased).
actor RequestLog {
    private(set) var entries: [(method: String, path: String, headers: [String: String])] = []

    func record(_ request: LoopbackRequest) {
        entries.append((request.method, request.path, request.headers))
    }

    var paths: [String] { entries.map(\.path) }
}

/// A `307 Temporary Redirect` to `location`.
func temporaryRedirect(to location: String) -> LoopbackResponse {
    answer(307, [("Location", location)])
}

/// The port the request was addressed to, read from its `Host` header.
func addressedPort(_ request: LoopbackRequest) -> String {
    request.header("Host").flatMap { $0.split(separator: ":").last.map(String.init) } ?? "0"
}

@Suite("URLSession transport against a loopback server", .serialized)
struct LoopbackTransportTests {
    @Test func okEtagRefreshConflictAndRetry() async throws {
        let flaky = Counter()
        let (server, base) = try await startServer([
            "GET /v1/ok": { _ in answer(200, [("Content-Type", "application/json")], #"{"ok": true}"#) },
            "GET /v1/etag": { request in
                request.header("If-None-Match") == "\"v1\""
                    ? answer(304, [("Cache-Control", "max-age=60")])
                    : answer(200, [("ETag", "\"v1\""), ("Cache-Control", "max-age=0")], #"{"v": 1}"#)
            },
            "POST /v1/auth/refresh": { _ in answer(200, [], #"{"access_token": "fresh"}"#) },
            "GET /v1/secure": { request in
                request.header("Authorization") == "Bearer fresh" ? answer(200, [], "{}") : answer(401)
            },
            "PUT /v1/conflict": { _ in answer(409, [], #"{"current": {"version": 9}}"#) },
            "GET /v1/flaky": { _ in await flaky.increment("flaky") == 1 ? answer(503) : answer(200, [], "[]") },
            "GET /v1/slow": { _ in
                try await Task.sleep(nanoseconds: 3_000_000_000)
                return answer(200)
            },
        ])
        defer { Task { await server.stop() } }

        let cache = ResponseCache()
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "stale", refreshToken: "r"))
        let client = loopbackClient(base, tokens: tokens, cache: cache)

        #expect(try await client.send(APIRequest(.get, "/v1/ok")).json() == ["ok": true])

        let first = try await client.send(APIRequest(.get, "/v1/etag"))
        #expect(first.source == .network)
        let second = try await client.send(APIRequest(.get, "/v1/etag"))
        #expect(second.source == .revalidated)
        #expect(try second.json() == ["v": 1])

        _ = try await client.send(APIRequest(.get, "/v1/secure"))
        #expect(await tokens.load()?.accessToken == "fresh")

        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.put, "/v1/conflict", body: ["title": "x"]))
            Issue.record("conflict succeeded")
        } catch {
            #expect(error.code == .conflict)
            #expect(error.body?["current"]?["version"] == 9)
        }

        #expect(try await client.send(APIRequest(.get, "/v1/flaky")).json() == [])
        #expect(await flaky.values["flaky"] == 2)

        let impatient = loopbackClient(base, timeout: 0.5)
        do throws(NetworkError) {
            _ = try await impatient.send(APIRequest(.get, "/v1/slow"))
            Issue.record("slow request succeeded")
        } catch {
            #expect(error.code == .timeout)
        }
    }
}

@Suite("Redirects over loopback HTTP", .serialized)
struct RedirectTests {
    /// The API under `/api` on one loopback server, a collector on another. Each `/api/v1/to-…`
    /// route answers 307 towards somewhere outside the configured API.
    func servers() async throws -> (api: URL, apiLog: RequestLog, otherLog: RequestLog, stop: @Sendable () -> Void) {
        let otherLog = RequestLog()
        let (other, otherRoot) = try await startServer([
            "*": { request in
                await otherLog.record(request)
                return answer(200, [("Cache-Control", "max-age=600")], #"{"data": ["served by the other host"]}"#)
            }
        ])
        let otherPort = otherRoot.port!
        let apiLog = RequestLog()
        let landing: RouteHandler = { request in
            await apiLog.record(request)
            return answer(200, [], #"{"landed": true}"#)
        }
        let (api, apiRoot) = try await startServer([
            "/api/v1/to-other-port": { _ in temporaryRedirect(to: "http://127.0.0.1:\(otherPort)/collect") },
            "/api/v1/to-other-host": { _ in temporaryRedirect(to: "http://localhost:\(otherPort)/collect") },
            // Same port, another host name: another origin, although the same server answers.
            "/api/v1/to-same-port-other-host": { request in
                temporaryRedirect(to: "http://localhost:\(addressedPort(request))/api/v1/landing")
            },
            // Same origin, outside the base URL's path.
            "/api/v1/to-outside-path": { _ in temporaryRedirect(to: "/outside/landing") },
            "POST /api/v1/auth/refresh": { _ in temporaryRedirect(to: "http://localhost:\(otherPort)/collect") },
            "GET /api/v1/needs-refresh": { _ in answer(401) },
            "GET /api/v1/old": { _ in temporaryRedirect(to: "/api/v1/new") },
            "/api/v1/landing": landing,
            "/outside/landing": landing,
            "GET /api/v1/new": { request in
                await apiLog.record(request)
                let authorization = request.header("Authorization") ?? "none"
                return answer(200, [("Cache-Control", "max-age=600")], #"{"authorization": "\#(authorization)"}"#)
            },
        ])
        return (
            apiRoot.appendingPathComponent("api"), apiLog, otherLog,
            {
                Task {
                    await other.stop(); await api.stop()
                }
            }
        )
    }

    static let redirectingPaths = [
        "/v1/to-other-port", "/v1/to-other-host", "/v1/to-same-port-other-host", "/v1/to-outside-path",
    ]

    @Test func aRedirectOutsideTheConfiguredAPIIsRefusedAndNothingReachesItOrIsCached() async throws {
        let (base, apiLog, otherLog, stop) = try await servers()
        defer { stop() }
        let cache = ResponseCache()
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "ACCESS-SECRET", refreshToken: "REFRESH-SECRET"))
        let client = loopbackClient(base, tokens: tokens, cache: cache)
        for path in Self.redirectingPaths {
            for method in [RequestMethod.get, .post, .delete] {
                let request = APIRequest(
                    method, Endpoint(path), body: method == .post ? ["title": "x"] : nil, queueWhenOffline: false)
                do throws(NetworkError) {
                    let answer = try await client.send(request)
                    Issue.record("\(method) \(path) followed the redirect: \(String(decoding: answer.body, as: UTF8.self))")
                } catch {
                    #expect(error.code == .forbiddenURL, "\(method) \(path): \(error)")
                    #expect(error.message.contains("redirect"), "\(method) \(path): \(error)")
                    #expect(!error.isQueued)
                }
            }
        }
        let otherPaths = await otherLog.paths
        let apiPaths = await apiLog.paths
        #expect(otherPaths.isEmpty, "the other server received \(otherPaths)")
        #expect(apiPaths.isEmpty, "a redirect target on the API's server received \(apiPaths)")
        #expect(await cache.count == 0)
        #expect(await tokens.load()?.accessToken == "ACCESS-SECRET")
    }

    @Test func aRefreshRedirectedElsewhereSendsTheRefreshTokenNowhere() async throws {
        let (base, _, otherLog, stop) = try await servers()
        defer { stop() }
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "ACCESS-SECRET", refreshToken: "REFRESH-SECRET"))
        let client = loopbackClient(base, tokens: tokens)
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/needs-refresh"))
            Issue.record("a 401 succeeded")
        } catch {
            #expect(error.code == .unauthorized)
        }
        let otherPaths = await otherLog.paths
        #expect(otherPaths.isEmpty, "the other server received \(otherPaths)")
    }

    @Test func aRedirectWithinTheAPIIsFollowedWithItsCredentialsButNotCached() async throws {
        let (base, apiLog, otherLog, stop) = try await servers()
        defer { stop() }
        let cache = ResponseCache()
        let client = loopbackClient(base, tokens: InMemoryTokenStore(AuthTokens(accessToken: "ACCESS-SECRET")), cache: cache)
        let answer = try await client.send(APIRequest(.get, "/v1/old"))
        #expect(try answer.json() == ["authorization": "Bearer ACCESS-SECRET"])
        #expect(answer.source == .network)
        #expect(await apiLog.paths == ["/api/v1/new"])
        #expect(await otherLog.entries.isEmpty)
        // The body belongs to /api/v1/new, not to the URL asked for: it is not kept under it.
        #expect(await cache.count == 0)
    }

    @Test func aRedirectToTheOtherConfiguredAPIGoesWithoutCredentials() async throws {
        let landed = RequestLog()
        let (mobile, mobileBase) = try await startServer([
            "/v1/landing": { request in
                await landed.record(request)
                return answer(200, [], "{}")
            }
        ])
        let (admin, adminBase) = try await startServer([
            "/v1/hop": { _ in temporaryRedirect(to: mobileBase.absoluteString + "/v1/landing") }
        ])
        defer {
            Task {
                await mobile.stop(); await admin.stop()
            }
        }
        let cache = ResponseCache()
        let client = APIClient(
            configuration: APIConfiguration(
                adminBaseURL: adminBase, mobileBaseURL: mobileBase, allowInsecureLoopback: true, timeout: 10,
                retryPolicy: .none),
            transport: URLSessionTransport(), tokens: InMemoryTokenStore(AuthTokens(accessToken: "ACCESS-SECRET")),
            cache: cache)
        for method in [RequestMethod.get, .post] {
            _ = try await client.send(
                APIRequest(
                    method, "admin:/v1/hop", headers: ["Cookie": "sid=COOKIE-SECRET", "X-Api-Key": "KEY-SECRET"],
                    idempotencyKey: "IDEMPOTENCY-SECRET"))
        }
        let entries = await landed.entries
        #expect(entries.count == 2)
        for entry in entries {
            for name in ["authorization", "cookie", "x-api-key", "idempotency-key"] {
                #expect(entry.headers[name] == nil, "\(entry.method) carried \(name): \(entry.headers[name] ?? "")")
            }
        }
        #expect(await cache.count == 0)
    }
}
