public import DynamicUIActions
public import DynamicUIModels
public import DynamicUIRendering
public import DynamicUIResolvers

/// What the screen models of one app work with: the loaders, the action dispatcher, the
/// navigation, how expressions evaluate, the clock, the app's native components, the observers
/// and the URL policy. The runtime builds one for all its models.
public struct ScreenServices {
    /// Loads (and caches) screen definitions.
    public var screens: ScreenLoader
    /// Loads a screen's data, page by page.
    public var data: DataLoader
    /// Runs actions: the screen's handler first, then the generic registry.
    public var dispatcher: ActionDispatcher
    /// Where navigation results go.
    public var navigation: NavigationModel
    /// Dates, locale, time zone and limits of evaluation; its "now" follows `clock`.
    public var environment: EvaluationEnvironment
    /// The clock of timers, polling, banners and waits (a `ManualClock` in tests).
    public var clock: any DynamicUIClock
    /// The app's native components (slots of their `control_type` draw them).
    public var nativeComponents: NativeComponentRegistry
    /// Who hears about actions, renders and impressions.
    public var observers: DynamicUIObservers
    /// Which external URLs an action may open; `nil` leaves the decision to the host.
    public var urlPolicy: URLSecurityPolicy?
    /// The runtime's count of data changes (a screen whose data is older reloads).
    var dataRevision: DataRevision?

    /// Services over the given loaders, dispatcher and navigation; the rest have defaults.
    public init(
        screens: ScreenLoader, data: DataLoader, dispatcher: ActionDispatcher, navigation: NavigationModel,
        environment: EvaluationEnvironment, clock: any DynamicUIClock = SystemClock(),
        nativeComponents: NativeComponentRegistry = .empty, observers: DynamicUIObservers = .none,
        urlPolicy: URLSecurityPolicy? = nil
    ) {
        (self.screens, self.data, self.dispatcher, self.navigation) = (screens, data, dispatcher, navigation)
        (self.environment, self.clock, self.nativeComponents) = (environment, clock, nativeComponents)
        (self.observers, self.urlPolicy) = (observers, urlPolicy)
    }
}

/// What a screen model asks of the app it lives in (the session) and tells it (what its actions
/// did); by default there is no session and nothing is told.
public struct ScreenModelHooks {
    /// The signed-in session, or `nil`.
    public var session: @MainActor () -> SessionInfo?
    /// An action signed out.
    public var signedOut: @MainActor () async -> Void
    /// An action signed in with this session.
    public var signedIn: @MainActor (SessionInfo) async -> Void
    /// An action queued a change offline.
    public var queued: @MainActor () async -> Void
    /// An action finished (the app reloads what it outdated).
    public var performed: @MainActor () async -> Void
    /// The model's screen became the one shown.
    public var shown: @MainActor (DynamicScreenViewModel) -> Void
    /// The number of the session's changes waiting in the offline queue (a sign-out asks first).
    var pendingChangeCount: (@MainActor () -> Int)?
    /// Takes a success or pending message to the screen the user lands on when this one closes.
    var handOff: (@MainActor (Banner) -> Void)?

    /// Hooks that tell the app what is given; the others do nothing.
    public init(
        session: @escaping @MainActor () -> SessionInfo? = { nil }, signedOut: @escaping @MainActor () async -> Void = {},
        signedIn: @escaping @MainActor (SessionInfo) async -> Void = { _ in },
        queued: @escaping @MainActor () async -> Void = {}, performed: @escaping @MainActor () async -> Void = {},
        shown: @escaping @MainActor (DynamicScreenViewModel) -> Void = { _ in }
    ) {
        (self.session, self.signedOut, self.signedIn) = (session, signedOut, signedIn)
        (self.queued, self.performed, self.shown) = (queued, performed, shown)
    }
}
