import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

/// A queue with `count` requests (`k0`, `k1`, …) queued while offline.
func queuedStore(_ bodies: [JSONValue], at date: Date) throws -> OfflineQueueStore {
    let store = try OfflineQueueStore()
    for (index, body) in bodies.enumerated() {
        try store.enqueue(
            NewQueuedRequest(
                method: "PUT", url: "https://mobile.edugo.test/api/v1/materials/mat-\(index)",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer stale"],
                body: JSONWriter().data(from: body),
                idempotencyKey: "k\(index)"),
            at: date)
    }
    return store
}

struct Decider: ConflictResolving {
    let decision: ConflictDecision
    func decide(_ conflict: SyncConflict) async -> ConflictDecision { decision }
}

@Suite("Offline queue replay")
struct OfflineQueueTests {
    @Test func replaysInOrderWithSameKeyAndFreshToken() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0], ["n": 1], ["n": 2]], at: clock.now())
        let transport = FakeTransport([response(200), response(201), response(204)])
        let tokens = InMemoryTokenStore(AuthTokens(accessToken: "current"))
        let client = APIClient(configuration: configuration(), transport: transport, tokens: tokens, clock: clock)
        let queue = OfflineQueue(store: store, client: client, clock: clock)
        let report = await queue.process()
        #expect(report.delivered == 3 && report.remaining == 0)
        let sent = await transport.requests
        #expect(sent.map { $0.headers["Idempotency-Key"] } == ["k0", "k1", "k2"])
        #expect(sent.allSatisfy { $0.headers["Authorization"] == "Bearer current" })
        #expect(try sent.map { try JSONReader().read($0.body!)["n"] } == [0, 1, 2])
        #expect(try store.count() == 0)
    }

    @Test func aPassAskedForDuringAPassWaitsForIt() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0], ["n": 1]], at: clock.now())
        // A slow server: the second call arrives while the first pass is delivering.
        let transport = FakeTransport { _, _ throws(TransportError) in
            try? await Task.sleep(nanoseconds: 50_000_000)
            return try response(200).get()
        }
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(store: store, client: client, clock: clock)
        async let first = queue.process()
        try await Task.sleep(nanoseconds: 10_000_000)
        let second = await queue.process()
        // The second call returns once the queue is empty, with the pass's report.
        #expect(second.delivered == 2 && second.remaining == 0)
        #expect(try store.count() == 0)
        #expect(await first.delivered == 2)
        #expect(await transport.requests.count == 2, "one pass, not two")
    }

    @Test func aRequestQueuedNowIsDueNowWhateverTheInstant() async throws {
        // Stored seconds since 1970 can read back one ulp later than the `Date` written; with a
        // clock that does not move, such a request must still be due.
        var unreadable: [Date] = []
        for step in 0..<64 {
            let clock = ManualClock(start: Date(timeIntervalSinceReferenceDate: 805_000_000.123_456 + Double(step) * 0.000_137))
            let store = try queuedStore([["n": 0]], at: clock.now())
            if try store.all()[0].nextAttemptAt > clock.now() { unreadable.append(clock.now()) }
            let client = APIClient(configuration: configuration(), transport: FakeTransport([response(200)]), clock: clock)
            let report = await OfflineQueue(store: store, client: client, clock: clock).process()
            #expect(report.delivered == 1, "at \(clock.now().timeIntervalSinceReferenceDate)")
        }
        // The instants chosen include some that do not survive the round trip.
        #expect(!unreadable.isEmpty)
    }

    @Test func failuresKeepOrderAndBackOff() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0], ["n": 1]], at: clock.now())
        let transport = FakeTransport([response(503), response(200), response(200)])
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(
            store: store, client: client, backoff: RetryPolicy(baseDelay: 5, multiplier: 2, jitter: 0, maxDelay: 300),
            clock: clock)
        var report = await queue.process()
        #expect(report.delivered == 0 && report.remaining == 2)
        #expect(await transport.requests.count == 1)
        let failed = try #require(try store.all().first)
        #expect(failed.attempts == 1 && failed.nextAttemptAt == clock.now().addingTimeInterval(5))
        // Not yet due: nothing is sent.
        report = await queue.process()
        #expect(await transport.requests.count == 1)
        clock.advance(by: 5)
        report = await queue.process()
        #expect(report.delivered == 2)
        #expect(await transport.requests.map { $0.headers["Idempotency-Key"] } == ["k0", "k0", "k1"])
    }

    @Test(arguments: [408, 429, 503])
    func aServerThatSaysLaterKeepsTheChangeAndIsWaitedFor(status: Int) async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0], ["n": 1]], at: clock.now())
        let transport = FakeTransport([
            response(status, headers: ["Retry-After": "120"]), response(200), response(200),
        ])
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(
            store: store, client: client, backoff: RetryPolicy(baseDelay: 5, multiplier: 2, jitter: 0, maxDelay: 300),
            clock: clock)
        var report = await queue.process()
        #expect(report.rejected == 0 && report.remaining == 2, "\(status) is not a refusal")
        let waiting = try #require(try store.all().first)
        #expect(waiting.idempotencyKey == "k0" && waiting.attempts == 1)
        #expect(waiting.nextAttemptAt == clock.now().addingTimeInterval(120), "Retry-After, longer than the backoff, is honoured")
        clock.advance(by: 60)
        report = await queue.process()
        #expect(await transport.requests.count == 1, "not before the server's time")
        clock.advance(by: 60)
        report = await queue.process()
        #expect(report.delivered == 2 && report.remaining == 0)
        #expect(await transport.requests.map { $0.headers["Idempotency-Key"] } == ["k0", "k0", "k1"], "in order, same key")
    }

    @Test func aHostileRetryAfterIsClamped() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0]], at: clock.now())
        for value in ["1e300", "-5", "nan", "inf", "Wed, 21 Oct 2999 07:28:00 GMT"] {
            let client = APIClient(
                configuration: configuration(), transport: FakeTransport([response(429, headers: ["Retry-After": value])]),
                clock: clock)
            await OfflineQueue(store: store, client: client, backoff: RetryPolicy(baseDelay: 1, jitter: 0), clock: clock)
                .process()
            let waiting = try #require(try store.all().first, "\(value): kept")
            let wait = waiting.nextAttemptAt.timeIntervalSince(clock.now())
            #expect(wait >= 0 && wait <= OfflineQueue.maxRetryAfter, "\(value): waits \(wait) s")
            clock.advance(by: OfflineQueue.maxRetryAfter)
        }
    }

    @Test func expiredRequestsAreDroppedAndReported() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0]], at: clock.now())
        let client = APIClient(configuration: configuration(), transport: FakeTransport(), clock: clock)
        let queue = OfflineQueue(store: store, client: client, clock: clock)
        let events = await queue.events()
        clock.advance(by: 86_401)
        let report = await queue.process()
        #expect(report.expired == 1 && report.remaining == 0)
        var iterator = events.makeAsyncIterator()
        guard case .expired(let request)? = await iterator.next() else {
            Issue.record("no expiry event")
            return
        }
        #expect(request.idempotencyKey == "k0")
    }

    @Test func permanentRejectionsAreRemoved() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0], ["n": 1]], at: clock.now())
        let transport = FakeTransport([response(422, #"{"fields": {"title": "obligatorio"}}"#), response(200)])
        let queue = OfflineQueue(
            store: store, client: APIClient(configuration: configuration(), transport: transport, clock: clock), clock: clock)
        let report = await queue.process()
        #expect(report.rejected == 1 && report.delivered == 1 && report.remaining == 0)
    }

    static let server: JSONValue = [
        "current": ["id": "mat-0", "title": "Servidor", "tags": ["a"], "meta": ["views": 10, "lang": "es"], "version": 7]
    ]
    static let local: JSONValue = ["title": "Local", "tags": ["b", "c"], "meta": ["lang": "en"], "version": 5]

    func conflictRun(
        _ strategy: ConflictStrategy, resolver: (any ConflictResolving)? = nil,
        afterConflict: [Result<TransportResponse, TransportError>]
    )
        async throws -> (SyncReport, [TransportRequest], OfflineQueueStore)
    {
        let clock = ManualClock()
        let store = try queuedStore([Self.local], at: clock.now())
        let transport = FakeTransport([response(409, JSONWriter().string(from: Self.server))] + afterConflict)
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(store: store, client: client, strategy: strategy, resolver: resolver, clock: clock)
        let report = await queue.process()
        return (report, await transport.requests, store)
    }

    @Test func conflictServerWins() async throws {
        let (report, sent, store) = try await conflictRun(.serverWins, afterConflict: [])
        #expect(report.conflictsResolved == 1 && sent.count == 1)
        #expect(try store.count() == 0)
    }

    @Test func conflictClientWinsResendsWithServerVersion() async throws {
        let (report, sent, store) = try await conflictRun(.clientWins, afterConflict: [response(200)])
        #expect(report.conflictsResolved == 1 && report.delivered == 1)
        #expect(
            try JSONReader().read(sent[1].body!) == ["title": "Local", "tags": ["b", "c"], "meta": ["lang": "en"], "version": 7])
        // Another body, another request: a new key (the server remembers its 409 for `k0`).
        #expect(sent[1].headers["Idempotency-Key"] == "k0~r1")
        #expect(try store.count() == 0)
    }

    @Test func conflictMergeIsFieldLevel() async throws {
        let (report, sent, _) = try await conflictRun(.merge, afterConflict: [response(200)])
        #expect(report.delivered == 1)
        #expect(
            try JSONReader().read(sent[1].body!)
                == ["id": "mat-0", "title": "Local", "tags": ["b", "c"], "meta": ["views": 10, "lang": "en"], "version": 7])
    }

    @Test func conflictManualAsksTheHost() async throws {
        let (keepServer, sentA, storeA) = try await conflictRun(
            .manual, resolver: Decider(decision: .keepServer), afterConflict: [])
        #expect(try keepServer.conflictsResolved == 1 && sentA.count == 1 && storeA.count() == 0)
        let (replace, sentB, _) = try await conflictRun(
            .manual, resolver: Decider(decision: .replace(["title": "Elegido"])), afterConflict: [response(200)])
        #expect(replace.delivered == 1)
        #expect(try JSONReader().read(sentB[1].body!) == ["title": "Elegido"])
        let (later, _, storeC) = try await conflictRun(.manual, resolver: Decider(decision: .later), afterConflict: [])
        #expect(later.awaitingDecision == 1)
        #expect(try storeC.all().first?.status == .awaitingDecision)
        let (noResolver, _, storeD) = try await conflictRun(.manual, afterConflict: [])
        #expect(noResolver.awaitingDecision == 1)
        // The host decides later; the request is pending again with its choice.
        let queue = OfflineQueue(store: storeD, client: APIClient(configuration: configuration(), transport: FakeTransport()))
        let waiting = try #require(try storeD.all().first)
        try await queue.resolve(waiting, with: .keepLocal, server: JSONMerge.serverRecord(in: Self.server))
        let resolved = try #require(try storeD.all().first)
        #expect(resolved.status == .pending)
        #expect(try JSONReader().read(resolved.body!)["version"] == 7)
    }

    @Test func mergeRule() {
        #expect(JSONMerge.merge(local: ["a": ["b": 1]], over: ["a": ["c": 2], "d": 3]) == ["a": ["b": 1, "c": 2], "d": 3])
        #expect(JSONMerge.merge(local: ["a": nil], over: ["a": 1]) == ["a": nil])
        #expect(JSONMerge.merge(local: ["a": [1]], over: ["a": [2, 3]]) == ["a": [1]])
        #expect(JSONMerge.merge(local: ["a": 1], over: "not an object") == ["a": 1])
        #expect(JSONMerge.serverRecord(in: ["data": ["x": 1]]) == ["x": 1])
        #expect(JSONMerge.serverRecord(in: ["x": 1]) == ["x": 1])
    }
}

