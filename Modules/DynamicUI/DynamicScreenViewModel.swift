public import DynamicUIActions
public import DynamicUIModels
import DynamicUINetwork
public import DynamicUIRendering
public import DynamicUIResolvers
public import Foundation
public import Observation

/// The state of one screen: loads its definition and data, pages and searches,
/// runs actions through the screen's handler then the generic registry, and applies every
/// `ActionResult` (navigation, refresh, sign-out, messages, field errors, pending-offline
/// notices, confirmations, external URLs, state changes).
@Observable
@MainActor
public final class DynamicScreenViewModel {
    /// The definition's state.
    public private(set) var screenState: ScreenState = .loading
    /// The data's state.
    public private(set) var dataState: DataState = .idle
    /// The compiled screen, once loaded.
    public private(set) var compiled: CompiledScreen?
    /// The data of the last load (a list response or a detail object), built when first read: a
    /// list screen draws its rows from `dataState`'s items, built one row at a time.
    public var data: JSONValue { response.value }
    /// The last load's response, read in place.
    private var response = LazyJSON(.null)
    /// Whether the response held a list (the screen's `data` is then its items).
    private var responseIsList = false
    /// The list's items as last shown (all pages), while `dataState` may be loading again.
    private var responseItems: ListItems = []
    /// Whether a load has given data (answered without building it).
    public var hasData: Bool { !response.isNull }
    /// Whether the screen is a list of the response's items (its `data` is then the items).
    private var showsList: Bool {
        responseIsList && compiled.map { [.list, .search, .notification].contains($0.definition.pattern) } == true
    }
    /// Form values and errors.
    public let formState = FormState()
    /// The search query (`q` is sent with the data request).
    public private(set) var searchText = ""
    /// Whether the last request for another page failed (the rows stay; the list offers a retry).
    public private(set) var nextPageFailed = false
    /// Whether the screen is shown (between `appeared()` and `disappeared()`).
    @ObservationIgnored var isShown = false
    /// Whether the last row showed again while a page was loading for a row that had gone.
    @ObservationIgnored private var nextPageWanted = false
    /// How many first-page loads gave data (a reload that failed adds none).
    @ObservationIgnored private var dataLoads = 0
    /// The form's values as loaded: what `hasUnsavedChanges` compares with.
    @ObservationIgnored private var formBaseline: [String: String] = [:]

    /// Whether the user changed a field since the screen loaded: a sheet showing it is not
    /// dismissed by a swipe (SwiftUI `interactiveDismissDisabled`), only by its Cancel or Close.
    public var hasUnsavedChanges: Bool {
        formState.fieldValues.contains { formBaseline[$0.key] ?? "" != $0.value }
    }
    /// A message to show.
    public private(set) var banner: Banner?
    /// Whether the data shown is the last saved on the device (the server could not be reached).
    public private(set) var isShowingSavedData = false
    /// A confirmation waiting for the user.
    public private(set) var confirmation: ConfirmationRequest?
    /// An external URL to open (allowed by the security policy); the view opens it and calls
    /// `didOpenURL()`, so the same link opens again the next time.
    public private(set) var urlToOpen: URL?
    /// Screen state set by actions (`stateChanged`).
    public private(set) var state: JSONObject = [:]
    /// The deferred sections by zone id: loading, loaded or failed, each on its own.
    public var sections: [String: SectionState] { sectionBank.states }
    /// The deferred sections' states, endpoints and load generation.
    var sectionBank = SectionBank()
    /// The screen's variables (`variables.NAME` in expressions), each of its declared type.
    public internal(set) var variables: JSONObject = [:]
    @ObservationIgnored var variableRuntime = VariableRuntime()
    /// The screen's timers, on the model's clock.
    @ObservationIgnored lazy var timers: TimerRunner = {
        let runner = TimerRunner(clock: clock)
        runner.host = self
        return runner
    }()
    @ObservationIgnored lazy var visibilityTracker = makeVisibilityTracker()
    /// Why the screen shows a failure state instead of its content (the definition could not
    /// be loaded, or its data was refused, missing or unreachable); `nil` when it shows content.
    public private(set) var failure: LoadFailure?
    /// The form field that has (or should take) the keyboard focus: return moves it along the
    /// focus chain, and a failed submit sets it to the first field with an error.
    public var focusedField: String?

    /// The render tree the screen shows, kept by the model: built when `renderOptions` is set
    /// and rebuilt only when something it was built from changes (data, banner, search, state,
    /// session, form errors; form values only when an expression reads `form`). A view draws
    /// it; it never renders.
    public private(set) var tree: Result<RenderNode, any Error>?
    /// How the shown tree is rendered (size class, platform); the view sets it when they change.
    public var renderOptions: RenderOptions? {
        didSet { if renderOptions != oldValue { kept.setNeedsRender() } }
    }
    /// How many times `tree` was built (a view redraw never builds it).
    public var renderCount: Int { kept.count }
    @ObservationIgnored private lazy var kept = KeptRender { [weak self] in self?.renderIfNeeded() }
    /// What the last render built: a patch or a new record lowers only what it changed.
    @ObservationIgnored let renderMemo = RenderMemo()
    @ObservationIgnored private var readsForm: Bool?

