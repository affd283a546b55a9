public import DynamicUIModels
public import DynamicUIStorage
import Foundation
public import Logging

/// Something the queue reports to the host.
public enum OfflineQueueEvent: Sendable {
    /// A queued request was delivered (2xx).
    case delivered(QueuedRequest, status: Int)
    /// A 409 was resolved by the strategy (`serverWins` drops the change).
    case conflictResolved(QueuedRequest, strategy: ConflictStrategy)
    /// A 409 waits for the host's decision.
    case awaitingDecision(QueuedRequest)
    /// The server refused the request permanently (a 4xx other than 401, 408, 409 and 429); it was removed.
    case rejected(QueuedRequest, NetworkError)
    /// The request was older than the maximum age and was dropped undelivered.
    case expired(QueuedRequest)
    /// A delivery attempt failed; the request stays queued until `nextAttemptAt`.
    case retryScheduled(QueuedRequest, NetworkError)
}

/// A summary of one pass over the queue.
public struct SyncReport: Sendable, Hashable {
    /// Requests delivered.
    public var delivered = 0
    /// Conflicts resolved (including changes dropped by `serverWins`).
    public var conflictsResolved = 0
    /// Conflicts waiting for the host.
    public var awaitingDecision = 0
    /// Requests the server refused and that were removed.
    public var rejected = 0
    /// Requests dropped for age.
    public var expired = 0
    /// Requests still queued (to retry later).
    public var remaining = 0

    /// An empty report.
    public init() {}
}

