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

/// An API client of both APIs at `base`, over URLSession, with quick retries.
func loopbackClient(_ base: URL, tokens: (any TokenStore)? = nil, cache: ResponseCache? = nil, timeout: Double = 10) -> APIClient
{
    APIClient(
        configuration: APIConfiguration(
            adminBaseURL: base, mobileBaseURL: base, allowInsecureLoopback: true, timeout: timeout,
            retryPolicy: RetryPolicy(maxRetries: 2, baseDelay: 0.01, jitter: 0)),
        transport: URLSessionTransport(), tokens: tokens, cache: cache)
}

/// Records the idempotency key and token of every request and answers 201 (401 without the
/// expected token): the server the replays of the durability test reach.
actor ReplayRecorder: HTTPTransport {
    private(set) var keys: [String: Int] = [:]
    private let token: String

    init(token: String) { self.token = token }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        keys[request.headers["Idempotency-Key"] ?? "missing", default: 0] += 1
        let authorized = request.headers["Authorization"] == "Bearer \(token)"
        return TransportResponse(status: authorized ? 201 : 401, body: Data(), url: request.url)
    }
}

@Suite("URLSession transport over raw sockets, and the offline queue across kills", .serialized)
struct SocketTests {
    @Test func connectionClosedMidResponse() async throws {
        let server = try HalfResponseServer()
        server.serveOnce()
        let client = loopbackClient(URL(string: "http://127.0.0.1:\(server.port)")!)
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/broken", useCache: false))
            Issue.record("a truncated response succeeded")
        } catch {
            #expect(error.code == .noConnection)
        }
        server.close()
    }

    @Test func offlineQueueSurvivesSigkillAndDeliversEachOnce() async throws {
        let writer = try queueWriterExecutable()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dynamicui-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("queue.sqlite").path

        let base = URL(string: "http://127.0.0.1:9")!
        let url = base.appendingPathComponent("v1/materials").absoluteString

        var generator = SystemRandomNumberGenerator()
        var acknowledged: [String] = []
        var next = 0
        let rounds = 20
        for round in 0..<rounds {
            let acks = try runWriterUntilKilled(
                writer, path: path, first: next, url: url, stopAfter: Int.random(in: 1...60, using: &generator),
                extraDelayMicros: round % 3 == 0 ? UInt32.random(in: 0...20_000, using: &generator) : 0)
            acknowledged += acks
            let store = try OfflineQueueStore(path: path)
            #expect(try store.integrityCheck(), "round \(round): integrity check failed")
            let stored = try store.all()
            let keys = stored.map(\.idempotencyKey)
            let missing = Set(acknowledged).subtracting(keys)
            #expect(missing.isEmpty, "round \(round): acknowledged but lost: \(missing.sorted())")
            #expect(stored.map(\.id) == stored.map(\.id).sorted())
            let indices = keys.compactMap { Int($0.dropFirst(4)) }
            #expect(indices == indices.sorted(), "round \(round): out of order")
            #expect(stored.count <= acknowledged.count + round + 1)
            #expect(stored.allSatisfy { $0.headers["Authorization"] == nil })
            next = (indices.max() ?? -1) + 1
        }
        let store = try OfflineQueueStore(path: path)
        let storedCount = try store.count()
        #expect(acknowledged.count >= rounds)
        #expect(storedCount >= acknowledged.count)

        // Replay: every stored request exactly once, by key, with the current token.
        let recorder = ReplayRecorder(token: "replay-token")
        let client = APIClient(
            configuration: APIConfiguration(adminBaseURL: base, mobileBaseURL: base, allowInsecureLoopback: true),
            transport: recorder, tokens: InMemoryTokenStore(AuthTokens(accessToken: "replay-token")))
        let queue = OfflineQueue(store: store, client: client)
        let report = await queue.process()
        #expect(report.delivered == storedCount, "\(report)")
        #expect(try store.count() == 0)
        let counts = await recorder.keys
        #expect(counts.count == storedCount)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(Set(acknowledged).isSubset(of: Set(counts.keys)))
        print(
            "durability: \(rounds) kills, \(acknowledged.count) acknowledged, \(storedCount) stored, \(counts.count) delivered once each"
        )
    }
}

/// The `queue-writer` executable built beside the tests.
func queueWriterExecutable() throws -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("queue-writer")
    var candidates = [beside]
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { root.deleteLastPathComponent() }
    candidates.append(root.appendingPathComponent(".build/debug/queue-writer"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw TransportError(.other("queue-writer not found in \(candidates.map(\.path))"))
    }
    return found
}

/// Starts the writer, SIGKILLs it after `stopAfter` acknowledgements (plus an optional delay),
/// and returns every key it acknowledged before dying.
func runWriterUntilKilled(
    _ writer: URL, path: String, first: Int, url: String, stopAfter: Int, extraDelayMicros: UInt32
) throws
    -> [String]
{
    let process = Process()
    process.executableURL = writer
    process.arguments = [path, String(first), url]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let handle = pipe.fileHandleForReading
    var buffer = Data()
    var killed = false
    while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
        if !killed, buffer.split(separator: UInt8(ascii: "\n")).count >= stopAfter {
            if extraDelayMicros > 0 { usleep(extraDelayMicros) }
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
    }
    process.waitUntilExit()
    let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
    // A line cut by the kill is not an acknowledgement.
    return lines.compactMap { line in
        let parts = line.split(separator: " ")
        return parts.count == 3 && parts[0] == "ACK" ? String(parts[2]) : nil
    }
}

/// A TCP socket listening on an ephemeral port of 127.0.0.1, and the port.
func listeningSocket() throws -> (descriptor: Int32, port: UInt16) {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0, listen(descriptor, 1) == 0 else { throw TransportError(.other("cannot listen")) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
}

/// A TCP server that answers one request with a response cut short, then closes the connection.
final class HalfResponseServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try listeningSocket()
    }

    func serveOnce() {
        let descriptor = self.descriptor
        Thread.detachNewThread {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &request, request.count)
            let partial = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"partial\": "
            _ = partial.withCString { write(connection, $0, strlen($0)) }
            usleep(50_000)
            _ = systemClose(connection)
        }
    }

    func close() { _ = systemClose(descriptor) }
}

/// `close(2)` from the platform's C library (the class above has its own `close`).
func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        return Glibc.close(descriptor)
    #else
        return Darwin.close(descriptor)
    #endif
}
