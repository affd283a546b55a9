import DynamicUIModels
import DynamicUINetwork
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An append-only JSON-lines file, flushed to disk after every line: what a line says happened
/// before the process was killed.
final class Journal: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private let session: String

    /// Opens (creating) the journal at `path`; every line carries `session`.
    init(path: String, session: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        self.session = session
        precondition(descriptor >= 0, "cannot open the journal \(path)")
    }

    /// Appends one event and waits until it is on disk.
    func write(_ event: String, _ fields: JSONObject = [:]) {
        var object = fields
        object["ev"] = .string(event)
        object["t"] = .number(JSONNumber(Date().timeIntervalSince1970))
        object["session"] = .string(session)
        let line = JSONWriter(sortedKeys: true).string(from: .object(object)) + "\n"
        lock.withLock {
            let bytes = Array(line.utf8)
            _ = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
            fsync(descriptor)
        }
    }

    /// Reads every event of the journal at `path` (none when it does not exist).
    static func read(path: String) -> [JSONValue] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        // A line cut short by a kill is not an event.
        return text.split(separator: "\n").compactMap { try? JSONReader().read(String($0)) }
    }
}

/// Writes `bytes` to `descriptor` (the C `write`, out of reach of a method of the same name).
private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}

/// A device clock that jumps: the system clock plus a skew that changes while the app runs
/// (a user changing the time, a network time correction).
final class SkewedClock: DynamicUIClock, @unchecked Sendable {
    private let lock = NSLock()
    private var skew: Double = 0

    /// The current skew in seconds.
    var offset: Double {
        get { lock.withLock { skew } }
        set { lock.withLock { skew = newValue } }
    }

    func now() -> Date { Date().addingTimeInterval(offset) }

    /// The device's uptime, which a change of its wall clock does not move (as `SystemClock`).
    func uptime() -> Double { ProcessInfo.processInfo.systemUptime }

    func sleep(seconds: Double) async throws { try await SystemClock().sleep(seconds: seconds) }
}

/// The device's radio: the SDK's real URLSession transport, or no connection while it is off.
///
/// `FAULT_BREAK` breaks the app on purpose, to show that the checker notices:
/// `idempotency` sends every request without its `Idempotency-Key` (as a replay that forgot
/// it), `retry-after` hides every `Retry-After` from the SDK (as a retry that ignores it).
struct Radio: HTTPTransport {
    /// Whether the device is offline.
    let state: Switch
    /// The real transport.
    let transport: URLSessionTransport
    /// The deliberate breakage (`FAULT_BREAK`), if any.
    let breakage = ProcessInfo.processInfo.environment["FAULT_BREAK"] ?? ""

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        if state.isOn { throw TransportError(.noConnection) }
        var outgoing = request
        if breakage == "idempotency" { outgoing.headers["Idempotency-Key"] = nil }
        var response = try await transport.send(outgoing)
        if breakage == "retry-after" { response.headers["Retry-After"] = nil }
        return response
    }
}

/// A thread-safe flag.
final class Switch: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// The flag.
    var isOn: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// A small seeded generator (SplitMix64), so one seed replays one run's choices.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator from `seed`.
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The resident set size of this process, in MiB.
func residentMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// Writes a line to standard error.
func say(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
