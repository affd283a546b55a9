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

/// Everything a host decides about a node-dialect app, with defaults for the rest. What it
/// shares with a screen app's configuration is in `settings`, read as its own members.
public struct NodeAppConfiguration: RuntimeConfiguration {
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
    /// Timeouts, retries, limits, the URL policy, locale, time zone, logger, clock and observers;
    /// set them one by one (`configuration.timeout = 10`): a new value whole drops the preview followed.
    public var settings: RuntimeSettings

    /// Creates a configuration.
    public init(
        baseURL: URL, documents: NodeDocumentSource, rootDocument: String = "app", themeDocument: String = "theme",
        componentsDocument: String = "components", allowInsecureLoopback: Bool = false, timeout: Double = 30,
        retryPolicy: RetryPolicy = .default, limits: DynamicUILimits = .default,
        security: URLSecurityPolicy = URLSecurityPolicy(hosts: []), locale: Locale = .current,
        timeZone: TimeZone = .current, logger: Logger = Logger(label: "DynamicUI.nodes"),
        clock: any DynamicUIClock = SystemClock(), observers: [any DynamicUIObserver]? = nil
    ) {
        self.baseURL = baseURL
        self.documents = documents
        self.rootDocument = rootDocument
        self.themeDocument = themeDocument
        self.componentsDocument = componentsDocument
        settings = RuntimeSettings(
            allowInsecureLoopback: allowInsecureLoopback, timeout: timeout, retryPolicy: retryPolicy, security: security,
            limits: limits, locale: locale, timeZone: timeZone, logger: logger, clock: clock, observers: observers)
    }

    /// Follows `preview` (`nil`: none): the documents and the API come from the preview's demo
    /// backend, and each saved change shows in the running app.
    public mutating func follow(_ preview: DevelopmentPreview?) {
        recordFollowing(preview)
        guard let preview else { return }
        baseURL = preview.mobileURL
        documents = .remote("/v1/documents/{name}")
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
    public private(set) var tabStacks = TabStacks<NodeRoute>() {
        didSet { releaseModelsOfClosedRoutes() }
    }
    /// Each tab's documents pushed above its root, by the tab's document.
    public var stacks: [String: [NodeRoute]] { tabStacks.stacks }
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
        get { tabStacks[selectedDocument] }
        set { tabStacks[selectedDocument] = newValue }
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
        observers = configuration.settings.resolvedObservers
        // A node app's API has no session of the SDK's to refresh.
        var api = configuration.settings.api(adminBaseURL: configuration.baseURL, mobileBaseURL: configuration.baseURL)
        api.refreshEndpoint = nil
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
            tabStacks = TabStacks()
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
        for route in tabStacks.pushed { open.insert(route.id) }
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
        if selectedDocument == document { stack.removeAll() } else { selectedDocument = document }
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
        return tabStacks.back(on: selectedDocument)
    }

    /// Whether `route` is open: a tab's root, on a stack, the sheet or pushed inside it.
    public func holds(_ route: NodeRoute) -> Bool {
        tabRoutes.values.contains { $0.id == route.id } || tabStacks.holds(route.id) || sheet?.id == route.id
            || sheetStack.contains { $0.id == route.id }
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
        return tabStacks.close(route.id)
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
