public import DynamicUIModels
public import DynamicUINetwork
public import DynamicUIStorage
public import Foundation
public import Logging

/// Invalidates cached screens and data after a change. The runtime implements
/// it over its screen loader and the API client's response cache.
public protocol CacheInvalidating: Sendable {
    /// Marks the cached definitions of these screens for revalidation (their data is invalidated
    /// by endpoint, through `invalidateData`).
    func invalidate(screens: [String]) async
    /// Forgets cached responses of this endpoint family.
    func invalidateData(endpoint: Endpoint) async
    /// Forgets everything (sign out).
    func clearAll() async
}

/// Invalidation that only clears the API client's response cache; screen keys are ignored.
public struct ResponseCacheInvalidator: CacheInvalidating {
    /// The client whose cache is cleared.
    public let client: APIClient?

    /// Creates the invalidator.
    public init(client: APIClient?) { self.client = client }

    /// Screen definitions are not held here.
    public func invalidate(screens: [String]) async {}
    /// Clears the endpoint family from the response cache.
    public func invalidateData(endpoint: Endpoint) async { await client?.invalidateCache(for: endpoint) }
    /// Clears the response cache.
    public func clearAll() async { await client?.cache?.clearAll() }
}

/// Which external URLs `OPEN_URL` may open (DESIGN rule 4): allowed schemes (https by default)
/// and allowed hosts (a host or any subdomain of it).
public struct URLSecurityPolicy: Sendable, Hashable {
    /// Allowed schemes, lower-case.
    public var schemes: Set<String>
    /// Allowed hosts, lower-case; `example.com` also allows `www.example.com`.
    public var hosts: Set<String>

    /// Creates a policy.
    public init(schemes: Set<String> = ["https"], hosts: Set<String>) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// Whether `url` may be opened: an allowed scheme and host, the host judged as written (no
    /// user info, no `%`, only `a-z 0-9 . -` in non-empty labels), never as Foundation decodes it.
    public func allows(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), schemes.contains(scheme) else { return false }
        if scheme == "mailto" || scheme == "tel" { return true }
        // `url.host` is percent-decoded: `evil.com%2F.edugo.app` reads as a subdomain of
        // `edugo.app` there, while an opener may go to `evil.com`.
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.percentEncodedUser == nil, components.percentEncodedPassword == nil,
            let host = components.percentEncodedHost?.lowercased(), Self.isDNSName(host)
        else { return false }
        return hosts.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// Whether `host` is a DNS name as written: labels of 1 to 63 characters from `a-z`, `0-9` and
    /// `-` (not at either end), joined by single dots, without a trailing dot.
    static func isDNSName(_ host: String) -> Bool {
        guard host.utf8.count <= 253 else { return false }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            let bytes = label.utf8
            guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else {
                return false
            }
            return bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-")
            }
        }
    }
}

/// A host function for a `CUSTOM` event: gets the evaluated payload.
public typealias EventHandler = @Sendable (_ payload: JSONObject, _ context: ActionContext) async -> ActionResult

/// Host-registered handlers of `CUSTOM` events, by event name; built once.
public struct EventHandlerRegistry: Sendable {
    private let handlers: [String: EventHandler]

    /// A registry of `handlers`.
    public init(_ handlers: [String: EventHandler] = [:]) { self.handlers = handlers }

    /// The handler of `event`.
    public func handler(for event: String) -> EventHandler? { handlers[event] }

    /// The registered event names.
    public var events: [String] { handlers.keys.sorted() }
}

/// What handlers may use, injected once at start.
public struct ActionServices: Sendable {
    /// The API client (`nil` when the app runs without a backend).
    public let api: APIClient?
    /// The session tokens.
    public let tokens: any TokenStore
    /// App settings.
    public let settings: any SettingsStore
    /// Cache invalidation.
    public let invalidator: any CacheInvalidating
    /// Which external URLs may be opened.
    public let security: URLSecurityPolicy
    /// `CUSTOM` event handlers.
    public let events: EventHandlerRegistry
    /// The logger.
    public let logger: Logger
    /// The SDK's words in the configured language (messages of action results).
    public let strings: DynamicUIStrings

    /// Creates the services.
    public init(
        api: APIClient?, tokens: any TokenStore, settings: any SettingsStore, invalidator: (any CacheInvalidating)? = nil,
        security: URLSecurityPolicy, events: EventHandlerRegistry = EventHandlerRegistry(),
        logger: Logger = Logger(label: "DynamicUI.actions"), strings: DynamicUIStrings = .current
    ) {
        self.strings = strings
        self.api = api
        self.tokens = tokens
        self.settings = settings
        self.invalidator = invalidator ?? ResponseCacheInvalidator(client: api)
        self.security = security
        self.events = events
        self.logger = logger
    }
}
