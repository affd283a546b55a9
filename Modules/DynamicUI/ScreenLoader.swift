public import DynamicUIModels
public import DynamicUINetwork
public import DynamicUIRendering
public import DynamicUIResolvers
public import DynamicUIStorage
import Foundation
public import Logging

/// A screen ready to render, and where it came from.
public struct LoadedScreen: Sendable {
    /// Where the definition came from.
    public enum Source: Sendable, Hashable {
        /// The screen cache (memory or disk), still fresh: no request was made.
        case cache
        /// A new definition from the server.
        case network
        /// The cached definition, confirmed by a 304.
        case revalidated
        /// The cached definition past its freshness, because the server could not be reached.
        case stale
    }

    /// The compiled screen.
    public let screen: CompiledScreen
    /// Where it came from.
    public let source: Source

    /// Whether the screen may be out of date (shown with a notice).
    public var isStale: Bool { source == .stale }
}

/// A screen could not be loaded and nothing usable was cached.
public struct ScreenLoadError: Error, Sendable, CustomStringConvertible {
    /// The screen key.
    public let key: String
    /// What went wrong.
    public let message: String
    /// The network error, when the request failed.
    public let network: NetworkError?

    public var description: String { "screen '\(key)': \(message)" }
}

/// Loads screen definitions: fresh cache entries are served without a request;
/// otherwise `GET /v1/screens/{key}?platform=…` with `If-None-Match`; a 304 confirms the
/// cached copy, a 200 is decoded, compiled once per version and cached in memory and on disk,
/// and a failure falls back to the cached copy marked stale. Concurrent loads of one key share
/// one request.
public actor ScreenLoader {
    private let client: APIClient
    /// The two-tier screen cache.
    public let cache: ScreenCache
    /// Compiled programs by key and version.
    public let programs: ProgramCache
    /// The `platform` query value (`ios`, `ipad`, `mac`).
    public let platform: String
    private let endpoint: Endpoint
    private let logger: Logger
    /// The bounds definitions are read, decoded and compiled under.
    public nonisolated let limits: DynamicUILimits
    /// What the app can draw: sent with every request (`DynamicUI-Capabilities` header and the
    /// `capabilities` query item, so caches key by it) and used to pick each element's fallback.
    public nonisolated let capabilities: ClientCapabilities
    private let observers: DynamicUIObservers
    private var inFlight: [String: Task<LoadedScreen, any Error>] = [:]
    /// Requests sent so far (for diagnostics and tests).
    package private(set) var requestCount = 0

    /// Creates a loader.
    public init(
        client: APIClient, cache: ScreenCache, programs: ProgramCache = ProgramCache(), platform: String = "ios",
        endpoint: Endpoint = "/v1/screens/{key}", limits: DynamicUILimits = .default,
        capabilities: ClientCapabilities = .sdk(), observers: DynamicUIObservers = .none,
        logger: Logger = Logger(label: "DynamicUI.screens")
    ) {
        self.limits = limits
        self.capabilities = capabilities
        self.observers = observers
        self.client = client
        self.cache = cache
        self.programs = programs
        self.platform = platform
        self.endpoint = endpoint
        self.logger = logger
    }

    private func cacheKey(_ key: String) -> String { "\(key)?platform=\(platform)" }

    /// The screen `key`; throws `ScreenLoadError` when it cannot be loaded and nothing is cached.
    public func load(_ key: String) async throws -> LoadedScreen {
        if let entry = await cache.entry(for: cacheKey(key)), await cache.isFresh(entry) {
            return try await loaded(entry.screen, etag: entry.etag, key: key, source: .cache)
        }
        if let running = inFlight[key] { return try await running.value }
        let task = Task { try await self.fetch(key) }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value
    }

    /// Forgets `key` in both cache tiers and its compiled programs.
    public func invalidate(_ key: String) async {
        await cache.remove(cacheKey(key))
        await programs.invalidate(key: key)
    }

    /// Marks `key` as needing revalidation: the next load asks the server (`If-None-Match`), and
    /// the cached copy still serves when the server cannot be reached.
    public func expire(_ key: String) async {
        await cache.expire(cacheKey(key))
    }

    /// Forgets every screen.
    public func clear() async { await cache.clear() }

    private func fetch(_ key: String) async throws -> LoadedScreen {
        let cached = await cache.entry(for: cacheKey(key))
        var request = APIRequest(
            .get, endpoint, pathParameters: ["key": key], query: [("platform", platform), ("capabilities", capabilities.hash)])
        request.headers["DynamicUI-Capabilities"] = capabilities.compact
        request.bypassCache = true
        if let etag = cached?.etag { request.headers["If-None-Match"] = etag }
        requestCount += 1
        let response: APIResponse
        do throws(NetworkError) {
            response = try await client.send(request)
        } catch {
            guard let cached else {
                observers.emit(.error(ErrorEvent(.load, screen: key, message: error.message)))
                throw ScreenLoadError(key: key, message: error.message, network: error)
            }
            logger.notice("serving stale screen \(key): \(error.code)")
            return try await loaded(cached.screen, etag: cached.etag, key: key, source: .stale)
        }
        if response.status == 304, let cached {
            await cache.touch(cacheKey(key))
            return try await loaded(cached.screen, etag: cached.etag, key: key, source: .revalidated)
        }
        let screen: ScreenDefinition
        let started = ContinuousClock.now
        do {
            screen = try limits.documentDecoder.decode(ScreenDefinition.self, from: response.body)
        } catch {
            observers.emit(.error(ErrorEvent(.decode, screen: key, path: Self.path(of: error), message: "\(error)")))
            guard let cached else { throw ScreenLoadError(key: key, message: "invalid definition: \(error)", network: nil) }
            logger.error("screen \(key) from the server is invalid (\(error)); serving the cached copy")
            return try await loaded(cached.screen, etag: cached.etag, key: key, source: .stale)
        }
        let decodeSeconds = started.secondsElapsed
        let etag = response.headers["ETag"]
        let result = try await loaded(
            screen, etag: etag, key: key, source: .network, bytes: response.body.count, decodeSeconds: decodeSeconds)
        await cache.store(screen, etag: etag, for: cacheKey(key))
        return result
    }

    /// The screen fitted to the app's capabilities, compiled (once per version), and reported.
    private func loaded(
        _ screen: ScreenDefinition, etag: String?, key: String, source: LoadedScreen.Source, bytes: Int = 0,
        decodeSeconds: Double = 0
    ) async throws -> LoadedScreen {
        // A version compiled before was fitted then: a cache hit costs a lookup, not a refit.
        if let compiled = await programs.cachedScreen(key: screen.screenKey, version: etag ?? String(screen.version)) {
            if !observers.observers.isEmpty {
                observers.emit(
                    .screenLoaded(
                        ScreenLoadEvent(
                            screen: key, source: "\(source)", bytes: bytes, decodeSeconds: decodeSeconds, compileSeconds: 0)))
            }
            return LoadedScreen(screen: compiled, source: source)
        }
        let resolver = RequirementResolver(capabilities: capabilities)
        let missing = resolver.missing(for: screen)
        guard missing.isEmpty else {
            let message = "needs a newer version of the app (\(missing.joined(separator: ", ")))"
            observers.emit(.error(ErrorEvent(.elementDropped, screen: key, path: "$", message: message)))
            throw ScreenLoadError(key: key, message: message, network: nil)
        }
        let (fitted, events) = resolver.resolve(screen)
        let started = ContinuousClock.now
        let compilationsBefore = await programs.compilations
        let compiled = try await compile(fitted, etag: etag, key: key)
        let compiledNow = await programs.compilations > compilationsBefore
        if compiledNow { observers.emit(events, screen: key) }
        observers.emit(
            .screenLoaded(
                ScreenLoadEvent(
                    screen: key, source: "\(source)", bytes: bytes, decodeSeconds: decodeSeconds,
                    compileSeconds: compiledNow ? started.secondsElapsed : 0)))
        return LoadedScreen(screen: compiled, source: source)
    }

    private func compile(_ screen: ScreenDefinition, etag: String?, key: String) async throws -> CompiledScreen {
        do {
            return try await programs.screen(
                screen, version: etag ?? String(screen.version),
                compiler: ScreenCompiler(compiler: ExpressionCompiler(limits: limits.expressions)))
        } catch {
            observers.emit(
                .error(
                    ErrorEvent(.compile, screen: key, path: error.diagnostics.first?.location.description, message: "\(error)")))
            throw ScreenLoadError(key: key, message: "the definition does not compile:\n\(error)", network: nil)
        }
    }

    /// `screen` with `patch` applied (its items fitted to the app's capabilities) and compiled
    /// again, or the patch's error: a change that cannot be applied, or a result that does not
    /// compile, rejects the whole patch. Only what changed is compiled; the rest is `screen`'s.
    /// A patched screen is not cached: the next load shows the server's.
    public nonisolated func patched(_ screen: CompiledScreen, with patch: DocumentPatch) throws(PatchError) -> CompiledScreen {
        let definition = try screen.definition.applying(
            patch, limits: limits.model, fittedBy: RequirementResolver(capabilities: capabilities))
        do throws(CompilationError) {
            return try ScreenCompiler(compiler: ExpressionCompiler(limits: limits.expressions)).compile(
                definition, reusing: screen)
        } catch {
            throw PatchError.doesNotCompile("\(error)")
        }
    }

    /// The JSON path (or byte offset) a decoding error names.
    static func path(of error: any Error) -> String? {
        if let error = error as? ModelDecodingError { return error.location.description }
        if let error = error as? JSONReadError { return "byte \(error.offset)" }
        return nil
    }

}
