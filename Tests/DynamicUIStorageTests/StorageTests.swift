import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUIStorage

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dynamicui-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("LRU dictionary")
struct LRUTests {
    @Test func evictsLeastRecentlyUsed() {
        var lru = LRUDictionary<String, Int>()
        lru.set("a", 1)
        lru.set("b", 2)
        lru.set("c", 3)
        #expect(lru.keysByAge == ["a", "b", "c"])
        #expect(lru.get("a") == 1)
        #expect(lru.keysByAge == ["b", "c", "a"])
        #expect(lru.removeOldest()?.key == "b")
        lru.set("c", 30)
        #expect(lru.keysByAge == ["a", "c"])
        #expect(lru.peek("c") == 30)
        #expect(lru.remove("a") == 1)
        #expect(lru.keysByAge == ["c"])
        #expect(lru.remove("zz") == nil)
        lru.removeAll()
        #expect(lru.count == 0 && lru.removeOldest() == nil)
    }
}

@Suite("Response cache")
struct ResponseCacheTests {
    @Test func ttlExpiryAndStaleWindow() async {
        let clock = ManualClock()
        let cache = ResponseCache(defaultTTL: 300, maxStale: 3600, clock: clock)
        await cache.store(Data("a".utf8), for: "u1", etag: "\"v1\"")
        #expect(await cache.fresh(for: "u1")?.etag == "\"v1\"")
        clock.advance(by: 299)
        #expect(await cache.fresh(for: "u1") != nil)
        clock.advance(by: 1)
        #expect(await cache.fresh(for: "u1") == nil)
        // Expired but within the stale window: kept for revalidation and stale-if-error.
        #expect(await cache.entry(for: "u1")?.body == Data("a".utf8))
        clock.advance(by: 3601)
        #expect(await cache.entry(for: "u1") == nil)
        #expect(await cache.count == 0)
        await cache.store(Data("b".utf8), for: "u2", ttl: 10)
        await cache.store(Data("c".utf8), for: "u3", ttl: 100)
        clock.advance(by: 50)
        #expect(await cache.clearExpired() == 1)
        #expect(await cache.entry(for: "u3") != nil)
    }

    @Test func lruEvictionByCount() async {
        let cache = ResponseCache(maxEntries: 3, clock: ManualClock())
        for name in ["a", "b", "c"] { await cache.store(Data(name.utf8), for: name) }
        _ = await cache.entry(for: "a")
        await cache.store(Data("d".utf8), for: "d")
        #expect(await cache.urlsByAge == ["c", "a", "d"])
        #expect(await cache.entry(for: "b") == nil)
    }

    @Test func byteLimitEviction() async {
        let cache = ResponseCache(maxEntries: 100, maxBytes: 10, clock: ManualClock())
        await cache.store(Data(count: 4), for: "a")
        await cache.store(Data(count: 4), for: "b")
        #expect(await cache.totalBytes == 8)
        await cache.store(Data(count: 4), for: "c")
        #expect(await cache.totalBytes == 8)
        #expect(await cache.urlsByAge == ["b", "c"])
        // Too large for the cache at all: not stored, nothing evicted for it.
        await cache.store(Data(count: 11), for: "huge")
        #expect(await cache.urlsByAge == ["b", "c"])
        // Replacing an entry accounts for its old size.
        await cache.store(Data(count: 1), for: "b")
        #expect(await cache.totalBytes == 5)
    }

    @Test func invalidation() async {
        let cache = ResponseCache(clock: ManualClock())
        for url in [
            "https://api/v1/materials", "https://api/v1/materials?offset=20", "https://api/v1/materials/7",
            "https://api/v1/users",
        ] {
            await cache.store(Data(url.utf8), for: url)
        }
        await cache.invalidate(url: "https://api/v1/users")
        #expect(await cache.count == 3)
        await cache.invalidate(prefix: "https://api/v1/materials")
        #expect(await cache.count == 0)
        #expect(await cache.totalBytes == 0)
    }
}

@Suite("Screen cache")
struct ScreenCacheTests {
    static func screen(_ key: String) -> ScreenDefinition {
        ScreenDefinition(
            screenId: "s-\(key)", screenKey: key, screenName: key, pattern: .list, version: 1,
            template: ScreenTemplate(zones: [Zone(id: "z", type: .container)]), updatedAt: "2026-01-01T00:00:00Z")
    }