/// Found by the fault workload (tools/faults): the queue against a server that remembers every
/// answer by `Idempotency-Key`, and a device clock that jumps.
@Suite("Offline queue under faults")
struct OfflineQueueFaultTests {
    @Test(arguments: [ConflictStrategy.clientWins, .merge])
    func aResolvedConflictIsSentUnderANewKeyAndApplied(strategy: ConflictStrategy) async throws {
        // As the demo backend and real idempotency stores do: a key seen before gets its first
        // answer again. Resent under `k0`, the resolved change met its own 409 forever, and the
        // whole queue waited behind it.
        let transport = FakeTransport { request, _ throws(TransportError) in
            request.headers["Idempotency-Key"] == "k0"
                ? try response(409, JSONWriter().string(from: OfflineQueueTests.server)).get() : try response(200).get()
        }
        let clock = ManualClock()
        let store = try queuedStore([OfflineQueueTests.local, ["n": 1]], at: clock.now())
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(store: store, client: client, strategy: strategy, clock: clock)
        let report = await queue.process()
        #expect(report.conflictsResolved == 1 && report.delivered == 2 && report.remaining == 0)
        #expect(await transport.requests.map { $0.headers["Idempotency-Key"] } == ["k0", "k0~r1", "k1"])
        #expect(OfflineQueue.resolvedKey("k0~r1") == "k0~r2" && OfflineQueue.resolvedKey("a~b") == "a~b~r1")
    }

