import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Hostile responses: headers, token lifetimes and bodies never trap or overrun")
struct HostileResponseTests {
    @Test(arguments: [
        ("1e300", 315_576_000.0), ("inf", 315_576_000), ("12", 12), ("0", 0), ("-0", 0),
    ])
    func retryAfterSecondsAreBounded(header: String, seconds: Double) {
        #expect(RetryPolicy.retryAfter(header, now: Date()) == seconds)
    }

    @Test(arguments: ["nan", "-5", "-inf", "-1e300", "soon", ""])
    func retryAfterNonsenseIsIgnored(header: String) {
        #expect(RetryPolicy.retryAfter(header, now: Date()) == nil)
    }

    @Test func maxAgeExtremes() {
        #expect(CacheDirectives("max-age=1e300").maxAge == 315_576_000)
        #expect(CacheDirectives("max-age=inf").maxAge == 315_576_000)
        #expect(CacheDirectives("max-age=nan").maxAge == nil)
        #expect(CacheDirectives("max-age=-1").maxAge == nil)
        #expect(CacheDirectives("max-age=9223372036854775808").maxAge == 315_576_000)
    }

    @Test func hugeRetryAfterFailsAtOnceAndNaNFallsBackToBackoff() async throws {
        let clock = ManualClock()
        let huge = APIClient(
            configuration: configuration(), transport: FakeTransport([response(503, headers: ["Retry-After": "1e300"])]),
            clock: clock)
        await #expect(throws: NetworkError.self) { try await huge.send(APIRequest(.get, "/v1/x")) }
        #expect(clock.sleeps.isEmpty)

        let nan = APIClient(
            configuration: configuration(),
            transport: FakeTransport([response(503, headers: ["Retry-After": "nan"]), response(200, "{}")]), clock: clock)
        let task = Task { try await nan.send(APIRequest(.get, "/v1/x")) }
        await advance(clock, by: 1, cancelling: task)
        _ = try await task.value
        #expect(clock.sleeps == [1])
    }

    @Test(arguments: [("1e300", true), ("-1e300", false), ("-0", true), ("9223372036854775807", true)])
    func tokenLifetimesAreBounded(expiresIn: String, kept: Bool) async throws {
        let clock = ManualClock()
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "old", refreshToken: "r"))
        let transport = FakeTransport(handler: { request, _ throws(TransportError) in
            if request.url.path.hasSuffix("/auth/refresh") {
                return TransportResponse(
                    status: 200, body: Data(#"{"access_token": "new", "expires_in": \#(expiresIn)}"#.utf8))
            }
            return request.headers["Authorization"] == "Bearer new"
                ? TransportResponse(status: 200, body: Data("{}".utf8)) : TransportResponse(status: 401)
        })
        let client = APIClient(configuration: configuration(), transport: transport, tokens: tokens, clock: clock)
        _ = try await client.send(APIRequest(.get, "/v1/a"))
        let saved = try #require(await tokens.load())
        #expect(saved.accessToken == "new")
        if kept {
            let lifetime = try #require(saved.expiresAt).timeIntervalSince(clock.now())
            #expect(lifetime >= 0 && lifetime <= 315_576_000)
        } else {
            #expect(saved.expiresAt == nil)
        }
    }

    @Test func hugeMaxAgeIsCachedForTheBoundedTime() async throws {
        let clock = ManualClock()
        let cache = ResponseCache(defaultTTL: 300, clock: clock)
        let transport = FakeTransport([response(200, #"{"v": 1}"#, headers: ["Cache-Control": "max-age=1e300"])])
        let client = APIClient(configuration: configuration(), transport: transport, cache: cache, clock: clock)
        _ = try await client.send(APIRequest(.get, "/v1/materials"))
        clock.advance(by: 86_400 * 365)
        #expect(try await client.send(APIRequest(.get, "/v1/materials")).source == .cache)
        #expect(await transport.requests.count == 1)
    }

    @Test func responsesAreReadWithTheConfiguredLimits() async throws {
        var configuration = configuration()
        configuration.readerLimits = JSONReader.Limits(maxDepth: 4, maxValues: 100)
        let deep = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        let many = "[" + (0..<200).map(String.init).joined(separator: ",") + "]"
        let transport = FakeTransport([response(200, deep), response(200, many), response(200, "[[[1]]]")])
        let client = APIClient(configuration: configuration, transport: transport)
        for expected in ["nesting depth limit exceeded", "value count limit exceeded"] {
            do throws(NetworkError) {
                _ = try await client.send(APIRequest(.get, "/v1/x", useCache: false)).json()
                Issue.record("accepted a body over the limits")
            } catch {
                #expect(error.code == .decoding)
                #expect(error.message.contains(expected), "\(error.message)")
            }
        }
        #expect(try await client.send(APIRequest(.get, "/v1/x", useCache: false)).json() == [[[1]]])
        // The transport is told where to stop reading.
        #expect(await transport.requests.allSatisfy { $0.maxResponseBytes == configuration.readerLimits.maxBytes })
    }

    @Test func aTooLargeBodyIsALimitError() async throws {
        let transport = FakeTransport([.failure(TransportError(.tooLarge(limit: 10)))])
        let client = APIClient(configuration: configuration(), transport: transport)
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.post, "/v1/x", body: ["a": 1]))
            Issue.record("a too-large response succeeded")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(!error.isQueued)
        }
    }
}

