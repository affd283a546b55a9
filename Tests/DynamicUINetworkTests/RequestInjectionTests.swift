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

/// A TCP server on 127.0.0.1 that records the bytes of every connection it accepts and answers
/// each with `200 {}`. Nothing is parsed, so a request that a stricter server would reject is
/// still seen.
final class RawRecordingServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [Data] = []

    init() throws {
        (descriptor, port) = try listeningSocket()
        let descriptor = self.descriptor
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
                _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var bytes = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(connection, &buffer, buffer.count)
                    guard count > 0 else { break }
                    bytes.append(contentsOf: buffer[0..<count])
                    if bytes.range(of: Data("\r\n\r\n".utf8)) != nil { break }
                }
                lock.withLock { received.append(bytes) }
                let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
                _ = answer.withCString { write(connection, $0, strlen($0)) }
                _ = systemClose(connection)
            }
        }
    }

    /// The bytes received on each connection so far.
    var connections: [Data] { lock.withLock { received } }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func stop() {
        #if canImport(Glibc)
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #else
            _ = shutdown(descriptor, SHUT_RDWR)
        #endif
        _ = systemClose(descriptor)
    }
}

@Suite("Methods and header fields never inject into the request", .serialized)
struct RequestInjectionTests {
    /// The review's payloads (request splitting and a folded `Host`), and methods outside the set.
    static let hostileMethods = [
        "DELETE /v1/materials/x HTTP/1.1\r\nHost: internal-admin.example\r\nX-Pad: ",
        "DELETE /v1/users/usr-001 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Smuggled: 1\r\n\r\nGET",
        "GET\u{0}", "G ET", "TRACE", "CONNECT", "OPTIONS", "",
    ]

    @Test func aMethodOutsideTheSetIsRefusedAndNothingReachesTheServer() async throws {
        let server = try RawRecordingServer()
        defer { server.stop() }
        let client = loopbackClient(
            server.url, tokens: InMemoryTokenStore(AuthTokens(accessToken: "ACCESS-SECRET")), timeout: 5)
        for method in Self.hostileMethods {
            do throws(NetworkError) {
                _ = try await client.send(APIRequest(RequestMethod(rawValue: method), "/v1/anything"))
                Issue.record("\(method.debugDescription) was sent")
            } catch {
                #expect(error.code == .invalidRequest, "\(method.debugDescription): \(error)")
                #expect(error.message.contains("method"), "\(method.debugDescription): \(error)")
                #expect(!error.message.contains("\r\n"), "the message carries the raw payload: \(error)")
            }
            do throws(TransportError) {
                _ = try await URLSessionTransport().send(
                    TransportRequest(
                        method: RequestMethod(rawValue: method), url: server.url.appendingPathComponent("v1/raw"),
                        headers: ["Authorization": "Bearer ACCESS-SECRET"], timeout: 5))
                Issue.record("the transport sent \(method.debugDescription)")
            } catch {}
        }
        #expect(
            server.connections.isEmpty,
            "the server received \(server.connections.map { String(decoding: $0, as: UTF8.self) })")
        // The six methods of the set still go out.
        for method in ["get", "POST", "Put", "PATCH", "DELETE", "HEAD"] {
            _ = try await client.send(APIRequest(RequestMethod(rawValue: method), "/v1/ok", queueWhenOffline: false))
        }
        #expect(server.connections.count == 6)
    }

    @Test func aHeaderWithCRLFOrNULIsRefusedAndNothingReachesTheServer() async throws {
        let server = try RawRecordingServer()
        defer { server.stop() }
        let headers: [HeaderFields] = [
            ["X-Note": "a\r\nX-Injected: 1"], ["X-Note": "a\nX-Injected: 1"], ["X-Note": "a\rb"], ["X-Note": "a\u{0}b"],
            ["X-Note\r\nX-Injected": "1"], ["X-Note: 1\r\nX-Injected": "1"], ["": "empty name"],
        ]
        let client = loopbackClient(server.url, timeout: 5)
        for fields in headers {
            for method in [RequestMethod.get, .post] {
                do throws(NetworkError) {
                    _ = try await client.send(APIRequest(method, "/v1/anything", headers: fields))
                    Issue.record("\(fields) was sent")
                } catch {
                    #expect(error.code == .invalidRequest, "\(fields): \(error)")
                    #expect(error.message.contains("header"), "\(fields): \(error)")
                    #expect(!error.isQueued)
                }
            }
            do throws(TransportError) {
                _ = try await URLSessionTransport().send(
                    TransportRequest(method: .get, url: server.url.appendingPathComponent("v1/raw"), headers: fields, timeout: 5))
                Issue.record("the transport sent \(fields)")
            } catch {}
        }
        // A token that would add a header of its own is refused the same way.
        let injectingToken = loopbackClient(
            server.url, tokens: InMemoryTokenStore(AuthTokens(accessToken: "tok\r\nX-Injected: 1")), timeout: 5)
        do throws(NetworkError) {
            _ = try await injectingToken.send(APIRequest(.get, "/v1/anything"))
            Issue.record("a token with CR LF was sent")
        } catch {
            #expect(error.code == .invalidRequest, "\(error)")
        }
        #expect(
            server.connections.isEmpty,
            "the server received \(server.connections.map { String(decoding: $0, as: UTF8.self) })")
    }

    @Test func theErrorNamesWhereTheMethodWasReadAndEscapesIt() throws {
        do throws(NetworkError) {
            _ = try RequestMethod(validating: "DELETE /x HTTP/1.1\r\nHost: a", at: "API_CALL 'x' on screen 'y', config.method")
            Issue.record("a method with CR LF was accepted")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(
                error.message
                    == #"API_CALL 'x' on screen 'y', config.method: method "DELETE /x HTTP/1.1\r\nHost: a" is not one of GET, POST, PUT, PATCH, DELETE, HEAD"#
            )
        }
        #expect(try RequestMethod(validating: "patch", at: "here") == .patch)
        #expect(RequestMethod.allowed.allSatisfy { $0.isAllowed })
        #expect(!RequestMethod(rawValue: "OPTIONS").isAllowed)
        let secret: HeaderFields = ["Authorization": "Bearer SECRET\r\nX: 1"]
        do throws(NetworkError) {
            try secret.validate(at: "here")
            Issue.record("a value with CR LF was accepted")
        } catch {
            #expect(error.message.hasPrefix("here: the value of header Authorization"))
            #expect(!error.message.contains("SECRET"))
        }
    }
}
