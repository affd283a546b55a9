import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

@Suite("API client: routing, security and errors")
struct APIClientRoutingTests {
    @Test func dualAPIRoutingAndPathParameters() async throws {
        let client = APIClient(configuration: configuration(), transport: FakeTransport())
        #expect(
            try await client.url(for: "admin:/v1/users/{id}", parameters: ["id": "usr-7"]).absoluteString
                == "https://admin.edugo.test/v1/users/usr-7")
        #expect(try await client.url(for: "mobile:/v1/materials").absoluteString == "https://mobile.edugo.test/api/v1/materials")
        #expect(
            try await client.url(for: "/v1/materials", query: [("limit", "20"), ("q", "ñandú y más")]).absoluteString
                == "https://mobile.edugo.test/api/v1/materials?limit=20&q=%C3%B1and%C3%BA%20y%20m%C3%A1s")
        // A value can never change the path's shape.
        #expect(
            try await client.url(for: "/v1/materials/{id}", parameters: ["id": "../admin?x=1#f"]).absoluteString
                == "https://mobile.edugo.test/api/v1/materials/..%2Fadmin%3Fx%3D1%23f")
        do throws(NetworkError) {
            _ = try await client.url(for: "/v1/schools/{id}/units")
            Issue.record("built a URL without its parameter")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains("'id'"))
        }
        #expect(Endpoint("admin:/v1/schools/{id}/units").parameterNames == ["id"])
    }

    @Test func securityGuardRefusesOtherHostsAndPlainHTTP() async throws {
        let guardian = SecurityGuardInterceptor(
            origins: [adminURL, URL(string: "http://127.0.0.1:8081")!], allowInsecureLoopback: true)
        try guardian.check(URL(string: "https://admin.edugo.test/v1/x")!)
        try guardian.check(URL(string: "http://127.0.0.1:8081/v1/x")!)
        for url in [
            "https://evil.test/v1/x", "http://admin.edugo.test/v1/x", "http://127.0.0.1:9999/v1", "ftp://admin.edugo.test/",
        ] {
            #expect(throws: NetworkError.self, "\(url)") { try guardian.check(URL(string: url)!) }
        }
        let strict = SecurityGuardInterceptor(origins: [URL(string: "http://127.0.0.1:8081")!], allowInsecureLoopback: false)
        #expect(throws: NetworkError.self) { try strict.check(URL(string: "http://127.0.0.1:8081/v1/x")!) }
    }

    @Test(arguments: [
        (401, NetworkError.Code.unauthorized), (404, .notFound), (409, .conflict), (422, .validation), (400, .clientError),
        (403, .forbidden), (418, .clientError), (501, .serverError),
    ])
    func statusMapping(status: Int, code: NetworkError.Code) async throws {
        let transport = FakeTransport([response(status, #"{"error": "x", "fields": {"title": "obligatorio"}}"#)])
        let client = APIClient(configuration: configuration(retry: .none), transport: transport, clock: ManualClock())
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/materials"))
            Issue.record("status \(status) succeeded")
        } catch {
            #expect(error.code == code)
            #expect(error.status == status)
            #expect(error.body?["error"] == "x")
        }
    }

    @Test func decodingErrorsNameThePlace() async throws {
        let transport = FakeTransport([
            response(200, #"{"items": [1, 2,]}"#), response(200, #"{"bottom_nav": "x", "version": 1}"#),
        ])
        let client = APIClient(configuration: configuration(), transport: transport, clock: ManualClock())
        let first = try await client.send(APIRequest(.get, "/v1/a"))
        do throws(NetworkError) {
            _ = try first.json()
            Issue.record("parsed invalid JSON")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.message.contains("byte 16"))
        }
        let second = try await client.send(APIRequest(.get, "/v1/b"))
        do throws(NetworkError) {
            _ = try second.decode(NavigationDefinition.self)
            Issue.record("decoded an invalid model")
        } catch {
            #expect(error.message.contains("bottom_nav"))
        }
    }

    @Test func mutatingRequestsCarryJSONAndAnIdempotencyKey() async throws {
        let transport = FakeTransport([response(201, #"{"id": "mat-138"}"#)])
        let client = APIClient(
            configuration: configuration(), transport: transport, clock: ManualClock(), idempotencyKeys: { "fixed-key" })
        let result = try await client.send(APIRequest(.post, "/v1/materials", body: ["title": "Álgebra"]))
        #expect(try result.json()["id"] == "mat-138")
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .post)
        #expect(sent.headers["Idempotency-Key"] == "fixed-key")
        #expect(sent.headers["content-type"] == "application/json")
        #expect(try JSONReader().read(sent.body!) == ["title": "Álgebra"])
    }
}

@Suite("API client: recovery table")
struct RecoveryTests {
    @Test func noConnectionQueuesMutatingRequests() async throws {
        let store = try OfflineQueueStore()
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "secret-token"))
        let client = APIClient(
            configuration: configuration(), transport: FakeTransport([.failure(TransportError(.noConnection))]), tokens: tokens,
            queue: store, clock: ManualClock(), idempotencyKeys: { "k-1" })
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.post, "/v1/materials", body: ["title": "x"]))
            Issue.record("succeeded offline")
        } catch {
            #expect(error.code == .noConnection)
            #expect(error.isQueued)
            #expect(error.queuedRequest?.idempotencyKey == "k-1")
        }
        let queued = try store.all()
        #expect(queued.count == 1)
        #expect(queued[0].headers["Authorization"] == nil)
        #expect(queued[0].url == "https://mobile.edugo.test/api/v1/materials")
        // GETs are never queued.
        let getClient = APIClient(
            configuration: configuration(), transport: FakeTransport([.failure(TransportError(.noConnection))]), queue: store,
            clock: ManualClock())
        await #expect(throws: NetworkError.self) { try await getClient.send(APIRequest(.get, "/v1/materials")) }
        #expect(try store.count() == 1)
    }

    @Test func offlineWithAFullQueueIsATypedErrorAndNothingIsQueued() async throws {
        let store = try OfflineQueueStore(capacity: 1)
        let keys = KeySequence()
        let client = APIClient(
            configuration: configuration(retry: .none),
            transport: FakeTransport([.failure(TransportError(.noConnection)), .failure(TransportError(.noConnection))]),
            queue: store, clock: ManualClock(), idempotencyKeys: { keys.next() })
        await #expect(throws: NetworkError.self) { try await client.send(APIRequest(.post, "/v1/materials", body: ["n": 1])) }
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.put, "/v1/materials/mat-9", body: ["n": 2]))
            Issue.record("succeeded offline")
        } catch {
            #expect(error.code == .queueFull, "\(error)")
            #expect(!error.isQueued && error.queuedRequest == nil, "the app must not promise its delivery")
            #expect(error.message.contains("1 changes"))
        }
        #expect(try store.count() == 1)
    }

    @Test func aChangeToARecordWithAQueuedChangeWaitsBehindIt() async throws {
        let store = try OfflineQueueStore()
        let keys = KeySequence()
        let transport = FakeTransport([.failure(TransportError(.noConnection)), response(200), response(200), response(200)])
        let client = APIClient(
            configuration: configuration(retry: .none), transport: transport, queue: store, clock: ManualClock(),
            idempotencyKeys: { keys.next() })
        // Offline: the first edit of mat-1 is queued.
        await #expect(throws: NetworkError.self) {
            try await client.send(APIRequest(.put, "/v1/materials/mat-1", body: ["title": "first"]))
        }
        // Back online, a second edit of mat-1 must not overtake it: it is queued behind, unsent.
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.put, "/v1/materials/mat-1", body: ["title": "second"]))
            Issue.record("sent before the queued change to the same record")
        } catch {
            #expect(error.code == .queuedBehind && error.isQueued)
        }
        #expect(await transport.requests.count == 1)
        // Another record is not held back.
        _ = try await client.send(APIRequest(.put, "/v1/materials/mat-2", body: ["title": "other"]))
        #expect(await transport.requests.count == 2)
        // The queue delivers mat-1's changes in the order they were made.
        let report = await OfflineQueue(store: store, client: client, clock: ManualClock()).process()
        #expect(report.delivered == 2)
        let sent = await transport.requests
        #expect(sent.map { $0.headers["Idempotency-Key"] } == ["k-1", "k-3", "k-1", "k-2"])
        #expect(try sent.suffix(2).map { try JSONReader().read($0.body!)["title"] } == ["first", "second"])
    }

    @Test func timeoutsRetryWithBackoffThenFail() async throws {
        let clock = ManualClock()
        let transport = FakeTransport(Array(repeating: .failure(TransportError(.timeout)), count: 4))
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let task = Task { try await client.send(APIRequest(.get, "/v1/slow")) }
        await advance(clock, by: 10, times: 3, cancelling: task)
        let result = await task.result
        #expect(clock.sleeps == [1, 2, 4])
        #expect(await transport.requests.count == 4)
        #expect(throws: NetworkError.self) { try result.get() }
    }

    @Test func serverErrorsRetryThreeTimes() async throws {
        let clock = ManualClock()
        let transport = FakeTransport([response(500), response(502), response(503), response(504)])
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let task = errorCode(of: client)
        await advance(clock, by: 10, times: 3, cancelling: task)
        #expect(await task.value == .serverError)
        #expect(await transport.requests.count == 4)
        #expect(clock.sleeps == [1, 2, 4])
    }

    @Test func serviceUnavailableThenSuccess() async throws {
        let clock = ManualClock()
        let transport = FakeTransport([response(503), response(200, "[1]")])
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let task = Task { try await client.send(APIRequest(.get, "/v1/x")).json() }
        await advance(clock, by: 1, cancelling: task)
        #expect(try await task.value == [1])
    }

    @Test func retryAfterIsHonoured() async throws {
        let clock = ManualClock()
        let date = "Sun, 15 Mar 2026 10:30:19 GMT"  // 7 s after the second response (start + 12 s)
        let transport = FakeTransport([
            response(429, headers: ["Retry-After": "12"]), response(503, headers: ["Retry-After": date]), response(200, "{}"),
        ])
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let task = Task { try await client.send(APIRequest(.get, "/v1/x")) }
        await advance(clock, by: 12, cancelling: task)
        await advance(clock, by: 7, cancelling: task)
        _ = try await task.value
        #expect(clock.sleeps == [12, 7])
        // A date already past means no wait.
        let past = APIClient(
            configuration: configuration(),
            transport: FakeTransport([response(503, headers: ["Retry-After": "Sun, 15 Mar 2026 10:00:00 GMT"]), response(200)]),
            clock: ManualClock())
        _ = try await past.send(APIRequest(.get, "/v1/x"))
        // A Retry-After beyond the cap is not waited for.
        let impatient = APIClient(
            configuration: configuration(), transport: FakeTransport([response(503, headers: ["Retry-After": "3600"])]),
            clock: ManualClock())
        await #expect(throws: NetworkError.self) { try await impatient.send(APIRequest(.get, "/v1/x")) }
    }

    @Test func backoffJitterStaysInBounds() {
        let policy = RetryPolicy(baseDelay: 1, multiplier: 2, jitter: 0.2, maxDelay: 30)
        for retry in 0..<8 {
            let nominal = min(30, pow(2, Double(retry)))
            for _ in 0..<50 {
                let delay = policy.delay(forRetry: retry)
                #expect(delay >= min(30, nominal * 0.8) && delay <= min(30, nominal * 1.2))
            }
        }
        #expect(RetryPolicy.retryAfter("abc", now: Date()) == nil)
        #expect(RetryPolicy.retryAfter(" 5 ", now: Date()) == 5)
    }

    @Test func unauthorizedRefreshesOnceThenRetries() async throws {
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "old", refreshToken: "refresh-1"))
        let transport = FakeTransport(handler: { request, _ throws(TransportError) in
            if request.url.path.hasSuffix("/auth/refresh") {
                return TransportResponse(status: 200, body: Data(#"{"access_token": "new", "expires_in": 3600}"#.utf8))
            }
            return request.headers["Authorization"] == "Bearer new"
                ? TransportResponse(status: 200, body: Data("{}".utf8)) : TransportResponse(status: 401)
        })
        let client = APIClient(configuration: configuration(), transport: transport, tokens: tokens, clock: ManualClock())
        async let a = client.send(APIRequest(.get, "/v1/a"))
        async let b = client.send(APIRequest(.get, "/v1/b"))
        _ = try await (a, b)
        let refreshes = await transport.requests.filter { $0.url.path.hasSuffix("/auth/refresh") }
        #expect(refreshes.count == 1)
        #expect(try JSONReader().read(refreshes[0].body!) == ["refresh_token": "refresh-1"])
        #expect(await tokens.load()?.accessToken == "new")
        #expect(await tokens.load()?.refreshToken == "refresh-1")
    }

    @Test func failedRefreshSignsOut() async throws {
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "old", refreshToken: "expired"))
        let transport = FakeTransport([response(401), response(401)])
        let client = APIClient(configuration: configuration(), transport: transport, tokens: tokens, clock: ManualClock())
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/a"))
            Issue.record("succeeded")
        } catch {
            #expect(error.code == .unauthorized)
        }
        #expect(await tokens.load() == nil)
        #expect(await transport.requests.count == 2)
    }

    @Test func cancellationPropagates() async throws {
        let clock = ManualClock()
        let client = APIClient(configuration: configuration(), transport: FakeTransport([response(503)]), clock: clock)
        let task = errorCode(of: client)
        #expect(await clock.waitForSleepers(), "the code under test never started waiting")
        task.cancel()
        #expect(await task.value == .cancelled)
    }
}

