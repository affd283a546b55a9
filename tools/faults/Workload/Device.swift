import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import Foundation
import Logging

/// How the workload's clients are configured (the same numbers go to the checker, which derives
/// its bounds from them).
enum Settings {
    /// Seconds before a request times out.
    static let timeout: Double = 4
    /// Online retries after the first attempt.
    static let retries = 2
    /// The longest `Retry-After` an online request waits for.
    static let maxRetryAfter: Double = 5
    /// The longest a screen load may take before it counts as stuck: every attempt of both
    /// requests timing out, and every wait between them as long as allowed, plus two seconds.
    static let loadBudget = 2 * (Double(retries + 1) * timeout + Double(retries) * maxRetryAfter) + 2
    /// The offline queue's capacity: a change beyond it is refused with a typed error.
    static let queueCapacity = 1_000
    /// The response cache's byte limit.
    static let cacheBytes = 256 << 10
    /// The response cache's entry limit.
    static let cacheEntries = 24
    /// The account every simulated user signs in with.
    static let email = "docente@edugo.test"
    /// Its password.
    static let password = "edugo123"
}

/// One simulated user on one device: its own SQLite offline queue, response cache, token and
/// journal, going offline and online, creating, editing and deleting its own materials and
/// loading screens, through the SDK's `APIClient`, `URLSessionTransport` and `OfflineQueue`.
actor Device {
    let name: String
    let journal: Journal
    let client: APIClient
    let queue: OfflineQueue
    let store: OfflineQueueStore
    let cache: ResponseCache
    let radio: Switch
    let tokens = InMemoryTokenStore()
    let clock: SkewedClock
    let strategy: ConflictStrategy
    private var random: SeededRandom
    private var nextOp: Int
    /// Records seen in this user's list: id → version.
    private var known: [String: Int] = [:]
    /// Records this user has deleted (never edited again).
    private var deleted: Set<String>
    private let skewClock: Bool
    /// Where the device's clock offset is kept: the device's clock does not change because the
    /// app was killed.
    private let skewFile: URL

    /// The conflict strategy of the user at `index` (users differ, so each strategy is exercised).
    static func strategy(_ index: Int) -> ConflictStrategy {
        [.clientWins, .merge, .serverWins][index % 3]
    }

    static func strategyName(_ strategy: ConflictStrategy) -> String {
        switch strategy {
        case .serverWins: "serverWins"
        case .clientWins: "clientWins"
        case .merge: "merge"
        case .manual: "manual"
        }
    }

    init(index: Int, state: URL, base: URL, seed: UInt64, session: String, skewClock: Bool) throws {
        name = "u\(index)"
        let journalPath = state.appending(path: "\(name).journal").path
        let history = Journal.read(path: journalPath)
        journal = Journal(path: journalPath, session: session)
        nextOp = (history.compactMap { $0["op"]?.intValue }.max() ?? 0) + 1
        deleted = Set(
            history.filter { $0["ev"]?.stringValue == "intent" && $0["kind"]?.stringValue == "delete" }
                .compactMap { $0["record"]?.stringValue })
        random = SeededRandom(seed: seed &+ UInt64(index) &* 7919 &+ UInt64(nextOp))
        clock = SkewedClock()
        skewFile = state.appending(path: "\(name).skew")
        clock.offset = (try? String(contentsOf: skewFile, encoding: .utf8)).flatMap { Double($0) } ?? 0
        self.skewClock = skewClock
        radio = Switch()
        store = try OfflineQueueStore(
            path: state.appending(path: "\(name).queue.sqlite").path, capacity: Settings.queueCapacity)
        cache = ResponseCache(
            defaultTTL: 5, maxEntries: Settings.cacheEntries, maxBytes: Settings.cacheBytes,
            directory: state.appending(path: "\(name).cache"), clock: clock)
        var logger = Logger(label: "fault-workload.\(name)")
        logger.logLevel = .critical
        client = APIClient(
            configuration: APIConfiguration(
                adminBaseURL: base, mobileBaseURL: base, allowInsecureLoopback: true, timeout: Settings.timeout,
                retryPolicy: RetryPolicy(
                    maxRetries: Settings.retries, baseDelay: 0.3, multiplier: 2, jitter: 0.2, maxDelay: 3,
                    maxRetryAfter: Settings.maxRetryAfter)),
            transport: Radio(state: radio, transport: URLSessionTransport()), tokens: tokens, cache: cache,
            queue: store, clock: clock, logger: logger)
        strategy = Self.strategy(index)
        queue = OfflineQueue(
            store: store, client: client, strategy: strategy,
            backoff: RetryPolicy(maxRetries: .max, baseDelay: 0.5, multiplier: 2, jitter: 0.2, maxDelay: 8), clock: clock,
            logger: logger)
    }

    // MARK: Running

    /// Signs in (retrying until the backend answers), then listens to the queue's events.
    func start() async {
        journal.write("start", ["strategy": .string(Self.strategyName(strategy))])
        let events = await queue.events()
        Task { [journal] in
            for await event in events { Self.record(event, in: journal) }
        }
        await signIn()
    }

    private func signIn() async {
        while true {
            do {
                let response = try await client.send(
                    APIRequest(
                        .post, "mobile:/v1/auth/login",
                        body: ["email": .string(Settings.email), "password": .string(Settings.password)],
                        authenticated: false, queueWhenOffline: false))
                let json = try response.json()
                if let access = json["access_token"]?.stringValue {
                    await tokens.save(AuthTokens(accessToken: access, refreshToken: json["refresh_token"]?.stringValue))
                    return
                }
            } catch {
                try? await Task.sleep(nanoseconds: 300_000_000)
            }
        }
    }

    private static func record(_ event: OfflineQueueEvent, in journal: Journal) {
        switch event {
        case .delivered(let request, let status):
            journal.write("delivered", ["key": .string(request.idempotencyKey), "status": .number(JSONNumber(status))])
        case .conflictResolved(let request, let strategy):
            journal.write(
                "conflict", ["key": .string(request.idempotencyKey), "strategy": .string(strategyName(strategy))])
        case .awaitingDecision(let request):
            journal.write("awaiting", ["key": .string(request.idempotencyKey)])
        case .rejected(let request, let error):
            journal.write(
                "rejected",
                ["key": .string(request.idempotencyKey), "status": error.status.map { .number(JSONNumber($0)) } ?? .null])
        case .expired(let request):
            journal.write("expired", ["key": .string(request.idempotencyKey)])
        case .retryScheduled(let request, let error):
            journal.write(
                "retry",
                [
                    "key": .string(request.idempotencyKey), "code": .string(error.code.description),
                    "retry_after": error.retryAfter.map { .number(JSONNumber($0)) } ?? .null,
                ])
        }
    }
}

