public import DynamicUIModels
import DynamicUINetwork
public import Foundation
import Logging

/// A preview server (`sdui serve`) that an app follows in debug builds: its screens, navigation,
/// node documents and demo data come from the preview, and a saved change shows in the running
/// app at once, with its navigation, form input and scroll position kept.
///
/// It exists only in debug builds: in a release build (no `DEBUG` condition) every way of making
/// one throws ``DevelopmentPreviewError/releaseBuild`` or returns `nil`, so a shipped app cannot
/// follow a preview whatever its settings say.
public struct DevelopmentPreview: Sendable, Hashable {
    /// The preview's address, ending in `/` (`http://127.0.0.1:8080/`).
    public let url: URL
    /// The name the preview lists this app under.
    public let appName: String

    /// The environment variable `fromEnvironment` reads (set it in the Xcode scheme).
    public static let environmentVariable = "DYNAMICUI_PREVIEW"

    /// Whether this build may follow a preview: true in debug builds only.
    public static var isAvailable: Bool { BuildKind.current == .debug }

    /// A preview at `url`: http or https, on a loopback host or one of `allowedHosts` (for the
    /// network address `sdui serve --lan` prints). Throws in release builds and for any other address.
    public init(
        url: URL, allowedHosts: Set<String> = [], appName: String = ProcessInfo.processInfo.processName
    )
        throws(DevelopmentPreviewError)
    {
        try self.init(url: url, allowedHosts: allowedHosts, appName: appName, build: .current)
    }

    init(url: URL, allowedHosts: Set<String>, appName: String, build: BuildKind) throws(DevelopmentPreviewError) {
        guard build == .debug else { throw .releaseBuild }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = url.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil
        else { throw .notAPreviewAddress(url.absoluteString) }
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard Self.loopbackHosts.contains(name) || allowedHosts.contains(where: { $0.lowercased() == name }) else {
            throw .hostNotAllowed(host)
        }
        if !components.path.hasSuffix("/") { components.path += "/" }
        guard let normalized = components.url else { throw .notAPreviewAddress(url.absoluteString) }
        self.url = normalized
        self.appName = String(appName.prefix(80))
    }