    /// The route shown.
    public let route: Route
    /// The app's native components (slots of their `control_type` draw them).
    public let nativeComponents: NativeComponentRegistry
    /// The observers of actions, renders and impressions.
    public let observers: DynamicUIObservers
    private var impressions: Set<String> = []
    private let screens: ScreenLoader
    let dataLoader: DataLoader
    private let dispatcher: ActionDispatcher
    private let navigation: NavigationModel
    private let session: @MainActor () -> SessionInfo?
    /// Dates, locale and limits of evaluation; its "now" follows the clock (a tab root lives all
    /// session: `{today_date}` changes at midnight).
    private(set) var environment: EvaluationEnvironment
    private let onLogout: @MainActor () async -> Void
    private let onSignedIn: @MainActor (SessionInfo) async -> Void
    private let onQueued: @MainActor () async -> Void
    private let onPerformed: @MainActor () async -> Void
    private let onShown: @MainActor (DynamicScreenViewModel) -> Void
    let clock: any DynamicUIClock
    private var polling: Task<Void, Never>?
    /// Polling stopped because the app went to the background; it resumes when it comes back.
    @ObservationIgnored private var pollingPausedInBackground = false
    /// The list row whose action asked for the pending confirmation.
    @ObservationIgnored private var confirmationItem: JSONValue?
    @ObservationIgnored let firedActions = FiredActions()
    /// The runtime's count of data changes, and its value when this screen's data was loaded.
    let dataRevision: DataRevision?
    private var loadedRevision = 0
    /// Whether the runtime made this model for a route of its navigation (not a model made on
    /// its own): its navigation results then act only from where it is.
    var isNavigationRoute = false
    /// Which external URLs may be opened (the runtime's policy; `nil` for a model made alone).
    let urlPolicy: URLSecurityPolicy?
    /// The number of this session's changes waiting in the offline queue (the runtime's count).
    let pendingChangeCount: (@MainActor () -> Int)?
    /// Hands a success or pending message to the screen the user lands on when this one closes.
    let handOff: (@MainActor (Banner) -> Void)?

    /// Creates the view model of `route`, working with `services` and telling the app what its
    /// actions did through `hooks`.
    public init(route: Route, services: ScreenServices, hooks: ScreenModelHooks = ScreenModelHooks()) {
        self.route = route
        screens = services.screens
        dataLoader = services.data
        dispatcher = services.dispatcher
        navigation = services.navigation
        environment = services.environment
        clock = services.clock
        nativeComponents = services.nativeComponents
        observers = services.observers
        urlPolicy = services.urlPolicy
        dataRevision = services.dataRevision
        session = hooks.session
        onLogout = hooks.signedOut
        onSignedIn = hooks.signedIn
        onQueued = hooks.queued
        onPerformed = hooks.performed
        onShown = hooks.shown
        pendingChangeCount = hooks.pendingChangeCount
        handOff = hooks.handOff
        formState.validator.strings = DynamicUIStrings(locale: environment.locale)
    }

    /// The environment with "now" from the clock, read again once a minute at most.
    private func currentEnvironment() -> EvaluationEnvironment {
        let now = clock.now()
        if abs(now.timeIntervalSince(environment.now)) >= 60 { environment.now = now }
        return environment
    }

    /// The SDK's words in the configured locale.
    public var strings: DynamicUIStrings { DynamicUIStrings(locale: environment.locale) }

    // MARK: Loading

    /// Loads the definition, then its data and its deferred sections.
    public func load() async { await load(waitingForSections: true) }

    /// Loads the definition, then its data; with `waitingForSections` false it returns once the
    /// screen and its data are in, while its deferred sections go on loading (a page drawn
    /// once and updated live, as the web preview draws it).
    public func load(waitingForSections: Bool) async {
        screenState = .loading
        failure = nil
        do {
            let loaded = try await screens.load(route.screenKey)
            compiled = loaded.screen
            readsForm = nil
            startVariables(of: loaded.screen.definition)
            screenState = .ready(loaded.screen.definition, isStale: loaded.isStale)
            await startTimers(of: loaded.screen.definition)
            onShown(self)
            if loaded.isStale { banner = Banner(kind: .pending, message: strings(.staleScreen)) }
            resetSections()
            // The deferred sections load beside the screen's data, each on its own.
            if waitingForSections {
                async let sectionsLoaded: Void = loadSections()
                await loadData()
                await sectionsLoaded
            } else {
                Task { [weak self] in await self?.loadSections() }
                await loadData()
            }
            for (field, value) in await dispatcher.initialValues(for: loaded.screen.definition, session: session()) {
                formState.setValue(value, for: field)
            }
            // An input bound to a variable shows the variable, whatever a handler preset.
            showVariablesInInputs(Set(variables.keys))
            formBaseline = formState.fieldValues
        } catch {
            if (error as? ScreenLoadError)?.network?.isCancellation == true || Task.isCancelled {
                // Interrupted (the screen went away): it loads again when it is shown.
                screenState = .loading
                return
            }
            screenState = .error("\(error)")
            failure = Self.failure((error as? ScreenLoadError)?.network, message: strings(.screenLoadFailed))
        }
    }