    @Test func memoryLRUOfTwenty() async {
        let cache = ScreenCache(clock: ManualClock())
        for index in 0..<21 { await cache.store(Self.screen("k\(index)"), etag: nil, for: "k\(index)") }
        #expect(await cache.memoryCount == 20)
        #expect(await cache.memoryEntry(for: "k0") == nil)
        #expect(await cache.memoryEntry(for: "k20")?.screen.screenKey == "k20")
    }

    @Test func diskTierSurvivesRestartAndExpires() async {
        let directory = temporaryDirectory()
        let clock = ManualClock()
        let first = ScreenCache(directory: directory, clock: clock)
        await first.store(Self.screen("materials-list"), etag: "\"e1\"", for: "materials-list?platform=ios")
        let second = ScreenCache(directory: directory, clock: clock)
        let entry = await second.entry(for: "materials-list?platform=ios")
        #expect(entry?.screen == Self.screen("materials-list"))
        #expect(entry?.etag == "\"e1\"")
        #expect(await second.isFresh(entry!))
        clock.advance(by: 3600)
        #expect(await !second.isFresh(entry!))
        await second.touch("materials-list?platform=ios")
        #expect(await second.isFresh(second.entry(for: "materials-list?platform=ios")!))
        await second.remove("materials-list?platform=ios")
        #expect(await ScreenCache(directory: directory, clock: clock).entry(for: "materials-list?platform=ios") == nil)
    }

    @Test func corruptFilesAreDiscardedNotFatal() async throws {
        let directory = temporaryDirectory()
        let cache = ScreenCache(directory: directory, clock: ManualClock())
        await cache.store(Self.screen("a"), etag: nil, for: "a")
        await cache.store(Self.screen("b/../weird key ñ"), etag: nil, for: "b/../weird key ñ")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        #expect(files.count == 2)
        for file in files { try Data("{\"stored_at\": 1, \"screen\": {\"trunc".utf8).write(to: file) }
        let reopened = ScreenCache(directory: directory, clock: ManualClock())
        #expect(await reopened.entry(for: "a") == nil)
        #expect(await reopened.entry(for: "b/../weird key ñ") == nil)
        #expect(await reopened.discardedFiles == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        await reopened.store(Self.screen("a"), etag: nil, for: "a")
        await reopened.clear()
        #expect(await reopened.entry(for: "a") == nil)
    }
}

@Suite("Offline queue store")
struct OfflineQueueStoreTests {
    let now = Date(timeIntervalSince1970: 1_773_570_600)