    /// The preview named by the environment variable `DYNAMICUI_PREVIEW` (an address, as
    /// `sdui serve` prints it; a private network's host is allowed, any other must be in
    /// `allowedHosts`); `nil` when it is unset or empty, and always in a release build.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment, allowedHosts: Set<String> = [],
        appName: String = ProcessInfo.processInfo.processName
    ) throws(DevelopmentPreviewError) -> DevelopmentPreview? {
        try fromEnvironment(environment, allowedHosts: allowedHosts, appName: appName, build: .current)
    }

    static func fromEnvironment(
        _ environment: [String: String], allowedHosts: Set<String>, appName: String, build: BuildKind
    ) throws(DevelopmentPreviewError) -> DevelopmentPreview? {
        guard build == .debug, let text = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces),
            !text.isEmpty
        else { return nil }
        guard let url = URL(string: text) else { throw .notAPreviewAddress(text) }
        // What `sdui serve --lan` prints is a private network address: named here, it is allowed.
        let host = url.host.flatMap { isPrivateNetwork($0) ? Set([$0]) : nil } ?? []
        return try DevelopmentPreview(url: url, allowedHosts: allowedHosts.union(host), appName: appName, build: build)
    }

    /// The preview `environment` names and why it was refused, for a configuration that keeps both.
    static func reading(
        _ environment: [String: String], allowedHosts: Set<String>
    ) -> (preview: DevelopmentPreview?, problem: DevelopmentPreviewError?) {
        do {
            return (try fromEnvironment(environment, allowedHosts: allowedHosts), nil)
        } catch {
            return (nil, error)
        }
    }

    /// Whether `host` is an IPv4 address of a private network (10/8, 172.16/12, 192.168/16) or a
    /// `.local` name: a machine on the developer's own network.
    public static func isPrivateNetwork(_ host: String) -> Bool {
        if host.lowercased().hasSuffix(".local") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        guard parts.count == 4, let first = parts[0], let second = parts[1], parts.allSatisfy({ $0 != nil }) else {
            return false
        }
        return first == 10 || (first == 172 && (16...31).contains(second)) || (first == 192 && second == 168)
    }

    /// The mobile API the app uses while following (screens, navigation, documents, data).
    public var mobileURL: URL { url.appendingPathComponent("api/mobile") }
    /// The admin API the app uses while following.
    public var adminURL: URL { url.appendingPathComponent("api/admin") }
    /// Whether the preview's host is this machine's loopback.
    public var isLoopback: Bool {
        Self.loopbackHosts.contains((url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }
    /// The hosts plain http may reach while following: the preview's own, when it is not loopback.
    var insecureHosts: Set<String> { isLoopback || url.scheme == "https" ? [] : Set([url.host ?? ""].map { $0.lowercased() }) }

    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// Debug or release, as the module was compiled.
    enum BuildKind: Sendable {
        case debug, release

        static var current: BuildKind {
            #if DEBUG
                .debug
            #else
                .release
            #endif
        }
    }
}

/// Why an app cannot follow a preview.
public enum DevelopmentPreviewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This is a release build: following a preview is for debug builds only.
    case releaseBuild
    /// The address is not an http(s) address of a preview (it has a user, query or fragment, or no host).
    case notAPreviewAddress(String)
    /// The host is neither loopback nor one of the allowed hosts.
    case hostNotAllowed(String)

    public var description: String {
        switch self {
        case .releaseBuild: "a release build cannot follow a preview"
        case .notAPreviewAddress(let text): "'\(text)' is not a preview's address (http://HOST:PORT/)"
        case .hostNotAllowed(let host):
            "the preview's host '\(host)' is neither this machine's loopback nor one of the allowed hosts"
        }
    }
}

/// Where following a preview stands, for the banner an app shows while it follows.
public enum PreviewFollowState: Sendable, Hashable {
    /// Connecting to the preview at the address.
    case connecting(URL)
    /// Following: the preview's catalog is valid; `generation` counts its changes.
    case following(URL, generation: Int)
    /// The last save broke the catalog: these are its errors; the last good screens stay shown.
    case broken(URL, errors: [String])
    /// The preview cannot be reached; the app retries.
    case disconnected(URL, message: String)
    /// The configured address was refused, so the app does not follow.
    case refused(String)

    /// One line for the banner, in the words of `strings`.
    public func summary(_ strings: DynamicUIStrings) -> String {
        switch self {
        case .connecting(let url): strings(.previewConnecting, Self.address(url))
        case .following(let url, _): strings(.previewFollowing, Self.address(url))
        case .broken(_, let errors): strings(.previewBroken, String(errors.count))
        case .disconnected(let url, let message): strings(.previewUnreachable, Self.address(url), message)
        case .refused(let message): strings(.previewRefused, message)
        }
    }

    /// The errors of a broken save (empty otherwise).
    public var errors: [String] {
        if case .broken(_, let errors) = self { errors } else { [] }
    }

    /// Whether the banner reports a problem.
    public var isProblem: Bool {
        switch self {
        case .connecting, .following: false
        case .broken, .disconnected, .refused: true
        }
    }

    private static func address(_ url: URL) -> String { url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? "" }
}

/// Follows a preview: asks `/_/follow` for the catalog's generation, waiting for the next one
/// (a long poll, so a save arrives within a few hundredths of a second), and hands every valid
/// change to the runtime. A broken catalog is reported and not applied; an unreachable
/// preview is retried every few seconds.
@MainActor
final class PreviewFollower {
    private let preview: DevelopmentPreview
    private let transport: any HTTPTransport
    private let dialect: String
    private let client = UUID().uuidString
    private let logger: Logger
    private let report: @MainActor (PreviewFollowState) -> Void
    private let changed: @MainActor () async -> Void
    private let shownScreen: @MainActor () -> String?
    private var task: Task<Void, Never>?

