public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
public import DynamicUIRendering
public import DynamicUIResolvers
public import DynamicUIStorage
public import Foundation
public import Logging
public import Observation

/// Where a node-dialect app's documents (`app`, the screens, `theme`, `components`) come from.
public enum NodeDocumentSource: Sendable, Hashable {
    /// `<name>.json` files in a folder bundled with the app.
    case folder(URL)
    /// An endpoint with a `{name}` parameter (`/v1/documents/{name}`), fetched through the
    /// app's `APIClient`: ETag revalidation, `Cache-Control`, and the last copy when offline.
    case remote(Endpoint)
}

/// Everything a host decides about a node-dialect app, with defaults for the rest.
public struct NodeAppConfiguration: Sendable {
    /// Base URL of the app's API (`api` actions, and remote documents).
    public var baseURL: URL
    /// Where the documents come from.
    public var documents: NodeDocumentSource
    /// The root document (a `tab_view` of screens, or a screen).
    public var rootDocument: String
    /// The theme document; a missing one is the empty theme.
    public var themeDocument: String
    /// The component library; a missing one has no components.
    public var componentsDocument: String
    /// Allow plain http to loopback hosts (debug builds and the demo backend).
    public var allowInsecureLoopback: Bool
    /// Seconds before a request times out.
    public var timeout: Double
    /// Retries and backoff of API requests.
    public var retryPolicy: RetryPolicy
    /// Bounds on everything a server sends.
    public var limits: DynamicUILimits
    /// Which external URLs may be opened.
    public var security: URLSecurityPolicy
    /// Locale of formatted dates and of the SDK's own words; the device's by default.
    public var locale: Locale
    /// Time zone of formatted dates.
    public var timeZone: TimeZone
    /// The logger.
    public var logger: Logger
    /// The clock.
    public var clock: any DynamicUIClock
    /// Who hears about documents loaded, actions performed and errors; `nil` gives a swift-log
    /// and a swift-metrics observer.
    public var observers: [any DynamicUIObserver]?
    /// The preview this app follows (`follow(_:)`, debug builds only); `nil` when it follows none.
    public private(set) var developmentPreview: DevelopmentPreview?
    /// Why the preview named by the environment was refused; the app's banner shows it.
    public private(set) var developmentPreviewProblem: DevelopmentPreviewError?

    /// Creates a configuration.
    public init(
        baseURL: URL, documents: NodeDocumentSource, rootDocument: String = "app", themeDocument: String = "theme",
        componentsDocument: String = "components", allowInsecureLoopback: Bool = false, timeout: Double = 30,
        retryPolicy: RetryPolicy = .default, limits: DynamicUILimits = .default,
        security: URLSecurityPolicy = URLSecurityPolicy(hosts: []), locale: Locale = .current,
        timeZone: TimeZone = .current, logger: Logger = Logger(label: "DynamicUI.nodes"),
        clock: any DynamicUIClock = SystemClock(), observers: [any DynamicUIObserver]? = nil
    ) {
        self.observers = observers
        self.baseURL = baseURL
        self.documents = documents
        self.rootDocument = rootDocument
        self.themeDocument = themeDocument
        self.componentsDocument = componentsDocument
        self.allowInsecureLoopback = allowInsecureLoopback
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.limits = limits
        self.security = security
        self.locale = locale
        self.timeZone = timeZone
        self.logger = logger
        self.clock = clock
    }

    /// Follows `preview` (`nil`: none): the documents and the API come from the preview's demo
    /// backend, and each saved change shows in the running app.
    public mutating func follow(_ preview: DevelopmentPreview?) {
        developmentPreview = preview
        developmentPreviewProblem = nil
        guard let preview else { return }
        baseURL = preview.mobileURL
        documents = .remote("/v1/documents/{name}")
        allowInsecureLoopback = true
    }

    /// Follows the preview that `DYNAMICUI_PREVIEW` names, in debug builds; nothing when it is
    /// unset or in a release build. A refused address is kept in `developmentPreviewProblem`.
    public mutating func followDevelopmentPreview(
        environment: [String: String] = ProcessInfo.processInfo.environment, allowedHosts: Set<String> = []
    ) {
        let (preview, problem) = DevelopmentPreview.reading(environment, allowedHosts: allowedHosts)
        follow(preview)
        developmentPreviewProblem = problem
    }
}

/// A document on the navigation of a node app, with the params its context starts from.
public struct NodeRoute: Sendable, Hashable, Identifiable {
    /// The document's name (`podcast_detail`).
    public var document: String
    /// The params of the action that opened it (`{"podcastId": 123}`), as `$.<name>`.
    public var params: JSONObject
    /// Pushed, presented as a sheet, or a tab root.
    public var presentation: Presentation
    /// A unique id, so one document can be open twice.
    public let id: UUID

    /// Creates a route.
    public init(document: String, params: JSONObject = [:], presentation: Presentation = .push) {
        self.document = document
        self.params = params
        self.presentation = presentation
        self.id = UUID()
    }
}

/// Why a node app or one of its documents could not be loaded.
public struct NodeAppError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document.
    public let document: String
    /// What went wrong (a network, decoding or compilation error, with its place).
    public let message: String

    public var description: String { "document '\(document)': \(message)" }
}

/// A node-dialect app run by the SDK: it loads the root document, the
/// theme and the component library from its document source, keeps the tabs, the stack and
/// the sheet, and gives each open document a `NodeScreenModel` that runs its `onLoad`, keeps its
/// data context and performs its actions. Custom events go to the host's handlers, and a
/// registered native component draws its node type. SwiftUI (`NodeAppView`) and the web
/// preview draw the same models.
@Observable
@MainActor
public final class NodeAppRuntime: NodeAppHosting {
    /// Whether the app has loaded its root, theme and components.
    public typealias Phase = LoadPhase