/// Replays the durable queue in FIFO order: each request
/// with the same `Idempotency-Key` every time and the current token; removed only after a 2xx
/// or a resolved 409; 5xx, timeouts and lost connections stay with exponential backoff (and
/// stop the pass, so order is kept); requests older than `maxAge` (24 h) are dropped and
/// reported.
public actor OfflineQueue {
    /// The durable store.
    public let store: OfflineQueueStore
    private let client: APIClient
    private let clock: any DynamicUIClock
    private let logger: Logger
    /// How 409 conflicts are resolved.
    public var strategy: ConflictStrategy
    private let resolver: (any ConflictResolving)?
    /// Oldest request kept, in seconds.
    public let maxAge: Double
    private let backoff: RetryPolicy
    private var running: Task<SyncReport, Never>?
    private var listeners: [UUID: AsyncStream<OfflineQueueEvent>.Continuation] = [:]
    /// For each request this process scheduled a retry of, the `uptime` before which it is
    /// not sent: the wait is measured on a clock that does not jump.
    private var notBefore: [Int64: Double] = [:]

    /// Creates the processor.
    public init(
        store: OfflineQueueStore, client: APIClient, strategy: ConflictStrategy = .serverWins,
        resolver: (any ConflictResolving)? = nil, maxAge: Double = 86_400,
        backoff: RetryPolicy = RetryPolicy(maxRetries: .max, baseDelay: 5, multiplier: 2, jitter: 0.2, maxDelay: 300),
        clock: any DynamicUIClock = SystemClock(), logger: Logger = Logger(label: "DynamicUI.queue")
    ) {
        self.store = store
        self.client = client
        self.strategy = strategy
        self.resolver = resolver
        self.maxAge = maxAge
        self.backoff = backoff
        self.clock = clock
        self.logger = logger
    }

    /// A stream of queue events for the host (pending badges, conflict prompts, reports).
    public func events() -> AsyncStream<OfflineQueueEvent> {
        let (stream, continuation) = AsyncStream<OfflineQueueEvent>.makeStream()
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeListener(id) } }
        return stream
    }

    private func removeListener(_ id: UUID) { listeners[id] = nil }

    private func emit(_ event: OfflineQueueEvent) {
        for listener in listeners.values { listener.yield(event) }
    }

    /// Changes the conflict strategy.
    public func setStrategy(_ strategy: ConflictStrategy) { self.strategy = strategy }

    /// The requests waiting, in order.
    public func pending() throws(StorageError) -> [QueuedRequest] { try store.all() }

    /// One pass over the queue. Concurrent calls do not overlap: a call made during a pass
    /// waits for it and returns its report (so "sync now" has synced when it returns).
    @discardableResult
    public func process() async -> SyncReport {
        if let running { return await running.value }
        let pass = Task { await self.pass() }
        running = pass
        let report = await pass.value
        running = nil
        return report
    }

    private func pass() async -> SyncReport {
        var report = SyncReport()
        let now = clock.now()
        do {
            for expired in try store.removeCreated(before: now.addingTimeInterval(-maxAge)) {
                report.expired += 1
                logger.warning(
                    "dropped queued \(expired.method) #\(expired.id) after \(WireNumber.int(maxAge / 3600)) h undelivered")
                emit(.expired(expired))
            }
            let pending = try store.pending()
            let ids = Set(pending.map(\.id))
            notBefore = notBefore.filter { ids.contains($0.key) }
            for request in pending {
                if !isDue(request, now: now) { break }
                let keepGoing = try await deliver(request, report: &report)
                if !keepGoing { break }
            }
            report.remaining = try store.count()
        } catch {
            logger.error("offline queue storage failed: \(error)")
            report.remaining = (try? store.count()) ?? 0
        }
        return report
    }

    /// Seconds until the first pending request may be sent (0 when it may be sent now); `nil`
    /// when nothing waits. A pass stops at the first request not yet due, so this is when the
    /// next pass can deliver something.
    public func secondsUntilNextAttempt() -> Double? {
        guard let first = (try? store.pending())?.first else { return nil }
        let now = clock.now()
        if isDue(first, now: now) { return 0 }
        if let gate = notBefore[first.id] { return max(0, gate - clock.uptime()) }
        return max(0, first.nextAttemptAt.timeIntervalSince1970 - now.timeIntervalSince1970)
    }

    /// Whether `request` may be sent now. A wait is measured on the clock's `uptime`, so a wall
    /// clock set forward does not cut a `Retry-After` short and one set back does not park the
    /// queue; that holds for a wait an earlier process of the same boot scheduled too (the uptime
    /// it began at is stored). After a reboot only the stored wall times are left: when the wall
    /// clock is now earlier than when that wait began, it went back, and the wait starts again
    /// from now (never longer than it was, never shorter).
    private func isDue(_ request: QueuedRequest, now: Date) -> Bool {
        let uptime = clock.uptime()
        if let gate = notBefore[request.id] { return uptime >= gate }
        let wait = request.nextAttemptAt.timeIntervalSince1970 - request.scheduledAt.timeIntervalSince1970
        if let began = request.scheduledUptime, began.isFinite, uptime >= began {
            // Scheduled by an earlier process of this boot (uptime only grows within one): the
            // wait is measured on uptime, whatever the wall clock did since. After a reboot the
            // uptime is smaller, and only the wall times below are left.
            notBefore[request.id] = began + max(0, wait)
            return uptime >= began + max(0, wait)
        }
        // Compared as stored (seconds since 1970): a `Date` read back from them can be one ulp
        // later than the one written, which would leave a request never due under a clock that
        // does not move.
        let seconds = now.timeIntervalSince1970
        if seconds < request.scheduledAt.timeIntervalSince1970 {
            guard wait > 0 else { return true }
            notBefore[request.id] = uptime + wait
            return false
        }
        return request.nextAttemptAt.timeIntervalSince1970 <= seconds
    }

    /// Applies the host's decision to a request awaiting one.
    public func resolve(_ request: QueuedRequest, with decision: ConflictDecision, server: JSONValue) throws(StorageError) {
        switch decision {
        case .keepServer:
            try store.remove(id: request.id)
        case .keepLocal:
            let local = request.body.flatMap { try? JSONReader().read($0) } ?? .null
            try store.replaceBody(
                id: request.id, with: JSONWriter().data(from: JSONMerge.withServerVersion(local, from: server)),
                idempotencyKey: Self.resolvedKey(request.idempotencyKey))
        case .replace(let body):
            try store.replaceBody(
                id: request.id, with: JSONWriter().data(from: body), idempotencyKey: Self.resolvedKey(request.idempotencyKey))
        case .later:
            try store.setStatus(id: request.id, .awaitingDecision)
        }
    }

    /// Delivers one request; returns whether the pass may continue with the next.
    private func deliver(_ request: QueuedRequest, report: inout SyncReport) async throws(StorageError) -> Bool {
        let response: APIResponse
        do throws(NetworkError) {
            response = try await client.replay(request)
        } catch {
            switch error.code {
            case .conflict:
                return try await handleConflict(request, error: error, report: &report)
            case .noConnection, .timeout, .rateLimited, .serverError, .cancelled, .unauthorized:
                // Later, never dropped: 408, 429 and 5xx say "not now" (rule 7), as does no connection.
                try scheduleRetry(request, error: error)
                return false
            default:
                try store.remove(id: request.id)
                report.rejected += 1
                logger.error("server refused queued \(request.method) #\(request.id): \(error)")
                emit(.rejected(request, error))
                return true
            }
        }
        try store.remove(id: request.id)
        report.delivered += 1
        emit(.delivered(request, status: response.status))
        return true
    }

    /// The key a request is sent under once its conflict is resolved: the body changed, so it is
    /// a new request (the server remembers its answer to the old key, the 409, and would give it
    /// again forever). `k` becomes `k~r1`, `k~r1` becomes `k~r2`.
    static func resolvedKey(_ key: String) -> String {
        if let mark = key.range(of: "~r", options: .backwards), let round = Int(key[mark.upperBound...]) {
            return key[..<mark.lowerBound] + "~r\(round + 1)"
        }
        return key + "~r1"
    }

    /// The longest `Retry-After` a queued request waits for (a larger one waits this long).
    static let maxRetryAfter: Double = 3_600

    private func scheduleRetry(_ request: QueuedRequest, error: NetworkError) throws(StorageError) {
        // The backoff, or the server's `Retry-After` when it asks for longer (clamped: a server
        // value never parks a change for days).
        let delay = max(backoff.delay(forRetry: min(request.attempts, 20)), min(error.retryAfter ?? 0, Self.maxRetryAfter))
        let now = clock.now()
        let uptime = clock.uptime()
        try store.recordFailure(
            id: request.id, nextAttemptAt: now.addingTimeInterval(delay), error: error.description, at: now, uptime: uptime)
        notBefore[request.id] = uptime + delay
        emit(.retryScheduled(request, error))
    }

    private func handleConflict(
        _ request: QueuedRequest, error: NetworkError, report: inout SyncReport
    )
        async throws(StorageError) -> Bool
    {
        let serverBody = error.body ?? .null
        let server = JSONMerge.serverRecord(in: serverBody)
        let local = request.body.flatMap { try? JSONReader().read($0) } ?? .null
        switch strategy {
        case .serverWins:
            try store.remove(id: request.id)
            report.conflictsResolved += 1
            emit(.conflictResolved(request, strategy: .serverWins))
            return true
        case .clientWins, .merge:
            let body =
                strategy == .merge
                ? JSONMerge.merge(local: local, over: server) : JSONMerge.withServerVersion(local, from: server)
            try store.replaceBody(
                id: request.id, with: JSONWriter().data(from: body), idempotencyKey: Self.resolvedKey(request.idempotencyKey))
            guard let updated = try store.request(id: request.id) else { return true }
            report.conflictsResolved += 1
            emit(.conflictResolved(request, strategy: strategy))
            return try await deliverResolved(updated, report: &report)
        case .manual:
            let conflict = SyncConflict(request: request, local: local, server: server, serverBody: serverBody)
            guard let resolver else {
                try store.setStatus(id: request.id, .awaitingDecision)
                report.awaitingDecision += 1
                emit(.awaitingDecision(request))
                return true
            }
            let decision = await resolver.decide(conflict)
            try resolve(request, with: decision, server: server)
            switch decision {
            case .later:
                report.awaitingDecision += 1
                emit(.awaitingDecision(request))
                return true
            case .keepServer:
                report.conflictsResolved += 1
                emit(.conflictResolved(request, strategy: .manual))
                return true
            case .keepLocal, .replace:
                report.conflictsResolved += 1
                emit(.conflictResolved(request, strategy: .manual))
                guard let updated = try store.request(id: request.id) else { return true }
                return try await deliverResolved(updated, report: &report)
            }
        }
    }

    /// Sends a request whose conflict was just resolved; a second 409 leaves it for the next
    /// pass rather than looping.
    private func deliverResolved(_ request: QueuedRequest, report: inout SyncReport) async throws(StorageError) -> Bool {
        let response: APIResponse
        do throws(NetworkError) {
            response = try await client.replay(request)
        } catch {
            try scheduleRetry(request, error: error)
            return false
        }
        try store.remove(id: request.id)
        report.delivered += 1
        emit(.delivered(request, status: response.status))
        return true
    }
}