    /// How long the preview holds a request without a change before it answers anyway (below
    /// the idle timeouts of servers and proxies in between).
    static let holdSeconds = 10

    init(
        preview: DevelopmentPreview, transport: any HTTPTransport, dialect: String, logger: Logger,
        report: @escaping @MainActor (PreviewFollowState) -> Void, changed: @escaping @MainActor () async -> Void,
        shownScreen: @escaping @MainActor () -> String?
    ) {
        self.preview = preview
        self.transport = transport
        self.dialect = dialect
        self.logger = logger
        self.report = report
        self.changed = changed
        self.shownScreen = shownScreen
    }

    /// Starts following (a second call does nothing). The follower is held only while it asks:
    /// when its runtime goes, it stops after the question under way.
    func start() {
        guard task == nil, DevelopmentPreview.isAvailable else { return }
        report(.connecting(preview.url))
        task = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                await self.step()
            }
        }
    }

    /// Stops following.
    func stop() {
        task?.cancel()
        task = nil
    }

    private var generation: Int?
    private var failures = 0

    /// Asks once and acts on the answer: applies a valid change, reports a broken catalog, or
    /// waits before asking again when the preview cannot be reached.
    private func step() async {
        do throws(PreviewFollowError) {
            // After a failure the question is asked anew (answered at once): a preview started
            // again counts from zero, and what changed while it was away is not known.
            let reconnected = failures > 0
            let answer = try await poll(since: reconnected ? nil : generation)
            failures = 0
            guard !Task.isCancelled else { return }
            let previous = generation
            generation = answer.generation
            guard answer.errors.isEmpty else { return report(.broken(preview.url, errors: answer.errors)) }
            report(.following(preview.url, generation: answer.generation))
            if let previous, previous != answer.generation || reconnected {
                logger.info("the preview changed (generation \(answer.generation)): applying it")
                await changed()
            }
        } catch {
            guard !Task.isCancelled else { return }
            failures += 1
            report(.disconnected(preview.url, message: error.description))
            // 1, 2, 4, then every 5 seconds: a preview restarted is found again quickly.
            let seconds = min(5, 1 << min(failures - 1, 3))
            try? await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
        }
    }

    /// One question to the preview: its generation now, or once it differs from `since`.
    private func poll(since: Int?) async throws(PreviewFollowError) -> (generation: Int, errors: [String]) {
        var components = URLComponents(
            url: preview.url.appendingPathComponent("_/follow"), resolvingAgainstBaseURL: false)
        var query = [
            URLQueryItem(name: "client", value: client), URLQueryItem(name: "app", value: preview.appName),
            URLQueryItem(name: "dialect", value: dialect),
        ]
        if let since { query.append(URLQueryItem(name: "since", value: String(since))) }
        if let screen = shownScreen() { query.append(URLQueryItem(name: "screen", value: String(screen.prefix(80)))) }
        components?.queryItems = query
        guard let url = components?.url else { throw PreviewFollowError("the preview's address cannot be asked") }
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(
                    method: .get, url: url, headers: ["Accept": "application/json"],
                    timeout: Double(Self.holdSeconds + 10), maxResponseBytes: 1 << 20, redirectScope: [preview.url]))
        } catch {
            throw PreviewFollowError(error.description)
        }
        guard response.status == 200 else { throw PreviewFollowError("it answered \(response.status)") }
        let json: JSONValue
        do {
            json = try JSONReader().read(response.body)
        } catch {
            throw PreviewFollowError("its answer is not JSON: \(error)")
        }
        guard let generation = json["generation"]?.intValue, generation >= 0 else {
            throw PreviewFollowError("its answer has no generation")
        }
        let errors = (json["errors"]?.arrayValue ?? []).prefix(50).compactMap(\.stringValue)
        return (generation, Array(errors))
    }
}

/// Why a question to the preview failed.
struct PreviewFollowError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