    /// The configuration.
    public let configuration: NodeAppConfiguration
    /// The API client (`api` actions and remote documents).
    public let client: APIClient
    /// The host's native components.
    public let nativeComponents: NativeComponentRegistry
    /// What this app can draw: sent with remote document requests, and used to fit documents.
    public let capabilities: ClientCapabilities
    /// The observers of the SDK's events.
    public let observers: DynamicUIObservers
    /// Where the app is.
    public private(set) var phase: Phase = .idle
    /// The theme (colors light and dark, fonts, presets).
    public private(set) var theme = Theme()
    /// The component library.
    public private(set) var library = ComponentLibrary()
    /// The root's tabs; empty when the root is a single screen.
    public private(set) var tabs: [TabItem] = []
    /// The selected tab's document (or the root screen).
    public private(set) var selectedDocument: String?
    /// Each tab's documents pushed above its root, by the tab's document: a tab keeps its place
    /// while another is shown.
    public private(set) var stacks: [String: [NodeRoute]] = [:] {
        didSet { releaseModelsOfClosedRoutes() }
    }
    /// The document presented as a sheet, if any.
    public private(set) var sheet: NodeRoute? {
        didSet { releaseModelsOfClosedRoutes() }
    }
    /// Documents pushed inside the sheet (a link in a sheet opens in the sheet, not under it).
    public private(set) var sheetStack: [NodeRoute] = [] {
        didSet { releaseModelsOfClosedRoutes() }
    }

    /// Documents pushed above the selected tab, in order.
    public var stack: [NodeRoute] {
        get { selectedDocument.flatMap { stacks[$0] } ?? [] }
        set {
            guard let selectedDocument else { return }
            stacks[selectedDocument] = newValue.isEmpty ? nil : newValue
        }
    }
    /// Dark mode: `nil` follows the system; the `dark_mode` setting stores a choice.
    public private(set) var darkMode: Bool?
    /// What the signed-in user may do (the host app's auth context, set when the user signs in
    /// or out): nodes that declare another `permission` are not drawn, nor their actions.
    /// `nil` (the default) draws every node and leaves the decision to the server.
    public var permissions: Set<String>?
    /// Following a development preview: where it stands, for the banner (`nil` when the app
    /// follows none).
    public private(set) var previewFollow: PreviewFollowState?
    @ObservationIgnored private var follower: PreviewFollower?

    @ObservationIgnored private let services: ActionServices
    @ObservationIgnored private let executor: NodeActionExecutor
    @ObservationIgnored private let settings: any SettingsStore
    @ObservationIgnored private var compiled: [String: CompiledNode] = [:]
    @ObservationIgnored private var componentBodies: [String: CompiledNode] = [:]
    @ObservationIgnored private var models: [UUID: NodeScreenModel] = [:]
    @ObservationIgnored private var tabRoutes: [String: NodeRoute] = [:]
    @ObservationIgnored let logger: Logger

    /// Builds the app; a native component registered twice (or shadowing a built-in type) is an
    /// error here, at start.
    public init(
        configuration: NodeAppConfiguration, transport: any HTTPTransport = URLSessionTransport(),
        components: [any NativeComponent] = [], events: EventHandlerRegistry = EventHandlerRegistry(),
        settings: any SettingsStore = InMemorySettingsStore(), cache: ResponseCache? = nil
    ) throws(ComponentRegistrationError) {
        self.configuration = configuration
        self.settings = settings
        logger = configuration.logger
        nativeComponents = try NativeComponentRegistry(components)
        capabilities = .sdk(components: nativeComponents)
        observers = DynamicUIObservers(
            configuration.observers ?? [
                LoggingObserver(logger: Logger(label: "\(configuration.logger.label).events")), MetricsObserver(),
            ])
        var api = APIConfiguration(
            adminBaseURL: configuration.baseURL, mobileBaseURL: configuration.baseURL,
            allowInsecureLoopback: configuration.allowInsecureLoopback, timeout: configuration.timeout,
            retryPolicy: configuration.retryPolicy, refreshEndpoint: nil, readerLimits: configuration.limits.reader)
        api.insecureHosts = configuration.developmentPreview?.insecureHosts ?? []
        client = APIClient(
            configuration: api, transport: transport, cache: cache ?? ResponseCache(clock: configuration.clock),
            clock: configuration.clock,
            logger: configuration.logger)
        services = ActionServices(
            api: client, tokens: InMemoryTokenStore(), settings: settings, security: configuration.security, events: events,
            logger: configuration.logger, strings: DynamicUIStrings(locale: configuration.locale))
        executor = NodeActionExecutor(services: services)
        if let problem = configuration.developmentPreviewProblem { previewFollow = .refused(problem.description) }
        if let preview = configuration.developmentPreview {
            follower = PreviewFollower(
                preview: preview, transport: transport, dialect: "nodes", logger: configuration.logger,
                report: { [weak self] in self?.previewFollow = $0 }, changed: { [weak self] in await self?.previewChanged() },
                shownScreen: { [weak self] in self?.current?.document })
        }
    }

    /// Stops following the development preview (the app goes away); `start()` follows again.
    public func stopFollowingPreview() { follower?.stop() }

