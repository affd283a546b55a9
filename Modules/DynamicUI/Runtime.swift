public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
public import DynamicUIRendering
import DynamicUIResolvers
public import DynamicUIStorage
public import Foundation
import Logging
public import Observation

/// Whether someone is signed in.
public enum AuthState: Sendable, Hashable {
    /// Nobody: the login screen is shown.
    case signedOut
    /// A session, restored at start or from a sign-in.
    case signedIn(SessionInfo)
}

/// The SDK assembled from a configuration and the host's plugins and stores, in dependency
/// order with plain injection: stores and connectivity, the API client, the loaders, then
/// the action registries with the plugins. `start()` restores the session and begins syncing;
/// `stop()` ends it.
@Observable
@MainActor
public final class DynamicUIRuntime: AppHosting {
    /// The configuration it was built from.
    public let configuration: DynamicUIConfiguration
    /// The API client (both APIs, interceptors, caching, queuing).
    public let client: APIClient
    /// Screen definitions.
    public let screens: ScreenLoader
    /// Screen data.
    public let data: DataLoader
    /// Action execution: the plugins' handlers, then the generic registry.
    public let dispatcher: ActionDispatcher
    /// The host's native components, drawn for their `control_type`.
    public let nativeComponents: NativeComponentRegistry
    /// What this app can draw, sent with every screen request.
    public let capabilities: ClientCapabilities
    /// The observers of the SDK's events.
    public let observers: DynamicUIObservers
    /// Tabs, sidebar and the stack.
    public let navigation: NavigationModel
    /// The offline queue's processor, when a queue store was given.
    public let queue: OfflineQueue?
    /// Replays the queue when the connection returns.
    public let sync: NetworkSyncCoordinator?
    /// The connectivity monitor.
    public let connectivity: any ConnectivityMonitor
    /// Signed in or out.
    public private(set) var auth: AuthState = .signedOut
    /// Changes waiting in the offline queue.
    public private(set) var pendingChanges = 0
    /// Whether the connection is up, as last reported by the monitor.
    public private(set) var isConnected = true
    /// Dark mode chosen in the settings (`dark_mode`); `nil` follows the system.
    public private(set) var darkMode: Bool?
    /// The screen most recently shown (loaded by its view model): what the menu commands act on.
    public private(set) var activeScreen: ScreenDefinition?
    @ObservationIgnored private weak var activeModel: DynamicScreenViewModel?
    /// Whether `start()` ran and `stop()` has not.
    public private(set) var isRunning = false
    /// True from creation until `start()` has looked for a saved session: show a launch view
    /// then, not the login screen (which would flash before a restored dashboard).
    public private(set) var isRestoring = true
    /// The view models made by `viewModel(for:)` that are still alive (held by a view).
    @ObservationIgnored private var liveModels: [WeakModel] = []
    /// The view model of each route the navigation may show, by route id: made when the route
    /// appears (a tab, a push, a sheet), released when it goes.
    @ObservationIgnored private var routeModels: [UUID: DynamicScreenViewModel] = [:]
    /// Every route pushed or presented this session (a model of one that went is not shown).
    @ObservationIgnored private var stackRoutesSeen: Set<UUID> = []
    /// A deep link opened while signed out, or while the signed-in navigation loads: it opens
    /// once there is a session and its navigation.
    public private(set) var pendingDeepLink: URL?
    /// Whether the navigation of a new session is loading (a deep link waits for it).
    public private(set) var isLoadingNavigation = false
    /// Following a development preview: where it stands, for the banner (`nil` when the app
    /// follows none).
    public private(set) var previewFollow: PreviewFollowState?
    @ObservationIgnored private var follower: PreviewFollower?
    /// Counts the sessions begun and ended: a view keyed by it is drawn anew with fresh models.
    public private(set) var modelGeneration = 0
    /// The scene's phase as last reported by the host.
    public private(set) var scenePhase: HostScenePhase = .active
    /// Whether the app is in the background (polling and timers paused until it is active).
    @ObservationIgnored private var isInBackground = false
    /// The last scene-phase change, so that changes apply in the order they happened.
    @ObservationIgnored private var phaseChange: Task<Void, Never>?
    /// A message waiting for the screen the user lands on (a sheet closed after saving).
    @ObservationIgnored private var carriedBanner: Banner?
    private let revision = DataRevision()

