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

/// An in-memory HTTP response cache (seed 001): TTL, a maximum number of entries and of total
/// bytes (least recently used evicted first), invalidation by URL and by prefix.
///
/// Expired entries stay (until evicted or `clearExpired`) so they can be revalidated with their
/// `ETag` and served when the network fails (stale-if-error, up to `maxStale`).
public actor ResponseCache {
    /// Freshness used when the response says nothing (`Cache-Control: max-age`).
    public nonisolated let defaultTTL: Double
    /// Most entries kept.
    public nonisolated let maxEntries: Int
    /// Most body bytes kept.
    public nonisolated let maxBytes: Int
    /// How long past expiry an entry may still be served when the network fails.
    public nonisolated let maxStale: Double
    private let clock: any DynamicUIClock
    private var entries = LRUDictionary<String, CachedResponse>()
    /// Total body bytes held.
    public private(set) var totalBytes = 0

    /// Creates a cache (defaults: 5 minutes, 100 entries, 10 MiB, stale for up to 24 hours).
    public init(
        defaultTTL: Double = 300, maxEntries: Int = 100, maxBytes: Int = 10 << 20, maxStale: Double = 86_400,
        clock: any DynamicUIClock = SystemClock()
    ) {
        self.defaultTTL = defaultTTL
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(0, maxBytes)
        self.maxStale = maxStale
        self.clock = clock
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
        while entries.count > maxEntries || totalBytes > maxBytes {
            guard let (_, evicted) = entries.removeOldest() else { break }
            totalBytes -= evicted.body.count
        }
    }

    /// Removes the entry for `url`.
    public func invalidate(url: String) { remove(url) }

    /// Removes every entry whose URL starts with `prefix` (`https://api/v1/materials`).
    public func invalidate(prefix: String) {
        for key in entries.allKeys where key.hasPrefix(prefix) { remove(key) }
    }

    /// Removes everything.
    public func clearAll() {
        entries.removeAll()
        totalBytes = 0
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
        if let old = entries.remove(url) { totalBytes -= old.body.count }
    }
}