    /// A change saved in the followed preview: the theme, the components and the root load
    /// again, and every open document takes its new version in place, keeping its data, state
    /// and place; a document that cannot be loaded now keeps its last good version.
    func previewChanged() async {
        await client.cache?.clearAll()
        // An app that could not start (the catalog was broken at launch) starts now.
        if case .failed = phase { return await start() }
        compiled = [:]
        do {
            theme = try await optionalDocument(configuration.themeDocument, as: Theme.self) ?? Theme()
            let fittedLibrary = fitted(
                try await optionalDocument(configuration.componentsDocument, as: ComponentLibrary.self) ?? ComponentLibrary())
            componentBodies = try compile(fittedLibrary, name: configuration.componentsDocument)
            library = fittedLibrary
            let root = try await document(configuration.rootDocument)
            if case .tabView(let items) = root.node.props, items != tabs {
                tabs = items
                if !items.contains(where: { $0.screen == selectedDocument }) { selectedDocument = items.first?.screen }
            }
        } catch {
            logger.error("the preview's change could not be applied: \(error)")
        }
        // The document on top first: the one being looked at.
        let shown = current.flatMap { models[$0.id] }
        if let shown { await shown.followDocumentChange() }
        for model in models.values where model !== shown { await model.followDocumentChange() }
    }

    /// The SDK's words in the configured locale.
    public var strings: DynamicUIStrings { DynamicUIStrings(locale: configuration.locale) }

    // MARK: Loading

    /// Loads the theme, the components and the root; the first tab is selected. Calling it
    /// again reloads everything.
    public func start() async {
        follower?.start()
        phase = .loading
        compiled = [:]
        for model in models.values { model.closed() }
        models = [:]
        tabRoutes = [:]
        darkMode = await settings.value(for: "dark_mode")?.boolValue
        do {
            theme = try await optionalDocument(configuration.themeDocument, as: Theme.self) ?? Theme()
            library = fitted(
                try await optionalDocument(configuration.componentsDocument, as: ComponentLibrary.self) ?? ComponentLibrary())
            componentBodies = try compile(library, name: configuration.componentsDocument)
            let root = try await document(configuration.rootDocument)
            if case .tabView(let items) = root.node.props {
                tabs = items
                selectedDocument = items.first?.screen
            } else {
                tabs = []
                selectedDocument = configuration.rootDocument
            }
            stacks = [:]
            sheetStack = []
            sheet = nil
            phase = .ready
        } catch {
            if Task.isCancelled {
                // The view went away while starting: not a failure; it starts again when shown.
                phase = .idle
                return
            }
            phase = .failed(error.description)
            logger.error("node app did not start: \(error)")
        }
    }

    /// Starts the app unless it is ready or starting: the first time, and again after a
    /// failure or an interrupted start (the failed state's retry calls `start()` directly).
    public func startIfNeeded() async {
        switch phase {
        case .idle: await start()
        case .loading, .ready, .failed: return
        }
    }

    /// The compiled document `name`, loaded once (remote documents revalidate with their ETag
    /// when the app starts again).
    public func document(_ name: String) async throws(NodeAppError) -> CompiledNode {
        if let cached = compiled[name] { return cached }
        let started = ContinuousClock.now
        let loaded = try await load(name, as: ViewNode.self)
        let decodeSeconds = started.secondsElapsed
        let (capabilities, limits, model) = (self.capabilities, configuration.limits.expressions, loaded.model)
        let compileStarted = ContinuousClock.now
        // Fitted and compiled off the main actor too; only the result and its events come back.
        let (events, compiledNode) = await Task.detached(priority: .userInitiated) {
            let (fitted, events) = RequirementResolver(capabilities: capabilities).resolve(model)
            return (
                events,
                fitted.map { node in
                    Result { () throws(CompilationError) in
                        try NodeCompiler(compiler: ExpressionCompiler(limits: limits)).compile(node)
                    }
                }
            )
        }.value
        observers.emit(events, screen: name)
        guard let compiledNode else {
            throw NodeAppError(document: name, message: "needs a newer version of the app")
        }
        do throws(CompilationError) {
            let result = try compiledNode.get()
            compiled[name] = result
            observers.emit(
                .screenLoaded(
                    ScreenLoadEvent(
                        screen: name, source: loaded.source, bytes: loaded.bytes, decodeSeconds: decodeSeconds,
                        compileSeconds: compileStarted.secondsElapsed)))
            return result
        } catch {
            observers.emit(
                .error(
                    ErrorEvent(.compile, screen: name, path: error.diagnostics.first?.location.description, message: "\(error)")))
            throw NodeAppError(document: name, message: "does not compile:\n\(error)")
        }
    }

    /// The library with every component's body fitted to the app's capabilities, as documents
    /// are (a body that must be dropped leaves its component out, drawn as a missing one).
    private func fitted(_ library: ComponentLibrary) -> ComponentLibrary {
        var fitted = library
        let resolver = RequirementResolver(capabilities: capabilities)
        for (name, component) in library.components {
            let (body, events) = resolver.resolve(component.body)
            observers.emit(events, screen: "\(configuration.componentsDocument).\(name)")
            if let body { fitted.components[name]?.body = body } else { fitted.components[name] = nil }
        }
        return fitted
    }

    private func compile(_ library: ComponentLibrary, name: String) throws(NodeAppError) -> [String: CompiledNode] {
        do {
            return try NodeCompiler(compiler: ExpressionCompiler(limits: configuration.limits.expressions)).compile(library)
        } catch {
            throw NodeAppError(document: name, message: "does not compile:\n\(error)")
        }
    }

    private func optionalDocument<Model: JSONModelDecodable>(
        _ name: String, as type: Model.Type
    ) async throws(NodeAppError)
        -> Model?
    {
        do {
            return try await load(name, as: type).model
        } catch  where error.message.hasPrefix(Self.missing) {
            return nil
        }
    }

    private static let missing = "not found"