    private let tokens: any TokenStore
    /// The offline queue's store: its changes belong to the signed-in account.
    private let queueStore: OfflineQueueStore?
    private let settings: any SettingsStore
    private let responseCache: ResponseCache
    private let logger: Logger
    private var tasks: [Task<Void, Never>] = []

    /// Builds the runtime. `queueStore` makes changes survive a lost connection (and restarts);
    /// `connectivity` defaults to `NWPathMonitor` on Apple platforms and to probing the mobile
    /// API every 10 seconds elsewhere. Throws when two plugins claim the same handler key.
    public init(
        configuration: DynamicUIConfiguration, plugins: [any ScreenHandlerPlugin], tokens: any TokenStore,
        settings: any SettingsStore, queueStore: OfflineQueueStore? = nil, transport: any HTTPTransport = URLSessionTransport(),
        connectivity: (any ConnectivityMonitor)? = nil, events: EventHandlerRegistry = EventHandlerRegistry(),
        interceptors: [any RequestInterceptor] = [], components: NativeComponentRegistry = .empty
    ) throws(PluginRegistrationError) {
        self.configuration = configuration
        nativeComponents = components
        capabilities = .sdk(platform: configuration.platform, components: components)
        observers = configuration.settings.resolvedObservers
        self.tokens = tokens
        self.settings = settings
        self.queueStore = queueStore
        logger = configuration.logger
        let clock = configuration.clock
        // 1. Base services: caches, queue, connectivity.
        responseCache = ResponseCache(
            maxEntries: configuration.responseCacheEntries, maxBytes: configuration.responseCacheBytes,
            directory: configuration.responseCacheDirectory, clock: clock)
        self.connectivity = connectivity ?? Self.defaultConnectivity(transport: transport, configuration: configuration)
        // 2–4. Security, auth and the API client.
        client = APIClient(
            configuration: configuration.settings.api(
                adminBaseURL: configuration.adminBaseURL, mobileBaseURL: configuration.mobileBaseURL),
            transport: transport, tokens: tokens, cache: responseCache, queue: queueStore, clock: clock,
            logger: configuration.settings.logger("network"), interceptors: interceptors)
        if let queueStore {
            let queue = OfflineQueue(
                store: queueStore, client: client, strategy: configuration.conflictStrategy, clock: clock,
                logger: configuration.settings.logger("queue"))
            self.queue = queue
            sync = NetworkSyncCoordinator(monitor: self.connectivity, queue: queue, clock: clock)
        } else {
            queue = nil
            sync = nil
        }
        // 5–6. Loaders.
        screens = ScreenLoader(
            client: client,
            cache: ScreenCache(
                memoryCapacity: configuration.screenCacheSize, maxAge: configuration.screenMaxAge,
                directory: configuration.screenCacheDirectory, clock: clock),
            platform: configuration.platform.rawValue, limits: configuration.limits, capabilities: capabilities,
            observers: observers, logger: configuration.settings.logger("screens"))
        data = DataLoader(client: client, maxItems: configuration.limits.maxDataItems)
        // 7. Actions and the plugins.
        let services = ActionServices(
            api: client, tokens: tokens, settings: settings,
            invalidator: RuntimeInvalidator(client: client, screens: screens, revision: revision),
            security: configuration.security, events: events, logger: configuration.settings.logger("actions"),
            strings: DynamicUIStrings(locale: configuration.locale))
        dispatcher = ActionDispatcher(
            screenHandlers: try ScreenHandlerRegistry(plugins: plugins, services: services),
            registry: ActionRegistry(services: services))
        navigation = NavigationModel(
            fallback: configuration.fallbackNavigation, strings: DynamicUIStrings(locale: configuration.locale))
        navigation.reset(to: configuration.loginScreenKey)
        navigation.didChange = { [weak self] in self?.keepModelsOfShownRoutes() }
        keepModelsOfShownRoutes()
        if let problem = configuration.developmentPreviewProblem { previewFollow = .refused(problem.description) }
        if let preview = configuration.developmentPreview {
            follower = PreviewFollower(
                preview: preview, transport: transport, dialect: "screens", logger: configuration.settings.logger("preview"),
                report: { [weak self] in self?.previewFollow = $0 }, changed: { [weak self] in await self?.previewChanged() },
                shownScreen: { [weak self] in self?.navigation.current?.screenKey })
        }
    }

    /// The SDK's words in the configured locale (and its layout direction).
    public var strings: DynamicUIStrings { DynamicUIStrings(locale: configuration.locale) }

