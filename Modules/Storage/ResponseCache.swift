public import DynamicUIModels
public import Foundation

/// A cached HTTP response with what revalidation needs.
public struct CachedResponse: Sendable, Hashable {
    /// The response body.
    public let body: Data
    /// The status of the stored response (2xx).
    public let status: Int
    /// The `ETag` to send as `If-None-Match`.
    public let etag: String?
    /// When it was stored.
    public let storedAt: Date
    /// Until when it is fresh (served without asking the server).
    public let expiresAt: Date

    /// Creates a cached response.
    public init(body: Data, status: Int = 200, etag: String?, storedAt: Date, expiresAt: Date) {
        self.body = body
        self.status = status
        self.etag = etag
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }

    /// Whether it may be served without revalidation at `date`.
    public func isFresh(at date: Date) -> Bool { date < expiresAt }

    /// The same response, fresh again until `expiresAt` (after a 304).
    public func refreshed(at date: Date, until expiresAt: Date) -> CachedResponse {
        CachedResponse(body: body, status: status, etag: etag, storedAt: date, expiresAt: expiresAt)
    }
}

/// An HTTP response cache: TTL, a maximum number of entries and of total bytes
/// (least recently used evicted first), invalidation by URL and by prefix.
///
/// Expired entries stay (until evicted or `clearExpired`) so they can be revalidated with their
/// `ETag` and served when the network fails (stale-if-error, up to `maxStale`). With a
/// `directory`, every entry is also a file there, read back when the cache is created: a cold
/// start without a connection still has the last good response of each GET. A file that is
/// unreadable, truncated or not one of ours is skipped and deleted.
public actor ResponseCache {
    /// Freshness used when the response says nothing (`Cache-Control: max-age`).
    public nonisolated let defaultTTL: Double
    /// Most entries kept.
    public nonisolated let maxEntries: Int
    /// Most body bytes kept.
    public nonisolated let maxBytes: Int
    /// How long past expiry an entry may still be served when the network fails.
    public nonisolated let maxStale: Double
    /// Where entries are also kept as files; `nil` keeps them in memory only.
    public nonisolated let directory: URL?
    private let clock: any DynamicUIClock
    private var entries = LRUDictionary<String, CachedResponse>()
    /// Total body bytes held.
    public private(set) var totalBytes = 0

    /// Creates a cache (defaults: 5 minutes, 100 entries, 10 MiB, stale for up to 24 hours).
    /// With `directory`, the entries stored there before are loaded (oldest first, within the
    /// limits) and every change is written through.
    public init(
        defaultTTL: Double = 300, maxEntries: Int = 100, maxBytes: Int = 10 << 20, maxStale: Double = 86_400,
        directory: URL? = nil, clock: any DynamicUIClock = SystemClock()
    ) {
        self.defaultTTL = defaultTTL
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(0, maxBytes)
        self.maxStale = maxStale
        self.directory = directory
        self.clock = clock
        guard let directory else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ProtectedFiles.protect(directory)
        account = try? String(contentsOf: directory.appendingPathComponent(Self.accountFile), encoding: .utf8)
        var loaded: [(url: String, response: CachedResponse)] = []
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == Self.fileExtension {
            if let entry = Self.read(file, maxBytes: self.maxBytes) {
                loaded.append(entry)
            } else {
                try? FileManager.default.removeItem(at: file)
            }
        }
        var restored = LRUDictionary<String, CachedResponse>()
        var bytes = 0
        let (limit, byteLimit) = (self.maxEntries, self.maxBytes)
        for entry in loaded.sorted(by: { $0.response.storedAt < $1.response.storedAt }) {
            guard entry.response.body.count <= byteLimit else { continue }
            restored.set(entry.url, entry.response)
            bytes += entry.response.body.count
            while restored.count > limit || bytes > byteLimit {
                guard let (url, evicted) = restored.removeOldest() else { break }
                bytes -= evicted.body.count
                Self.file(for: url, in: directory).map { try? FileManager.default.removeItem(at: $0) }
            }
        }
        entries = restored
        totalBytes = bytes
    }

    /// Number of entries.
    public var count: Int { entries.count }

    /// The entry for `url`, fresh or not (marked as recently used); `nil` when absent or stale
    /// beyond `maxStale`.
    public func entry(for url: String) -> CachedResponse? {
        guard let entry = entries.get(url) else { return nil }
        if clock.now().timeIntervalSince(entry.expiresAt) > maxStale {
            remove(url)
            return nil
        }
        return entry
    }

    /// The entry for `url` only if it is still fresh.
    public func fresh(for url: String) -> CachedResponse? {
        guard let entry = entry(for: url), entry.isFresh(at: clock.now()) else { return nil }
        return entry
    }

    /// Stores `body` for `url`, fresh for `ttl` seconds (default `defaultTTL`). A body larger
    /// than `maxBytes` is not stored.
    public func store(_ body: Data, for url: String, status: Int = 200, etag: String? = nil, ttl: Double? = nil) {
        let now = clock.now()
        let response = CachedResponse(
            body: body, status: status, etag: etag, storedAt: now, expiresAt: now.addingTimeInterval(ttl ?? defaultTTL))
        store(response, for: url)
    }

    /// Stores `response` for `url`, evicting least recently used entries over the limits.
    public func store(_ response: CachedResponse, for url: String) {
        remove(url)
        guard response.body.count <= maxBytes else { return }
        entries.set(url, response)
        totalBytes += response.body.count
        write(response, for: url)
        while entries.count > maxEntries || totalBytes > maxBytes {
            guard let (evictedURL, evicted) = entries.removeOldest() else { break }
            totalBytes -= evicted.body.count
            deleteFile(for: evictedURL)
        }
    }

    /// Removes the entry for `url`.
    public func invalidate(url: String) { remove(url) }

    /// Removes every entry whose URL starts with `prefix` (`https://api/v1/materials`).
    public func invalidate(prefix: String) {
        for key in entries.allKeys where key.hasPrefix(prefix) { remove(key) }
    }

    /// The account whose responses the cache holds, as last set (kept beside a disk cache).
    public private(set) var account: String?
    private static let accountFile = "account"

    /// The cache now holds `account`'s responses: when it held another account's (or nobody's
    /// known one), everything is removed first, so one user's answers are never served to the
    /// next, however the first session ended.
    public func setAccount(_ account: String?) {
        guard account != self.account else { return }
        clearAll()
        self.account = account
        guard let directory else { return }
        let file = directory.appendingPathComponent(Self.accountFile)
        if let account {
            try? Data(account.utf8).write(to: file, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Removes everything, files included (signing out: responses belong to one user).
    public func clearAll() {
        entries.removeAll()
        totalBytes = 0
        guard let directory,
            let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        else { return }
        for file in files where file.pathExtension == Self.fileExtension { try? FileManager.default.removeItem(at: file) }
    }

    /// Removes entries that are expired (past `expiresAt`), returning how many.
    @discardableResult
    public func clearExpired() -> Int {
        let now = clock.now()
        var removed = 0
        for key in entries.allKeys where entries.peek(key).map({ !$0.isFresh(at: now) }) == true {
            remove(key)
            removed += 1
        }
        return removed
    }

    /// The cached URLs from least to most recently used.
    public var urlsByAge: [String] { entries.keysByAge }

    private func remove(_ url: String) {
        if let old = entries.remove(url) {
            totalBytes -= old.body.count
            deleteFile(for: url)
        }
    }

    // MARK: Files

    /// `response-<hash>.cache`: a one-line JSON header (the URL, status, ETag, dates and body
    /// length), a newline, then the body's bytes.
    static let fileExtension = "cache"

    /// The file of `url`: a stable 64-bit FNV-1a hash of its bytes (the header repeats the URL,
    /// so a collision reads as a miss).
    static func file(for url: String, in directory: URL?) -> URL? {
        guard let directory else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent("response-\(String(repeating: "0", count: 16 - name.count))\(name)")
            .appendingPathExtension(fileExtension)
    }

    private func write(_ response: CachedResponse, for url: String) {
        guard let file = Self.file(for: url, in: directory) else { return }
        var header: JSONObject = [
            "url": .string(url), "status": .number(JSONNumber(response.status)),
            "stored_at": .number(JSONNumber(response.storedAt.timeIntervalSince1970)),
            "expires_at": .number(JSONNumber(response.expiresAt.timeIntervalSince1970)),
            "length": .number(JSONNumber(response.body.count)),
        ]
        header["etag"] = response.etag.map(JSONValue.string)
        var data = JSONWriter().data(from: .object(header))
        data.append(0x0A)
        data.append(response.body)
        // Best effort: a cache that cannot write still answers from memory.
        try? data.write(to: file, options: .atomic)
    }

    private func deleteFile(for url: String) {
        guard let file = Self.file(for: url, in: directory) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// The entry in `file`, or `nil` when it is not a complete entry written by this cache (or
    /// its body is over `maxBytes`, which the cache would not hold).
    static func read(_ file: URL, maxBytes: Int) -> (url: String, response: CachedResponse)? {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? Int.max
        guard size <= maxBytes + (1 << 16), let data = try? Data(contentsOf: file), let newline = data.firstIndex(of: 0x0A),
            let header = try? JSONReader(limits: JSONReader.Limits(maxBytes: 1 << 16)).read(data[data.startIndex..<newline]),
            let url = header["url"]?.stringValue, let status = header["status"]?.intValue,
            let storedAt = header["stored_at"]?.doubleValue, let expiresAt = header["expires_at"]?.doubleValue,
            let length = header["length"]?.intValue, storedAt.isFinite, expiresAt.isFinite,
            self.file(for: url, in: file.deletingLastPathComponent())?.lastPathComponent == file.lastPathComponent
        else { return nil }
        let body = data[data.index(after: newline)...]
        guard body.count == length else { return nil }
        return (
            url,
            CachedResponse(
                body: Data(body), status: status, etag: header["etag"]?.stringValue,
                storedAt: Date(timeIntervalSince1970: storedAt), expiresAt: Date(timeIntervalSince1970: expiresAt))
        )
    }
}