    /// The state a person sees for a failed request.
    static func failure(_ error: NetworkError?, message: String) -> LoadFailure {
        switch error?.code {
        case .forbidden?, .unauthorized?: .notAllowed
        // A record the link does not name (`material-detail` without `id`) is not found either.
        case .notFound?, .invalidRequest?: .notFound
        case .noConnection?, .timeout?: .offline
        default: .failed(message)
        }
    }

    // MARK: Patches

    /// Applies `patch` to the shown screen's zones and slots and redraws it in place, without a
    /// reload (a section added, a control changed). All or nothing: a change that cannot be
    /// applied, or a patched screen that does not compile, throws and changes nothing.
    public func apply(_ patch: DocumentPatch) throws(PatchError) {
        guard let current = compiled, case .ready(_, let isStale) = screenState else { throw PatchError.notShown }
        try checkAddressee(of: patch)
        let values = try checkedVariables(of: patch)
        let patched = patch.changes.isEmpty ? current : try screens.patched(current, with: patch)
        compiled = patched
        readsForm = nil
        screenState = .ready(patched.definition, isStale: isStale)
        setPatched(values)
        // A section the patch brought (or gave another endpoint) loads; one it removed is forgotten.
        if sectionsChanged { firedActions.fire { [weak self] in await self?.loadChangedSections() } }
    }

    /// Takes the definition the followed preview serves now, keeping what the person entered,
    /// the data shown and the place: an unchanged definition changes nothing, a changed one is
    /// drawn in place, and the data loads again only when where it comes from changed. A
    /// definition that cannot be loaded leaves the last good one on screen.
    func followDefinitionChange() async {
        guard case .ready(let shown, _) = screenState else {
            // A screen that failed (the save before was broken) tries again.
            if case .error = screenState { await load() }
            return
        }
        guard let loaded = try? await screens.load(route.screenKey), loaded.screen.definition != shown else { return }
        let next = loaded.screen.definition
        compiled = loaded.screen
        readsForm = nil
        if next.variables != shown.variables || next.triggers != shown.triggers {
            // Variables still declared with the same type keep their values.
            let kept = variables
            startVariables(of: next)
            let same = kept.filter { variableRuntime.types[$0.key] != nil && variables[$0.key]?.kindName == $0.value.kindName }
            for (name, value) in same { variables[name] = value }
            showVariablesInInputs(Set(same.map(\.key)))
        }
        screenState = .ready(next, isStale: false)
        if next.timers != shown.timers { await startTimers(of: next) }
        if sectionsChanged { await loadChangedSections() }
        if next.dataEndpoint != shown.dataEndpoint || next.dataConfig != shown.dataConfig {
            await loadData(reload: true, quietly: true)
        }
    }

    /// Applies `patch` to the shown records (by their `id`) and redraws them in place: a card
    /// whose material finished processing changes without a reload. All or nothing.
    public func applyToData(_ patch: DocumentPatch) throws(PatchError) {
        guard case .success(let items, let hasMore, let loadingMore) = dataState else { throw PatchError.notShown }
        // The page being loaded is appended to the rows as they were: a patch now would be lost.
        guard !loadingMore else { throw PatchError.pageLoading }
        try checkAddressee(of: patch)
        let values = try checkedVariables(of: patch)
        // The records held in the page's document stay there: only the changed ones are built.
        let patched = try items.applying(patch)
        if !responseIsList, case .object = data {
            response = LazyJSON(patched.first ?? .null)  // a detail screen: its data is its one record
        } else {
            // The first page's response, where the record is on it: patched when it is read.
            response = LazyJSON(patching: response, with: patch)
            responseItems = patched
        }
        dataState = .success(items: patched, hasMore: hasMore, loadingMore: loadingMore)
        setPatched(values)
    }

    /// A patch that names its screen must name this one.
    private func checkAddressee(of patch: DocumentPatch) throws(PatchError) {
        if let key = patch.screenKey, key != route.screenKey { throw PatchError.meantFor(key, shown: route.screenKey) }
    }

    /// Loads the first page of data (nothing when the screen has no endpoint).
    public func loadData() async { await loadData(reload: false) }