    private func load<Model: JSONModelDecodable>(
        _ name: String, as type: Model.Type
    ) async throws(NodeAppError)
        -> (model: Model, source: String, bytes: Int)
    {
        guard Self.isDocumentName(name) else { throw NodeAppError(document: name, message: "not a document name") }
        let json: JSONValue
        let source: String
        let bytes: Int
        switch configuration.documents {
        case .folder(let folder):
            let url = folder.appendingPathComponent("\(name).json")
            let limits = configuration.limits.reader
            // Read and parsed off the main actor: a large bundled document does not hold up the screen.
            let read = await Task.detached(priority: .userInitiated) { () -> Result<(JSONValue, Int), JSONReadError>? in
                guard let data = try? Data(contentsOf: url) else { return nil }
                return Result { () throws(JSONReadError) in (try JSONReader(limits: limits).read(data), data.count) }
            }.value
            switch read {
            case nil: throw NodeAppError(document: name, message: Self.missing)
            case .failure(let error)?:
                observers.emit(.error(ErrorEvent(.decode, screen: name, path: "byte \(error.offset)", message: "\(error)")))
                throw NodeAppError(document: name, message: "\(error)")
            case .success(let (value, count))?:
                json = value
                (source, bytes) = ("bundle", count)
            }
        case .remote(let endpoint):
            do throws(NetworkError) {
                var request = APIRequest(
                    .get, endpoint, pathParameters: ["name": name], query: [("capabilities", capabilities.hash)],
                    authenticated: false)
                request.headers["DynamicUI-Capabilities"] = capabilities.compact
                let response = try await client.send(request)
                json = try response.json()
                (source, bytes) = ("\(response.source)", response.body.count)
            } catch {
                if error.code != .notFound {
                    observers.emit(.error(ErrorEvent(.load, screen: name, message: error.message)))
                }
                throw NodeAppError(document: name, message: error.code == .notFound ? Self.missing : error.message)
            }
        }
        let limits = configuration.limits.model
        let decoded = await Task.detached(priority: .userInitiated) {
            Result { () throws(ModelDecodingError) in try Model(json: json, limits: limits) }
        }.value
        switch decoded {
        case .success(let model): return (model, source, bytes)
        case .failure(let error):
            observers.emit(.error(ErrorEvent(.decode, screen: name, path: error.location.description, message: "\(error)")))
            throw NodeAppError(document: name, message: "\(error)")
        }
    }

    /// Letters, digits, `-` and `_`: a document name never walks out of its folder or endpoint.
    public static func isDocumentName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F
            }
    }

    // MARK: Navigation

    /// The document on top: the sheet's top, else the top of the stack, else the selected tab.
    public var current: NodeRoute? {
        sheetStack.last ?? sheet ?? stack.last ?? selectedDocument.map(tabRoute)
    }

    /// How many document models the app keeps (tab roots and open documents).
    public var modelCount: Int { models.count }

    /// Releases the models of documents no longer on the navigation (a closed sheet, a popped
    /// document); tab roots keep theirs.
    private func releaseModelsOfClosedRoutes() {
        var open = Set(tabRoutes.values.map(\.id))
        for route in stacks.values.joined() { open.insert(route.id) }
        for route in sheetStack { open.insert(route.id) }
        if let sheet { open.insert(sheet.id) }
        for (id, model) in models where !open.contains(id) { model.closed() }
        models = models.filter { open.contains($0.key) }
    }

    /// The route of a tab root (one per document, so its model and data survive tab switches).
    public func tabRoute(_ document: String) -> NodeRoute {
        if let route = tabRoutes[document] { return route }
        let route = NodeRoute(document: document, presentation: .push)
        tabRoutes[document] = route
        return route
    }

    /// Selects a tab (or the root document). Another tab keeps its stack; selecting the tab
    /// already shown goes back to its root.
    public func select(_ document: String) {
        if selectedDocument == document {
            stack.removeAll()
        } else {
            selectedDocument = document
        }
        dismissSheet()
    }

    /// Pushes a document: inside the sheet when one is shown, else on the selected tab.
    public func push(_ route: NodeRoute) {
        if sheet != nil {
            sheetStack.append(route)
        } else {
            stack.append(route)
        }
    }

    /// Presents a document as a sheet.
    public func present(_ route: NodeRoute) {
        var route = route
        route.presentation = .sheet
        sheetStack = []
        sheet = route
    }

    /// Closes the sheet and what was pushed inside it (its models go with it).
    public func dismissSheet() {
        sheetStack = []
        sheet = nil
    }

    /// Goes back one document inside the sheet, else closes the sheet, else goes back one
    /// document on the tab; returns whether anything closed.
    @discardableResult
    public func back() -> Bool {
        if !sheetStack.isEmpty {
            sheetStack.removeLast()
            return true
        }
        if sheet != nil {
            dismissSheet()
            return true
        }
        guard !stack.isEmpty else { return false }
        stack.removeLast()
        return true
    }

    /// Whether `route` is open: a tab's root, on a stack, the sheet or pushed inside it.
    public func holds(_ route: NodeRoute) -> Bool {
        tabRoutes.values.contains { $0.id == route.id } || stacks.values.contains { $0.contains { $0.id == route.id } }
            || sheet?.id == route.id || sheetStack.contains { $0.id == route.id }
    }

    /// Closes `route` and what is above it, wherever it is open; returns whether it was.
    @discardableResult
    public func close(_ route: NodeRoute) -> Bool {
        if let index = sheetStack.firstIndex(where: { $0.id == route.id }) {
            sheetStack.removeSubrange(index...)
            return true
        }
        if sheet?.id == route.id {
            dismissSheet()
            return true
        }
        for (key, routes) in stacks {
            guard let index = routes.firstIndex(where: { $0.id == route.id }) else { continue }
            stacks[key] = index == 0 ? nil : Array(routes[..<index])
            return true
        }
        return false
    }

    /// The scene's phase changed: in the background every open document's timers stop ticking
    /// and its visibility waits end; `inactive` changes nothing. Active again, they catch up.
    public func scenePhaseChanged(_ phase: HostScenePhase) async {
        guard phase != .inactive else { return }
        let background = phase == .background
        for model in models.values where model.inBackground != background { model.appDidChange(inBackground: background) }
    }

    /// Opens `route` when it is on the navigation already, or pushes it.
    public func show(_ route: NodeRoute) {
        if route.presentation == .sheet { present(route) } else { push(route) }
    }

    /// Sets dark mode (`nil` follows the system) and stores it as the `dark_mode` setting.
    public func setDarkMode(_ dark: Bool?) async {
        darkMode = dark
        try? await settings.set(dark.map(JSONValue.bool), for: "dark_mode")
    }

    // MARK: Screens

    /// `document` with `patch` applied to its nodes (its items fitted to the app's
    /// capabilities) and compiled again, or the patch's error: a change that cannot be applied,
    /// or a result that does not compile, rejects the whole patch.
    public func patched(_ document: CompiledNode, with patch: DocumentPatch) throws(PatchError) -> CompiledNode {
        let node = try document.node.applying(
            patch, limits: configuration.limits.model, fittedBy: RequirementResolver(capabilities: capabilities))
        do throws(CompilationError) {
            return try NodeCompiler(compiler: ExpressionCompiler(limits: configuration.limits.expressions)).compile(node)
        } catch {
            throw PatchError.doesNotCompile("\(error)")
        }
    }

    /// The model of `route` (one per route, kept while it is on the navigation).
    public func model(for route: NodeRoute) -> NodeScreenModel {
        if let model = models[route.id] { return model }
        let model = NodeScreenModel(route: route, app: self)
        models[route.id] = model
        return model
    }

    /// The model of the document on top.
    public func currentModel() -> NodeScreenModel? { current.map(model(for:)) }

    /// The renderer of documents: the theme, the components and the host's native components.
    public func renderer(options: RenderOptions) -> NodeRenderer {
        NodeRenderer(
            theme: theme, library: library, components: componentBodies, options: options, nativeComponents: nativeComponents,
            permissions: permissions)
    }

    /// The evaluation environment (date formats, limits).
    var environment: EvaluationEnvironment {
        EvaluationEnvironment(
            now: configuration.clock.now(), locale: configuration.locale, timeZone: configuration.timeZone,
            limits: configuration.limits.expressions)
    }

    /// Executes an action in its context.
    func execute(_ action: CompiledNodeAction, in context: DataContext, screen: String) async -> ActionResult {
        await executor.execute(action, in: context, screen: screen)
    }
}