@Suite("API client: HTTP caching")
struct CachingTests {
    @Test func etagRevalidationAndMaxAge() async throws {
        let clock = ManualClock()
        let cache = ResponseCache(defaultTTL: 300, clock: clock)
        let transport = FakeTransport([
            response(200, #"{"v": 1}"#, headers: ["ETag": "\"abc\"", "Cache-Control": "max-age=60"]),
            response(304, headers: ["Cache-Control": "max-age=120"]),
        ])
        let client = APIClient(configuration: configuration(), transport: transport, cache: cache, clock: clock)
        let first = try await client.send(APIRequest(.get, "/v1/materials"))
        #expect(first.source == .network)
        let second = try await client.send(APIRequest(.get, "/v1/materials"))
        #expect(second.source == .cache)
        #expect(await transport.requests.count == 1)
        clock.advance(by: 61)
        let third = try await client.send(APIRequest(.get, "/v1/materials"))
        #expect(third.source == .revalidated)
        #expect(try third.json() == ["v": 1])
        #expect(await transport.requests.last?.headers["If-None-Match"] == "\"abc\"")
        clock.advance(by: 100)
        #expect(try await client.send(APIRequest(.get, "/v1/materials")).source == .cache)
        #expect(await transport.requests.count == 2)
    }

    @Test func noStoreAndUseCacheFalse() async throws {
        let cache = ResponseCache(clock: ManualClock())
        let transport = FakeTransport([
            response(200, "1", headers: ["Cache-Control": "no-store"]), response(200, "2"), response(200, "3"),
        ])
        let client = APIClient(configuration: configuration(), transport: transport, cache: cache, clock: ManualClock())
        _ = try await client.send(APIRequest(.get, "/v1/a"))
        #expect(await cache.count == 0)
        _ = try await client.send(APIRequest(.get, "/v1/a"))
        let fresh = try await client.send(APIRequest(.get, "/v1/a", useCache: false))
        #expect(fresh.body == Data("3".utf8))
    }

    @Test func staleIfError() async throws {
        let clock = ManualClock()
        let cache = ResponseCache(defaultTTL: 10, clock: clock)
        let transport = FakeTransport([
            response(200, "[1]"), .failure(TransportError(.noConnection)), response(500), response(500), response(500),
            response(500),
        ])
        let client = APIClient(configuration: configuration(), transport: transport, cache: cache, clock: clock)
        _ = try await client.send(APIRequest(.get, "/v1/a"))
        clock.advance(by: 20)
        let offline = try await client.send(APIRequest(.get, "/v1/a"))
        #expect(offline.source == .stale)
        #expect(try offline.json() == [1])
        let task = Task { try await client.send(APIRequest(.get, "/v1/a")) }
        await advance(clock, by: 10, times: 3, cancelling: task)
        #expect(try await task.value.source == .stale)
    }

    @Test func invalidationByEndpointFamily() async throws {
        let cache = ResponseCache(clock: ManualClock())
        let client = APIClient(
            configuration: configuration(), transport: FakeTransport([response(200, "1"), response(200, "2")]), cache: cache,
            clock: ManualClock())
        _ = try await client.send(APIRequest(.get, "/v1/materials", query: [("limit", "20")]))
        _ = try await client.send(APIRequest(.get, "/v1/materials/{id}", pathParameters: ["id": "mat-1"]))
        #expect(await cache.count == 2)
        await client.invalidateCache(for: "/v1/materials/{id}")
        #expect(await cache.count == 0)
    }
}

@Suite("Logging redaction")
struct RedactionTests {
    @Test func noCredentialEverReachesTheLog() async throws {
        let capture = LogCapture()
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "SECRET-ACCESS", refreshToken: "SECRET-REFRESH"))
        let transport = FakeTransport([
            response(401), response(200, #"{"access_token": "SECRET-NEW"}"#),
            response(200, "{}", headers: ["Set-Cookie": "sid=SECRET-COOKIE"]),
        ])
        let client = APIClient(
            configuration: configuration(), transport: transport, tokens: tokens, clock: ManualClock(), logger: capture.logger)
        _ = try await client.send(
            APIRequest(
                .get, "/v1/me", query: [("access_token", "SECRET-QUERY"), ("page", "1")], headers: ["Cookie": "sid=SECRET-COOKIE"]
            ))
        let log = capture.all.joined(separator: "\n")
        #expect(!log.isEmpty)
        for secret in ["SECRET-ACCESS", "SECRET-REFRESH", "SECRET-NEW", "SECRET-COOKIE", "SECRET-QUERY"] {
            #expect(!log.contains(secret), "\(secret) leaked into the log")
        }
        #expect(log.contains("<redacted>"))
        #expect(log.contains("page=1"))
        // The token was really sent.
        #expect(await transport.requests.last?.headers["Authorization"] == "Bearer SECRET-NEW")
        #expect(
            Redaction.url(URL(string: "https://u:p@h.test/x?api_key=1&a=2")!)
                == "https://%3Credacted%3E@h.test/x?api_key=%3Credacted%3E&a=2")
    }
}

/// Idempotency keys `k-1`, `k-2`, … in the order requests ask for them.
final class KeySequence: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> String {
        lock.withLock {
            count += 1
            return "k-\(count)"
        }
    }
}

/// Sends `GET /v1/x` through `client` in a task whose value is the failure's code (`nil`: it succeeded).
func errorCode(of client: APIClient) -> Task<NetworkError.Code?, Never> {
    Task { () -> NetworkError.Code? in
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/x"))
            return nil
        } catch {
            return error.code
        }
    }
}