    /// Loads the first page. `reload` asks the server even when a fresh response is cached;
    /// `quietly` (polling) keeps what is shown while loading and after a failure, and leaves the
    /// form as the user has it.
    private func loadData(reload: Bool, quietly: Bool = false) async {
        guard let screen = compiled?.definition, let endpoint = screen.dataEndpoint else {
            if !quietly { dataState = .idle }
            return
        }
        let shown = dataState
        if !quietly {
            dataState = .loading
            failure = nil
            nextPageFailed = false
        }
        loadedRevision = dataRevision?.value ?? 0
        do throws(NetworkError) {
            let page = try await dataLoader.load(
                endpoint: endpoint, config: screen.dataConfig, params: dataParams, query: query, reload: reload)
            response = page.response
            dataLoads &+= 1
            responseIsList = page.isList
            responseItems = page.items
            dataState = .success(items: page.items, hasMore: page.hasMore, loadingMore: false)
            isShowingSavedData = page.isStale
            if page.isStale, !quietly { banner = Banner(kind: .pending, message: strings(.staleData)) }
            if !quietly, screen.pattern == .form || screen.pattern == .detail, let item = page.items.first {
                formState.prefill(from: item, slots: inputSlots)
            }
            await bindTimersToData()
        } catch {
            if error.isCancellation {
                // The view that asked went away (a tab switch, a new search query): lifecycle, not
                // a failure. What was shown stays; a first load starts again when it is shown.
                if !quietly {
                    dataState = Self.restored(shown)
                    // Shown again before the cancelled first load ended: it loads now.
                    if case .idle = dataState, isShown { fire { [weak self] in await self?.loadData() } }
                }
                return
            }
            guard !quietly else { return }
            if case .success(let items, _, _) = shown, !items.isEmpty || !response.isNull {
                // A refresh or a search that failed: the rows stay, with the search field and
                // pull-to-refresh, and the error is a banner.
                dataState = shown
                let offline = error.code == .noConnection || error.code == .timeout
                banner = Banner(
                    kind: .error,
                    message: offline ? "\(strings(.offline)). \(strings(.dataLoadFailed))" : strings(.dataLoadFailed))
                return
            }
            dataState = .error(error.code == .noConnection ? strings(.offline) : error.message)
            failure = Self.failure(error, message: strings(.dataLoadFailed))
        }
    }

    /// Appends the next page. On failure the items stay, `nextPageFailed` is set (the list
    /// says so with a retry) and paging waits for the retry.
    public func loadNextPage() async {
        guard let screen = compiled?.definition, let endpoint = screen.dataEndpoint,
            case .success(let items, true, false) = dataState
        else { return }
        nextPageFailed = false
        dataState = .success(items: items, hasMore: true, loadingMore: true)
        do throws(NetworkError) {
            let page = try await dataLoader.loadNextPage(
                endpoint: endpoint, config: screen.dataConfig, params: dataParams, query: query, loaded: items.count)
            let all = items + page.items
            response = LazyJSON(items: all)
            responseItems = all
            dataState = .success(items: all, hasMore: page.hasMore, loadingMore: false)
        } catch {
            dataState = .success(items: items, hasMore: true, loadingMore: false)
            // A row scrolled away or tapped while the page loads cancels it: paging goes on when
            // the last row shows again, also when it showed again before the cancelled load ended.
            nextPageFailed = !error.isCancellation
            if error.isCancellation, nextPageWanted { fire { [weak self] in await self?.loadNextPage() } }
        }
        nextPageWanted = false
    }

    /// What a cancelled load leaves: the state shown before it, or nothing loaded yet.
    private static func restored(_ shown: DataState) -> DataState {
        switch shown {
        case .success: shown
        case .idle, .loading, .error: .idle
        }
    }

    /// Call when the list row at `index` is shown: the next page is requested when the last
    /// loaded row shows (a lazy list shows it only when scrolled to), not before, and not
    /// again after a failure until the user asks (`loadNextPage()`).
    public func rowAppeared(at index: Int) async {
        guard case .success(let items, true, let loadingMore) = dataState, !nextPageFailed, index >= items.count - 1 else {
            return
        }
        // The page may be on its way for a row that has since gone: it is wanted again.
        if loadingMore {
            nextPageWanted = true
            return
        }
        await loadNextPage()
    }

    /// Reloads from the first page, asking the server even when a fresh response is cached.
    public func refresh() async {
        async let sectionsLoaded: Void = loadSections(reload: true)
        await loadData(reload: true)
        await sectionsLoaded
    }

    /// Whether data this screen shows was changed since it was loaded (a create, edit or
    /// delete anywhere in the app).
    public var isDataOutdated: Bool {
        compiled?.definition.dataEndpoint != nil && (dataRevision?.value ?? 0) != loadedRevision
    }

    /// Reloads the data, keeping what is shown meanwhile, when it is outdated: the runtime calls
    /// it for the screens on the stack after an action; call it when a screen reappears.
    public func reloadIfOutdated() async {
        guard isDataOutdated else { return }
        await loadData(reload: false, quietly: true)
        if let pattern = compiled?.definition.pattern, pattern == .form || pattern == .detail, data.objectValue != nil {
            formState.prefill(from: data, slots: inputSlots)
        }
    }

    /// Shows `banner` (a message handed over by a screen that closed).
    public func show(banner: Banner) { self.banner = banner }

    // MARK: Polling

    /// Whether `refresh_interval` polling is running.
    public var isPolling: Bool { polling != nil }

