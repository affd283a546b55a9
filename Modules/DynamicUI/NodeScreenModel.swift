import DynamicUIActions
public import DynamicUIModels
import DynamicUINetwork
public import DynamicUIRendering
public import DynamicUIResolvers
public import Foundation
import Logging
public import Observation

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
    /// The declared variables' types and the compiled triggers.
    @ObservationIgnored var variableRuntime = VariableRuntime()
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
    /// The document's timers, on the app's clock.
    @ObservationIgnored lazy var timers: TimerRunner = {
        let runner = TimerRunner(clock: app?.configuration.clock ?? SystemClock())
        runner.host = self
        return runner
    }()
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
        startVariables()
        await startTimers(document?.node.timers ?? [])
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
        timers.setHidden(false)
        visibilityTracker.set(suspended: isSuspended)
        await loadIfNeeded()
    }

    /// The document disappeared (covered, another tab, popped): timers stop ticking (they
    /// catch up from the clock when it shows again) and visibility waits end.
    public func disappeared() {
        isHidden = true
        timers.setHidden(true)
        visibilityTracker.set(suspended: true)
    }

    /// The app went to the background or came back.
    func appDidChange(inBackground: Bool) {
        self.inBackground = inBackground
        timers.setInBackground(inBackground)
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
        if next.node.variables != current.node.variables || next.node.triggers != current.node.triggers {
            startVariables(keeping: true)
        }
        if next.node.timers != current.node.timers { await startTimers(next.node.timers ?? []) }
        kept.setNeedsRender()
        startChangedSections()
    }

    /// Applies `patch` to the shown document's nodes and redraws it in place, without a reload.
    /// All or nothing: a change that cannot be applied, or a result that does not compile,
    /// throws and changes nothing; a patch that names another document (`screen_key`) is refused.
    public func apply(_ patch: DocumentPatch) throws(PatchError) {
        guard let app, let current = document, phase == .ready else { throw PatchError.notShown }
        if let key = patch.screenKey, key != route.document { throw PatchError.meantFor(key, shown: route.document) }
        // The patch's variables are checked with its changes: a wrong one refuses the whole patch.
        let values: [(String, JSONValue)]
        do throws(VariableError) {
            values = try variableRuntime.checked(
                (patch.variables ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, at: "variables")
        } catch {
            throw PatchError(
                code: error.code == .unknownVariable ? .noTarget : .invalidItem, location: error.location, message: error.message)
        }
        document = try app.patched(current, with: patch)
        if document?.node.variables != current.node.variables || document?.node.triggers != current.node.triggers {
            startVariables(keeping: true)
        }
        let changed = (try? writeState(values, at: "variables")) ?? []
        kept.setNeedsRender()
        // A section the patch brought (or gave another endpoint) loads; one it removed is forgotten.
        startChangedSections()
        if !changed.isEmpty { firedActions.fire { [weak self] in await self?.runTriggers(changed: changed) } }
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
    /// Writes `changes` to state (`$.state.<key>`, `$.<key>`), each declared variable's value
    /// checked against its type first (all or none); returns the keys whose value changed.
    func writeState(_ changes: [(String, JSONValue)], at location: JSONLocation) throws(VariableError) -> Set<String> {
        var changed: Set<String> = []
        for (key, value) in try variableRuntime.checked(changes, at: location, declaredOnly: false) {
            if state[key] != value { changed.insert(key) }
            data[key] = value
            state[key] = value
        }
        return changed
    }

    /// Sets a bound value: `binding` is a field's binding (`$.env.searchQuery`) or a state key.
    /// A field bound to a typed variable sets it from its text converted to the type (text that
    /// is not a value of it leaves the variable as it was); the triggers it fires then run.
    public func setValue(_ value: JSONValue, for binding: String) {
        let key = Self.stateKey(binding)
        var changed: Set<String> = []
        if let type = variableRuntime.types[key] {
            // A number reads with the locale's separator or a point (the field shows a point).
            let separator = app?.configuration.locale.decimalSeparator ?? "."
            let typed = value.stringValue.flatMap { text in
                type == .string
                    ? value
                    : type.value(fromInput: text, decimalSeparator: separator) ?? type.value(fromInput: text)
            }
            do throws(VariableError) {
                changed = try writeState([(key, typed ?? value)], at: JSONLocation(components: [.key("binding")]))
            } catch {
                app?.observers.emit(
                    .error(ErrorEvent(.actionFailed, screen: route.document, path: "binding.\(key)", message: "\(error)")))
                return
            }
        } else if state[key] != value {
            state[key] = value
            changed = [key]
        }
        guard !changed.isEmpty, !variableRuntime.triggers.isEmpty else { return }
        firedActions.fire { [weak self] in await self?.runTriggers(changed: changed) }
    }

    /// Declares the root node's variables (their first values written to state) and compiles
    /// its triggers; what cannot be taken is reported. A condition true from the start fires
    /// only when it turns true again.
    /// `keeping` the values of variables declared again with the same type (a followed
    /// preview's edit), as a screen keeps them.
    func startVariables(keeping: Bool = false) {
        guard let app, let node = document?.node else { return }
        let previous = variableRuntime.types
        var runtime = VariableRuntime(
            node.variables ?? [], triggers: node.triggers ?? [], limits: app.configuration.limits.expressions)
        if keeping {
            for (name, type) in runtime.types where previous[name] == type {
                if let value = state[name] { runtime.keep(value, for: name) }
            }
        }
        for problem in runtime.problems {
            app.observers.emit(
                .error(ErrorEvent(problem.kind, screen: route.document, path: problem.path, message: problem.message)))
        }
        variableRuntime = runtime
        _ = try? writeState(runtime.initial.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, at: "variables")
        variableRuntime.held = variableRuntime.conditions(in: context)
    }

    /// Runs the named actions of the triggers that fire now: those watching a key in `changed`
    /// (while their condition holds) and those whose condition just became true. A cascade
    /// deeper than `VariableTrigger.maxCascadeDepth` is stopped and reported.
    func runTriggers(changed: Set<String>) async {
        guard !variableRuntime.triggers.isEmpty else { return }
        let fired = variableRuntime.fire(changed: changed, conditions: variableRuntime.conditions(in: context))
        let cascade = await VariableRuntime.run(fired) { name in
            // A trigger's actions stop with the document (one of them may close it).
            guard !self.isClosed else { return }
            await self.perform(CompiledNode.namedActionKey(name))
        }
        guard let cascade else { return }
        app?.observers.emit(.error(ErrorEvent(.triggerCascade, screen: route.document, path: "triggers", message: cascade)))
    }

    /// The state key a binding writes (`$.env.searchQuery` and `$.state.searchQuery` →
    /// `searchQuery`).
    public static func stateKey(_ binding: String) -> String {
        for prefix in ["$.env.", "$.state.", "$."] where binding.hasPrefix(prefix) {
            return String(binding.dropFirst(prefix.count))
        }
        return binding
    }

    /// Writes an action's `changes` to state and runs the triggers they fire; a value of the
    /// wrong type for a declared variable changes nothing and is the document's banner.
    private func writeAndTrigger(_ changes: [(String, JSONValue)], at location: JSONLocation) async {
        do throws(VariableError) {
            await runTriggers(changed: try writeState(changes, at: location))
        } catch {
            banner = Banner(kind: .error, message: app?.strings(.actionFailed) ?? error.description)
            app?.observers.emit(
                .error(ErrorEvent(.actionFailed, screen: route.document, path: "\(error.location)", message: "\(error)")))
        }
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
            await writeAndTrigger(changes.map { ($0.key, $0.value) }, at: "changes")
        case .timer(let id, let command):
            await timers.command(command, timer: id)
        case .setVariable(let key, let value, let increment):
            // Node documents keep their values in `state`; `setState` is their way to set one.
            var next = value
            if increment, case .number(let current)? = state[key], case .number(let step) = value {
                next = .number(JSONNumber(current.doubleValue + step.doubleValue))
            }
            await writeAndTrigger([(key, next)], at: "config")
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
