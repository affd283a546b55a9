public import DynamicUI
import DynamicUIModels
public import DynamicUIRendering
import Foundation

/// Drives a node-dialect app as `NodeAppView` draws it, with SwiftUI's lifecycle, through the
/// host protocols the views use: a document's `.task` starts when it becomes visible and is
/// cancelled when it is covered, left or popped; list rows are built from the tree on screen
/// only while scrolled into view (their buttons' actions exist only then, as in SwiftUI).
/// Each call acts like a person; `settle()` waits for what it started.
@MainActor
public final class NodeAppDriver<App: NodeAppHosting> {
    /// The app driven.
    public let app: App
    /// How visible documents are lowered.
    public private(set) var options: RenderOptions
    /// How many rows of a list fit on screen.
    public var visibleRows = 8

    /// The documents on screen, and the tasks winding down that `settle()` waits for.
    private let mounted = MountedDocuments<MountedDocument<App.Document>>()

    /// A driver of `app`, drawn in compact width on a phone unless `options` says otherwise.
    public init(_ app: App, options: RenderOptions = RenderOptions(sizeClass: .compact, platform: .ios)) {
        self.app = app
        self.options = options
    }

    /// The routes drawn now, bottom to top: the selected tab's top document and, over it, the
    /// sheet's top document.
    public var visibleRoutes: [NodeRoute] {
        guard app.phase == .ready else { return [] }
        let document = app.selectedDocument ?? app.configuration.rootDocument
        var visible = [app.stack.last ?? app.tabRoute(document)]
        if let sheet = app.sheet { visible.append(app.sheetStack.last ?? sheet) }
        return visible
    }

    /// The model of the document on top.
    public var top: App.Document? { visibleRoutes.last.map { app.model(for: $0) } }

    /// The document on top.
    public var topDocument: String? { visibleRoutes.last?.document }

    /// The app appears: it starts, and the documents it shows appear.
    public func launch() async {
        await app.startIfNeeded()
        await settle()
    }

    /// Mounts the documents that became visible and unmounts those that went.
    public func redraw() {
        mounted.redraw(visibleRoutes.map { ($0.id, app.model(for: $0)) }, options: options)
        // A rebuilt tree is drawn again: its visible rows are built from it.
        for document in mounted.views.values { document.drawRows(visibleRows) }
    }

    /// Waits until what the person did has played out.
    public func settle() async {
        await mounted.settle { redraw() }
        redraw()
    }

    /// Taps a tab.
    public func select(tab document: String) {
        app.select(document)
        redraw()
    }

    /// The back button or an edge swipe.
    @discardableResult
    public func back() -> Bool {
        let done = app.back()
        redraw()
        return done
    }

    /// Taps the button whose action is `actionKey` on the top document.
    public func tap(_ actionKey: String) { top?.fire(actionKey) }

    /// Taps the first button on the top document for which `matches` holds, in the tree on
    /// screen (rows included as drawn); returns whether there was one.
    @discardableResult
    public func tapButton(where matches: (RenderNode) -> Bool) -> Bool {
        guard let route = visibleRoutes.last, let document = mounted[route.id] else { return false }
        for node in document.drawnNodes() {
            guard case .button(let key) = node.kind, matches(node) else { continue }
            document.model.fire(key)
            return true
        }
        return false
    }

    /// Taps the first navigation link on the top document for which `matches` holds.
    @discardableResult
    public func tapLink(where matches: (RenderNode) -> Bool) -> Bool {
        guard let route = visibleRoutes.last, let document = mounted[route.id] else { return false }
        for node in document.drawnNodes() {
            guard case .navigationLink(let screen, let params) = node.kind, matches(node) else { continue }
            document.model.open(screen: screen, params: params)
            redraw()
            return true
        }
        return false
    }

    /// Swipes down a `sheet` node of the top document.
    public func swipeDownSheetNode(_ id: String) { top?.sheetNodeDismissed(id) }

    /// The scene's phase changes, and the app settles.
    public func scenePhase(_ phase: HostScenePhase) async {
        await app.scenePhaseChanged(phase)
        await settle()
    }
}

/// A document on screen: its model, its tasks, and the rows drawn from its current tree.
@MainActor
final class MountedDocument<Model: NodeDocumentHosting>: MountedDocumentView {
    let model: Model
    var appear: Task<Void, Never>?
    private var drawnRoot: RenderNode?
    private var rows: [RenderNode] = []

    init(model: Model) { self.model = model }

    var tasks: [Task<Void, Never>] { [appear].compactMap { $0 } }

    func cancelAll() { appear?.cancel() }

    /// Draws the visible rows of every list of the current tree (SwiftUI builds a lazy row when
    /// it shows it, and again for each new tree).
    func drawRows(_ count: Int) {
        guard let root = model.rendered?.root else { return }
        guard drawnRoot.map({ !$0.isSameDrawing(as: root) }) ?? true else { return }
        drawnRoot = root
        rows = []
        root.forEachList { list in rows += list.rows(limit: count) }
    }

    /// Every node drawn: the tree and its visible rows, depth first.
    func drawnNodes() -> [RenderNode] {
        guard let root = model.rendered?.root else { return [] }
        var nodes: [RenderNode] = []
        func walk(_ node: RenderNode) {
            nodes.append(node)
            node.children.forEach(walk)
        }
        walk(root)
        rows.forEach(walk)
        return nodes
    }
}

extension RenderNode {
    /// Calls `body` with the rows of each list in the tree (rows are not built here).
    func forEachList(_ body: (LazyRows) -> Void) {
        if case .list(_, let rows) = kind { body(rows) }
        for child in children { child.forEachList(body) }
    }

    /// Whether `other` is the same drawing: equal trees with the same lists.
    func isSameDrawing(as other: RenderNode) -> Bool { self == other }
}
