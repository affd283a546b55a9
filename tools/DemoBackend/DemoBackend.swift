public import DynamicUICatalog
import DynamicUIModels
import DynamicUIResolvers
public import Foundation
import GRDB

/// The demo backend: the admin and mobile APIs of the EduGo catalog, plus the recorded iTunes
/// responses of the podcast catalog, on two loopback ports. Data lives in SQLite (a file, so
/// changes persist across restarts, or memory for tests), seeded from the catalog.
public final class DemoBackend: @unchecked Sendable {
    /// Switches for tests and demos.
    public struct Faults: Sendable {
        /// Seconds added before every answer.
        public var latency: Double = 0
        /// Share of requests (0…1) answered 503 before doing anything.
        public var failureRate: Double = 0
        /// Creates faults (none by default).
        public init(latency: Double = 0, failureRate: Double = 0) {
            self.latency = latency
            self.failureRate = failureRate
        }
    }

    /// How sessions are issued, how long their tokens last and how wrong passwords are throttled.
    public struct SessionPolicy: Sendable {
        /// Seconds an access token is accepted after it is issued.
        public var accessTokenLifetime: Double
        /// Seconds a refresh token may be exchanged after it is issued.
        public var refreshTokenLifetime: Double
        /// Wrong passwords in a row after which an account's sign-in is locked.
        public var maxFailedSignIns: Int
        /// Seconds a locked account waits before it may sign in again.
        public var signInLockout: Double

        /// A policy (by default: access tokens for 15 minutes, refresh tokens for 30 days, and
        /// 5 wrong passwords in a row lock the account for 5 minutes).
        public init(
            accessTokenLifetime: Double = 900, refreshTokenLifetime: Double = 30 * 86_400, maxFailedSignIns: Int = 5,
            signInLockout: Double = 300
        ) {
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.maxFailedSignIns = maxFailedSignIns
            self.signInLockout = signInLockout
        }
    }

    private var catalog: EduGoCatalog
    private var podcasts: PodcastsCatalog
    private let database: DatabaseQueue
    private var endpoints: JSONObject
    private let lock = NSLock()
    private var faultSettings = Faults()
    private var policy = SessionPolicy()
    private var now: @Sendable () -> Date = { Date() }
    /// Wrong passwords in a row per e-mail, and until when the account is locked.
    private var failedSignIns: [String: (count: Int, lockedUntil: Date?)] = [:]
    private var logging = false
    /// Students' figures computed since the last write, and how many writes there have been
    /// (a figure computed across a write is not kept).
    private var figureCache: (writes: Int, figures: [String: StudentFigures]) = (0, [:])
    private var servers: [LoopbackHTTPServer] = []
    private var ports: (admin: UInt16, mobile: UInt16) = (0, 0)
    /// Every request handled, as `METHOD path` (for tests and the request log).
    public private(set) var log: [String] = []

    /// A backend over the shipped catalogs; `databasePath` `nil` keeps data in memory.
    public init(databasePath: String? = nil, catalog: EduGoCatalog? = nil, podcasts: PodcastsCatalog = PodcastsCatalog()) throws {
        self.catalog = try catalog ?? EduGoCatalog()
        self.podcasts = podcasts
        database = try databasePath.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
        endpoints = try self.catalog.data("endpoints").objectValue ?? [:]
        try migrateAndSeed()
    }

    /// The fault switches.
    public var faults: Faults {
        get { lock.withLock { faultSettings } }
        set { lock.withLock { faultSettings = newValue } }
    }

    /// The session policy.
    public var sessionPolicy: SessionPolicy {
        get { lock.withLock { policy } }
        set { lock.withLock { policy = newValue } }
    }

    /// The backend's clock: token lifetimes and sign-in lockouts are measured on it (tests move
    /// it forward).
    public var clock: @Sendable () -> Date {
        get { lock.withLock { now } }
        set { lock.withLock { now = newValue } }
    }

