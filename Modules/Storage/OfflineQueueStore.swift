import DynamicUIModels
public import Foundation
internal import GRDB

/// A mutating request waiting to be delivered.
public struct QueuedRequest: Sendable, Hashable, Identifiable {
    /// Where it stands.
    public enum Status: String, Sendable, Hashable {
        /// Waiting for delivery.
        case pending
        /// Answered 409 with the `manual` strategy; waiting for the host's decision.
        case awaitingDecision = "awaiting_decision"
    }

    /// Position in the queue (delivery order).
    public let id: Int64
    /// Sent as `Idempotency-Key` on every attempt, so the server applies it at most once.
    public let idempotencyKey: String
    /// HTTP method.
    public let method: String
    /// Absolute URL.
    public let url: String
    /// Headers, without credentials (the token is added when the request is replayed).
    public let headers: [String: String]
    /// Request body.
    public let body: Data?
    /// When it was queued.
    public let createdAt: Date
    /// Failed delivery attempts so far.
    public let attempts: Int
    /// Not retried before this time.
    public let nextAttemptAt: Date
    /// When the wait until `nextAttemptAt` began (the last failed attempt; the creation time
    /// before any). A device clock now earlier than this went back, and the wait is over.
    public let scheduledAt: Date
    /// The device's uptime (the clock's `uptime()`) when that wait began, when it was recorded:
    /// a later process of the same boot measures the wait on it, so a wall clock changed since
    /// (even forward) neither cuts it short nor stretches it.
    public let scheduledUptime: Double?
    /// Where it stands.
    public let status: Status
    /// The last delivery error.
    public let lastError: String?
}

/// What to queue: a mutating request.
public struct NewQueuedRequest: Sendable, Hashable {
    /// HTTP method (`POST`, `PUT`, `PATCH`, `DELETE`).
    public var method: String
    /// Absolute URL.
    public var url: String
    /// Headers; credentials are removed before storing.
    public var headers: [String: String]
    /// Request body.
    public var body: Data?
    /// The idempotency key.
    public var idempotencyKey: String

    /// Creates a request to queue.
    public init(method: String, url: String, headers: [String: String] = [:], body: Data? = nil, idempotencyKey: String) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.idempotencyKey = idempotencyKey
    }
}

/// The durable offline queue (DESIGN rule 7) in SQLite through GRDB, with `synchronous=FULL`:
/// when `enqueue` returns, the request is on disk. Ordered ids, a unique idempotency key,
/// attempts, next-attempt time, creation time and status. Credentials are never stored.
public final class OfflineQueueStore: Sendable {
    private let database: DatabaseQueue
    private let ownerBox = LockedValue<String?>(nil)
    /// Where the database lives (`nil` in memory).
    public let path: String?
    /// The most changes the queue holds (at least 1): one more is refused with a `.full`
    /// error, so a device that stays offline, or a server that keeps refusing, cannot fill the
    /// disk; the app tells the user instead of promising a delivery.
    public let capacity: Int

    /// The capacity a queue has unless told otherwise.
    public static let defaultCapacity = 10_000

    /// Header names that are never written to the queue.
    public static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization", "x-api-key"]

    /// Opens (creating and migrating) the queue at `path`, holding at most `capacity` changes.
    public init(path: String, capacity: Int = OfflineQueueStore.defaultCapacity) throws(StorageError) {
        self.path = path
        self.capacity = max(1, capacity)
        do {
            // The folder may not exist yet (iOS creates no Application Support folder for an app).
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Queued bodies are the user's data: protected while the device is locked after a
            // restart, and never in a backup (the database and its journal files alike).
            ProtectedFiles.protect(folder)
            database = try DatabaseQueue(path: path, configuration: Self.configuration())
            try Self.migrate(database)
            for suffix in ["", "-wal", "-shm", "-journal"] { ProtectedFiles.protect(URL(fileURLWithPath: path + suffix)) }
        } catch {
            throw StorageError(.database, "cannot open the offline queue at \(path): \(error)")
        }
    }

    /// An in-memory queue, for tests and previews.
    public init(capacity: Int = OfflineQueueStore.defaultCapacity) throws(StorageError) {
        self.path = nil
        self.capacity = max(1, capacity)
        do {
            database = try DatabaseQueue(configuration: Self.configuration())
            try Self.migrate(database)
        } catch {
            throw StorageError(.database, "cannot create an in-memory offline queue: \(error)")
        }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A delivered change's bytes are overwritten, not left in free pages of the file.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return configuration
    }

