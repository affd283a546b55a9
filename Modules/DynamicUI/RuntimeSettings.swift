public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
public import Foundation
public import Logging

/// What a runtime of either dialect takes from its host besides what it shows: how it reaches
/// its server, what it accepts from it, how it formats, where it logs, what clock it reads and
/// who hears about its events. Both configurations hold one, and read as if its members were
/// their own (`configuration.locale`).
public struct RuntimeSettings: Sendable {
    /// Allow plain http to loopback hosts (debug builds and the demo backend).
    public var allowInsecureLoopback: Bool
    /// Seconds before a request times out.
    public var timeout: Double
    /// Retries and backoff of API requests.
    public var retryPolicy: RetryPolicy
    /// Which external URLs an action may open (`OPEN_URL`, `open_url`).
    public var security: URLSecurityPolicy
    /// Bounds on everything a server sends: body size, JSON, documents, expressions, items.
    public var limits: DynamicUILimits
    /// Locale of formatted dates and of the SDK's own words; the device's by default.
    public var locale: Locale
    /// Time zone of formatted dates.
    public var timeZone: TimeZone
    /// The root of the SDK's loggers (`.network`, `.events`, … are derived from its label).
    public var logger: Logger
    /// The clock (a `ManualClock` in tests and previews).
    public var clock: any DynamicUIClock
    /// Who hears about screens loaded, elements seen, actions performed and errors; `nil`
    /// gives a swift-log observer (the `.events` logger) and a swift-metrics one.
    public var observers: [any DynamicUIObserver]?
    /// The preview this app follows (`follow(_:)`, debug builds only); `nil` when it follows none.
    public internal(set) var developmentPreview: DevelopmentPreview?
    /// Why the preview named by the environment was refused; the app's banner shows it.
    public internal(set) var developmentPreviewProblem: DevelopmentPreviewError?

    /// Creates the settings; each has the SDK's default.
    public init(
        allowInsecureLoopback: Bool = false, timeout: Double = 30, retryPolicy: RetryPolicy = .default,
        security: URLSecurityPolicy = URLSecurityPolicy(hosts: []), limits: DynamicUILimits = .default,
        locale: Locale = .current, timeZone: TimeZone = .current, logger: Logger = Logger(label: "DynamicUI"),
        clock: any DynamicUIClock = SystemClock(), observers: [any DynamicUIObserver]? = nil
    ) {
        self.allowInsecureLoopback = allowInsecureLoopback
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.security = security
        self.limits = limits
        self.locale = locale
        self.timeZone = timeZone
        self.logger = logger
        self.clock = clock
        self.observers = observers
    }

    /// A logger below the root one (`DynamicUI.network`), at its level.
    func logger(_ part: String) -> Logger {
        var logger = Logger(label: "\(self.logger.label).\(part)")
        logger.logLevel = self.logger.logLevel
        return logger
    }

    /// The observers to report to: the configured ones, or a swift-log and a swift-metrics one.
    var resolvedObservers: DynamicUIObservers {
        DynamicUIObservers(observers ?? [LoggingObserver(logger: logger("events")), MetricsObserver()])
    }

    /// The API client's configuration for these settings and the two base URLs (a session is
    /// refreshed at the client's default endpoint).
    func api(adminBaseURL: URL, mobileBaseURL: URL) -> APIConfiguration {
        var api = APIConfiguration(
            adminBaseURL: adminBaseURL, mobileBaseURL: mobileBaseURL, allowInsecureLoopback: allowInsecureLoopback,
            timeout: timeout, retryPolicy: retryPolicy, readerLimits: limits.reader)
        api.insecureHosts = developmentPreview?.insecureHosts ?? []
        return api
    }
}

/// A runtime's configuration: its `RuntimeSettings`, read as its own members, and the
/// development preview it may follow.
@dynamicMemberLookup
public protocol RuntimeConfiguration: Sendable {
    /// What the runtime takes from its host besides what it shows.
    var settings: RuntimeSettings { get set }
    /// Points the configuration at `preview`'s demo backend (`nil`: follows none).
    mutating func follow(_ preview: DevelopmentPreview?)
}

extension RuntimeConfiguration {
    /// A setting, read as the configuration's own (`configuration.locale`).
    public subscript<Value>(dynamicMember keyPath: KeyPath<RuntimeSettings, Value>) -> Value {
        settings[keyPath: keyPath]
    }

    /// A setting, read and written as the configuration's own (`configuration.timeout = 10`).
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<RuntimeSettings, Value>) -> Value {
        get { settings[keyPath: keyPath] }
        set { settings[keyPath: keyPath] = newValue }
    }

    /// Follows the preview that `DYNAMICUI_PREVIEW` names, in debug builds; nothing when it is
    /// unset or in a release build. A refused address is kept in `developmentPreviewProblem`.
    public mutating func followDevelopmentPreview(
        environment: [String: String] = ProcessInfo.processInfo.environment, allowedHosts: Set<String> = []
    ) {
        let (preview, problem) = DevelopmentPreview.reading(environment, allowedHosts: allowedHosts)
        follow(preview)
        settings.developmentPreviewProblem = problem
    }

    /// Records `preview` as followed (or none) and allows plain http to its loopback backend;
    /// the configuration then points its own addresses at it.
    mutating func recordFollowing(_ preview: DevelopmentPreview?) {
        settings.developmentPreview = preview
        settings.developmentPreviewProblem = nil
        if preview != nil { settings.allowInsecureLoopback = true }
    }
}