    @Test func ordersDedupesAndStripsCredentials() throws {
        let store = try OfflineQueueStore()
        let first = try store.enqueue(
            NewQueuedRequest(
                method: "post", url: "https://user:pw@api.test/v1/materials?access_token=abc&keep=1",
                headers: [
                    "Authorization": "Bearer secret", "Cookie": "s=1", "X-Session-Token": "t", "Content-Type": "application/json",
                ],
                body: Data("{}".utf8), idempotencyKey: "k1"),
            at: now)
        #expect(first.method == "POST")
        #expect(first.headers == ["Content-Type": "application/json"])
        #expect(first.url == "https://api.test/v1/materials?keep=1")
        #expect(first.status == .pending && first.attempts == 0)
        let second = try store.enqueue(
            NewQueuedRequest(method: "PUT", url: "https://api.test/v1/materials/1", idempotencyKey: "k2"), at: now)
        let again = try store.enqueue(NewQueuedRequest(method: "PUT", url: "https://api.test/x", idempotencyKey: "k1"), at: now)
        #expect(again == first)
        #expect(second.id > first.id)
        #expect(try store.all().map(\.idempotencyKey) == ["k1", "k2"])
        #expect(throws: StorageError.self) {
            try store.enqueue(
                NewQueuedRequest(method: "GET", url: "https://api.test/v1/materials", idempotencyKey: "k3"), at: now)
        }
    }

    @Test func aFullQueueRefusesANewChangeAndStoresNothing() throws {
        let store = try OfflineQueueStore(capacity: 2)
        for key in ["k1", "k2"] {
            try store.enqueue(NewQueuedRequest(method: "PUT", url: "https://api.test/v1/m/1", idempotencyKey: key), at: now)
        }
        do {
            try store.enqueue(NewQueuedRequest(method: "PUT", url: "https://api.test/v1/m/2", idempotencyKey: "k3"), at: now)
            Issue.record("a third change was queued in a queue of two")
        } catch {
            #expect(error.code == .full && error.message.contains("2 changes"), "\(error)")
        }
        #expect(try store.all().map(\.idempotencyKey) == ["k1", "k2"], "nothing stored")
        let again = try store.enqueue(NewQueuedRequest(method: "PUT", url: "https://api.test/x", idempotencyKey: "k2"), at: now)
        #expect(again.idempotencyKey == "k2", "a change already queued is found, full or not")
        try store.remove(id: again.id)
        try store.enqueue(NewQueuedRequest(method: "PUT", url: "https://api.test/v1/m/2", idempotencyKey: "k3"), at: now)
        #expect(try store.count() == 2)
        #expect(try OfflineQueueStore(capacity: -5).capacity == 1, "a capacity is at least one")
    }

    @Test func failuresStatusesAndExpiry() throws {
        let store = try OfflineQueueStore()
        let old = try store.enqueue(NewQueuedRequest(method: "POST", url: "https://a/1", idempotencyKey: "old"), at: now)
        let recent = try store.enqueue(
            NewQueuedRequest(method: "POST", url: "https://a/2", idempotencyKey: "new"), at: now.addingTimeInterval(3600))
        try store.recordFailure(id: recent.id, nextAttemptAt: now.addingTimeInterval(7200), error: "503")
        let failed = try #require(try store.request(id: recent.id))
        #expect(failed.attempts == 1 && failed.lastError == "503" && failed.nextAttemptAt == now.addingTimeInterval(7200))
        try store.setStatus(id: recent.id, .awaitingDecision)
        #expect(try store.pending().map(\.id) == [old.id])
        try store.replaceBody(id: recent.id, with: Data("{\"v\":2}".utf8))
        #expect(try store.request(id: recent.id)?.status == .pending)
        #expect(try store.removeCreated(before: now.addingTimeInterval(1)).map(\.id) == [old.id])
        #expect(try store.count() == 1)
        try store.remove(id: recent.id)
        #expect(try store.count() == 0)
        #expect(try store.integrityCheck())
    }

    @Test func persistsAcrossReopen() throws {
        let path = temporaryDirectory().appendingPathComponent("queue.sqlite").path
        do {
            let store = try OfflineQueueStore(path: path)
            try store.enqueue(NewQueuedRequest(method: "DELETE", url: "https://a/1", body: nil, idempotencyKey: "d1"), at: now)
        }
        let reopened = try OfflineQueueStore(path: path)
        #expect(try reopened.all().map(\.idempotencyKey) == ["d1"])
        // A folder that does not exist yet is made (an app's Application Support on first launch)...
        let nested = temporaryDirectory().appendingPathComponent("Application Support/queue/queue.sqlite").path
        let fresh = try OfflineQueueStore(path: nested)
        #expect(try fresh.count() == 0 && FileManager.default.fileExists(atPath: nested))
        // ...but a path through a file is a typed error.
        let file = temporaryDirectory().appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        #expect(throws: StorageError.self) { try OfflineQueueStore(path: file.appendingPathComponent("queue.sqlite").path) }
    }
}

