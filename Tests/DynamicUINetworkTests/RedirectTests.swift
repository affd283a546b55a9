import DynamicUIModels
import DynamicUIStorage
import FlyingFox
import Foundation
import Testing

@testable import DynamicUINetwork

/// Every request a loopback server received: method, path and headers (names lower-cased).
actor RequestLog {
    private(set) var entries: [(method: String, path: String, headers: [String: String])] = []

    func record(_ request: FlyingFox.HTTPRequest) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        entries.append((request.method.rawValue, request.path, headers))
    }

    var paths: [String] { entries.map(\.path) }
}

/// A `307 Temporary Redirect` to `location`.
func temporaryRedirect(to location: String) -> FlyingFox.HTTPResponse {
    FlyingFox.HTTPResponse(
        statusCode: HTTPStatusCode(307, phrase: "Temporary Redirect"), headers: [HTTPHeader("Location"): location])
}

/// The port the request was addressed to, read from its `Host` header.
func addressedPort(_ request: FlyingFox.HTTPRequest) -> String {
    request.headers[HTTPHeader("Host")].flatMap { $0.split(separator: ":").last.map(String.init) } ?? "0"
}

@Suite("Redirects over loopback HTTP", .serialized)
struct RedirectTests {
    /// The API under `/api` on one loopback server, a collector on another. Each `/api/v1/to-…`
    /// route answers 307 towards somewhere outside the configured API.
    func servers() async throws -> (api: URL, apiLog: RequestLog, otherLog: RequestLog, stop: @Sendable () -> Void) {
        let otherLog = RequestLog()
        let (other, otherTask, otherRoot) = try await startServer { server in
            await server.appendRoute("*") { request in
                await otherLog.record(request)
                return FlyingFox.HTTPResponse(
                    statusCode: .ok, headers: [HTTPHeader("Cache-Control"): "max-age=600"],
                    body: Data(#"{"data": ["served by the other host"]}"#.utf8))
            }
        }
        let otherPort = otherRoot.port!
        let apiLog = RequestLog()
        let (api, apiTask, apiRoot) = try await startServer { server in
            await server.appendRoute("/api/v1/to-other-port") { _ in
                temporaryRedirect(to: "http://127.0.0.1:\(otherPort)/collect")
            }
            await server.appendRoute("/api/v1/to-other-host") { _ in
                temporaryRedirect(to: "http://localhost:\(otherPort)/collect")
            }
            // Same port, another host name: another origin, although the same server answers.
            await server.appendRoute("/api/v1/to-same-port-other-host") { request in
                temporaryRedirect(to: "http://localhost:\(addressedPort(request))/api/v1/landing")
            }
            // Same origin, outside the base URL's path.
            await server.appendRoute("/api/v1/to-outside-path") { _ in temporaryRedirect(to: "/outside/landing") }
            await server.appendRoute("POST /api/v1/auth/refresh") { _ in
                temporaryRedirect(to: "http://localhost:\(otherPort)/collect")
            }
            await server.appendRoute("GET /api/v1/needs-refresh") { _ in FlyingFox.HTTPResponse(statusCode: .unauthorized) }
            await server.appendRoute("GET /api/v1/old") { _ in temporaryRedirect(to: "/api/v1/new") }
            await server.appendRoute("/api/v1/landing") { request in
                await apiLog.record(request)
                return FlyingFox.HTTPResponse(statusCode: .ok, body: Data(#"{"landed": true}"#.utf8))
            }
            await server.appendRoute("/outside/landing") { request in
                await apiLog.record(request)
                return FlyingFox.HTTPResponse(statusCode: .ok, body: Data(#"{"landed": true}"#.utf8))
            }
            await server.appendRoute("GET /api/v1/new") { request in
                await apiLog.record(request)
                let authorization = request.headers[HTTPHeader("Authorization")] ?? "none"
                return FlyingFox.HTTPResponse(
                    statusCode: .ok, headers: [HTTPHeader("Cache-Control"): "max-age=600"],
                    body: Data(#"{"authorization": "\#(authorization)"}"#.utf8))
            }
        }
        _ = (other, api)
        return (
            apiRoot.appendingPathComponent("api"), apiLog, otherLog,
            {
                otherTask.cancel(); apiTask.cancel()
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
        let (mobile, mobileTask, mobileBase) = try await startServer { server in
            await server.appendRoute("/v1/landing") { request in
                await landed.record(request)
                return FlyingFox.HTTPResponse(statusCode: .ok, body: Data("{}".utf8))
            }
        }
        defer { mobileTask.cancel() }
        let (admin, adminTask, adminBase) = try await startServer { server in
            await server.appendRoute("/v1/hop") { _ in temporaryRedirect(to: mobileBase.absoluteString + "/v1/landing") }
        }
        defer { adminTask.cancel() }
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
        _ = (mobile, admin)
    }

    @Test func theScopeComparesSchemeHostPortAndPath() {
        let base = URL(string: "https://api.edugo.test/api")!
        for inside in [
            "https://api.edugo.test/api", "https://API.edugo.test/api/v1/x?y=1", "https://api.edugo.test:443/api/v1/x",
        ] {
            #expect(URLScope.contains(URL(string: inside)!, under: base), "\(inside)")
        }
        for outside in [
            "http://api.edugo.test/api/v1/x", "https://api.edugo.test:8443/api/v1/x", "https://evil.test/api/v1/x",
            "https://api.edugo.test.evil.test/api/v1/x", "https://api.edugo.test/apiother", "https://api.edugo.test/",
            "https://api.edugo.test/api/../x", "https://api.edugo.test/api/%2E%2e/x", "https://api.edugo.test/api/..;/x",
            "https://api.edugo.test/api/v1/..%2fx", "https://api.edugo.test/api/v1/..%5Cx",
        ] {
            #expect(!URLScope.contains(URL(string: outside)!, under: base), "\(outside)")
        }
        for header in ["Authorization", "cookie", "Proxy-Authorization", "X-Api-Key", "Idempotency-Key", "X-Refresh-Token"] {
            #expect(URLScope.isCredential(header), "\(header)")
        }
        for header in ["Accept", "Content-Type", "If-None-Match", "Accept-Language"] {
            #expect(!URLScope.isCredential(header), "\(header)")
        }
    }

    @Test func anAnswerFromOutsideTheAPIsIsNotBelievedWhateverTheTransport() async throws {
        let cache = ResponseCache(clock: ManualClock())
        let transport = FakeTransport(handler: { request, _ throws(TransportError) in
            let elsewhere =
                request.url.path.hasSuffix("/inside") ? "https://mobile.edugo.test/api/v1/moved" : "https://evil.test/x"
            return TransportResponse(status: 200, body: Data("[1]".utf8), url: URL(string: elsewhere)!)
        })
        let client = APIClient(configuration: configuration(), transport: transport, cache: cache, clock: ManualClock())
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/outside"))
            Issue.record("an answer from evil.test was used")
        } catch {
            #expect(error.code == .forbiddenURL)
            #expect(error.message.contains("evil.test"))
        }
        #expect(try await client.send(APIRequest(.get, "/v1/inside")).json() == [1])
        #expect(await cache.count == 0)
    }
}