@Suite("URLSession transport stops reading past the body limit", .serialized)
struct BodyLimitLoopbackTests {
    func client(_ server: StreamingServer, maxBytes: Int) -> APIClient {
        let base = URL(string: "http://127.0.0.1:\(server.port)")!
        return APIClient(
            configuration: APIConfiguration(
                adminBaseURL: base, mobileBaseURL: base, allowInsecureLoopback: true, timeout: 10, retryPolicy: .none,
                readerLimits: JSONReader.Limits(maxBytes: maxBytes)),
            transport: URLSessionTransport())
    }

    /// Bodies over the limit, as a content length and a path: one that declares 200 MB (refused
    /// before the body), and chunks without end (up to 256 MiB, cut off).
    static let bodiesOverTheLimit: [(Int?, String)] = [(200_000_000, "/v1/huge"), (nil, "/v1/endless")]

    @Test(arguments: bodiesOverTheLimit)
    func aBodyOverTheLimitIsNotReadToTheEnd(contentLength: Int?, path: String) async throws {
        let server = try StreamingServer(contentLength: contentLength)
        server.serveOnce()
        do throws(NetworkError) {
            _ = try await client(server, maxBytes: 1 << 20).send(APIRequest(.get, Endpoint(path), useCache: false))
            Issue.record("the body of \(path) was accepted")
        } catch {
            #expect(error.code == .limitExceeded, "\(error)")
        }
        let written = server.waitForBytesWritten()
        // The server stops when the client hangs up: far less than the 200 MB or more it would send.
        #expect(written < 64 << 20, "the server wrote \(written) bytes")
        server.close()
    }

    @Test func aBodyWithinTheLimitArrivesWhole() async throws {
        let server = try StreamingServer(contentLength: 300_000)
        server.serveOnce()
        let response = try await client(server, maxBytes: 1 << 20).send(APIRequest(.get, "/v1/fits", useCache: false))
        #expect(response.body.count == 300_000)
        server.close()
    }
}

/// A TCP server that answers one request with a body of spaces, 64 KiB every millisecond:
/// `contentLength` bytes, or chunks without end (up to 256 MiB, four seconds) when `nil`; it
/// stops writing as soon as the client hangs up.
final class StreamingServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let contentLength: Int?
    private let lock = NSLock()
    private var written = 0
    private var finished = false

    init(contentLength: Int?) throws {
        self.contentLength = contentLength
        (descriptor, port) = try listeningSocket()
    }

    func serveOnce() {
        let descriptor = self.descriptor
        let contentLength = self.contentLength
        Thread.detachNewThread { [self] in
            defer { lock.withLock { finished = true } }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            defer { _ = systemClose(connection) }
            #if canImport(Darwin)
                var one: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &request, request.count)
            let framing = contentLength.map { "Content-Length: \($0)" } ?? "Transfer-Encoding: chunked"
            guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(framing)\r\n\r\n") else { return }
            let chunk = String(repeating: " ", count: 65_536)
            var remaining = contentLength ?? 256 << 20
            while remaining > 0 {
                let size = min(remaining, chunk.utf8.count)
                let piece = contentLength == nil ? "10000\r\n\(chunk)\r\n" : String(chunk.prefix(size))
                guard send(connection, piece) else { return }
                lock.withLock { written += size }
                remaining -= size
                // A real producer's pace: the client reads faster than this, so only its hang-up
                // stops the loop (on a loaded machine a hang-up still takes a few milliseconds).
                usleep(1_000)
            }
            if contentLength == nil { _ = send(connection, "0\r\n\r\n") }
        }
    }

    /// Writes all of `text`; false once the peer has gone.
    private func send(_ connection: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let count = bytes.withUnsafeMutableBytes {
                    Glibc.send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
            #else
                let count = bytes.withUnsafeMutableBytes {
                    Darwin.send(connection, $0.baseAddress! + offset, $0.count - offset, 0)
                }
            #endif
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// Bytes of body written once the server has finished (or after 10 s).
    func waitForBytesWritten() -> Int {
        let deadline = Date().addingTimeInterval(10)
        while !lock.withLock({ finished }), Date() < deadline { usleep(10_000) }
        return lock.withLock { written }
    }

    func close() { _ = systemClose(descriptor) }
}