    @Test func aManualDecisionIsSentUnderANewKey() async throws {
        let transport = FakeTransport { request, _ throws(TransportError) in
            request.headers["Idempotency-Key"] == "k0"
                ? try response(409, JSONWriter().string(from: OfflineQueueTests.server)).get() : try response(200).get()
        }
        let clock = ManualClock()
        let store = try queuedStore([OfflineQueueTests.local], at: clock.now())
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(
            store: store, client: client, strategy: .manual, resolver: Decider(decision: .keepLocal), clock: clock)
        let report = await queue.process()
        #expect(report.delivered == 1 && report.remaining == 0)
        #expect(await transport.requests.last?.headers["Idempotency-Key"] == "k0~r1")
    }

    /// A device clock the user can set: the wall time jumps, the uptime does not.
    final class JumpingClock: DynamicUIClock, @unchecked Sendable {
        let manual = ManualClock()
        private let lock = NSLock()
        private var offset: Double = 0
        func jump(by seconds: Double) { lock.withLock { offset += seconds } }
        func now() -> Date { manual.now().addingTimeInterval(lock.withLock { offset }) }
        func sleep(seconds: Double) async throws { try await manual.sleep(seconds: seconds) }
        func uptime() -> Double { manual.now().timeIntervalSince1970 }
    }

