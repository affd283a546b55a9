import DynamicUIWeb
public import Foundation

/// Live reload for `sdui serve --catalog FOLDER`: watches the folder's JSON files, re-validates
/// the catalog when one changes, hands a valid catalog to the preview, and tells every open
/// page to reload itself (server-sent events on `/_/live-reload`). While the catalog has errors,
/// pages show them instead of a stale screen.
public final class LiveReload: @unchecked Sendable {
    /// The watched folder.
    public let folder: URL
    /// How often the folder is checked, in seconds.
    public let interval: Double
    private let validate: @Sendable (URL) -> [String]
    private let apply: @Sendable () async throws -> Void
    private let lock = NSLock()
    private var fingerprint: [String: String] = [:]
    private var currentGeneration = 0
    private var currentErrors: [String] = []
    private var listeners: [UUID: AsyncStream<[UInt8]>.Continuation] = [:]
    private var watcher: Task<Void, Never>?

    /// Watches `folder`; `validate` returns the catalog's errors (empty when valid) and `apply`
    /// makes a valid catalog live. Call `start()` to begin.
    public init(
        folder: URL, interval: Double = 0.1, validate: @escaping @Sendable (URL) -> [String],
        apply: @escaping @Sendable () async throws -> Void
    ) {
        self.folder = folder
        self.interval = min(max(interval, 0.05), 60)
        self.validate = validate
        self.apply = apply
    }

    /// How many times the catalog has changed since start.
    public var generation: Int { lock.withLock { currentGeneration } }

    /// The current catalog's errors (`file: json.path: error: message`); empty when it is valid.
    public var errors: [String] { lock.withLock { currentErrors } }

