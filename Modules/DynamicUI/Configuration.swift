public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
public import DynamicUIRendering
public import Foundation
public import Logging

/// Everything a host decides about a screen-dialect app, with defaults for the rest. What it
/// shares with a node app's configuration (timeouts, limits, locale, logger, clock, observers)
/// is in `settings`, read as its own members (`configuration.locale`).
public struct DynamicUIConfiguration: RuntimeConfiguration {
    /// Base URL of the admin API (`admin:` endpoints).
    public var adminBaseURL: URL
    /// Base URL of the mobile API (screens, navigation, `mobile:` and unprefixed endpoints).
    public var mobileBaseURL: URL
    /// Whose screen variants and `platform_overrides` are requested.
    public var platform: RenderPlatform
    /// Deep-link schemes accepted by `DynamicUIRuntime.open(deepLink:)` (`edugo://screen/<key>`).
    public var deepLinkSchemes: Set<String>
    /// Screens beyond the role's navigation that a deep link may open (a record's detail);
    /// `nil` or empty: only the navigation's own screens.
    public var deepLinkScreens: Set<String>?
    /// The parameters a deep link may give each screen (`["material-detail": ["id"]]`); any
    /// other parameter of a link is dropped.
    public var deepLinkParameters: [String: Set<String>]
    /// Screen definitions kept in memory (20 by default).
    public var screenCacheSize: Int
    /// Seconds a cached screen definition is fresh (one hour by default).
    public var screenMaxAge: Double
    /// Where screen definitions are also kept on disk; `nil` keeps them only in memory.
    public var screenCacheDirectory: URL?
    /// Responses kept by the API client's cache.
    public var responseCacheEntries: Int
    /// Body bytes kept by the API client's cache.
    public var responseCacheBytes: Int
    /// Where the API client's cached responses are also kept on disk, so a cold start without a
    /// connection shows the last data of each screen (marked as saved data); `nil` keeps them in
    /// memory only. Signing out deletes them: they belong to one user.
    public var responseCacheDirectory: URL?
    /// How a 409 on a queued change is resolved.
    public var conflictStrategy: ConflictStrategy
    /// The screen shown while signed out.
    public var loginScreenKey: String
    /// The tabs shown while the server's navigation cannot be loaded (the home screen of each
    /// role among them).
    public var fallbackNavigation: FallbackNavigation
    /// Timeouts, retries, limits, the URL policy, locale, time zone, logger, clock and observers;
    /// set them one by one (`configuration.timeout = 10`): a new value whole drops the preview followed.
    public var settings: RuntimeSettings

    /// Creates a configuration for the two APIs; everything else has the SDK's defaults.
    public init(
        adminBaseURL: URL, mobileBaseURL: URL, platform: RenderPlatform = .ios, allowInsecureLoopback: Bool = false,
        timeout: Double = 30, retryPolicy: RetryPolicy = .default, security: URLSecurityPolicy = URLSecurityPolicy(hosts: []),
        deepLinkSchemes: Set<String> = [], deepLinkScreens: Set<String>? = nil,
        deepLinkParameters: [String: Set<String>] = [:], screenCacheSize: Int = 20,
        screenMaxAge: Double = 3600, screenCacheDirectory: URL? = nil, responseCacheEntries: Int = 100,
        responseCacheBytes: Int = 10 << 20, responseCacheDirectory: URL? = nil, conflictStrategy: ConflictStrategy = .serverWins,
        limits: DynamicUILimits = .default,
        locale: Locale = .current, timeZone: TimeZone = .current, loginScreenKey: String = "app-login",
        fallbackNavigation: FallbackNavigation = .standard,
        logger: Logger = Logger(label: "DynamicUI"), clock: any DynamicUIClock = SystemClock(),
        observers: [any DynamicUIObserver]? = nil
    ) {
        self.adminBaseURL = adminBaseURL
        self.mobileBaseURL = mobileBaseURL
        self.platform = platform
        self.deepLinkSchemes = deepLinkSchemes
        self.deepLinkScreens = deepLinkScreens
        self.deepLinkParameters = deepLinkParameters
        self.screenCacheSize = screenCacheSize
        self.screenMaxAge = screenMaxAge
        self.screenCacheDirectory = screenCacheDirectory
        self.responseCacheEntries = responseCacheEntries
        self.responseCacheBytes = responseCacheBytes
        self.responseCacheDirectory = responseCacheDirectory
        self.conflictStrategy = conflictStrategy
        self.loginScreenKey = loginScreenKey
        self.fallbackNavigation = fallbackNavigation
        settings = RuntimeSettings(
            allowInsecureLoopback: allowInsecureLoopback, timeout: timeout, retryPolicy: retryPolicy, security: security,
            limits: limits, locale: locale, timeZone: timeZone, logger: logger, clock: clock, observers: observers)
    }

    /// Follows `preview` (`nil`: none): screens, navigation and data come from the preview's
    /// demo backend, and each saved change shows in the running app.
    public mutating func follow(_ preview: DevelopmentPreview?) {
        recordFollowing(preview)
        guard let preview else { return }
        mobileBaseURL = preview.mobileURL
        adminBaseURL = preview.adminURL
    }
}