// MARK: - What a user does

extension Device {
    /// Acts until `deadline` (or until the process is killed): goes offline and back, loads
    /// screens, creates, edits and deletes, while a background loop syncs the queue.
    func run(until deadline: Date) async {
        let sync = Task { await self.syncLoop(until: deadline) }
        let gauges = Task { await self.gaugeLoop(until: deadline) }
        var offlineUntil: Date?
        var lastSkewChange = Date()
        while Date() < deadline {
            if let until = offlineUntil, Date() >= until {
                radio.isOn = false
                offlineUntil = nil
                journal.write("online")
            } else if offlineUntil == nil, chance(0.03) {
                radio.isOn = true
                offlineUntil = Date().addingTimeInterval(Double.random(in: 2...12, using: &random))
                journal.write("offline")
            }
            if skewClock, Date().timeIntervalSince(lastSkewChange) > 8 {
                lastSkewChange = Date()
                // Jumps of up to two hours either way; one time in three back to the right time.
                clock.offset = chance(0.33) ? 0 : Double.random(in: -7200...7200, using: &random)
                try? String(clock.offset).write(to: skewFile, atomically: true, encoding: .utf8)
                journal.write("skew", ["offset": .number(JSONNumber(clock.offset.rounded()))])
            }
            let roll = Double.random(in: 0..<1, using: &random)
            switch roll {
            case ..<0.25: await loadScreen()
            case ..<0.5: await create()
            case ..<0.85: await edit()
            default: await delete()
            }
            try? await Task.sleep(nanoseconds: UInt64.random(in: 50_000_000...400_000_000, using: &random))
        }
        sync.cancel()
        gauges.cancel()
        radio.isOn = false
    }

