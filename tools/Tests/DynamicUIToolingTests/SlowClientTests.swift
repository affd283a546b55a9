import DynamicUIDemoBackend
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to 127.0.0.1 that may send a request in pieces (a slow or hostile client).
final class RawConnection {
    let descriptor: Int32

    init?(port: UInt16) {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { return nil }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { _ = close(descriptor) }

    func send(_ text: String) { _ = text.withCString { write(descriptor, $0, strlen($0)) } }

    /// Whether the server closed the connection (a read returns end of file).
    var isClosedByServer: Bool {
        var byte: UInt8 = 0
        return read(descriptor, &byte, 1) == 0
    }
}

@Suite("The preview server under slow and idle clients", .serialized)
struct SlowClientTests {
    @Test func halfOpenConnectionsAreClosedAfterTheIdleTimeoutAndTheCapHolds() async throws {
        let server = LoopbackHTTPServer(limits: LoopbackHTTPServer.Limits(idleTimeout: .milliseconds(800), maxConnections: 100)) {
            _ in LoopbackResponse(status: 200, body: Array("ok".utf8))
        }
        let port = try await server.start()
        defer { Task { await server.stop() } }
        // 300 clients that never finish their headers.
        var slow: [RawConnection] = []
        for _ in 0..<300 {
            guard let connection = RawConnection(port: port) else { continue }
            connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(connection)
        }
        #expect(slow.count == 300)
        // At most 100 are served at once; the rest wait their turn, and every half-open one is
        // closed after the idle timeout: 300 in three rounds.
        var peak = 0
        for _ in 0..<40 {
            peak = max(peak, server.openConnections)
            try await Task.sleep(for: .milliseconds(100))
        }
        // The server stops accepting at the cap; connections already taken in the same accept
        // batch of a loaded machine may add a few.
        #expect(peak > 0 && peak <= 110, "the cap: \(peak) open at once")
        #expect(server.openConnections == 0, "\(server.openConnections) still open")
        #expect(slow.filter(\.isClosedByServer).count == 300)
        // And the server still answers.
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && body == Data("ok".utf8))
    }
}
