import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import Foundation
import Testing

/// A clock a test moves forward.
final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date()

    var now: Date { lock.withLock { date } }

    func advance(by seconds: Double) { lock.withLock { date = date.addingTimeInterval(seconds) } }
}

/// A session of the demo backend ends: access tokens expire, refresh tokens work once (a reused
/// one ends its whole session), signing out ends the refresh token too, and wrong passwords are
/// throttled. The SDK still signs in and refreshes against it.
@Suite("Demo backend: session lifecycle")
struct SessionLifecycleTests {
    @Test func anAccessTokenExpiresOnTheBackendsClock() async throws {
        let clock = MovableClock()
        try await withDemoBackend({ $0.clock = { clock.now } }) { backend, api in
            let signedIn = try await api.call("POST", "/v1/auth/login", ["email": "tutor@edugo.test", "password": "edugo123"])
            let lifetime = try #require(signedIn.json["expires_in"]?.intValue)
            #expect(lifetime == Int(backend.sessionPolicy.accessTokenLifetime) && lifetime <= 3600)
            let access = try #require(signedIn.json["access_token"]?.stringValue)
            clock.advance(by: Double(lifetime) - 1)
            #expect(try await api.call("GET", "/v1/guardians/me/children", token: access).status == 200)
            clock.advance(by: 2)
            #expect(try await api.call("GET", "/v1/guardians/me/children", token: access).status == 401, "expired")
        }
    }

    @Test func aRefreshTokenWorksOnceAndItsReuseEndsTheSession() async throws {
        try await withDemoBackend { _, api in
            let (_, first) = try await api.signIn("tutor@edugo.test")
            let renewed = try await api.call("POST", "/v1/auth/refresh", ["refresh_token": .string(first)])
            #expect(renewed.status == 200)
            let access = try #require(renewed.json["access_token"]?.stringValue)
            let second = try #require(renewed.json["refresh_token"]?.stringValue)
            #expect(second != first, "a refresh hands out a new refresh token")
            #expect(try await api.call("GET", "/v1/guardians/me/children", token: access).status == 200)

            // The old one again (a stolen copy, say): refused, and the session it belongs to ends.
            let replayed = try await api.call("POST", "/v1/auth/refresh", ["refresh_token": .string(first)])
            #expect(replayed.status == 401)
            #expect(try await api.call("GET", "/v1/guardians/me/children", token: access).status == 401)
            #expect(try await api.call("POST", "/v1/auth/refresh", ["refresh_token": .string(second)]).status == 401)
        }
    }

    @Test func signingOutEndsTheRefreshTokenToo() async throws {
        try await withDemoBackend { _, api in
            let (access, refresh) = try await api.signIn("tutor@edugo.test")
            #expect(try await api.call("POST", "/v1/auth/logout", token: access).status == 204)
            #expect(try await api.call("GET", "/v1/guardians/me/children", token: access).status == 401)
            let after = try await api.call("POST", "/v1/auth/refresh", ["refresh_token": .string(refresh)])
            #expect(after.status == 401, "the refresh token of a signed-out session: \(after.json)")
            // A client that sends the refresh token at sign-out ends that session as well.
            let (_, other) = try await api.signIn("tutor@edugo.test")
            #expect(try await api.call("POST", "/v1/auth/logout", ["refresh_token": .string(other)]).status == 204)
            #expect(try await api.call("POST", "/v1/auth/refresh", ["refresh_token": .string(other)]).status == 401)
        }
    }

    @Test func wrongPasswordsLockTheAccountForAWhile() async throws {
        let clock = MovableClock()
        try await withDemoBackend({ $0.clock = { clock.now } }) { _, api in
            let wrong: JSONValue = ["email": "docente@edugo.test", "password": "nope"]
            for attempt in 1...5 {
                #expect(try await api.call("POST", "/v1/auth/login", wrong).status == 401, "attempt \(attempt)")
            }
            let locked = try await api.call("POST", "/v1/auth/login", wrong)
            #expect(locked.status == 429)
            #expect((Int(locked.headers["retry-after"] ?? "") ?? 0) > 0, "\(locked.headers)")
            // Locked: even the right password waits; another account does not.
            let right = try await api.call("POST", "/v1/auth/login", ["email": "docente@edugo.test", "password": "edugo123"])
            #expect(right.status == 429)
            #expect(right.json["access_token"] == nil)
            _ = try await api.signIn("estudiante@edugo.test")
            // Once the wait is over, the right password signs in.
            clock.advance(by: Double(Int(locked.headers["retry-after"] ?? "") ?? 0))
            _ = try await api.signIn("docente@edugo.test")
        }
    }

    @Test func theSDKRefreshesAnExpiredTokenAndKeepsTheRotatedOne() async throws {
        let backend = try DemoBackend()
        let clock = MovableClock()
        backend.clock = { clock.now }
        try await backend.start()
        defer { Task { await backend.stop() } }
        let (access, refresh) = try await DemoAPI(base: backend.mobileURL).signIn("tutor@edugo.test")
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: access, refreshToken: refresh))
        let client = APIClient(
            configuration: APIConfiguration(
                adminBaseURL: backend.adminURL, mobileBaseURL: backend.mobileURL, allowInsecureLoopback: true, timeout: 10,
                retryPolicy: .none),
            transport: URLSessionTransport(), tokens: tokens)
        var previous = refresh
        for round in 1...3 {
            // The access token has expired: the client exchanges the refresh token and retries.
            clock.advance(by: backend.sessionPolicy.accessTokenLifetime + 1)
            let children = try await client.send(APIRequest(.get, "mobile:/v1/guardians/me/children", useCache: false))
            #expect(children.status == 200, "round \(round)")
            let renewed = try #require(await tokens.load()?.refreshToken)
            #expect(renewed != previous, "round \(round): the rotated refresh token is the one kept")
            previous = renewed
        }
    }
}
