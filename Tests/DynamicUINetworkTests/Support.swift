import DynamicUIModels
import DynamicUIStorage
import Foundation
import Logging
import Testing

@testable import DynamicUINetwork

/// A transport that answers from a script and records every request.
actor FakeTransport: HTTPTransport {
    typealias Handler = @Sendable (TransportRequest, Int) async throws(TransportError) -> TransportResponse
    private(set) var requests: [TransportRequest] = []
    private var script: [Result<TransportResponse, TransportError>]
    private let handler: Handler?

    init(_ script: [Result<TransportResponse, TransportError>] = []) {
        self.script = script
        self.handler = nil
    }

    init(handler: @escaping Handler) {
        self.script = []
        self.handler = handler
    }

    func enqueue(_ result: Result<TransportResponse, TransportError>) { script.append(result) }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        requests.append(request)
        if let handler { return try await handler(request, requests.count - 1) }
        guard !script.isEmpty else { throw TransportError(.other("unscripted request \(request.method) \(request.url)")) }
        return try script.removeFirst().get()
    }
}

func response(_ status: Int, _ body: String = "", headers: HeaderFields = [:]) -> Result<TransportResponse, TransportError> {
    .success(TransportResponse(status: status, headers: headers, body: Data(body.utf8)))
}

let adminURL = URL(string: "https://admin.edugo.test")!
let mobileURL = URL(string: "https://mobile.edugo.test/api")!

/// Jitter-free retries: delays of exactly 1, 2, 4 s.
let exactRetries = RetryPolicy(maxRetries: 3, baseDelay: 1, multiplier: 2, jitter: 0.2, random: { 0.5 })

func configuration(retry: RetryPolicy = exactRetries, loopback: Bool = false) -> APIConfiguration {
    APIConfiguration(adminBaseURL: adminURL, mobileBaseURL: mobileURL, allowInsecureLoopback: loopback, retryPolicy: retry)
}

/// Collects every log line (message and metadata) in memory.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var all: [String] { lock.withLock { lines } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in CaptureHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }
}

struct CaptureHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}

/// Runs `body` until `condition` holds or a second passes (for background tasks).
func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return false
}

/// Moves `clock` forward by `seconds` each time the code under test starts waiting, `times`
/// times. When it does not start waiting (within a minute of real time, however loaded the
/// machine), `task` is cancelled so the test fails rather than waits forever.
func advance<Success, Failure>(
    _ clock: ManualClock, by seconds: Double, times: Int = 1, cancelling task: Task<Success, Failure>,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<times {
        guard await clock.waitForSleepers() else {
            Issue.record("the code under test never started waiting", sourceLocation: sourceLocation)
            task.cancel()
            return
        }
        clock.advance(by: seconds)
    }
}