    /// Delivers the whole queue with every fault healed: online, the right time, until it is
    /// empty or `timeout` passes. Returns the requests left.
    func heal(timeout: Double) async -> Int {
        radio.isOn = false
        clock.offset = 0
        try? "0".write(to: skewFile, atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(timeout)
        var remaining = (try? store.count()) ?? -1
        while Date() < deadline {
            await queue.process()
            remaining = (try? store.count()) ?? -1
            if remaining == 0 { break }
            try? await Task.sleep(nanoseconds: 500_000_000)
        }
        await gauge()
        journal.write("healed", ["remaining": .number(JSONNumber(remaining))])
        return remaining
    }

    private func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    private func syncLoop(until deadline: Date) async {
        while !Task.isCancelled, Date() < deadline {
            if !radio.isOn { await queue.process() }
            try? await Task.sleep(nanoseconds: 700_000_000)
        }
    }

    private func gaugeLoop(until deadline: Date) async {
        while !Task.isCancelled, Date() < deadline {
            await gauge()
            try? await Task.sleep(nanoseconds: 5_000_000_000)
        }
    }

    private func gauge() async {
        journal.write(
            "gauge",
            [
                "queue": .number(JSONNumber((try? store.count()) ?? -1)),
                "cache_bytes": .number(JSONNumber(await cache.totalBytes)),
                "cache_entries": .number(JSONNumber(await cache.count)),
                "rss_mb": .number(JSONNumber(residentMegabytes().rounded())),
            ])
    }

    // MARK: Screen loads

    /// Loads the materials list screen: its definition and its data, both through the client,
    /// against a stopwatch. Ends in content or a typed error; past the budget it is stuck.
    private func loadScreen() async {
        let started = Date()
        let marker = "fw-\(name)-"
        let client = self.client
        let outcome = await withTaskGroup(of: JSONObject?.self) { group -> JSONObject in
            group.addTask {
                do throws(NetworkError) {
                    _ = try await client.send(APIRequest(.get, "mobile:/v1/screens/materials-list")).json()
                    let list = try await client.send(
                        APIRequest(.get, "mobile:/v1/materials", query: [("q", marker), ("limit", "100")])
                    ).json()
                    var records: JSONObject = [:]
                    for record in list["data"]?.arrayValue ?? [] {
                        if let id = record["id"]?.stringValue { records[id] = record["version"] ?? 1 }
                    }
                    return ["outcome": "content", "records": .object(records)]
                } catch {
                    return ["outcome": "error", "code": .string(error.code.description)]
                }
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(Settings.loadBudget * 1e9))
                return nil
            }
            let first = await group.next()!
            if let first {
                group.cancelAll()
                return first
            }
            // The stopwatch ran out first: a spinner still turning. Wait for the load anyway.
            var late = await group.next()! ?? [:]
            late["stuck"] = true
            return late
        }
        let seconds = Date().timeIntervalSince(started)
        var fields: JSONObject = [:]
        fields["outcome"] = outcome["outcome"] ?? .string("none")
        fields["secs"] = .number(JSONNumber(seconds))
        fields["code"] = outcome["code"]
        fields["stuck"] = outcome["stuck"]
        journal.write("load", fields)
        if let records = outcome["records"]?.objectValue {
            known = [:]
            for (id, version) in records where !deleted.contains(id) { known[id] = version.intValue ?? 1 }
        }
    }

    // MARK: Mutations

    private func takeOp() -> (Int, String) {
        let op = nextOp
        nextOp += 1
        return (op, "\(name)-op\(op)")
    }

    private func create() async {
        if known.count > 40 { return await delete() }
        let (op, key) = takeOp()
        let title = "fw-\(name)- op \(op)"
        journal.write(
            "intent", ["op": .number(JSONNumber(op)), "key": .string(key), "kind": "create", "title": .string(title)])
        let body: JSONValue = [
            "title": .string(title), "subject": "Matemáticas", "status": "borrador", "fw_op": .number(JSONNumber(op)),
            "fw_user": .string(name),
        ]
        await send(APIRequest(.post, "mobile:/v1/materials", body: body, idempotencyKey: key), op: op, key: key)
    }

    private func edit() async {
        guard let (id, version) = known.randomElement(using: &random) else { return await create() }
        let (op, key) = takeOp()
        let title = "fw-\(name)- op \(op)"
        journal.write(
            "intent",
            [
                "op": .number(JSONNumber(op)), "key": .string(key), "kind": "edit", "record": .string(id),
                "title": .string(title),
            ])
        var body: JSONObject = ["title": .string(title), "fw_op": .number(JSONNumber(op))]
        // Half the edits say which version they change: a stale one is a conflict.
        if chance(0.5) { body["version"] = .number(JSONNumber(version)) }
        await send(
            APIRequest(.put, "mobile:/v1/materials/{id}", pathParameters: ["id": id], body: .object(body), idempotencyKey: key),
            op: op, key: key)
    }

    private func delete() async {
        guard let id = known.keys.randomElement(using: &random) else { return }
        let (op, key) = takeOp()
        journal.write(
            "intent", ["op": .number(JSONNumber(op)), "key": .string(key), "kind": "delete", "record": .string(id)])
        known[id] = nil
        deleted.insert(id)
        await send(
            APIRequest(.delete, "mobile:/v1/materials/{id}", pathParameters: ["id": id], idempotencyKey: key), op: op,
            key: key)
    }

    /// Sends a mutation and journals what the app was told: applied (2xx), queued (it will be
    /// delivered: acknowledged too), or a typed error (not acknowledged).
    private func send(_ request: APIRequest, op: Int, key: String) async {
        do {
            let response = try await client.send(request)
            let json = try? response.json()
            var fields: JSONObject = [
                "op": .number(JSONNumber(op)), "key": .string(key), "how": "applied",
                "status": .number(JSONNumber(response.status)),
            ]
            if let id = json?["id"]?.stringValue {
                fields["record"] = .string(id)
                if !deleted.contains(id) { known[id] = json?["version"]?.intValue ?? 1 }
            }
            journal.write("ack", fields)
        } catch {
            if let queued = error.queuedRequest {
                journal.write(
                    "ack",
                    [
                        "op": .number(JSONNumber(op)), "key": .string(key), "how": "queued",
                        "queue_id": .number(JSONNumber(Int(queued.id))), "code": .string(error.code.description),
                    ])
            } else {
                journal.write(
                    "fail",
                    [
                        "op": .number(JSONNumber(op)), "key": .string(key), "code": .string(error.code.description),
                        "status": error.status.map { .number(JSONNumber($0)) } ?? .null,
                    ])
            }
        }
    }
}