/// Where loading a node app or one of its documents stands.
public enum LoadPhase: Sendable, Hashable {
    /// Not started.
    case idle
    /// Loading.
    case loading
    /// Ready to draw.
    case ready
    /// It could not be loaded; the message says why, for a person.
    case failed(String)
}

/// One open document of a node app: its data context (the params it was opened with, the
/// results of `api` actions and the state of `setState` and bound fields), its `onLoad`, and
/// its actions. Navigation results go to the app.
@Observable
@MainActor
public final class NodeScreenModel: NodeDocumentHosting {
    /// Where the document is (loading covers running its `onLoad`).
    public typealias Phase = LoadPhase

    /// The route it draws.
    public let route: NodeRoute
    /// Where it is.
    public private(set) var phase: Phase = .idle {
        didSet { if phase == .ready, oldValue != .ready { kept.setNeedsRender() } }
    }
    /// The document's values: params, then `api` results and state by key (`$.<key>`).
    public private(set) var data: JSONObject
    /// State set by `setState` and bound fields (`$.env.<key>`, `$.state.<key>`).
    public private(set) var state: JSONObject = [:]
    /// An action's message (an error, a success, a change waiting offline), as on a screen:
    /// until it is closed, another replaces it, the document loads again, or (not an error) its
    /// lifetime passes.
    public internal(set) var banner: Banner?
    /// An external URL an action asked to open, once allowed by the app's URL policy; the host
    /// opens it (SwiftUI's `openURL`) and calls `didOpenURL()`.
    public private(set) var urlToOpen: URL?
    /// The document's actions as last rendered, by action key.
    @ObservationIgnored public private(set) var actions = NodeActionTable()

    @ObservationIgnored weak var app: NodeAppRuntime?
    @ObservationIgnored var document: CompiledNode?
    /// The environment the document was last evaluated in (see `evaluationEnvironment`).
    @ObservationIgnored private var pinnedEnvironment: EvaluationEnvironment?
    /// What the last render drew, so the next draws only what changed.
    @ObservationIgnored private let renderMemo = NodeRenderMemo()
    @ObservationIgnored private var impressions: Set<String> = []
    /// The document's timers by id.
    @ObservationIgnored var timerBank = TimerBank()
    /// The sleeping tick of each running timer.
    @ObservationIgnored var timerTasks: [String: Task<Void, Never>] = [:]
    /// The timers whose tick is running its actions (a tick that shows the document again
    /// does not run them a second time meanwhile).
    @ObservationIgnored var actingTimers: Set<String> = []
    /// Whether the app closed the document for good: an action still running navigates nowhere.
    @ObservationIgnored private(set) var isClosed = false
    /// The document's deferred sections by node id: loading, loaded or failed, each on its own.
    public var sections: [String: SectionState] { sectionBank.states }
    /// The deferred sections' states, endpoints and load generation.
    var sectionBank = SectionBank()
    /// The section loads under way.
    @ObservationIgnored var sectionTask: Task<Void, Never>?