    /// Whether every mutation the router handles (not one answered from the idempotency store) is
    /// written to the `applied_mutation` table, in the transaction that applies it: method, path,
    /// status, `Idempotency-Key`, record id and body (the fault checker reads it).
    public var logsMutations: Bool {
        get { lock.withLock { logging } }
        set { lock.withLock { logging = newValue } }
    }

    /// The admin API's base URL (after `start`).
    public var adminURL: URL { URL(string: "http://127.0.0.1:\(ports.admin)")! }
    /// The mobile API's base URL (after `start`).
    public var mobileURL: URL { URL(string: "http://127.0.0.1:\(ports.mobile)")! }

    /// Starts both servers (ports 0 pick free ones).
    public func start(adminPort: UInt16 = 0, mobilePort: UInt16 = 0) async throws {
        let admin = try await serve(port: adminPort, api: "admin")
        let mobile = try await serve(port: mobilePort, api: "mobile")
        ports = (admin, mobile)
    }

    /// Stops both servers: clients then see no connection (the "offline" switch).
    public func stop() async {
        for server in servers { await server.stop() }
        servers.removeAll()
    }

    /// Starts again on the same ports ("back online").
    public func restart() async throws {
        try await start(adminPort: ports.admin, mobilePort: ports.mobile)
    }

    private func serve(port: UInt16, api: String) async throws -> UInt16 {
        // The backend keeps its own request log (`log`); the server prints nothing.
        let server = LoopbackHTTPServer { [self] request in await self.handle(request, api: api) }
        let bound = try await server.start(port: port)
        servers.append(server)
        return bound
    }

    // MARK: Storage

