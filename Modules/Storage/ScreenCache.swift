public import DynamicUIModels
public import Foundation

/// A screen definition kept by `ScreenCache`, with its validator and age.
public struct CachedScreen: Sendable, Hashable {
    /// The decoded screen.
    public let screen: ScreenDefinition
    /// The `ETag` of the response it came from.
    public let etag: String?
    /// When it was stored.
    public let storedAt: Date

    /// Creates an entry.
    public init(screen: ScreenDefinition, etag: String?, storedAt: Date) {
        self.screen = screen
        self.etag = etag
        self.storedAt = storedAt
    }
}

/// Two-tier cache of screen definitions: a memory LRU (20 entries by
/// default) in front of a folder of JSON files that survives restarts. Entries older than
/// `maxAge` (1 hour) are not fresh but are kept, so the loader can revalidate them with their
/// `ETag` or serve them when the network fails. A file that cannot be read back is deleted
/// and treated as a miss, never as a failure.
public actor ScreenCache {
    /// Most screens in memory.
    public let memoryCapacity: Int
    /// Age after which an entry is no longer fresh.
    public let maxAge: Double
    /// The folder of the disk tier; `nil` for memory only.
    public let directory: URL?
    private let clock: any DynamicUIClock
    private var memory = LRUDictionary<String, CachedScreen>()
    /// Corrupt disk files discarded so far.
    public private(set) var discardedFiles = 0

    /// Creates a cache; the folder is created when needed.
    public init(memoryCapacity: Int = 20, maxAge: Double = 3600, directory: URL? = nil, clock: any DynamicUIClock = SystemClock())
    {
        self.memoryCapacity = max(1, memoryCapacity)
        self.maxAge = maxAge
        self.directory = directory
        self.clock = clock
    }

    /// Whether `entry` is younger than `maxAge`.
    public func isFresh(_ entry: CachedScreen) -> Bool {
        clock.now().timeIntervalSince(entry.storedAt) < maxAge
    }

    /// The entry for `key` from memory, else from disk (then kept in memory), fresh or not.
    public func entry(for key: String) -> CachedScreen? {
        if let cached = memory.get(key) { return cached }
        guard let url = fileURL(for: key), FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let entry = readFile(url) else {
            try? FileManager.default.removeItem(at: url)
            discardedFiles += 1
            return nil
        }
        remember(entry, for: key)
        return entry
    }

    /// Only the in-memory entry, without touching the disk.
    public func memoryEntry(for key: String) -> CachedScreen? { memory.get(key) }

    /// Stores a screen in both tiers (the disk write is atomic).
    public func store(_ screen: ScreenDefinition, etag: String?, for key: String) {
        let entry = CachedScreen(screen: screen, etag: etag, storedAt: clock.now())
        remember(entry, for: key)
        guard let url = fileURL(for: key), let directory else { return }
        var object: JSONObject = ["stored_at": .number(JSONNumber(entry.storedAt.timeIntervalSince1970)), "screen": screen.json]
        object["etag"] = etag.map(JSONValue.string)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            ProtectedFiles.protect(directory)
            try JSONWriter().data(from: .object(object)).write(to: url, options: .atomic)
        } catch {
            // The disk tier is an optimisation: a failed write leaves the memory entry.
        }
    }

    /// The same entry marked as stored now (after a 304 confirmed it).
    public func touch(_ key: String) {
        guard let entry = entry(for: key) else { return }
        store(entry.screen, etag: entry.etag, for: key)
    }

    /// Keeps `key` but marks it no longer fresh: the next load revalidates it, and it is still
    /// there to serve when the server cannot be reached.
    public func expire(_ key: String) {
        guard let entry = entry(for: key) else { return }
        let stale = CachedScreen(screen: entry.screen, etag: entry.etag, storedAt: Date(timeIntervalSince1970: 0))
        remember(stale, for: key)
        guard let url = fileURL(for: key) else { return }
        var object: JSONObject = ["stored_at": 0, "screen": entry.screen.json]
        object["etag"] = entry.etag.map(JSONValue.string)
        try? JSONWriter().data(from: .object(object)).write(to: url, options: .atomic)
    }

    /// Removes `key` from both tiers.
    public func remove(_ key: String) {
        memory.remove(key)
        if let url = fileURL(for: key) { try? FileManager.default.removeItem(at: url) }
    }

    /// Removes everything from both tiers.
    public func clear() {
        memory.removeAll()
        guard let directory,
            let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        else { return }
        for file in files where file.pathExtension == "json" { try? FileManager.default.removeItem(at: file) }
    }

    /// Number of screens in memory.
    public var memoryCount: Int { memory.count }

    private func remember(_ entry: CachedScreen, for key: String) {
        memory.set(key, entry)
        while memory.count > memoryCapacity { _ = memory.removeOldest() }
    }

    /// A file name that is safe for any key: the key's UTF-8 bytes in hexadecimal.
    private func fileURL(for key: String) -> URL? {
        guard let directory else { return nil }
        let name = key.utf8.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        return directory.appendingPathComponent("screen-\(name).json")
    }

    private func readFile(_ url: URL) -> CachedScreen? {
        // Read as a document: the screen's models are decoded from it in place.
        guard let data = try? Data(contentsOf: url),
            let document = try? JSONReader().document(data),
            let storedAt = document.root["stored_at"]?.numberValue?.doubleValue, let screenNode = document.root["screen"],
            let screen = try? ScreenDefinition(node: screenNode)
        else { return nil }
        return CachedScreen(
            screen: screen, etag: document.root["etag"]?.stringValue, storedAt: Date(timeIntervalSince1970: storedAt))
    }
}