    /// The queue of a new process over `store`: its own client, whose requests `transport` answers.
    func restartedQueue(_ store: OfflineQueueStore, transport: FakeTransport, clock: any DynamicUIClock) -> OfflineQueue {
        OfflineQueue(
            store: store, client: APIClient(configuration: configuration(), transport: transport, clock: clock), clock: clock)
    }

    /// A change the server asked to retry after 5 s, on a clock the user can set.
    func waitingQueue() async throws -> (
        clock: JumpingClock, queue: OfflineQueue, store: OfflineQueueStore, transport: FakeTransport
    ) {
        let clock = JumpingClock()
        let store = try queuedStore([["n": 0]], at: clock.now())
        let transport = FakeTransport([response(503, headers: ["Retry-After": "5"]), response(200)])
        let client = APIClient(configuration: configuration(), transport: transport, clock: clock)
        let queue = OfflineQueue(
            store: store, client: client, backoff: RetryPolicy(baseDelay: 1, jitter: 0, maxDelay: 300), clock: clock)
        #expect(await queue.process().remaining == 1)
        return (clock, queue, store, transport)
    }

    @Test func aClockSetForwardDoesNotCutRetryAfterShort() async throws {
        let (clock, queue, _, transport) = try await waitingQueue()
        clock.jump(by: 7200)
        #expect(await queue.process().delivered == 0, "the server's 5 s have not passed")
        #expect(await transport.requests.count == 1)
        clock.manual.advance(by: 5)
        #expect(await queue.process().delivered == 1)
    }

    @Test func aClockSetBackDoesNotParkTheQueue() async throws {
        // Measured on the wall clock, the wait grew by the hour the clock went back, and every
        // change queued behind it waited as long.
        let (clock, queue, _, _) = try await waitingQueue()
        clock.jump(by: -3600)
        clock.manual.advance(by: 5)
        #expect(await queue.process().delivered == 1)
    }