    /// Call when the screen becomes visible: with a `refresh_interval`, the data is reloaded
    /// every that many seconds until `stopPolling()`. The items stay on screen during a reload
    /// and a failed reload keeps them.
    public func startPolling() {
        guard polling == nil, let interval = compiled?.definition.dataConfig?.refreshInterval, interval > 0 else { return }
        polling = Task { [weak self, clock] in
            while !Task.isCancelled {
                do { try await clock.sleep(seconds: Double(interval)) } catch { return }
                guard let self else { return }
                if let endpoint = self.compiled?.definition.dataConfig?.refreshPatchEndpoint {
                    await self.refreshByPatch(from: endpoint)
                } else {
                    await self.loadData(reload: true, quietly: true)
                }
            }
        }
    }

    /// A refresh by patch (`refresh_patch_endpoint`): the shown records change in place by the
    /// patch the endpoint answers (nothing when it answers nothing). A failed request keeps
    /// what is shown; an answer that is not a patch, or a patch that cannot be applied, is
    /// reported and the page is loaded again, so the screen never stays wrong.
    func refreshByPatch(from endpoint: String) async {
        let path = "data_config.refresh_patch_endpoint"
        switch dataState {
        case .success(_, _, true): return  // a page is being loaded: this refresh waits for the next
        case .success: break
        default: return await loadData(reload: true, quietly: true)  // nothing shown to patch
        }
        let patch: DocumentPatch?
        do {
            patch = try await dataLoader.loadPatch(endpoint: endpoint, params: dataParams)
        } catch let error as NetworkError where error.code != .decoding {
            // Not reached, or refused: what is shown stays, and the next refresh asks again.
            observers.emit(.error(ErrorEvent(.load, screen: route.screenKey, path: path, message: error.message)))
            return
        } catch {
            // An answer that is not JSON, or not a patch: the page is loaded again.
            observers.emit(.error(ErrorEvent(.decode, screen: route.screenKey, path: path, message: "\(error)")))
            return await loadData(reload: true, quietly: true)
        }
        guard let patch else { return }
        do throws(PatchError) {
            try applyToData(patch)
        } catch PatchError.pageLoading {
            return  // a page began loading meanwhile: the next refresh asks again
        } catch {
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: path, message: "\(error)")))
            await loadData(reload: true, quietly: true)
        }
    }

    /// Call when the screen is hidden: polling stops.
    public func stopPolling() {
        polling?.cancel()
        polling = nil
        pollingPausedInBackground = false
    }

    /// The app went to the background (`false`) or came back (`true`): polling pauses there and
    /// resumes here, with a reload when it was due meanwhile; timers stop ticking there and catch
    /// up from the clock here.
    public func appDidChange(isActive: Bool) async {
        await timersDidChange(inBackground: !isActive)
        if isActive {
            guard pollingPausedInBackground else { return }
            pollingPausedInBackground = false
            await loadData(reload: true, quietly: true)
            startPolling()
        } else if polling != nil {
            polling?.cancel()
            polling = nil
            pollingPausedInBackground = true
        }
    }

    /// Searches: the query is sent as `q` and the list restarts from the first page.
    public func search(_ text: String) async {
        searchText = text
        await loadData()
    }

    /// The route's parameters completed by the screen's handler (a tab opened without its `id`).
    var dataParams: [String: String] {
        dispatcher.completeParameters(
            route.params, screenKey: route.screenKey, handlerKey: compiled?.definition.handlerKey, session: session())
    }

    private var query: [(name: String, value: String)] {
        searchText.isEmpty ? [] : [("q", searchText)]
    }

    private var inputSlots: [Slot] {
        compiled?.definition.template.allZones.flatMap { $0.slots ?? [] }.filter { $0.controlType.isInput } ?? []
    }

    /// The root context of the screen now (user, data, form values, state, params).
    public func context() throws -> DataContext {
        try context(formValues: formState.fieldValues)
    }

    private func context(formValues: [String: String]) throws -> DataContext {
        guard let compiled else { throw ScreenLoadError(key: route.screenKey, message: "not loaded", network: nil) }
        let current = session()
        // A list's `data` is its items (as after paging), also when the response wrapped them
        // (`{"data": [...], "total": n}`), so `data.isEmpty` shows the empty state; they are
        // bound without being built (a path builds the item it reaches), also while the next
        // load runs.
        var items: ListItems?
        if showsList {
            if case .success(let loaded, _, _) = dataState { items = loaded } else { items = responseItems }
        }
        return try compiled.context(
            user: current?.user, userContext: current?.context, data: items == nil ? data : .null, items: items,
            form: JSONObject(formValues.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }),
            state: state,
            params: JSONObject(route.params.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }),
            variables: variables, environment: currentEnvironment())
    }

    /// The render tree of the screen now, built on each call (the web preview, the text
    /// renderer and tests call it; SwiftUI draws `tree`, which the model keeps).
    public func render(options: RenderOptions) throws -> RenderNode {
        let started = ContinuousClock.now
        let tree = try build(
            options: options, formValues: formState.fieldValues, canGoBack: navigation.stack.contains { $0.id == route.id })
        observers.emit(
            .screenRendered(screen: route.screenKey, seconds: started.secondsElapsed, nodes: tree.nodeCount))
        return tree
    }

    /// Builds `tree` now if something it depends on changed since it was built (the model also
    /// schedules this itself after every change; call it to have the tree current at once).
    public func renderIfNeeded() {
        guard let options = renderOptions, kept.beginIfNeeded() else { return }
        // Read outside the tracking: a push or pop elsewhere must not rebuild this screen (a
        // route's place on the stack does not change while it is shown), nor a keystroke in a
        // field no expression reads (the field's control binds to the form state itself).
        let canGoBack = navigation.stack.contains { $0.id == route.id }
        let tracksForm = screenReadsForm
        let values = tracksForm ? [:] : formState.fieldValues
        let started = ContinuousClock.now
        let built = kept.tracking {
            Result {
                try self.build(
                    options: options, formValues: tracksForm ? self.formState.fieldValues : values, canGoBack: canGoBack)
            }
        }
        tree = built
        if case .success(let root) = built {
            observers.emit(.screenRendered(screen: route.screenKey, seconds: started.secondsElapsed, nodes: root.nodeCount))
        }
    }

    /// Whether an expression of the screen reads the form (`form.title`): only then does typing
    /// change what the tree shows.
    private var screenReadsForm: Bool {
        if let readsForm { return readsForm }
        guard let compiled else { return false }
        let text = JSONWriter().string(from: compiled.definition.json)
        let reads = text.range(of: #"(?<![A-Za-z0-9_])form\."#, options: .regularExpression) != nil
        readsForm = reads
        return reads
    }

    private func build(options: RenderOptions, formValues: [String: String], canGoBack: Bool) throws -> RenderNode {
        if let failure {
            // A failure state, never a raw error: the screen's name when it is known.
            return failure.screen(title: compiled?.definition.screenName ?? "", canGoBack: canGoBack, strings: strings)
        }
        guard let compiled else { throw ScreenLoadError(key: route.screenKey, message: "not loaded", network: nil) }
        var items: ListItems?
        var pagination: PaginationState?
        if case .success(let loaded, let hasMore, let loadingMore) = dataState {
            items = loaded
            pagination = PaginationState(hasMore: hasMore, loadingMore: loadingMore, failed: nextPageFailed)
        }
        return PatternRouter(options: options, components: nativeComponents).render(
            ScreenInputs(
                screen: compiled, context: try context(formValues: formValues), items: items,
                form: FormSnapshot(values: formValues, errors: formState.fieldErrors), pagination: pagination,
                searchText: searchText, confirmation: confirmation, banner: banner,
                canGoBack: canGoBack, presentedAsSheet: route.presentation == .sheet,
                permissions: session()?.context.permissions, memo: renderMemo, sections: sections))
    }

    // MARK: Actions

    /// Runs the action `id` (for an item, when a row fired it) and applies its result.
    @discardableResult
    public func perform(actionId id: String, item: JSONValue? = nil, confirmed: Bool = false) async -> ActionResult {
        if id == LoadFailure.retryActionId {
            await load()
            return .success(message: nil)
        }
        if id == RenderToolbarItem.dismissActionId {
            let close = ActionDefinition(id: id, trigger: .buttonClick, type: .navigateBack)
            if !confirmed, let ask = discardConfirmation(leavingWith: close) {
                await apply(ask)
                return ask
            }
            await apply(.dismiss)
            return .cancelled
        }
        if let section = SectionState.zoneId(retrying: id) {
            await loadSections(only: section)
            return .success(message: nil)
        }
        if id == RenderSearchField.clearActionId {
            if let field = compiled?.definition.template.allZones.flatMap({ $0.slots ?? [] })
                .first(where: { $0.controlType == .searchBar })?.formFieldName
            {
                formState.setValue("", for: field)
            }
            await search("")
            return .success(message: nil)
        }
        guard let compiled, let action = compiled.actions[id] else { return .error(message: strings(.unknownAction)) }
        // An action the user's role may not take is not sent (its controls are not drawn; a
        // stale view or a host calling it directly gets the refusal the server would give).
        guard action.action.isAllowed(by: session()?.context.permissions), action.action.isGranted(on: item ?? singleRecord)
        else {
            return .error(message: strings(.actionNotAllowed))
        }
        // Leaving a form with edits not saved: the person is asked first, as an iOS sheet asks.
        if !confirmed, let ask = discardConfirmation(leavingWith: action.action) {
            await apply(ask)
            return ask
        }
        // Signing out with changes not yet sent: the person hears first that they will be discarded.
        if action.action.type == .logout, !confirmed, let pending = pendingChangeCount?(), pending > 0 {
            let request = ConfirmationRequest(
                title: strings(.signOut), message: strings(.changesWillBeDiscarded, String(pending)),
                confirmLabel: strings(.signOut), cancelLabel: strings(.cancel), destructive: true, action: action.action)
            await apply(.confirm(request))
            return .confirm(request)
        }
        var context: DataContext
        do {
            context = try self.context()
        } catch {
            return .error(message: "\(error)")
        }
        if let item {
            context = context.item(item, index: 0)
        } else if let record = singleRecord {
            // A detail or form shows one record: it is the `item` of its placeholders, as when rendering.
            context = context.item(record, index: 0)
        }
        let config = (try? action.config?.evaluate(in: context))?.objectValue ?? [:]
        let result = await run(action.action, config: config, item: item, row: item, confirmed: confirmed)
        // A confirmation asked for a row's action acts on that row when accepted.
        if result.asksForConfirmation { confirmationItem = item }
        report(action.action, result)
        // A check the screen makes on its own (a timer's or an appearance's patch) that fails is
        // reported, not shown: nobody asked for it, and it must not cover what the person did.
        if action.action.trigger == .screen, action.action.type == .applyPatch, result.isError { return result }
        await apply(result)
        await onPerformed()
        return result
    }

    /// Reports an action and, when it failed, the failure.
    private func report(_ action: ActionDefinition, _ result: ActionResult) {
        observers.emit(
            .actionPerformed(
                ActionEvent(screen: route.screenKey, action: action.id, type: action.type.rawValue, outcome: result.outcome)))
        if result.isError {
            var message = "action failed"
            if case .error(let text) = result { message = text }
            if case .sequence(let steps) = result, case .error(let text)? = steps.last { message = text }
            observers.emit(
                .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "actions.\(action.id)", message: message)))
        }
    }

    /// An element with a `log_id` became visible (SwiftUI `onAppear`, the preview's
    /// IntersectionObserver); each is reported once per view model.
    public func recordImpression(_ logId: String) {
        guard impressions.insert(logId).inserted else { return }
        observers.emit(.impression(screen: route.screenKey, logId: logId))
    }

    /// The question asked before `action` leaves a form whose fields were changed since it
    /// loaded ("¿Descartar los cambios?"): discarding runs it, keeping editing stays.
    private func discardConfirmation(leavingWith action: ActionDefinition) -> ActionResult? {
        guard action.type == .navigateBack, compiled?.definition.pattern == .form, hasUnsavedChanges else { return nil }
        return .confirm(
            ConfirmationRequest(
                title: strings(.discardChangesTitle), message: strings(.discardChangesMessage),
                confirmLabel: strings(.discardChanges), cancelLabel: strings(.keepEditing), destructive: true,
                action: action))
    }

    /// Accepts the pending confirmation: its guarded action runs.
    public func confirm() async {
        guard let request = confirmation else { return }
        confirmation = nil
        let config = JSONObject((request.action.config ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        // The row the confirmed action was fired for, else the screen's record.
        // (A list screen's response is its items, not a record.)
        let row = confirmationItem
        let item = row ?? (!showsList && data.objectValue != nil ? data : nil)
        confirmationItem = nil
        await apply(await run(request.action, config: config, item: item, row: row, confirmed: true))
        await onPerformed()
    }

    /// Declines the pending confirmation. A confirmation that names fields for the record
    /// (`recordOnDecline`: the server's `version` after a conflict) gives them to the screen's
    /// record; the form's values stay as typed.
    public func cancelConfirmation() {
        let declined = confirmation
        confirmation = nil
        confirmationItem = nil
        if let fields = declined?.recordOnDecline, !fields.isEmpty { updateRecord(with: fields) }
    }

    /// Sets `fields` on the record of a single-record screen, as if it had been loaded so.
    private func updateRecord(with fields: JSONObject) {
        guard !responseIsList, case .object(var record)? = singleRecord,
            case .success(_, let hasMore, let loadingMore) = dataState
        else { return }
        for (name, value) in fields { record[name] = value }
        response = LazyJSON(.object(record))
        dataState = .success(items: ListItems([.object(record)]), hasMore: hasMore, loadingMore: loadingMore)
    }

    /// Clears the banner (after it was shown).
    public func dismissBanner() { banner = nil }

    /// The host opened (or declined) `urlToOpen`.
    public func didOpenURL() { urlToOpen = nil }

    /// Call when `banner` is shown: with VoiceOver on it is spoken through `announce` (the view
    /// posts the platform's announcement); it is dismissed after its lifetime (on the model's
    /// clock) unless another replaced it or the view went away (the task is cancelled).
    public func bannerShown(_ shown: Banner, voiceOver: Bool, announce: @MainActor (String) -> Void = { _ in }) async {
        guard await bannerLifetimePassed(shown, voiceOver: voiceOver, clock: clock, announce: announce), banner == shown else {
            return
        }
        banner = nil
    }

    // MARK: Actions from buttons

    /// Runs `actionId` for a button, which cannot await: actions run one after another in the
    /// order they were fired, and `cancelFiredActions()` (the screen went away) stops those
    /// still waiting.
    public func fire(_ actionId: String, item: JSONValue? = nil) {
        firedActions.fire { [weak self] in await self?.perform(actionId: actionId, item: item) }
    }

    /// Runs `work` after the actions fired before it (a load the model starts by itself).
    private func fire(_ work: @escaping @MainActor () async -> Void) { firedActions.fire(work) }

    /// Waits for the actions fired so far (tests, and a host that must know they ran).
    public func firedActionsFinished() async { await firedActions.finished() }

    /// How many fired actions have not finished (finished ones are not kept).
    public var firedActionCount: Int { firedActions.count }

    /// Drops the fired actions that have not started (the screen went away).
    public func cancelFiredActions() { firedActions.cancelAll() }

    /// The record of a single-object screen (detail, profile, form, modal).
    private var singleRecord: JSONValue? {
        guard let pattern = compiled?.definition.pattern, [.detail, .profile, .form, .modal].contains(pattern),
            data.objectValue != nil
        else { return nil }
        return data
    }

    /// Runs `action` for `item`; `row` is the list row it was fired on, if any.
    private func run(
        _ action: ActionDefinition, config: JSONObject, item: JSONValue?, row: JSONValue?, confirmed: Bool
    ) async -> ActionResult {
        let detailItem = singleRecord
        // A row's action acts on its row: a parameter the row has (`{id}`) is the row's, never
        // one the screen was opened with (a link's `?id=` would otherwise pick the record).
        var params = route.params
        if let row = row?.objectValue { params = params.filter { row[$0.key] == nil } }
        let context = ActionContext(
            screenKey: route.screenKey, handlerKey: compiled?.definition.handlerKey, actionId: action.id, config: config,
            fieldValues: formState.fieldValues, formSlots: inputSlots, selectedItem: item ?? detailItem, params: params,
            session: session(), confirmed: confirmed)
        return await dispatcher.execute(action, context: context)
    }

    /// Whether a result of this screen may open another: while it is on top, or when the
    /// navigation does not hold it (a model made on its own, as the web preview makes them).
    private var mayNavigate: Bool {
        !isNavigationRoute || navigation.isOnTop(route)
    }

    /// Applies a result: the runtime's half of every action.
    public func apply(_ result: ActionResult) async {
        switch result {
        case .navigateTo(let key, let params, let presentation):
            // A result that arrives after the user left this screen opens nothing elsewhere.
            guard mayNavigate else { return }
            navigation.push(
                Route(screenKey: key, params: params.reduce(into: [:]) { $0[$1.key] = $1.value.text }, presentation: presentation)
            )
        case .navigateBack, .dismiss:
            // The message of what just succeeded goes with the user to the screen below.
            if let banner, banner.kind != .error, let handOff {
                handOff(banner)
                self.banner = nil
            }
            if isNavigationRoute {
                // This screen closes (with what is above it), wherever it is; a root or a
                // screen the user already left closes nothing.
                navigation.close(route)
            } else {
                navigation.back()
            }
        case .success(let message):
            if let message { banner = Banner(kind: .success, message: message) }
        case .error(let message):
            banner = Banner(kind: .error, message: message)
        case .fieldErrors(let errors, let message):
            formState.setErrors(errors)
            if let message { banner = Banner(kind: .error, message: message) }
            // The first field with an error, in the form's focus order, takes the focus.
            if let tree = try? render(options: RenderOptions()) { focusedField = FormFocus.firstError(in: tree) }
        case .pendingOffline(let message):
            banner = Banner(kind: .pending, message: message)
            await onQueued()
        case .logout:
            await onLogout()
            navigation.popToRoot()
        case .signedIn(let info, let destination):
            await onSignedIn(info)
            // Where the person can see it, even when the navigation has no tab for it.
            if let destination { navigation.show(destination) }
        case .cancelled:
            break
        case .refresh:
            let loads = dataLoads
            await refresh()
            // A form loaded again (after a conflict) shows the record as it is now; a reload
            // that failed leaves the edits as they were.
            if dataLoads != loads, compiled?.definition.pattern == .form, let record = singleRecord {
                formState.replace(from: record, slots: inputSlots)
                formBaseline = formState.fieldValues
            }
        case .confirm(let request):
            confirmation = request
        case .openURL(let url):
            // Whoever asked (the generic handler, a plugin, a custom handler), only a URL the
            // app's policy allows is opened.
            guard urlPolicy?.allows(url) ?? true else {
                banner = Banner(kind: .error, message: strings(.linkNotAllowed))
                observers.emit(
                    .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "openURL", message: "refused: not allowed")))
                return
            }
            urlToOpen = url
        case .present(let screen, let params):
            guard mayNavigate else { return }
            navigation.push(
                Route(screenKey: screen, params: params.reduce(into: [:]) { $0[$1.key] = $1.value.text }, presentation: .sheet))
        case .stateChanged(let changes):
            for (key, value) in changes { state[key] = value }
        case .setVariable(let name, let value, let increment):
            do throws(VariableError) {
                let changed = try assignVariables([(name, increment ? try incremented(name, by: value) : value)], at: "config")
                await runTriggers(changed: changed)
            } catch {
                banner = Banner(kind: .error, message: strings(.actionFailed))
                observers.emit(
                    .error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "variables.\(name)", message: "\(error)")))
            }
        case .timer(let id, let command):
            await self.command(command, timer: id)
        case .patch(let patch, let toData):
            do throws(PatchError) {
                if toData { try applyToData(patch) } else { try apply(patch) }
            } catch {
                banner = Banner(kind: .error, message: strings(.actionFailed))
                observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "patch", message: "\(error)")))
            }
        case .sequence(let results):
            for step in results { await apply(step) }
        }
    }
}