    /// Validates the folder once and starts watching it.
    public func start() {
        let errors = validate(folder)
        let fingerprint = Self.fingerprint(of: folder)
        lock.withLock {
            currentErrors = errors
            self.fingerprint = fingerprint
        }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                try? await Task.sleep(nanoseconds: UInt64(self.interval * 1_000_000_000))
                await self.check()
            }
        }
        lock.withLock { watcher = task }
    }

    /// Stops watching and ends every open event stream (so the server can shut down).
    public func stop() {
        let (task, streams) = lock.withLock {
            defer {
                watcher = nil
                listeners.removeAll()
            }
            return (watcher, Array(listeners.values))
        }
        task?.cancel()
        for stream in streams { stream.finish() }
    }

    /// Looks for a change now; on one, re-validates, applies a valid catalog and tells the pages.
    public func check() async {
        let latest = Self.fingerprint(of: folder)
        let changedFiles: Set<String> = lock.withLock {
            guard latest != fingerprint else { return [] }
            let changed = Set(latest.keys.filter { latest[$0] != fingerprint[$0] })
            fingerprint = latest
            return changed.isEmpty ? ["(removed)"] : changed
        }
        guard !changedFiles.isEmpty else { return }
        // The edited file's own errors first (the others are often their consequence).
        var errors = validate(folder).enumerated().sorted { lhs, rhs in
            let left = changedFiles.contains { lhs.element.hasPrefix($0 + ":") }
            let right = changedFiles.contains { rhs.element.hasPrefix($0 + ":") }
            return left != right ? left : lhs.offset < rhs.offset
        }.map(\.element)
        if errors.isEmpty {
            do {
                try await apply()
            } catch {
                errors = ["\(folder.lastPathComponent): error: \(error)"]
            }
        }
        let (generation, streams) = lock.withLock {
            currentErrors = errors
            currentGeneration += 1
            return (currentGeneration, Array(listeners.values))
        }
        let event = Array("event: reload\ndata: \(generation)\n\n".utf8)
        for stream in streams { stream.yield(event) }
    }

    /// A page's event stream; a page that saw `since` gets a reload at once when the catalog
    /// changed after it was drawn.
    public func events(since: Int?) -> AsyncStream<[UInt8]> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(8))
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.listeners.removeValue(forKey: id) }
        }
        let generation = lock.withLock {
            listeners[id] = continuation
            return currentGeneration
        }
        continuation.yield(Array("retry: 500\n: live reload, generation \(generation)\n\n".utf8))
        if let since, since != generation {
            continuation.yield(Array("event: reload\ndata: \(generation)\n\n".utf8))
        }
        return stream
    }

    // MARK: Apps that follow the preview

    /// An app following the preview (`DevelopmentPreview`), as it last asked.
    public struct Follower: Sendable, Hashable {
        /// The app's name (its process name unless it gave another).
        public var app: String
        /// `screens` or `nodes`.
        public var dialect: String
        /// The screen or document it showed when it last asked.
        public var screen: String?
        /// When it last asked.
        public var seen: Date
    }

    private var followerTable: [String: Follower] = [:]

    /// How long an app that stopped asking stays listed.
    static let followerLifetime: Double = 60

    /// The apps that asked within the last minute, by name.
    public var followers: [Follower] {
        let now = Date()
        return lock.withLock {
            followerTable = followerTable.filter { now.timeIntervalSince($0.value.seen) < Self.followerLifetime }
            return followerTable.values.sorted { ($0.app, $0.seen) < ($1.app, $1.seen) }
        }
    }

    /// An app's question (`GET /_/follow`): the generation and errors now when `since` is `nil`
    /// or already behind, else once the catalog changes, or after `hold` seconds without a change.
    public func follow(
        since: Int?, client: String, follower: Follower, hold: Double = 10
    ) async -> (generation: Int, errors: [String]) {
        let deadline = Date().addingTimeInterval(min(max(hold, 0), 60))
        while true {
            let (generation, errors) = lock.withLock {
                // One entry per client, capped so that a flood of made-up ids cannot grow it.
                if followerTable[client] != nil || followerTable.count < 64 { followerTable[client] = follower }
                return (currentGeneration, currentErrors)
            }
            if since != generation || Date() >= deadline || Task.isCancelled { return (generation, errors) }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// The list of following apps a page shows, empty when none follows.
    func followersHTML() -> String {
        let followers = self.followers
        guard !followers.isEmpty else { return "" }
        let items = followers.map { follower in
            "<li>\(HTMLRenderer.escape(follower.app)) (\(HTMLRenderer.escape(follower.dialect))"
                + (follower.screen.map { ": \(HTMLRenderer.escape($0))" } ?? "") + ")</li>"
        }.joined()
        return "<aside id=\"preview-followers\" aria-label=\"Apps following this preview\" style=\"font:12px system-ui,"
            + "sans-serif;margin:1rem;color:#555\">Apps following this preview:<ul>\(items)</ul></aside>"
    }

    /// How many pages are listening.
    public var listenerCount: Int { lock.withLock { listeners.count } }

    /// The script a page carries to reload itself on a change.
    public func script() -> String {
        "<script>(function(){var s=new EventSource('/_/live-reload?since=\(generation)');"
            + "s.addEventListener('reload',function(){s.close();location.reload();});})();</script>"
    }

    /// The page shown while the catalog has errors, or `nil` when it is valid.
    public func errorPage() -> String? {
        let errors = shown(self.errors)
        guard !errors.isEmpty else { return nil }
        let items = errors.map { "<li><code>\(HTMLRenderer.escape($0))</code></li>" }.joined()
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>Catalog errors</title><style>body{font:15px system-ui,sans-serif;margin:2rem;color:#1c1c1e}
            h1{color:#c0392b;font-size:1.3rem}li{margin:.4rem 0}code{white-space:pre-wrap;word-break:break-word}</style></head>
            <body><main id="live-reload-errors"><h1>The catalog in \(HTMLRenderer.escape(folder.lastPathComponent)) has \(errors.count) \
            error\(errors.count == 1 ? "" : "s")</h1><p>Fix the file and this page reloads by itself.</p><ul>\(items)</ul></main>
            \(followersHTML())\(script())</body></html>

            """
    }

    /// `errors` with the watched folder's path left out (`screens/x.json: …`).
    func shown(_ errors: [String]) -> [String] {
        let prefix = folder.path + "/"
        return errors.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
    }

    /// `html` with the apps that follow the preview and the reload script before `</body>`.
    public func inject(into html: String) -> String {
        let added = followersHTML() + script()
        guard let end = html.range(of: "</body>", options: .backwards) else { return html + added }
        return html.replacingCharacters(in: end, with: added + "</body>")
    }

    /// Every JSON file under `folder` with its modification time and size.
    static func fingerprint(of folder: URL) -> [String: String] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { return [:] }
        var result: [String: String] = [:]
        for case let file as URL in files where file.pathExtension == "json" {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let modified = values.contentModificationDate?.timeIntervalSince1970 ?? 0
            result[file.path] = "\(modified)/\(values.fileSize ?? -1)"
        }
        return result
    }
}