    init(route: NodeRoute, app: NodeAppRuntime) {
        self.route = route
        self.app = app
        data = route.params
    }

    /// The data context of the document: `$.<key>` reads `data`, `$.env` and `$.state` the state.
    public var context: DataContext {
        DataContext(
            [("env", .object(state)), ("state", .object(state))] + data.map { ($0.key, $0.value) },
            defaultObject: .object(data), environment: evaluationEnvironment)
    }

    /// The app's environment with "now" read again once a minute at most: a render memo keeps
    /// only what was drawn in the same environment, and a new instant each render would keep
    /// nothing.
    private var evaluationEnvironment: EvaluationEnvironment {
        guard let fresh = app?.environment else { return EvaluationEnvironment(now: Date()) }
        if var pinned = pinnedEnvironment, abs(fresh.now.timeIntervalSince(pinned.now)) < 60 {
            let now = pinned.now
            pinned.now = fresh.now
            if pinned.isSame(as: fresh) {
                pinned.now = now
                return pinned
            }
        }
        pinnedEnvironment = fresh
        return fresh
    }

    /// Loads the document unless it is loaded or loading: when it is shown (again), after an
    /// interrupted load. A failed document waits for the retry (`load()`).
    public func loadIfNeeded() async {
        guard phase == .idle else { return }
        await load()
    }

    /// Loads the document and runs its `onLoad`.
    public func load() async {
        guard let app else { return }
        // What the last load or its actions said is over (a retry that succeeds shows no error).
        banner = nil
        phase = .loading
        do {
            document = try await app.document(route.document)
        } catch {
            // Leaving a tab during a load cancels it: that is not a failure, and the document
            // loads again when it is shown. A failure offers a retry (`load()` again).
            if Task.isCancelled { return interrupted() }
            phase = .failed(error.description)
            return
        }
        guard !Task.isCancelled else { return interrupted() }
        startTimers(document?.node.timers ?? [])
        startSections()
        if let failure = await runOnLoad(app) {
            if failure == .idle { return interrupted() }
            phase = failure
            return
        }
        phase = .ready
    }

    /// A load was cancelled (the document went away): it loads again when shown, and at once
    /// when it was shown again before the cancelled load ended.
    private func interrupted() {
        phase = .idle
        if !isHidden { firedActions.fire { [weak self] in await self?.loadIfNeeded() } }
    }

    /// Runs the document's `onLoad`; returns the phase it leaves when it did not complete:
    /// `.idle` when it was cancelled (the document loads again when shown), `.failed` with a
    /// retry when it failed (offline, refused).
    private func runOnLoad(_ app: NodeAppRuntime) async -> Phase? {
        let rendered = build(options: RenderOptions(), showsBack: false)
        guard let (onLoad, scope) = rendered.actions.action(for: "onLoad") else { return nil }
        let result = await app.execute(onLoad, in: scope, screen: route.document)
        if Task.isCancelled { return .idle }
        await apply(result, from: nil)
        guard result.isError else { return nil }
        return .failed(banner?.message ?? app.strings(.dataLoadFailed))
    }

    /// Runs the document's `onLoad` again while what it shows stays on screen (a `refresh`
    /// action, pull to refresh); a document not yet shown loads.
    public func refresh() async {
        guard let app, phase == .ready else { return await load() }
        isReloading = true
        defer { isReloading = false }
        if case .failed(let text)? = await runOnLoad(app) { banner = Banner(kind: .error, message: text) }
    }

    /// The document appeared (its `.task`): it loads unless loaded or failed (a failure waits
    /// for its retry); its timers tick and its visibility actions run while it is shown.
    public func appeared() async {
        isHidden = false
        timersSuspended(isSuspended)
        visibilityTracker.set(suspended: isSuspended)
        await loadIfNeeded()
    }

    /// The document disappeared (covered, another tab, popped): timers stop ticking (they
    /// catch up from the clock when it shows again) and visibility waits end.
    public func disappeared() {
        isHidden = true
        timersSuspended(true)
        visibilityTracker.set(suspended: true)
    }

    /// The app went to the background or came back.
    func appDidChange(inBackground: Bool) {
        self.inBackground = inBackground
        timersSuspended(isSuspended)
        visibilityTracker.set(suspended: isSuspended)
    }

    /// Whether the document is hidden or the app is in the background.
    var isSuspended: Bool { isHidden || inBackground }

    /// A `sheet` node was closed by a swipe or by a `dismiss` inside it.
    public func sheetNodeDismissed(_ id: String) {
        guard dismissedSheets.insert(id).inserted else { return }
        kept.setNeedsRender()
    }

    /// Whether `onLoad` runs again while the last tree stays on screen.
    public private(set) var isReloading = false
    /// `sheet` nodes the person closed: left out of the tree until their condition lets them go.
    @ObservationIgnored private var dismissedSheets: Set<String> = []
    @ObservationIgnored private var isHidden = false
    @ObservationIgnored var inBackground = false

    /// The render tree the document shows, kept by the model: built when `renderOptions` is set
    /// and rebuilt when something it was built from changes (its data, state, phase), never by a
    /// redraw.
    public private(set) var rendered: RenderedDocument?
    /// How the kept tree is rendered; the view sets it when its size class changes.
    public var renderOptions: RenderOptions? {
        didSet { if renderOptions != oldValue { kept.setNeedsRender() } }
    }
    /// How many times `rendered` was built.
    public var renderCount: Int { kept.count }
    @ObservationIgnored private lazy var kept = KeptRender { [weak self] in self?.renderIfNeeded() }
    @ObservationIgnored private let firedActions = FiredActions()