    /// The signed-in session, if any.
    public var session: SessionInfo? {
        if case .signedIn(let session) = auth { return session }
        return nil
    }

    /// Whether someone is signed in.
    public var isSignedIn: Bool { session != nil }

    // MARK: Lifecycle

    /// Restores a saved session (then loads its navigation), starts the sync coordinator and
    /// follows connectivity and the queue. Calling it twice is harmless.
    public func start() async {
        guard !isRunning else { return }
        isRunning = true
        follower?.start()
        await reloadAppearance()
        if let restored = await SessionPersistence.restore(tokens: tokens, settings: settings) {
            // Who it is stays out of the logs but at debug level.
            logger.info("restored a saved session")
            logger.debug("restored the session of \(restored.user.email)")
            await signedIn(restored, destination: nil)
        } else {
            // No session to restore (it ended while the app was away: a failed refresh, a
            // revoked token): nothing of it is kept for the next one.
            await responseCache.setAccount(nil)
            queueStore?.setOwner(nil)
        }
        isRestoring = false
        // A link that launched the app arrived before the session was restored.
        openPendingDeepLink()
        let updates = await connectivity.updates()
        tasks.append(
            Task { [weak self] in
                for await connected in updates {
                    guard let self else { return }
                    let returned = connected && !isConnected
                    isConnected = connected
                    await countPending()
                    if returned { await connectionReturned() }
                }
            })
        guard let sync, let queue else { return }
        await sync.startMonitoring()
        await countPending()
        let events = await queue.events()
        tasks.append(
            Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    switch event {
                    case .expired(let request):
                        observers.emit(
                            .error(
                                ErrorEvent(
                                    .queueDropped, screen: nil,
                                    message: "\(request.method) \(request.url) dropped after 24 h undelivered")))
                    case .conflictResolved(let request, strategy: .serverWins):
                        await queuedChangeRefused(request, message: strings(.queuedChangeConflict))
                    case .delivered:
                        // What the screens show was loaded before the change reached the server.
                        await responseCache.clearAll()
                        revision.advance()
                        for model in visibleModels() { await model.reloadIfOutdated() }
                    case .rejected(let request, let error):
                        let reason = error.body?["message"]?.stringValue ?? strings(.operationFailed)
                        await queuedChangeRefused(request, message: strings(.queuedChangeRefused, reason))
                    default:
                        break
                    }
                    await countPending()
                }
            })
    }

    /// A change made offline that the server refused on delivery: the person who made it is told
    /// on the screen shown (or the next one shown), and the screens it touched load afresh.
    private func queuedChangeRefused(_ request: QueuedRequest, message: String) async {
        observers.emit(
            .error(ErrorEvent(.queueDropped, screen: nil, message: "\(request.method) \(request.url) refused on delivery")))
        let banner = Banner(kind: .error, message: message)
        if let model = visibleModels().last {
            model.show(banner: banner)
        } else {
            carriedBanner = banner
        }
        // What the screens show may be the refused change's optimistic picture: they load again.
        await responseCache.clearAll()
        revision.advance()
        for model in visibleModels() { await model.reloadIfOutdated() }
    }

    /// Stops syncing and following connectivity. The session stays saved for the next start.
    public func stop() async {
        guard isRunning else { return }
        isRunning = false
        follower?.stop()
        for task in tasks { task.cancel() }
        tasks.removeAll()
        await sync?.stopMonitoring()
    }

    /// Replays the offline queue now (when connected) and returns its report.
    @discardableResult
    public func syncNow() async -> SyncReport? {
        let report = await sync?.syncNow()
        await countPending()
        return report
    }

    private func countPending() async {
        guard let queue else { return }
        pendingChanges = (try? await queue.pending().count) ?? pendingChanges
    }

    // MARK: Auth and navigation

    /// Loads the navigation of the signed-in user (`GET /v1/screens/navigation?platform=…`);
    /// when it cannot be loaded, the configured fallback for their role is used.
    public func loadNavigation() async { await loadNavigation(keepingPlace: false) }

    /// Loads the navigation; `keepingPlace` keeps the selected entry and the stacks.
    private func loadNavigation(keepingPlace: Bool) async {
        let role = session?.context.role
        var loaded: NavigationDefinition?
        do throws(NetworkError) {
            var request = APIRequest(.get, "/v1/screens/navigation", query: [("platform", configuration.platform.rawValue)])
            request.queueWhenOffline = false
            loaded = try await client.send(request).decode(NavigationDefinition.self)
        } catch {
            logger.notice("navigation unavailable (\(error.code)); using the fallback for \(role ?? "no role")")
        }
        if keepingPlace { navigation.update(loaded, role: role) } else { navigation.apply(loaded, role: role) }
    }

    /// A change saved in the followed preview: the definitions and the navigation load again,
    /// keeping the place, and every screen takes its new definition in place.
    func previewChanged() async {
        await responseCache.clearAll()
        await screens.clear()
        // The screen on top first (the one being looked at), then the navigation, then the rest.
        let shown = navigation.current.flatMap { routeModels[$0.id] }
        var seen = Set<ObjectIdentifier>()
        let models = ([shown].compactMap { $0 } + Array(routeModels.values) + liveModels.compactMap(\.model)).filter {
            seen.insert(ObjectIdentifier($0)).inserted
        }
        if let first = models.first { await first.followDefinitionChange() }
        if isSignedIn { await loadNavigation(keepingPlace: true) }
        for model in models.dropFirst() { await model.followDefinitionChange() }
    }

    /// Signs out locally: tokens, the saved session, cached screens and responses and the
    /// stack are cleared, and the login screen is shown. (The settings plugin also tells the
    /// server; this is the part every host needs.)
    public func signOut() async {
        // The account's waiting changes are sent while its credentials are still here; what
        // cannot be sent now is discarded (never replayed as whoever signs in next) and the
        // person is told on the login screen.
        if isSignedIn, (try? await tokens.load()) != nil { await syncNow() }
        let discarded = discardChangesOfEndedSession()
        await SessionPersistence.clear(tokens: tokens, settings: settings)
        await screens.clear()
        await responseCache.setAccount(nil)
        await responseCache.clearAll()
        // Nothing the user saw stays for whoever signs in next: every screen's model goes.
        forgetModels()
        if discarded > 0 {
            carriedBanner = Banner(kind: .error, message: strings(.changesDiscarded, String(discarded)))
        }
        pendingChanges = 0
        auth = .signedOut
        pendingDeepLink = nil
        navigation.apply(nil, role: nil)
        navigation.reset(to: configuration.loginScreenKey)
    }

    private func signedIn(_ session: SessionInfo, destination: String?) async {
        // A new session starts from fresh models (the login screen's goes too), caches that hold
        // only its own answers, and the queue of its own changes.
        forgetModels()
        let account = Self.account(of: session)
        if await responseCache.account != account { await screens.clear() }
        await responseCache.setAccount(account)
        queueStore?.setOwner(account)
        // A link that arrives while the navigation loads waits for it (it would be checked
        // against the fallback, then erased when the loaded navigation is applied).
        isLoadingNavigation = true
        auth = .signedIn(session)
        await loadNavigation()
        isLoadingNavigation = false
        if let destination { navigation.show(destination) }
        await countPending()
    }

    /// The account a session's data belongs to: its user's id (else its e-mail).
    static func account(of session: SessionInfo) -> String {
        session.user.id.isEmpty ? session.user.email : session.user.id
    }

    /// Removes the ended session's changes that are still queued and reports each; returns how many.
    private func discardChangesOfEndedSession() -> Int {
        guard let store = queueStore else { return 0 }
        let removed = (try? store.removeAll(ownedBy: store.owner)) ?? []
        for request in removed {
            observers.emit(
                .error(
                    ErrorEvent(
                        .queueDropped, screen: nil,
                        message: "\(request.method) \(request.url) discarded: its session ended before it was sent")))
        }
        store.setOwner(nil)
        return removed.count
    }

    /// Closes and releases every screen's model: a session ended or began, so none of them may
    /// show what it loaded for another.
    private func forgetModels() {
        var seen = Set<ObjectIdentifier>()
        for model in Array(routeModels.values) + liveModels.compactMap(\.model)
        where seen.insert(ObjectIdentifier(model)).inserted {
            model.closed()
        }
        routeModels.removeAll()
        liveModels.removeAll()
        stackRoutesSeen.removeAll()
        activeModel = nil
        activeScreen = nil
        carriedBanner = nil
        modelGeneration += 1
    }

    /// Opens `scheme://screen/<key>?param=value` when the scheme is configured, the key is well
    /// formed, and the signed-in role may open it: a screen of the role's navigation (selected as
    /// its tab, or pushed where it can be seen) or one `deepLinkScreens` names (pushed). Only the
    /// parameters `deepLinkParameters` declares for the screen go with it. Signed out, or while
    /// the session's navigation loads, the link waits. Returns whether it was accepted.
    @discardableResult
    public func open(deepLink url: URL) -> Bool {
        guard
            let link = DeepLink(url, schemes: configuration.deepLinkSchemes, parameters: configuration.deepLinkParameters)
        else { return false }
        guard isSignedIn, !isLoadingNavigation else {
            pendingDeepLink = url
            return true
        }
        let items = navigation.items(regular: false) + navigation.items(regular: true)
        let roots = Set(items.flatMap { [$0] + ($0.children ?? []) }.map(\.screenKey))
        switch link.destination(roots: roots, linkable: configuration.deepLinkScreens) {
        case .root(let key):
            // A root the device does not draw as a tab (a sidebar-only entry on a phone) is
            // pushed on the first tab rather than selected.
            navigation.show(key)
        case .pushed(let key, let params):
            navigation.push(Route(screenKey: key, params: params))
        case nil:
            logger.notice("deep link to \(link.screenKey) refused: not a screen the app declares for links")
            return false
        }
        return true
    }

    /// The connection came back: the changes waiting in the offline queue are sent (whatever
    /// reported the connection: the coordinator also listens, and a pass running is shared), a
    /// fallback navigation is replaced by the session's own, and each shown screen that could not
    /// load, or shows saved data (launched offline), loads again.
    private func connectionReturned() async {
        if isSignedIn { await syncNow() }
        if isSignedIn, navigation.isFallback {
            isLoadingNavigation = true
            await loadNavigation()
            isLoadingNavigation = false
            openPendingDeepLink()
        }
        for model in visibleModels() where model.failure != nil || model.dataErrorMessage != nil || model.isShowingSavedData {
            await model.refreshAfterFailure()
        }
    }

    /// Opens the link that waited for a session, once there is one (after `start()` restored
    /// it, or after the sign-in action).
    private func openPendingDeepLink() {
        guard isSignedIn, let link = pendingDeepLink else { return }
        pendingDeepLink = nil
        open(deepLink: link)
    }

    // MARK: Screens

    /// The system's path monitor where there is one (Apple platforms), else a probe of the
    /// mobile API every 10 seconds.
    private static func defaultConnectivity(
        transport: any HTTPTransport, configuration: DynamicUIConfiguration
    ) -> any ConnectivityMonitor {
        #if canImport(Network)
            return PathConnectivityMonitor()
        #else
            return ProbingConnectivityMonitor(
                transport: transport, url: configuration.mobileBaseURL, clock: configuration.clock)
        #endif
    }

    private func show(_ model: DynamicScreenViewModel) {
        activeModel = model
        activeScreen = model.compiled?.definition
        if let banner = carriedBanner {
            carriedBanner = nil
            model.show(banner: banner)
        }
    }

    /// After every action: appearance settings are read again, the screens on the stack whose
    /// data changed reload, and a message handed over by a closed screen goes to the one on top.
    private func afterAction() async {
        await reloadAppearance()
        // Signed in from a deep link: the page asked for, not the dashboard.
        openPendingDeepLink()
        liveModels.removeAll { $0.model == nil }
        let top = liveModel(for: navigation.current)
        if let banner = carriedBanner, let top {
            carriedBanner = nil
            top.show(banner: banner)
        }
        for model in visibleModels() where model.isDataOutdated { await model.reloadIfOutdated() }
    }

    /// The live view models of the routes on the stack and of the selected root (the newest
    /// one of each).
    private func visibleModels() -> [DynamicScreenViewModel] {
        let root = navigation.selectedScreenKey.map(Route.root)
        return ([root] + navigation.stack.map(Optional.some)).compactMap { liveModel(for: $0) }
    }

    /// The newest live view model showing `route`: the same stack entry, or for a root, the
    /// same screen without parameters.
    public func liveModel(for route: Route?) -> DynamicScreenViewModel? {
        guard let route else { return nil }
        let inStack = navigation.stack.contains { $0.id == route.id }
        return liveModels.reversed().lazy.compactMap(\.model).first { model in
            inStack
                ? model.route.id == route.id
                : model.route.screenKey == route.screenKey && model.route.params == route.params
                    && !self.navigation.stack.contains { $0.id == model.route.id }
        }
    }

    /// The menu commands of the app and the active screen for `capabilities`
    /// (`MenuCommands.groups`).
    public func commands(for capabilities: PlatformCapabilities) -> [MenuCommandGroup] {
        MenuCommands.groups(
            items: navigation.items(regular: capabilities.sizeClass == .regular), screen: activeScreen,
            capabilities: capabilities, strings: strings)
    }

    /// Runs a menu command: selects a navigation item, or runs or refreshes the active screen.
    public func run(_ command: MenuCommand) async {
        switch command {
        case .select(let screenKey):
            navigation.show(screenKey)
        case .perform(let actionId):
            _ = await activeModel?.perform(actionId: actionId)
        case .refresh:
            await activeModel?.refresh()
        }
    }

    /// Reads the appearance settings again (after an action, which may have changed them).
    public func reloadAppearance() async {
        darkMode = await settings.value(for: "dark_mode")?.boolValue
    }

    /// The horizontal size class changed: the navigation is drawn as tabs (compact) or a
    /// sidebar (regular); a selection the new width does not draw moves onto a visible tab.
    public func sizeClassChanged(regular: Bool) {
        navigation.isRegularWidth = regular
        if isSignedIn { navigation.keepSelectionVisible() }
    }

    /// The view model kept for `route` (a tab's root or an entry of a stack): the same one for
    /// as long as the route is shown, so a view asks for it on every redraw. A route the
    /// navigation does not hold gets a model kept until the navigation next changes.
    public func model(for route: Route) -> DynamicScreenViewModel {
        if let model = routeModels[route.id] { return model }
        let model = viewModel(for: route)
        model.isNavigationRoute = true
        routeModels[route.id] = model
        return model
    }

    /// The app went to the background (`false`) or came back (`true`): every screen's polling
    /// pauses there and resumes here. Hosts report SwiftUI's phases with `scenePhaseChanged(_:)`.
    public func appDidChange(isActive: Bool) async {
        await scenePhaseChanged(isActive ? .active : .background)
    }

    /// The scene's phase changed. Only the background pauses polling, timers and visibility:
    /// `inactive` (Control Center, a system prompt, the app switcher's peek) changes nothing.
    /// Changes apply one after another, in the order reported.
    public func scenePhaseChanged(_ phase: HostScenePhase) async {
        let previous = phaseChange
        let change = Task { [weak self] in
            await previous?.value
            await self?.applyScenePhase(phase)
        }
        phaseChange = change
        await change.value
    }

    private func applyScenePhase(_ phase: HostScenePhase) async {
        scenePhase = phase
        let background = phase == .background
        // Inactive keeps whatever state it came from; active after background resumes.
        guard background || phase == .active, background != isInBackground else { return }
        isInBackground = background
        let models = Array(routeModels.values) + liveModels.compactMap(\.model)
        var seen = Set<ObjectIdentifier>()
        for model in models where seen.insert(ObjectIdentifier(model)).inserted {
            await model.appDidChange(isActive: !background)
        }
        if !background { _ = await sync?.syncNow() }
    }

    /// How many view models the runtime keeps for the routes shown (tabs' roots and stacks).
    public var keptModelCount: Int { routeModels.count }

    /// The routes drawn now: the selected root unless something is pushed over it, and the top
    /// of each level of its stack (a sheet does not hide what presents it; a push does).
    private func drawnRoutes() -> (stack: Set<UUID>, root: String?) {
        var levels: [[Route]] = [[]]
        for route in navigation.stack {
            if route.presentation == .sheet { levels.append([route]) } else { levels[levels.count - 1].append(route) }
        }
        let tops = Set(levels.compactMap(\.last).map(\.id))
        return (tops, levels[0].isEmpty ? navigation.selectedScreenKey : nil)
    }

    /// Stops the timers (and visibility timing) of every screen the navigation no longer
    /// draws: one covered by a push, on another tab's stack, or closed. Whatever draws them (a
    /// view that is never told it disappeared, a web page left), a screen not shown never ticks
    /// in the background; shown again (`appeared()`), it catches up from the clock. A model made
    /// for a route the navigation never held is the host's to show and hide.
    private func hideModelsNotDrawn() async {
        let drawn = drawnRoutes()
        let stacked = Set(navigation.stacks.values.joined().map(\.id))
        stackRoutesSeen.formUnion(stacked)
        let roots = Set(navigation.routes.filter { !stacked.contains($0.id) }.map(\.screenKey))
        let own = Set(routeModels.values.map(ObjectIdentifier.init))
        var seen = Set<ObjectIdentifier>()
        for model in Array(routeModels.values) + liveModels.compactMap(\.model)
        where seen.insert(ObjectIdentifier(model)).inserted {
            let route = model.route
            let hidden: Bool
            if stackRoutesSeen.contains(route.id) {
                hidden = !drawn.stack.contains(route.id)
            } else if own.contains(ObjectIdentifier(model)), roots.contains(route.screenKey) {
                hidden = route.screenKey != drawn.root
            } else {
                continue
            }
            if hidden { await model.screenDidChange(isVisible: false) }
        }
    }

    /// Makes the models of routes that appeared and releases those of routes that went.
    private func keepModelsOfShownRoutes() {
        Task { [weak self] in await self?.hideModelsNotDrawn() }
        let routes = navigation.routes
        let shown = Set(routes.map(\.id))
        routeModels = routeModels.filter { shown.contains($0.key) }
        for route in routes where routeModels[route.id] == nil {
            let model = viewModel(for: route)
            model.isNavigationRoute = true
            routeModels[route.id] = model
        }
    }

    /// What every screen model of this runtime works with (evaluating from the clock's now).
    private var screenServices: ScreenServices {
        var services = ScreenServices(
            screens: screens, data: data, dispatcher: dispatcher, navigation: navigation,
            environment: EvaluationEnvironment(
                now: configuration.clock.now(), locale: configuration.locale, timeZone: configuration.timeZone,
                limits: configuration.limits.expressions),
            clock: configuration.clock, nativeComponents: nativeComponents, observers: observers,
            urlPolicy: configuration.security)
        services.dataRevision = revision
        return services
    }

    /// What every screen model of this runtime tells it: sign-out and sign-in, queued changes,
    /// finished actions, the screen shown and a message to carry to the next screen.
    @ObservationIgnored private lazy var screenHooks: ScreenModelHooks = {
        var hooks = ScreenModelHooks(
            session: { [weak self] in self?.session }, signedOut: { [weak self] in await self?.signOut() },
            signedIn: { [weak self] session in await self?.signedIn(session, destination: nil) },
            queued: { [weak self] in await self?.countPending() }, performed: { [weak self] in await self?.afterAction() },
            shown: { [weak self] model in self?.show(model) })
        hooks.handOff = { [weak self] banner in self?.carriedBanner = banner }
        hooks.pendingChangeCount = { [weak self] in self?.pendingChanges ?? 0 }
        return hooks
    }()

    /// The view model of `route`, wired to this runtime's loaders, actions, navigation and session.
    public func viewModel(for route: Route) -> DynamicScreenViewModel {
        let model = DynamicScreenViewModel(route: route, services: screenServices, hooks: screenHooks)
        liveModels.removeAll { $0.model == nil }
        liveModels.append(WeakModel(model: model))
        return model
    }

    /// The view model of the screen on top of the navigation, if any (the one the runtime
    /// keeps for it: calling this twice gives the same model).
    public func currentViewModel() -> DynamicScreenViewModel? {
        navigation.current.map { model(for: $0) }
    }
}

/// A weak reference to a view model (the view that shows it owns it).
@MainActor
struct WeakModel {
    weak var model: DynamicScreenViewModel?
}

/// Counts changes to server data (each invalidation after a create, edit or delete), so a
/// screen knows whether what it shows is outdated.
final class DataRevision: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The number of changes so far.
    var value: Int { lock.withLock { count } }

    /// Records a change.
    func advance() { lock.withLock { count += 1 } }
}

/// Invalidation over the runtime's screen loader and the API client's response cache.
struct RuntimeInvalidator: CacheInvalidating {
    let client: APIClient
    let screens: ScreenLoader
    let revision: DataRevision

    /// The definitions are revalidated on their next load rather than dropped, so a screen
    /// stays available offline after a change was queued.
    func invalidate(screens keys: [String]) async {
        for key in keys { await screens.expire(key) }
    }

    func invalidateData(endpoint: Endpoint) async {
        await client.invalidateCache(for: endpoint)
        revision.advance()
    }

    func clearAll() async {
        await screens.clear()
        await client.cache?.clearAll()
    }
}
