import DynamicUI
import DynamicUIActions
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUICatalog
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINavigationPlugin
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIStorage
import Foundation

/// A transport whose connection can be switched off: the preview's "offline" switch. Off, every
/// request fails as a lost connection would, so the runtime queues changes exactly as on a
/// device.
final class SwitchableTransport: HTTPTransport, @unchecked Sendable {
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var online = true

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var isOnline: Bool { lock.withLock { online } }

    func set(online: Bool) { lock.withLock { self.online = online } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard isOnline else { throw TransportError(.noConnection) }
        return try await inner.send(request)
    }
}

/// The events of one browser's runtime, newest last (at most 200), for the preview's live
/// event log.
final class PreviewEventLog: DynamicUIObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(sequence: Int, text: String)] = []
    private var next = 1

    func observe(_ event: DynamicUIEvent) {
        let text = Self.describe(event)
        lock.withLock {
            entries.append((next, text))
            next += 1
            if entries.count > 200 { entries.removeFirst(entries.count - 200) }
        }
    }

    /// The entries after `sequence`, oldest first.
    func entries(after sequence: Int) -> [(sequence: Int, text: String)] {
        lock.withLock { entries.filter { $0.sequence > sequence } }
    }

    /// One line per event: what happened, to which screen, with its numbers or path.
    static func describe(_ event: DynamicUIEvent) -> String {
        switch event {
        case .screenLoaded(let load):
            return "screen loaded \(load.screen) (\(load.source), \(load.bytes) B, decode \(milliseconds(load.decodeSeconds)), "
                + "compile \(milliseconds(load.compileSeconds)))"
        case .screenRendered(let screen, let seconds, let nodes):
            return "screen rendered \(screen) (\(nodes) nodes, \(milliseconds(seconds)))"
        case .impression(let screen, let logId):
            return "impression \(logId) on \(screen)"
        case .disappearance(let screen, let logId):
            return "disappearance \(logId) on \(screen)"
        case .actionPerformed(let action):
            return "action \(action.action) (\(action.type)) on \(action.screen): \(action.outcome)"
        case .error(let error):
            return
                "\(error.kind.rawValue)\(error.screen.map { " on \($0)" } ?? "")\(error.path.map { " at \($0)" } ?? ""): \(error.message)"
        }
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.1f ms", seconds * 1000)
    }
}

/// One browser's runtime: its own tokens, settings, offline queue and connection switch, and
/// the view models of the pages it has open.
@MainActor
final class PreviewSession {
    let runtime: DynamicUIRuntime
    let settings = InMemorySettingsStore()
    let transport: SwitchableTransport
    let connectivity = ManualConnectivityMonitor()
    /// The runtime's events, for the live event log.
    let events = PreviewEventLog()
    /// View models by page token; the newest `capacity` are kept.
    private var models: [Int: DynamicScreenViewModel] = [:]
    /// How each page was last drawn, for its live stream.
    var drawn: [Int: DrawnPage] = [:]
    private var order: [Int] = []
    private var nextToken = 1
    private let capacity = 32
    /// The page whose view model is reused by the next GET (after an action, so its errors,
    /// values and banner show).
    var preserved: Int?
    /// The page asked for while signed out, shown after sign-in.
    var pendingPath: String?
    /// An external link an action opened: the next page offers it in another tab (the app is
    /// not replaced by it), or says it waits for a connection.
    var externalLink: URL?
    var lastUsed = Date()
    /// The actions whose change waits in the offline queue, by the URL of the page they were
    /// run from: the page draws them disabled and says the change is pending.
    var pendingActions: [String: Set<String>] = [:]
    /// The token every form of this session's pages carries (`PreviewSecurity`).
    var formToken = PreviewSecurity.newToken()

