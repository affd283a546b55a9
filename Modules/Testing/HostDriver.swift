public import DynamicUI
import DynamicUIActions
public import DynamicUIModels
public import DynamicUIRendering
public import Foundation

/// Drives a screen-dialect app as `DynamicUISwiftUI` draws it, with SwiftUI's lifecycle, through
/// the same host protocols the views use: a screen's `.task` starts when it becomes visible and
/// is cancelled when it is covered, left or popped; a search field's `.task(id:)` is cancelled
/// when the text changes; list rows exist (and run their `.task`) only while scrolled into view;
/// a sheet with unsaved edits refuses a swipe. Each call acts like a person (it returns without
/// waiting); `settle()` waits for what it started.
@MainActor
public final class AppDriver<Runtime: AppHosting> {
    /// The runtime driven.
    public let runtime: Runtime
    /// How visible screens are lowered (the size class and platform the views give them).
    public private(set) var options: RenderOptions
    /// The clock the app runs on, when the test advances it (a pause while typing).
    public let clock: ManualClock?
    /// How many rows of a list fit on screen.
    public var visibleRows = 8

    /// The screens on screen, and the tasks winding down that `settle()` waits for.
    private let mounted = MountedDocuments<MountedScreen<Runtime.Screen>>()

    /// A driver of `runtime`, drawn in compact width on a phone unless `options` says otherwise.
    public init(
        _ runtime: Runtime, options: RenderOptions = RenderOptions(sizeClass: .compact, platform: .ios),
        clock: ManualClock? = nil
    ) {
        self.runtime = runtime
        self.options = options
        self.clock = clock
    }

    // MARK: What is on screen

    /// The routes drawn now, bottom to top: the selected tab's top screen and each presented
    /// sheet's top screen (a sheet does not hide what presents it; a push does).
    public var visibleRoutes: [Route] {
        guard !runtime.isRestoring else { return [] }
        let navigation = runtime.navigation
        let root =
            runtime.isSignedIn
            ? navigation.selectedScreenKey.map(Route.root)
            : Route.root(runtime.configuration.loginScreenKey)
        guard let root else { return [] }
        var levels: [[Route]] = [[root]]
        for route in navigation.stack {
            if route.presentation == .sheet { levels.append([route]) } else { levels[levels.count - 1].append(route) }
        }
        return levels.compactMap(\.last)
    }

    /// The model of the screen on top (the one a tap reaches).
    public var top: Runtime.Screen? {
        visibleRoutes.last.map { runtime.model(for: $0) }
    }

    /// The screen key on top.
    public var topScreenKey: String? { visibleRoutes.last?.screenKey }

    /// The models of every screen drawn now.
    public var visibleModels: [Runtime.Screen] { visibleRoutes.map { runtime.model(for: $0) } }

    // MARK: Lifecycle

    /// The app appears: the navigation view's `.task` starts the runtime, and the screens it
    /// shows appear.
    public func launch() async {
        runtime.sizeClassChanged(regular: options.sizeClass == .regular)
        await runtime.start()
        await settle()
    }

    /// Mounts the screens that became visible (their `.task` starts) and unmounts those that
    /// went (their tasks are cancelled, `disappeared()` is called), as SwiftUI does on a redraw.
    public func redraw() {
        mounted.redraw(visibleRoutes.map { ($0.id, runtime.model(for: $0)) }, options: options)
    }

    /// Waits until what the person did has played out: the screens' tasks, their fired actions
    /// and the rebuilt trees, redrawing as the navigation changes.
    public func settle() async {
        await mounted.settle { redraw() }
    }

    /// Time passes on the app's clock, and the app runs on for a moment without settling (a
    /// request started by the pause is then on its way).
    public func pass(seconds: Double) async {
        for _ in 0..<4 { await Task.yield() }
        clock?.advance(by: seconds)
        for _ in 0..<20 { await Task.yield() }
    }

    /// Time passes on the app's clock (a pause while typing, a banner's lifetime), then the app settles.
    public func wait(seconds: Double) async {
        if let clock {
            for _ in 0..<4 { await Task.yield() }
            clock.advance(by: seconds)
        } else {
            try? await Task.sleep(for: .seconds(seconds))
        }
        await settle()
    }

    // MARK: What a person does

    /// Taps a tab (or sidebar entry): the tab view's selection binding.
    public func select(tab screenKey: String) {
        runtime.navigation.select(screenKey)
        redraw()
    }

    /// The back button or an edge swipe: the navigation stack's path binding gets shorter.
    @discardableResult
    public func back() -> Bool {
        let done = runtime.navigation.back()
        redraw()
        return done
    }

    /// Swipes the top sheet down; refused (returns `false`) while its form has unsaved edits,
    /// as `interactiveDismissDisabled` refuses it.
    @discardableResult
    public func swipeDownSheet() -> Bool {
        guard let route = runtime.navigation.stack.last, route.presentation == .sheet else { return false }
        guard !runtime.model(for: route).hasUnsavedChanges else { return false }
        let done = runtime.navigation.back()
        redraw()
        return done
    }

    /// Taps the button (toolbar item, row, control) that fires `actionId` on the top screen, for
    /// the list item `item`.
    public func tap(_ actionId: String, item: JSONValue? = nil) {
        top?.fire(actionId, item: item)
    }