    /// Builds `rendered` now if an input changed since it was built (the model also schedules
    /// this itself after every change).
    public func renderIfNeeded() {
        guard let options = renderOptions, phase == .ready, kept.beginIfNeeded() else { return }
        let showsBack = app.map { ($0.stack + $0.sheetStack).contains { $0.id == route.id } } ?? false
        let built = kept.tracking { build(options: options, showsBack: showsBack) }
        rendered = built
        actions = built.actions
    }

    /// Takes the document the followed preview serves now, keeping the data, state and place:
    /// the tree is drawn anew from it; timers and sections start again only when they changed.
    /// A document that cannot be loaded keeps the last good version on screen.
    func followDocumentChange() async {
        guard let app, let current = document else {
            if case .failed = phase { await load() }
            return
        }
        guard let next = try? await app.document(route.document), next.node != current.node else { return }
        document = next
        if next.node.timers != current.node.timers { startTimers(next.node.timers ?? []) }
        kept.setNeedsRender()
        startChangedSections()
    }

    /// Applies `patch` to the shown document's nodes and redraws it in place, without a reload.
    /// All or nothing: a change that cannot be applied, or a result that does not compile,
    /// throws and changes nothing; a patch that names another document (`screen_key`) is refused.
    public func apply(_ patch: DocumentPatch) throws(PatchError) {
        guard let app, let current = document, phase == .ready else { throw PatchError.notShown }
        if let key = patch.screenKey, key != route.document { throw PatchError.meantFor(key, shown: route.document) }
        document = try app.patched(current, with: patch)
        kept.setNeedsRender()
        // A section the patch brought (or gave another endpoint) loads; one it removed is forgotten.
        startChangedSections()
    }

    /// The render tree of the document in its current context, built on each call (the web
    /// preview and tests call it; SwiftUI draws `rendered`).
    public func render(options: RenderOptions) -> RenderedDocument {
        let built = build(
            options: options, showsBack: app.map { ($0.stack + $0.sheetStack).contains { $0.id == route.id } } ?? false)
        actions = built.actions
        return built
    }