    init(
        backend: URL, admin: URL, locale: Locale = Locale(identifier: "es_ES"), components: [any NativeComponent] = []
    ) throws {
        transport = SwitchableTransport(URLSessionTransport())
        let queue = try OfflineQueueStore()
        runtime = try DynamicUIRuntime(
            configuration: DynamicUIConfiguration(
                adminBaseURL: admin, mobileBaseURL: backend, platform: .ios, allowInsecureLoopback: true, timeout: 10,
                retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: 0.05, jitter: 0),
                security: URLSecurityPolicy(hosts: ["edugo.test", "apple.com"]), deepLinkSchemes: ["edugo"],
                conflictStrategy: .serverWins, locale: locale, fallbackNavigation: EduGoCatalog.fallbackNavigation,
                observers: [events]),
            plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin()], tokens: InMemoryTokenStore(), settings: settings,
            queueStore: queue, transport: transport, connectivity: connectivity,
            // The app ships the media player, as the reference app does: a video material plays;
            // and the components of the plugins `sdui serve --plugin` names.
            components: try NativeComponentRegistry([MediaPlayerComponent()] + components))
    }

    var isOnline: Bool { transport.isOnline }

    /// Switches the connection; coming back online replays the queue.
    func set(online: Bool) async {
        transport.set(online: online)
        await connectivity.set(connected: online)
        if online { await runtime.syncNow() }
    }

    /// Whether the settings screen turned dark mode on.
    func darkMode() async -> Bool { await settings.value(for: "dark_mode")?.boolValue ?? false }

    /// A new view model for `route` (or the preserved one when it shows the same route).
    func model(for route: Route) -> (token: Int, model: DynamicScreenViewModel, reused: Bool) {
        if let token = preserved, let model = models[token], model.route.screenKey == route.screenKey,
            model.route.params == route.params
        {
            preserved = nil
            return (token, model, true)
        }
        preserved = nil
        let model = runtime.viewModel(for: route)
        let token = nextToken
        nextToken += 1
        models[token] = model
        order.append(token)
        if order.count > capacity {
            let evicted = order.removeFirst()
            models[evicted] = nil
            drawn[evicted] = nil
        }
        return (token, model, false)
    }

    /// Forgets every page drawn so far (someone signed in or out): none of them may act,
    /// stream or be shown again for whoever is signed in now.
    func forgetPages() {
        for model in models.values { model.stopTimers() }
        models.removeAll()
        drawn.removeAll()
        pendingActions.removeAll()
        order.removeAll()
        preserved = nil
        externalLink = nil
    }

    /// Tells every page model but `shown` that its page was left, as a navigation hides a
    /// screen it no longer draws: their timers stop ticking (they catch up when shown again).
    /// A model a page still listens to (`LiveScreens`) stays shown.
    func pagesLeft(except shown: DynamicScreenViewModel) async {
        for token in order {
            guard let model = models[token], model !== shown, !LiveScreens.isListened(model) else { continue }
            await model.pageDidChange(isShown: false)
        }
    }

    /// The view model of a page token.
    func model(token: Int) -> DynamicScreenViewModel? { models[token] }

    /// The token of the page last drawn for `route` (its screen and parameters), if kept.
    func latestToken(showing route: Route) -> Int? {
        order.last { token in
            guard let model = models[token] else { return false }
            return model.route.screenKey == route.screenKey && model.route.params == route.params
        }
    }

    /// The token of a view model made by this session.
    func token(of model: DynamicScreenViewModel) -> Int? { models.first { $0.value === model }?.key }

    /// Makes the runtime's navigation show `route`: a tab root is selected with nothing above it
    /// (the address names the root); a route already on a tab's stack is returned to, that tab
    /// selected (its tab link, or the browser's back); anything else is pushed on the selected
    /// tab. Each tab keeps its own stack, and the selected tab is the one whose screen shows.
    func navigate(to route: Route) -> Route {
        let navigation = runtime.navigation
        if navigation.stack.isEmpty, navigation.selectedScreenKey == route.screenKey, route.params.isEmpty {
            return route
        }
        let isTabRoot =
            route.params.isEmpty && navigation.items(regular: false).contains { $0.screenKey == route.screenKey }
        if isTabRoot || route.screenKey == runtime.configuration.loginScreenKey {
            navigation.select(route.screenKey)
            navigation.popToRoot()
            return route
        }
        let matches: (Route) -> Bool = { $0.screenKey == route.screenKey && $0.params == route.params }
        if navigation.stack.lastIndex(where: matches) == nil,
            let owner = navigation.stacks.keys.sorted().first(where: { navigation.stacks[$0]?.contains(where: matches) == true })
        {
            navigation.select(owner)
        }
        if let index = navigation.stack.lastIndex(where: matches) {
            while navigation.stack.count > index + 1 { navigation.back() }
            return navigation.stack[index]
        }
        navigation.push(route)
        return route
    }

    /// Where a tab's link goes: the tab's last screen when it is not the one shown (its stack
    /// kept to come back to), else its root (tapping the shown tab goes back to the root).
    func tabURL(_ screenKey: String) -> String {
        let navigation = runtime.navigation
        if navigation.selectedScreenKey != screenKey, let top = navigation.stacks[screenKey]?.last {
            return EduGoPages.url(top)
        }
        return EduGoPages.url(Route(screenKey: screenKey))
    }
}