    @Test func aClockSetForwardWhileTheAppWasNotRunningDoesNotCutRetryAfterShort() async throws {
        let (clock, _, store, _) = try await waitingQueue()
        #expect(try store.pending().first?.scheduledUptime == clock.uptime(), "the wait's start is stored on uptime")
        // The app is killed, the clock set two hours forward, and a new process starts: on the
        // stored wall times alone the 5 s were long over.
        clock.jump(by: 7200)
        clock.manual.advance(by: 2)
        let transport = FakeTransport([response(200)])
        let queue = restartedQueue(store, transport: transport, clock: clock)
        #expect(await queue.process().delivered == 0, "3 of the server's 5 s are left")
        #expect(await transport.requests.isEmpty)
        clock.manual.advance(by: 3)
        #expect(await queue.process().delivered == 1)
    }

    @Test func afterARebootTheStoredWallTimesDecide() async throws {
        /// The same wall clock after a reboot: its uptime started again from zero.
        struct Rebooted: DynamicUIClock {
            let clock: JumpingClock
            func now() -> Date { clock.now() }
            func sleep(seconds: Double) async throws {}
            func uptime() -> Double { clock.uptime() - 1_000_000 }
        }
        let (clock, _, store, _) = try await waitingQueue()
        let rebooted = Rebooted(clock: clock)
        let queue = restartedQueue(store, transport: FakeTransport([response(200)]), clock: rebooted)
        #expect(await queue.process().delivered == 0, "5 s from the stored wall time have not passed")
        clock.manual.advance(by: 5)
        #expect(await queue.process().delivered == 1)
    }

    @Test func aClockSetBackWhileTheAppWasNotRunningRestartsTheWait() async throws {
        let (clock, _, store, _) = try await waitingQueue()
        // A new process, the clock an hour earlier: the stored wait (5 s from an instant now in
        // the future) starts again from now, rather than an hour and 5 s.
        clock.jump(by: -3600)
        let queue = restartedQueue(store, transport: FakeTransport([response(200), response(200)]), clock: clock)
        #expect(await queue.process().delivered == 0)
        clock.manual.advance(by: 5)
        #expect(await queue.process().delivered == 1)
        // Queued at a later wall time than now (before the clock went back): due now.
        try store.enqueue(
            NewQueuedRequest(method: "PUT", url: "https://mobile.edugo.test/api/v1/materials/mat-9", idempotencyKey: "k9"),
            at: clock.now().addingTimeInterval(3600))
        #expect(await queue.process().delivered == 1)
    }
}

@Suite("Connectivity and sync")
struct SyncTests {
    @Test func coordinatorReplaysWhenConnectivityReturns() async throws {
        let clock = ManualClock()
        let store = try queuedStore([["n": 0]], at: clock.now())
        let transport = FakeTransport([response(200)])
        let monitor = ManualConnectivityMonitor(connected: false)
        let queue = OfflineQueue(
            store: store, client: APIClient(configuration: configuration(), transport: transport, clock: clock), clock: clock)
        let coordinator = NetworkSyncCoordinator(monitor: monitor, queue: queue)
        #expect(await coordinator.syncNow() == nil)
        await coordinator.startMonitoring()
        await coordinator.startMonitoring()
        #expect(await coordinator.isMonitoring)
        await monitor.set(connected: true)
        #expect(await eventually { (try? store.count()) == 0 })
        #expect(await transport.requests.count == 1)
        await coordinator.stopMonitoring()
        #expect(await !coordinator.isMonitoring)
    }

    @Test func probingMonitorFollowsTheTransport() async throws {
        let reachable = FakeTransport([response(200), .failure(TransportError(.noConnection)), response(404)])
        let monitor = ProbingConnectivityMonitor(transport: reachable, url: adminURL, interval: 10, clock: ManualClock())
        #expect(await monitor.probe())
        #expect(await !monitor.probe())
        #expect(await !monitor.isConnected())
        #expect(await monitor.probe())
        #expect(await reachable.requests.allSatisfy { $0.method == .head })
    }
}