@Suite("Token and settings stores")
struct CredentialStoreTests {
    @Test func fileTokenStoreIsPrivateAndRoundTrips() async throws {
        let url = temporaryDirectory().appendingPathComponent("session/tokens.json")
        let store = FileTokenStore(url: url)
        #expect(try await store.load() == nil)
        let tokens = AuthTokens(accessToken: "a1", refreshToken: "r1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        try await store.save(tokens)
        #expect(try await store.load() == tokens)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try Data("garbage".utf8).write(to: url)
        #expect(try await store.load() == nil)
        try await store.clear()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let memory = InMemoryTokenStore(tokens)
        #expect(await memory.load() == tokens)
        await memory.clear()
        #expect(await memory.load() == nil)
    }

    @Test func fileSettingsPersist() async throws {
        let url = temporaryDirectory().appendingPathComponent("settings.json")
        let settings = FileSettingsStore(url: url)
        try await settings.set(true, for: "dark_mode")
        try await settings.set("es", for: "language")
        try await settings.set(nil, for: "language")
        let reopened = FileSettingsStore(url: url)
        #expect(await reopened.value(for: "dark_mode") == true)
        #expect(await reopened.value(for: "language") == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}

@Suite("Response cache on disk")
struct ResponseCacheDiskTests {
    func files(_ directory: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "cache" }
    }

    @Test func entriesSurviveANewCacheOnTheSameDirectory() async throws {
        let directory = temporaryDirectory()
        let clock = ManualClock()
        let first = ResponseCache(defaultTTL: 60, directory: directory, clock: clock)
        await first.store(Data(#"{"data":[1,2]}"#.utf8), for: "https://api.test/v1/a?limit=20", etag: "\"v1\"")
        await first.store(Data("b".utf8), for: "https://api.test/v1/b")
        #expect(files(directory).count == 2)
        let second = ResponseCache(defaultTTL: 60, directory: directory, clock: clock)
        let entry = try #require(await second.entry(for: "https://api.test/v1/a?limit=20"))
        #expect(entry.body == Data(#"{"data":[1,2]}"#.utf8) && entry.etag == "\"v1\"" && entry.status == 200)
        #expect(await second.count == 2)
        #expect(await second.totalBytes == 15)
        // Expired after an hour, still there for stale-if-error.
        clock.advance(by: 3600)
        let third = ResponseCache(defaultTTL: 60, directory: directory, clock: clock)
        #expect(await third.fresh(for: "https://api.test/v1/b") == nil)
        #expect(await third.entry(for: "https://api.test/v1/b") != nil)
    }

    @Test func evictionInvalidationAndClearingRemoveTheFiles() async throws {
        let directory = temporaryDirectory()
        let cache = ResponseCache(maxEntries: 2, directory: directory, clock: ManualClock())
        for name in ["a", "b", "c"] { await cache.store(Data(name.utf8), for: "https://api.test/v1/\(name)") }
        #expect(files(directory).count == 2, "the least recently used entry's file went with it")
        await cache.invalidate(prefix: "https://api.test/v1/b")
        #expect(files(directory).count == 1)
        await cache.clearAll()
        #expect(files(directory).isEmpty)
        #expect(await ResponseCache(directory: directory).count == 0)
    }

    @Test func damagedOrForeignFilesAreMissesAndDeleted() async throws {
        let directory = temporaryDirectory()
        let cache = ResponseCache(directory: directory, clock: ManualClock())
        await cache.store(Data("good".utf8), for: "https://api.test/good")
        await cache.store(Data("cut".utf8), for: "https://api.test/cut")
        let cut = try #require(ResponseCache.file(for: "https://api.test/cut", in: directory))
        let whole = try Data(contentsOf: cut)
        try whole.prefix(whole.count - 1).write(to: cut)  // truncated body
        try Data("not a cache file".utf8).write(to: directory.appendingPathComponent("response-0.cache"))
        try Data([0xFF, 0x0A, 0x00]).write(to: directory.appendingPathComponent("response-1.cache"))
        // A valid header stored under another URL's name (a collision or a copied file).
        let other = try #require(ResponseCache.file(for: "https://api.test/other", in: directory))
        try Data(contentsOf: try #require(ResponseCache.file(for: "https://api.test/good", in: directory))).write(to: other)
        let reopened = ResponseCache(directory: directory, clock: ManualClock())
        #expect(await reopened.count == 1)
        #expect(await reopened.entry(for: "https://api.test/good")?.body == Data("good".utf8))
        #expect(await reopened.entry(for: "https://api.test/cut") == nil)
        #expect(files(directory).count == 1, "every damaged file was deleted")
    }

    @Test func theLimitsHoldOnDisk() async throws {
        let directory = temporaryDirectory()
        let cache = ResponseCache(maxEntries: 10, maxBytes: 100, directory: directory, clock: ManualClock())
        await cache.store(Data(count: 1_000), for: "https://api.test/huge")
        #expect(files(directory).isEmpty, "a body over the byte limit is not kept")
        for index in 0..<5 { await cache.store(Data(count: 40), for: "https://api.test/\(index)") }
        #expect(files(directory).count == 2)
        let smaller = ResponseCache(maxEntries: 1, maxBytes: 100, directory: directory, clock: ManualClock())
        #expect(await smaller.count == 1 && files(directory).count == 1, "a smaller cache trims the directory")
    }

    @Test func aDirectoryThatCannotBeUsedLeavesAMemoryCache() async throws {
        let file = temporaryDirectory().appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let cache = ResponseCache(directory: file, clock: ManualClock())
        await cache.store(Data("still cached".utf8), for: "https://api.test/a")
        #expect(await cache.entry(for: "https://api.test/a")?.body == Data("still cached".utf8))
        await cache.clearAll()
        #expect(await cache.count == 0)
    }
}