    private func build(options: RenderOptions, showsBack: Bool) -> RenderedDocument {
        guard let app, let document else {
            return RenderedDocument(
                root: RenderNode(id: route.document, kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false)),
                actions: NodeActionTable())
        }
        var renderer = app.renderer(options: options)
        renderer.sections = sections
        let rendered = renderer.render(document, context: context, name: route.document, memo: renderMemo)
        var root = rendered.root
        if !dismissedSheets.isEmpty {
            // A closed sheet stays closed while its condition holds; once it leaves the tree it
            // may show again.
            var present = Set<String>()
            root = root.removingSheets(dismissedSheets, present: &present)
            dismissedSheets.formIntersection(present)
        }
        // Back follows the stack: a tab's root (or a presented sheet, which has its own Done)
        // has no Back.
        guard case .screen(var chrome) = root.kind else { return RenderedDocument(root: root, actions: rendered.actions) }
        chrome.showsBack = showsBack
        root.kind = .screen(chrome)
        return RenderedDocument(root: root, actions: rendered.actions)
    }

    /// Performs the action behind `actionKey` (a button, a search submit, a native component's
    /// action) in the current context: state set since the last render (a typed search) is
    /// seen; a list row's action keeps its row's context.
    public func perform(_ actionKey: String) async {
        guard let app else { return }
        if let section = SectionState.zoneId(retrying: actionKey) {
            // A failed section's retry: only it loads again, and the next action does not wait for it.
            let previous = sectionTask
            sectionTask = Task { [weak self] in
                await previous?.value
                await self?.loadSections(only: section)
            }
            return
        }
        guard let (action, scope) = lookUp(actionKey) else {
            app.logger.warning("no action '\(actionKey)' on \(route.document)")
            return
        }
        let result = await app.execute(action, in: scope, screen: route.document)
        app.observers.emit(
            .actionPerformed(
                ActionEvent(screen: route.document, action: actionKey, type: action.actionType, outcome: result.outcome)))
        if result.isError {
            app.observers.emit(
                .error(ErrorEvent(.actionFailed, screen: route.document, path: actionKey, message: "\(result)")))
        }
        await apply(result, from: actionKey)
    }

    /// The action behind `actionKey` in the tree on screen, brought up to date first (state set
    /// since the last build, a typed search, is seen). A list row's action is in the table of
    /// the tree its row was drawn from, so the table shown before the update is asked too; a
    /// document drawn without a kept tree (the web preview) is rendered for it.
    private func lookUp(_ actionKey: String) -> (CompiledNodeAction, DataContext)? {
        let shown = actions
        if renderOptions != nil {
            renderIfNeeded()
            if let found = actions.action(for: actionKey) ?? shown.action(for: actionKey) { return found }
        }
        let fresh = build(options: renderOptions ?? RenderOptions(), showsBack: false)
        return fresh.actions.action(for: actionKey) ?? shown.action(for: actionKey)
    }

    /// Performs `actionKey` for a button, which cannot await: actions run one after another in
    /// the order they were fired; those not started when the document closes are dropped.
    public func fire(_ actionKey: String) {
        firedActions.fire { [weak self] in await self?.perform(actionKey) }
    }

    /// Waits for the actions fired so far (tests, and a host that must know they ran).
    public func firedActionsFinished() async { await firedActions.finished() }

    /// How many fired actions have not finished (finished ones are not kept).
    public var firedActionCount: Int { firedActions.count }

    /// Drops the fired actions that have not started (the document closed).
    public func cancelFiredActions() { firedActions.cancelAll() }

    /// An element's visible share (0…1) changed: its visibility and disappear actions report an
    /// impression or a disappearance under their `log_id` once it held long enough (at most
    /// their `log_limit` times while the document is open).
    public func visibilityChanged(of id: String, visibility: RenderVisibility, fraction: Double) {
        visibilityTracker.changed(id, visibility: visibility, fraction: fraction)
    }

    /// The document closed for good: actions not started are dropped, timers stop, and the
    /// visibility actions' waits end.
    func closed() {
        isClosed = true
        cancelFiredActions()
        stopTimers()
        stopSections()
        visibilityTracker.cancelAll()
    }

    @ObservationIgnored private lazy var visibilityTracker = VisibilityTracker(clock: app?.configuration.clock ?? SystemClock()) {
        [weak self] action, disappear in
        guard let self, let app else { return }
        app.observers.emit(
            disappear
                ? .disappearance(screen: route.document, logId: action.logId)
                : .impression(screen: route.document, logId: action.logId))
    }

    /// An element with a `log_id` became visible; each is reported once per open document.
    public func recordImpression(_ logId: String) {
        guard let app, impressions.insert(logId).inserted else { return }
        app.observers.emit(.impression(screen: route.document, logId: logId))
    }

    /// Follows a `navigation_link`: pushes `screen` with its evaluated params.
    public func open(screen: String, params: JSONObject) {
        app?.push(NodeRoute(document: screen, params: params))
    }

    /// The host opened (or declined) `urlToOpen`.
    public func didOpenURL() { urlToOpen = nil }

    /// The banner's close button.
    public func dismissBanner() { banner = nil }

    /// Call when `banner` is shown: with VoiceOver on it is spoken through `announce`; it goes
    /// after its lifetime (on the app's clock) unless another replaced it or the view went away.
    public func bannerShown(_ shown: Banner, voiceOver: Bool, announce: @MainActor (String) -> Void = { _ in }) async {
        let clock = app?.configuration.clock ?? SystemClock()
        guard await bannerLifetimePassed(shown, voiceOver: voiceOver, clock: clock, announce: announce), banner == shown else {
            return
        }
        banner = nil
    }

    /// Writes a timer's time to state (`$.state.<key>`, `$.<key>`).
    func setTimerState(_ changes: [(String, JSONValue)]) {
        for (key, value) in changes {
            data[key] = value
            state[key] = value
        }
    }

    /// Sets a bound value: `binding` is a field's binding (`$.env.searchQuery`) or a state key.
    public func setValue(_ value: JSONValue, for binding: String) {
        state[Self.stateKey(binding)] = value
    }

    /// The state key a binding writes (`$.env.searchQuery` and `$.state.searchQuery` →
    /// `searchQuery`).
    public static func stateKey(_ binding: String) -> String {
        for prefix in ["$.env.", "$.state.", "$."] where binding.hasPrefix(prefix) {
            return String(binding.dropFirst(prefix.count))
        }
        return binding
    }

    /// Whether this document may open another: while it is on top, or when the app does not
    /// hold it (a model made on its own).
    private func mayNavigate(_ app: NodeAppRuntime) -> Bool {
        !isClosed && (app.current?.id == route.id || !app.holds(route))
    }

    /// Applies an action's result: state and results land in the context, navigation goes to
    /// the app. `actionKey` is the action that gave it (a `dismiss` inside a sheet node closes
    /// that sheet, not the page).
    func apply(_ result: ActionResult, from actionKey: String? = nil) async {
        guard let app else { return }
        switch result {
        case .stateChanged(let changes):
            for (key, value) in changes {
                data[key] = value
                state[key] = value
            }
        case .timer(let id, let command):
            self.command(command, timer: id)
        case .setVariable(let key, let value, let increment):
            // Node documents keep their values in `state`; `setState` is their way to set one.
            var next = value
            if increment, case .number(let current)? = state[key], case .number(let step) = value {
                next = .number(JSONNumber(current.doubleValue + step.doubleValue))
            }
            data[key] = next
            state[key] = next
        case .navigateTo(let document, let params, let presentation):
            // A result that arrives after the person left this document opens nothing elsewhere.
            guard mayNavigate(app) else { return }
            app.show(NodeRoute(document: document, params: params, presentation: presentation))
        case .present(let document, let params):
            guard mayNavigate(app) else { return }
            app.present(NodeRoute(document: document, params: params))
        case .dismiss, .navigateBack:
            if let actionKey, let sheet = rendered?.root.sheet(holdingAction: actionKey) {
                sheetNodeDismissed(sheet)
            } else if app.holds(route) {
                // Back from this document, if it is still open (a result that arrives after the
                // person left closes nothing else).
                app.close(route)
            }
        case .error, .fieldErrors, .success, .pendingOffline:
            // A result that says nothing leaves the banner shown, as on a screen.
            if let shown = Banner(result) { banner = shown }
        case .sequence(let steps):
            for step in steps { await apply(step, from: actionKey) }
        case .refresh:
            await refresh()
        case .openURL(let url):
            if app.configuration.security.allows(url) {
                urlToOpen = url
            } else {
                app.logger.warning("refused to open \(Redaction.url(url)): not allowed by the URL policy")
            }
        case .patch(let patch, _):
            do throws(PatchError) {
                try self.apply(patch)
            } catch {
                banner = Banner(kind: .error, message: "\(error)")
            }
        case .logout, .signedIn, .cancelled, .confirm:
            break
        }
    }
}