    /// Accepts the confirmation dialog shown on the top screen.
    public func confirm() {
        guard let model = top else { return }
        let task = Task { await model.confirm() }
        if let id = visibleRoutes.last?.id { mounted[id]?.others.append(task) }
    }

    /// The confirmation dialog the top screen shows, if any.
    public var confirmation: ConfirmationRequest? {
        guard case .success(let root)? = top?.tree else { return nil }
        return root.first { if case .screen(let chrome) = $0.kind { chrome.confirmation != nil } else { false } }
            .flatMap { if case .screen(let chrome) = $0.kind { chrome.confirmation } else { nil } }
    }

    /// The banner the top screen shows, if any.
    public var banner: Banner? {
        guard case .success(let root)? = top?.tree else { return nil }
        return root.first { if case .screen(let chrome) = $0.kind { chrome.banner != nil } else { false } }
            .flatMap { if case .screen(let chrome) = $0.kind { chrome.banner } else { nil } }
    }

    /// Declines the confirmation dialog (Cancel, or a tap outside it).
    public func cancelConfirmation() { top?.cancelConfirmation() }

    /// Types into a form field of the top screen.
    public func enter(_ text: String, in field: String) {
        top?.setBoundValue(.string(text), for: field)
    }

    /// Sets the top screen's search text, as typing in the search field does: the previous
    /// text's task is cancelled and a new one waits for the pause.
    public func search(_ text: String) {
        guard let route = visibleRoutes.last, let screen = mounted[route.id] else { return }
        let field = searchField(of: screen.model)?.field ?? "q"
        if let previous = screen.search { mounted.winding.append(previous) }
        screen.search?.cancel()
        let model = screen.model
        screen.search = Task { await model.searchChanged(text, field: field) }
    }

    /// The search field the top screen's tree shows.
    public func searchField(of model: Runtime.Screen) -> RenderSearchField? {
        guard case .success(let root)? = model.tree else { return nil }
        return root.first { if case .screen(let chrome) = $0.kind { chrome.search != nil } else { false } }
            .flatMap { if case .screen(let chrome) = $0.kind { chrome.search } else { nil } }
    }

    /// Scrolls the top screen's list so that row `index` is the last one shown: rows that come
    /// into view are built and run their `.task` (the last one asks for the next page), rows
    /// that leave have theirs cancelled.
    public func scroll(toRow index: Int) {
        guard let route = visibleRoutes.last, let screen = mounted[route.id], let rows = listRows(of: screen.model) else {
            return
        }
        let last = min(index, rows.count - 1)
        let window = Set(max(0, last - visibleRows + 1)...max(0, last))
        for (row, task) in screen.rows where !window.contains(row) {
            mounted.winding.append(task)
            task.cancel()
            screen.rows[row] = nil
        }
        let model = screen.model
        for row in window.sorted() where screen.rows[row] == nil && row < rows.count {
            _ = rows.row(at: row)
            screen.rows[row] = Task { await model.rowAppeared(at: row) }
        }
    }

    /// Scrolls back to the top of the top screen's list.
    public func scrollToTop() { scroll(toRow: visibleRows - 1) }

    /// The rows of the first list the top screen's tree shows.
    public func listRows(of model: Runtime.Screen) -> LazyRows? {
        guard case .success(let root)? = model.tree else { return nil }
        return root.first { if case .list = $0.kind { true } else { false } }
            .flatMap { if case .list(_, let rows) = $0.kind { rows } else { nil } }
    }

    /// A deep link arrives (`onOpenURL`).
    @discardableResult
    public func open(deepLink url: URL) -> Bool {
        let accepted = runtime.open(deepLink: url)
        redraw()
        return accepted
    }

    /// The scene's phase changes (`scenePhase`), and the app settles.
    public func scenePhase(_ phase: HostScenePhase) async {
        await runtime.scenePhaseChanged(phase)
        await settle()
    }

    /// The horizontal size class changes (rotation, multitasking): the screens are lowered
    /// again for it and the navigation keeps its selection visible.
    public func sizeClass(_ sizeClass: SizeClass) {
        options = RenderOptions(
            sizeClass: sizeClass, platform: sizeClass == .regular ? .ipad : .ios, showUnknownMarkers: options.showUnknownMarkers)
        runtime.sizeClassChanged(regular: sizeClass == .regular)
        for screen in mounted.views.values { screen.model.renderOptions = options }
        redraw()
    }
}

/// A screen on screen: its model and the tasks its views started.
@MainActor
final class MountedScreen<Model: ScreenHosting>: MountedDocumentView {
    let model: Model
    var appear: Task<Void, Never>?
    var search: Task<Void, Never>?
    var rows: [Int: Task<Void, Never>] = [:]
    var others: [Task<Void, Never>] = []

    init(model: Model) { self.model = model }

    var tasks: [Task<Void, Never>] { [appear, search].compactMap { $0 } + rows.values + others }

    func cancelAll() {
        for task in tasks { task.cancel() }
        rows = [:]
        others = []
    }
}

extension RenderNode {
    /// The first node, depth first, for which `matches` holds (list rows are not built).
    public func first(where matches: (RenderNode) -> Bool) -> RenderNode? {
        if matches(self) { return self }
        for child in children {
            if let found = child.first(where: matches) { return found }
        }
        return nil
    }
}