    private func migrateAndSeed() throws {
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS record (collection TEXT NOT NULL, id TEXT NOT NULL, position INTEGER NOT NULL,
                        json TEXT NOT NULL, PRIMARY KEY (collection, id));
                    DROP TABLE IF EXISTS idempotency;
                    CREATE TABLE IF NOT EXISTS idempotent_reply (account TEXT NOT NULL, key TEXT NOT NULL,
                        request TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, at DOUBLE NOT NULL,
                        PRIMARY KEY (account, key));
                    DROP TABLE IF EXISTS token;
                    CREATE TABLE IF NOT EXISTS auth_token (token TEXT PRIMARY KEY, email TEXT NOT NULL, kind TEXT NOT NULL,
                        family TEXT NOT NULL, expires_at DOUBLE NOT NULL, used INTEGER NOT NULL DEFAULT 0);
                    CREATE INDEX IF NOT EXISTS auth_token_family ON auth_token (family);
                    CREATE TABLE IF NOT EXISTS applied_mutation (seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        idempotency_key TEXT, method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL,
                        record_id TEXT, body TEXT, at DOUBLE NOT NULL);
                    """)
            let seeded = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0
            guard seeded == 0 else { return }
            for name in try catalog.dataFiles() where !["endpoints", "accounts", "stats_global"].contains(name) {
                guard case .array(let records) = try catalog.data(name) else { continue }
                for (position, record) in records.enumerated() {
                    guard let id = record["id"]?.text else { continue }
                    try db.execute(
                        sql: "INSERT INTO record (collection, id, position, json) VALUES (?, ?, ?, ?)",
                        arguments: [name, id, position, JSONWriter().string(from: record)])
                }
            }
        }
    }

    /// Runs `body` in one SQLite transaction; the backend's reads and writes inside it join it
    /// (a mutation, its idempotency record and its log entry commit together or not at all, and a
    /// duplicate request waits for the first one's answer).
    func atomically<T>(_ body: () throws -> T) throws -> T {
        try write { _ in try body() }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try database.unsafeReentrantRead(body)
    }

    private func write<T>(_ body: (Database) throws -> T) throws -> T {
        try database.unsafeReentrantWrite { db in
            var result: T?
            try db.inSavepoint {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    func logMutation(
        key: String?, method: String, path: String, status: Int, recordId: String?, body: DynamicUIModels.JSONValue?
    ) throws {
        guard logsMutations else { return }
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO applied_mutation (idempotency_key, method, path, status, record_id, body, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    key, method, path, status, recordId, body.map { JSONWriter().string(from: $0) },
                    Date().timeIntervalSince1970,
                ])
        }
    }

    /// The records of `collection` in the order they were added, with the fields computed on
    /// reading (a child's figures, a role's count of users, a school's of units).
    func records(_ collection: String) throws -> [DynamicUIModels.JSONValue] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT json FROM record WHERE collection = ? ORDER BY position", arguments: [collection])
        }.map { try presented(collection, try JSONReader().read($0)) }
    }

    /// Record `id` of `collection`, with the fields computed on reading.
    func record(_ collection: String, id: String) throws -> DynamicUIModels.JSONValue? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT json FROM record WHERE collection = ? AND id = ?", arguments: [collection, id])
        }.map { try presented(collection, try JSONReader().read($0)) }
    }

    /// `value` of `collection` with the fields that sum up other records computed now: a child's
    /// figures from the attempts and progress, a role's users, a school's units, counts in words.
    private func presented(_ collection: String, _ value: DynamicUIModels.JSONValue) throws -> DynamicUIModels.JSONValue {
        switch collection {
        case "children":
            return try StudentFigures.applied(to: value, backend: self)
        case "schools":
            // A school counts its units, and its confirmation of delete says they go with it.
            guard case .object(var object) = value, let id = object["id"]?.stringValue else { return value }
            let units = try records("units").filter { $0["school_id"]?.text == id }.count
            object["unit_count"] = .number(JSONNumber(units))
            object["delete_note"] = .string(Self.deleteNote(units: units))
            return .object(object)
        case "units":
            guard case .object(var object) = value, let shift = object["shift"]?.stringValue else { return value }
            object["shift_label"] = .string(Self.codeLabels["shift"]?[shift] ?? shift)
            return .object(object)
        case "roles", "resources":
            guard case .object(var object) = value else { return value }
            if collection == "roles", let code = object["code"]?.stringValue {
                let users = try records("users").filter { $0["role"]?.text == code }.count
                object["user_count"] = .number(JSONNumber(users))
                object["user_count_label"] = .string(Counted.label(users, "usuario", "usuarios"))
            }
            let permissions = object["permission_count"]?.intValue ?? 0
            object["permission_count_label"] = .string(Counted.label(permissions, "permiso", "permisos"))
            if collection == "roles", let ids = object["permissions"]?.arrayValue {
                // A role's permissions as rows: each one's name and code, in the role's order.
                let known = Dictionary(
                    try records("permissions").compactMap { record in record["id"]?.stringValue.map { ($0, record) } },
                    uniquingKeysWith: { first, _ in first })
                object["permission_items"] = .array(
                    ids.compactMap { $0.stringValue.flatMap { known[$0] } }.map { permission in
                        [
                            "id": permission["id"] ?? .null, "code": permission["code"] ?? .null,
                            "name": permission["name"] ?? .null,
                        ]
                    })
            }
            return .object(object)
        default:
            return value
        }
    }

    func save(_ collection: String, id: String, _ value: DynamicUIModels.JSONValue) throws {
        wrote()
        try write { db in
            let position =
                try Int.fetchOne(
                    db, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM record WHERE collection = ?", arguments: [collection])
                ?? 0
            try db.execute(
                sql: """
                    INSERT INTO record (collection, id, position, json) VALUES (?, ?, ?, ?)
                    ON CONFLICT(collection, id) DO UPDATE SET json = excluded.json
                    """, arguments: [collection, id, position, JSONWriter().string(from: value)])
        }
    }

    /// Records that go with a deleted record, by the field that links them to it: a school's
    /// units and memberships, a unit's memberships, a user's memberships, password and child links.
    static let cascades: [String: [(collection: String, field: String)]] = [
        "schools": [("units", "school_id"), ("memberships", "school_id")],
        "units": [("memberships", "unit_id")],
        "users": [("memberships", "user_id"), ("credentials", "id"), ("children", "id"), ("children", "guardian_id")],
    ]

    /// Deletes record `id` of `collection` and, in the same transaction, the records that go
    /// with it. Whether the record was there.
    func delete(_ collection: String, id: String) throws -> Bool {
        wrote()
        return try write { db in
            try db.execute(sql: "DELETE FROM record WHERE collection = ? AND id = ?", arguments: [collection, id])
            guard db.changesCount > 0 else { return false }
            for (dependent, field) in Self.cascades[collection] ?? [] {
                let ids = try records(dependent).filter { $0[field]?.text == id }.compactMap { $0["id"]?.stringValue }
                for child in ids { _ = try delete(dependent, id: child) }
            }
            return true
        }
    }

    /// A write: the figures computed before it are out of date.
    private func wrote() {
        lock.withLock { figureCache = (figureCache.writes + 1, [:]) }
    }

    /// The figures of student `user`, computed once between two writes (every check of who
    /// may see what reads the children's records).
    func figures(of user: String) throws -> StudentFigures {
        let writes = lock.withLock { figureCache.writes }
        if let known = lock.withLock({ figureCache.figures[user] }) { return known }
        let computed = try StudentFigures.of(user: user, backend: self)
        lock.withLock {
            if figureCache.writes == writes { figureCache.figures[user] = computed }
        }
        return computed
    }

    /// Keeps `password` as the one user `id` signs in with (stored apart from the user record,
    /// which every admin reads).
    func setPassword(_ password: String, forUser id: String) throws {
        try save("credentials", id: id, ["id": .string(id), "password": .string(password)])
    }

    /// The accounts that may sign in: the catalog's, and every user given a password since, with
    /// the context a session carries (role, school).
    func accounts() throws -> [DynamicUIModels.JSONValue] {
        var accounts = try edugo.data("accounts").arrayValue ?? []
        for credential in try records("credentials") {
            guard let id = credential["id"]?.stringValue, let user = try record("users", id: id) else { continue }
            var account: JSONObject = [
                "id": .string("acc-\(id)"), "user_id": .string(id), "password": credential["password"] ?? .null,
            ]
            for key in ["email", "first_name", "last_name", "full_name", "role", "role_name", "school_id", "school_name"] {
                account[key] = user[key]
            }
            // A user's own password comes before a catalog account of the same e-mail.
            accounts.insert(.object(account), at: 0)
        }
        return accounts
    }

    // MARK: Requests

    struct Reply {
        var status: Int
        var body: DynamicUIModels.JSONValue?
        var headers: [String: String] = [:]
        /// Seconds the reply waits before it is sent (an endpoint's `latency_ms`: a slow section).
        var delay: Double = 0
    }

    /// Whether a `Host` header names this machine's loopback (any port: a proxy in between
    /// keeps its own). A page that resolves a name of its own to 127.0.0.1 (DNS rebinding)
    /// names that, and is refused; a request without the header is no browser's.
    static func isLoopback(host: String?) -> Bool {
        guard let host = host?.lowercased() else { return true }
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
        return ["127.0.0.1", "localhost", "[::1]"].contains(name)
    }

    /// Answers `request` as the `api` server (`mobile` or `admin`) would: the web preview serves
    /// both APIs under its own address this way, for an app that follows it.
    public func respond(to request: LoopbackRequest, api: String) async -> LoopbackResponse {
        await handle(request, api: api == "admin" ? "admin" : "mobile")
    }

    private func handle(_ request: LoopbackRequest, api: String) async -> LoopbackResponse {
        guard Self.isLoopback(host: request.header("Host")) else {
            return response(Reply(status: 421, body: ["error": "misdirected_request", "message": "Use 127.0.0.1 or localhost"]))
        }
        let faults = self.faults
        if faults.latency > 0 { try? await Task.sleep(nanoseconds: WireNumber.sleepNanoseconds(seconds: faults.latency)) }
        let path = request.path.removingPercentEncoding ?? request.path
        lock.withLock { log.append("\(request.method) \(api):\(path)") }
        if faults.failureRate > 0, Double.random(in: 0..<1) < faults.failureRate {
            return response(Reply(status: 503, body: ["error": "service unavailable"], headers: ["Retry-After": "0"]))
        }
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        let body: DynamicUIModels.JSONValue?
        do {
            body = request.body.isEmpty ? nil : try JSONReader().read([UInt8](request.body))
        } catch {
            return response(Reply(status: 400, body: ["error": .string("invalid request body: \(error)")]))
        }
        // Routed on the path as sent: an encoded `/` in a parameter (`mat-002%2Fassessment`)
        // stays inside its segment, decoded once when the segment is read, and can never change
        // which endpoint answers.
        let reply = DemoRouter(
            backend: self, api: api, method: request.method, path: Self.routedPath(request.path), query: query,
            headers: request.headers, body: body
        )
        .route()
        if reply.delay > 0 { try? await Task.sleep(nanoseconds: WireNumber.sleepNanoseconds(seconds: reply.delay)) }
        return response(reply)
    }

    /// The path the router matches: as sent, except that characters a client may encode in a
    /// literal segment (letters, digits, `-`, `.`, `_`, `~`) are decoded; an encoded `/`, `%`,
    /// `?` or `#` stays encoded inside its segment.
    static func routedPath(_ raw: String) -> String {
        var result = ""
        var index = raw.startIndex
        while index < raw.endIndex {
            let character = raw[index]
            if character == "%", let end = raw.index(index, offsetBy: 3, limitedBy: raw.endIndex),
                let byte = UInt8(raw[raw.index(after: index)..<end], radix: 16),
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            {
                result.append(Character(UnicodeScalar(byte)))
                index = end
            } else {
                result.append(character)
                index = raw.index(after: index)
            }
        }
        return result
    }

    private func response(_ reply: Reply) -> LoopbackResponse {
        var headers = [(name: "Content-Type", value: "application/json; charset=utf-8")]
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) { headers.append((name, value)) }
        return LoopbackResponse(
            status: reply.status, headers: headers, body: reply.body.map { JSONWriter().bytes(from: $0) } ?? [])
    }

    // MARK: Catalog access for the router

    var edugo: EduGoCatalog { lock.withLock { catalog } }
    /// The podcast catalog whose recordings are served.
    public var podcastCatalog: PodcastsCatalog { lock.withLock { podcasts } }
    var endpointTable: JSONObject { lock.withLock { endpoints } }

    /// Serves `catalog`'s screens, templates, navigation and endpoint table from now on (live
    /// reload); the demo data seeded at start stays.
    public func replaceCatalog(_ catalog: EduGoCatalog) throws {
        let endpoints = try catalog.data("endpoints").objectValue ?? [:]
        lock.withLock {
            self.catalog = catalog
            self.endpoints = endpoints
        }
    }

    /// Serves `podcasts`' documents and recordings from now on (live reload).
    public func replacePodcasts(_ podcasts: PodcastsCatalog) {
        lock.withLock { self.podcasts = podcasts }
    }

    /// How long a stored reply answers a retry of its request (the SDK gives up on a queued
    /// request after a day).
    static let idempotencyWindow: Double = 86_400

    /// The reply stored for `account`'s request under `key` in the last day, with the request it
    /// answered (`METHOD api:path body-fingerprint`).
    func idempotent(account: String, key: String) throws -> (request: String, reply: Reply)? {
        let since = clock().timeIntervalSince1970 - Self.idempotencyWindow
        return try read { db in
            try Row.fetchOne(
                db, sql: "SELECT request, status, body FROM idempotent_reply WHERE account = ? AND key = ? AND at > ?",
                arguments: [account, key, since])
        }.map { row in
            (row["request"], Reply(status: row["status"], body: try? JSONReader().read(row["body"] as String)))
        }
    }

    /// Stores `reply` as the answer to `account`'s `request` under `key`; replies older than the
    /// window are dropped.
    func remember(account: String, key: String, request: String, _ reply: Reply) throws {
        let now = clock().timeIntervalSince1970
        try write { db in
            try db.execute(sql: "DELETE FROM idempotent_reply WHERE at <= ?", arguments: [now - Self.idempotencyWindow])
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO idempotent_reply (account, key, request, status, body, at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [account, key, request, reply.status, JSONWriter().string(from: reply.body ?? .null), now])
        }
    }

    // MARK: Sessions

    /// Issues an access and a refresh token for `email` in the session `family` (a new session
    /// when `nil`); tokens past their lifetime are dropped.
    func issueTokens(for email: String, family: String?) throws -> (access: String, refresh: String) {
        let (policy, now) = lock.withLock { (self.policy, self.now().timeIntervalSince1970) }
        let family = family ?? UUID().uuidString
        let access = "access-\(UUID().uuidString)"
        let refresh = "refresh-\(UUID().uuidString)"
        try write { db in
            try db.execute(sql: "DELETE FROM auth_token WHERE expires_at <= ?", arguments: [now])
            for (token, kind, lifetime) in [
                (access, "access", policy.accessTokenLifetime), (refresh, "refresh", policy.refreshTokenLifetime),
            ] {
                try db.execute(
                    sql: "INSERT INTO auth_token (token, email, kind, family, expires_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [token, email, kind, family, now + lifetime])
            }
        }
        return (access, refresh)
    }

    /// The e-mail of the account an access token signs in, while the token is current.
    func email(forAccessToken token: String) throws -> String? {
        let now = clock().timeIntervalSince1970
        return try read { db in
            try String.fetchOne(
                db, sql: "SELECT email FROM auth_token WHERE token = ? AND kind = 'access' AND expires_at > ?",
                arguments: [token, now])
        }
    }

    /// Exchanges a refresh token, which works once: the account and session it belongs to, or
    /// `nil`. A token used before is someone's copy: its whole session ends.
    func redeem(refreshToken token: String) throws -> (email: String, family: String)? {
        let now = clock().timeIntervalSince1970
        return try write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT email, family, expires_at, used FROM auth_token WHERE token = ? AND kind = 'refresh'",
                    arguments: [token])
            else { return nil }
            let family: String = row["family"]
            if (row["used"] as Int) != 0 {
                try db.execute(sql: "DELETE FROM auth_token WHERE family = ?", arguments: [family])
                return nil
            }
            guard (row["expires_at"] as Double) > now else { return nil }
            try db.execute(sql: "UPDATE auth_token SET used = 1 WHERE token = ?", arguments: [token])
            return (row["email"], family)
        }
    }

    /// Ends the session `token` (an access or refresh token, current or not) belongs to: every
    /// token issued in it stops working.
    func endSession(of token: String) throws {
        try write { db in
            try db.execute(
                sql: "DELETE FROM auth_token WHERE family IN (SELECT family FROM auth_token WHERE token = ?)",
                arguments: [token])
        }
    }

    /// Until when sign-in to `email` is locked, if it is now.
    func signInLockedUntil(_ email: String) -> Date? {
        lock.withLock {
            guard let until = failedSignIns[email]?.lockedUntil, until > now() else { return nil }
            return until
        }
    }

    /// A wrong password for `email`: the last one allowed in a row locks the account.
    func signInFailed(_ email: String) {
        lock.withLock {
            // Bounded: past 10,000 e-mails, those not locked now are forgotten.
            if failedSignIns.count >= 10_000 {
                let current = now()
                failedSignIns = failedSignIns.filter { ($0.value.lockedUntil ?? .distantPast) > current }
            }
            var entry = failedSignIns[email] ?? (0, nil)
            entry.count += 1
            if entry.count >= policy.maxFailedSignIns {
                entry = (0, now().addingTimeInterval(policy.signInLockout))
            }
            failedSignIns[email] = entry
        }
    }

    /// A successful sign-in: the count of wrong passwords starts again.
    func signInSucceeded(_ email: String) {
        _ = lock.withLock { failedSignIns.removeValue(forKey: email) }
    }
}

/// A demo backend failure.
enum DemoError: Error {
    case message(String)
}