    private static func migrate(_ database: DatabaseQueue) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE queued_request (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        idempotency_key TEXT NOT NULL UNIQUE,
                        method TEXT NOT NULL,
                        url TEXT NOT NULL,
                        headers TEXT NOT NULL,
                        body BLOB,
                        created_at DOUBLE NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_at DOUBLE NOT NULL,
                        status TEXT NOT NULL DEFAULT 'pending',
                        last_error TEXT
                    )
                    """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE queued_request ADD COLUMN scheduled_at DOUBLE")
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "ALTER TABLE queued_request ADD COLUMN scheduled_uptime DOUBLE")
        }
        migrator.registerMigration("v4") { db in
            // The account that made each change: it is only ever sent with that account's credentials.
            try db.execute(sql: "ALTER TABLE queued_request ADD COLUMN owner TEXT")
        }
        try migrator.migrate(database)
    }

    /// The account whose changes are queued and delivered now (`nil`: nobody is signed in).
    /// Changes are stamped with it when queued, and `pending()`, `all()` and `count()` see only
    /// its changes: another account's are never replayed with this one's credentials.
    public var owner: String? { ownerBox.value }

    /// Sets the account whose changes are queued and delivered (at sign-in; `nil` at sign-out).
    public func setOwner(_ account: String?) { ownerBox.value = account }

    /// Removes and returns every change of `account` (its session ended with them undelivered).
    public func removeAll(ownedBy account: String?) throws(StorageError) -> [QueuedRequest] {
        try write { db in
            let removed = try Row.fetchAll(
                db, sql: "SELECT * FROM queued_request WHERE owner IS ? ORDER BY id", arguments: [account]
            ).map(Self.request(from:))
            try db.execute(sql: "DELETE FROM queued_request WHERE owner IS ?", arguments: [account])
            return removed
        }
    }

    /// Durably appends `request` (credentials removed) and returns it as stored. Queuing the same
    /// idempotency key twice returns the existing entry; a new one when the queue holds
    /// `capacity` changes is refused with a `.full` error and nothing is stored.
    @discardableResult
    public func enqueue(_ request: NewQueuedRequest, at date: Date) throws(StorageError) -> QueuedRequest {
        let method = request.method.uppercased()
        guard ["POST", "PUT", "PATCH", "DELETE"].contains(method) else {
            throw StorageError(.invalidRequest, "only mutating requests are queued, not \(method)")
        }
        if let body = request.body, Self.carriesSecret(body) {
            // A password (a sign-up, a password change) is never written to the disk in clear:
            // such a request is sent now or not at all.
            throw StorageError(.invalidRequest, "a request carrying a password or secret is not queued")
        }
        let headers = Self.withoutCredentials(request.headers)
        let owner = self.owner
        let headerText = JSONWriter(sortedKeys: true).string(
            from: .object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })))
        let url = Self.withoutCredentials(url: request.url)
        let capacity = self.capacity
        do {
            return try database.write { db in
                let existing = try Row.fetchOne(
                    db, sql: "SELECT * FROM queued_request WHERE idempotency_key = ?", arguments: [request.idempotencyKey])
                if let existing { return Self.request(from: existing) }
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM queued_request") ?? 0
                guard count < capacity else {
                    throw StorageError(.full, "the offline queue holds its limit of \(capacity) changes")
                }
                try db.execute(
                    sql: """
                        INSERT INTO queued_request (idempotency_key, method, url, headers, body, created_at, next_attempt_at,
                        owner)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(idempotency_key) DO NOTHING
                        """,
                    arguments: [
                        request.idempotencyKey, method, url, headerText, request.body, date.timeIntervalSince1970,
                        date.timeIntervalSince1970, owner,
                    ])
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM queued_request WHERE idempotency_key = ?", arguments: [request.idempotencyKey])
                return Self.request(from: row!)
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.database, "cannot enqueue: \(error)")
        }
    }

    /// Every queued request of the current `owner`, in delivery order.
    public func all() throws(StorageError) -> [QueuedRequest] {
        let owner = self.owner
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM queued_request WHERE owner IS ? ORDER BY id", arguments: [owner]).map(
                Self.request(from:))
        }
    }

    /// The requests of the current `owner` with status `pending`, in delivery order.
    public func pending() throws(StorageError) -> [QueuedRequest] {
        let owner = self.owner
        return try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM queued_request WHERE status = 'pending' AND owner IS ? ORDER BY id", arguments: [owner]
            ).map(Self.request(from:))
        }
    }

    /// The request with `id`.
    public func request(id: Int64) throws(StorageError) -> QueuedRequest? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM queued_request WHERE id = ?", arguments: [id]).map(Self.request(from:))
        }
    }

    /// Number of queued requests of the current `owner`.
    public func count() throws(StorageError) -> Int {
        let owner = self.owner
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM queued_request WHERE owner IS ?", arguments: [owner]) ?? 0
        }
    }

    /// Whether a JSON body names a password or another secret (`password`, `secret`,
    /// `new_password`, …) at any depth.
    static func carriesSecret(_ body: Data) -> Bool {
        guard let json = try? JSONReader().read(body) else { return false }
        func walk(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let object):
                return object.contains { key, value in
                    let name = key.lowercased()
                    return name.contains("password") || name.contains("secret") || walk(value)
                }
            case .array(let values): return values.contains(where: walk)
            default: return false
            }
        }
        return walk(json)
    }

    /// Records a failed attempt at `date` and when to try again.
    public func recordFailure(
        id: Int64, nextAttemptAt: Date, error: String, at date: Date? = nil, uptime: Double? = nil
    ) throws(StorageError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE queued_request SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, scheduled_at = ?,
                    scheduled_uptime = ?
                    WHERE id = ?
                    """,
                arguments: [nextAttemptAt.timeIntervalSince1970, error, date?.timeIntervalSince1970, uptime, id])
        }
    }

    /// Sets the status of a request.
    public func setStatus(id: Int64, _ status: QueuedRequest.Status) throws(StorageError) {
        try write { db in
            try db.execute(sql: "UPDATE queued_request SET status = ? WHERE id = ?", arguments: [status.rawValue, id])
        }
    }

    /// Replaces the body (a resolved conflict) and makes the request pending again; with
    /// `idempotencyKey`, under that new key too (a different body is a different request: a server
    /// answers a key it has seen with its first answer), in the same transaction.
    public func replaceBody(id: Int64, with body: Data?, idempotencyKey: String? = nil) throws(StorageError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE queued_request SET body = ?, status = 'pending', idempotency_key = COALESCE(?, idempotency_key)
                    WHERE id = ?
                    """, arguments: [body, idempotencyKey, id])
        }
    }

    /// Removes a delivered (or abandoned) request.
    public func remove(id: Int64) throws(StorageError) {
        try write { db in try db.execute(sql: "DELETE FROM queued_request WHERE id = ?", arguments: [id]) }
    }

    /// Removes and returns every request queued before `date`.
    public func removeCreated(before date: Date) throws(StorageError) -> [QueuedRequest] {
        try write { db in
            let expired = try Row.fetchAll(
                db, sql: "SELECT * FROM queued_request WHERE created_at < ? ORDER BY id", arguments: [date.timeIntervalSince1970]
            ).map(Self.request(from:))
            try db.execute(sql: "DELETE FROM queued_request WHERE created_at < ?", arguments: [date.timeIntervalSince1970])
            return expired
        }
    }

    /// Whether removed changes are overwritten on disk (`PRAGMA secure_delete`), as they are.
    public func erasesRemovedChanges() throws(StorageError) -> Bool {
        try read { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") == 1 }
    }

    /// Whether SQLite's `PRAGMA integrity_check` reports `ok`.
    public func integrityCheck() throws(StorageError) -> Bool {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok" }
    }

    // MARK: Helpers

    private func read<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw StorageError(.database, "\(error)")
        }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw StorageError(.database, "\(error)")
        }
    }

    /// `headers` without credential headers (any name containing `token` included).
    public static func withoutCredentials(_ headers: [String: String]) -> [String: String] {
        headers.filter { key, _ in
            let name = key.lowercased()
            return !credentialHeaders.contains(name) && !name.contains("token")
        }
    }

    /// `url` without user info and without query items whose name contains `token`, `key`,
    /// `secret` or `password`.
    public static func withoutCredentials(url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.user = nil
        components.password = nil
        if let items = components.queryItems {
            let kept = items.filter { item in
                let name = item.name.lowercased()
                return !["token", "key", "secret", "password"].contains { name.contains($0) }
            }
            components.queryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? url
    }

    private static func request(from row: Row) -> QueuedRequest {
        let headerText: String = row["headers"]
        var headers: [String: String] = [:]
        if case .object(let object)? = try? JSONReader().read(headerText) {
            for (key, value) in object { headers[key] = value.stringValue }
        }
        let status: String = row["status"]
        return QueuedRequest(
            id: row["id"], idempotencyKey: row["idempotency_key"], method: row["method"], url: row["url"], headers: headers,
            body: row["body"], createdAt: Date(timeIntervalSince1970: row["created_at"]), attempts: row["attempts"],
            nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]),
            scheduledAt: Date(timeIntervalSince1970: row["scheduled_at"] ?? row["created_at"]),
            scheduledUptime: row["scheduled_uptime"],
            status: QueuedRequest.Status(rawValue: status) ?? .pending, lastError: row["last_error"])
    }
}
