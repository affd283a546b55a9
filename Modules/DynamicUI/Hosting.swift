public import DynamicUIActions
public import DynamicUIModels
public import DynamicUIRendering
public import Foundation

/// A scene's phase as the host reports it (SwiftUI's `ScenePhase`).
public enum HostScenePhase: Sendable, Hashable {
    /// In front and taking input.
    case active
    /// In front but not taking input: Control Center, a system prompt, the app switcher's peek.
    case inactive
    /// Not visible.
    case background
}

// The host protocols: everything a drawing of the SDK (DynamicUISwiftUI's views, the
// DynamicUITesting host driver) may call on the runtime and its models. A view reaches a model
// only through these members; a test reads the SwiftUI sources and fails on any other.

/// What a drawing of a render tree calls on the model behind it, in either dialect.
@MainActor
public protocol RenderTreeHosting {
    /// The SDK's words in the screen's language.
    var strings: DynamicUIStrings { get }
    /// The app's native components (`.custom` nodes).
    var nativeComponents: NativeComponentRegistry { get }
    /// The field a form control holds the focus of (the screen dialect's focus chain).
    var focusedField: String? { get nonmutating set }

    /// Runs the action behind `key` (for the list item `item`); buttons cannot await it.
    func fire(_ key: String, item: JSONValue?)
    /// Follows a navigation link to `screen` with `params`.
    func open(screen: String, params: JSONObject)
    /// Shows the screen of a `tab_view`'s tab.
    func select(tab screen: String)
    /// The text of the form field or state key `binding`, `nil` when nothing was set.
    func boundValue(for binding: String) -> String?
    /// Sets the form field or state key `binding` (a text field, a control, a native component).
    func setBoundValue(_ value: JSONValue, for binding: String)
    /// An element with a `log_id` became visible.
    func recordImpression(_ logId: String)
    /// An element with visibility or disappear actions shows this share (0…1) of itself.
    func visibilityChanged(of id: String, visibility: RenderVisibility, fraction: Double)
    /// The item a list row was built from, if the dialect keeps items.
    func item(forRow rowId: String, at index: Int) -> JSONValue?
    /// The row actions with these ids, in order.
    func rowActions(_ ids: [String]) -> [RowAction]
    /// Loads the next page of the screen's list (the retry after a failed page).
    func loadNextPage() async
    /// The list row at `index` is shown (its `.task`): the next page loads when it is the last.
    func rowAppeared(at index: Int) async
    /// A document's `sheet` node was closed by a swipe: it stays closed until it leaves the tree.
    func sheetNodeDismissed(_ id: String)
}

/// What the drawing of one document calls on its model, in either dialect: its life on screen,
/// its messages and the links it opens.
@MainActor
public protocol DocumentHosting: AnyObject {
    /// How the tree is lowered (size class, platform); set by the view as they change.
    var renderOptions: RenderOptions? { get set }
    /// An action's message (an error, a success, a change waiting offline), until it is closed
    /// or, unless an error, its lifetime passes.
    var banner: Banner? { get }
    /// An allowed external URL to open; the view opens it and calls `didOpenURL()`.
    var urlToOpen: URL? { get }

    /// The document appeared (its `.task`): it loads what it lacks; its polling, timers and
    /// visibility actions run while it is shown. A load the view cancelled runs again on the
    /// next appearance.
    func appeared() async
    /// The document disappeared (covered, another tab, popped): polling and timers pause and
    /// fired actions not yet started are dropped.
    func disappeared()
    /// Loads the document again (the failure view's retry).
    func load() async
    /// A banner is shown: spoken with VoiceOver, and gone after its lifetime.
    func bannerShown(_ shown: Banner, voiceOver: Bool, announce: @MainActor (String) -> Void) async
    /// The banner's close button.
    func dismissBanner()
    /// The view opened (or declined) `urlToOpen`.
    func didOpenURL()
    /// Waits for the actions fired so far (a host that must know they ran).
    func firedActionsFinished() async
}

/// What the drawing of one screen-dialect screen calls on its model (`DynamicScreenViewModel`).
@MainActor
public protocol ScreenHosting: RenderTreeHosting, DocumentHosting {
    /// The definition's state: loading, failed or ready.
    var screenState: ScreenState { get }
    /// Why the screen shows a failure, as a person reads it.
    var failure: LoadFailure? { get }
    /// The tree to draw, kept by the model.
    var tree: Result<RenderNode, any Error>? { get }
    /// The screen's pattern once loaded (a detail may put sections in an inspector).
    var pattern: ScreenPattern? { get }
    /// Whether the first data load is running, with nothing to show yet.
    var isLoadingFirstData: Bool { get }
    /// The message of a failed first data load (the content is replaced by a retry).
    var dataErrorMessage: String? { get }
    /// Whether the user changed a field: a sheet showing it is not closed by a swipe.
    var hasUnsavedChanges: Bool { get }

    /// Reloads the data (pull to refresh, the data failure's retry).
    func refresh() async
    /// Runs the screen action `actionId` and waits for it (pull to refresh's action).
    func perform(actionId id: String, item: JSONValue?, confirmed: Bool) async -> ActionResult
    /// The search field's text changed (its `.task(id:)`): searches after a short pause.
    func searchChanged(_ text: String, field: String) async
    /// The search was submitted: searches now.
    func searchSubmitted(_ text: String, field: String) async
    /// The pending confirmation was accepted.
    func confirm() async
    /// The pending confirmation was declined (Cancel, a tap outside, a swipe).
    func cancelConfirmation()
}

/// What the drawing of the navigation calls on the navigation model.
@MainActor
public protocol NavigationHosting: AnyObject {
    /// The selected tab's (or sidebar entry's) screen.
    var selectedScreenKey: String? { get }
    /// Each tab's stack above its root.
    var stacks: [String: [Route]] { get }
    /// The stack above the selected root.
    var stack: [Route] { get }
    /// Tabs (compact width) or the sidebar (regular width).
    func items(regular: Bool) -> [NavItem]
    /// A tab or sidebar entry was selected (a tap on the selected one goes to its root).
    func select(_ screenKey: String)
    /// A navigation link pushed `route`.
    func push(_ route: Route)
    /// The back button, a swipe, or a closed sheet: one screen less.
    @discardableResult func back() -> Bool
}

/// What the drawing of either dialect's app calls on its runtime.
@MainActor
public protocol RuntimeHosting: AnyObject {
    /// The configuration's type.
    associatedtype Configuration: RuntimeConfiguration

    /// What the host configured.
    var configuration: Configuration { get }
    /// The SDK's words in the configured locale.
    var strings: DynamicUIStrings { get }
    /// Dark mode chosen in the settings; `nil` follows the system.
    var darkMode: Bool? { get }
    /// Following a development preview (debug builds); `nil` when the app follows none.
    var previewFollow: PreviewFollowState? { get }

    /// Starts the app: a screen app restores its session and syncs (again is harmless); a node
    /// app loads its theme, components and root (again: reloads them).
    func start() async
    /// The scene became active, inactive or went to the background.
    func scenePhaseChanged(_ phase: HostScenePhase) async
}

/// What the drawing of a screen-dialect app calls on its runtime (`DynamicUIRuntime`).
@MainActor
public protocol AppHosting: RuntimeHosting where Configuration == DynamicUIConfiguration {
    /// The navigation the views draw.
    associatedtype Navigation: NavigationHosting
    /// The model of each screen the views draw.
    associatedtype Screen: ScreenHosting

    /// While a saved session is being restored (neither the login screen nor the app yet).
    var isRestoring: Bool { get }
    /// Whether someone is signed in.
    var isSignedIn: Bool { get }
    /// Counts sessions begun and ended: the views of a session are keyed by it.
    var modelGeneration: Int { get }
    /// Changes waiting in the offline queue.
    var pendingChanges: Int { get }
    /// Whether the connection is up.
    var isConnected: Bool { get }
    /// Tabs, sidebar and stacks.
    var navigation: Navigation { get }

    /// A deep link arrived (`onOpenURL`); returns whether it was accepted.
    @discardableResult func open(deepLink url: URL) -> Bool
    /// The horizontal size class changed: tabs in compact width, the sidebar in regular width.
    func sizeClassChanged(regular: Bool)
    /// The model kept for `route` (the same one on every redraw).
    func model(for route: Route) -> Screen
    /// The menu commands for `capabilities`.
    func commands(for capabilities: PlatformCapabilities) -> [MenuCommandGroup]
    /// Runs a menu command.
    func run(_ command: MenuCommand) async
}

/// What the drawing of one node document calls on its model (`NodeScreenModel`).
@MainActor
public protocol NodeDocumentHosting: DocumentHosting {
    /// Where the document is (loading covers its `onLoad`).
    var phase: LoadPhase { get }
    /// Whether its `onLoad` runs again while the last tree stays on screen (a refresh).
    var isReloading: Bool { get }
    /// The tree to draw, kept by the model.
    var rendered: RenderedDocument? { get }
    /// The state of bound fields and `setState`.
    var state: JSONObject { get }

    /// Runs the action behind `actionKey`; buttons cannot await it.
    func fire(_ actionKey: String)
    /// Follows a navigation link.
    func open(screen: String, params: JSONObject)
    /// Sets a bound value (a field's binding or a state key).
    func setValue(_ value: JSONValue, for binding: String)
    /// An element with a `log_id` became visible.
    func recordImpression(_ logId: String)
    /// An element's visible share changed.
    func visibilityChanged(of id: String, visibility: RenderVisibility, fraction: Double)
    /// A `sheet` node was closed by a swipe.
    func sheetNodeDismissed(_ id: String)
}

/// What the drawing of a node-dialect app calls on its runtime (`NodeAppRuntime`).
@MainActor
public protocol NodeAppHosting: RuntimeHosting where Configuration == NodeAppConfiguration {
    /// The model of each document the views draw.
    associatedtype Document: NodeDocumentHosting

    /// Whether the app's root, theme and components are loaded.
    var phase: LoadPhase { get }
    /// The theme.
    var theme: Theme { get }
    /// The app's native components.
    var nativeComponents: NativeComponentRegistry { get }
    /// The root's tabs; empty when the root is one screen.
    var tabs: [TabItem] { get }
    /// The selected tab's document.
    var selectedDocument: String? { get }
    /// Each tab's pushed documents.
    var stacks: [String: [NodeRoute]] { get }
    /// The pushed documents of the selected tab.
    var stack: [NodeRoute] { get }
    /// The document presented as a sheet.
    var sheet: NodeRoute? { get }
    /// Documents pushed inside the sheet.
    var sheetStack: [NodeRoute] { get }

    /// The views appeared: loads the app unless it is loaded (again after an interrupted start).
    func startIfNeeded() async
    /// The route of a tab's root document.
    func tabRoute(_ document: String) -> NodeRoute
    /// A tab was selected.
    func select(_ document: String)
    /// A navigation link pushed `route`.
    func push(_ route: NodeRoute)
    /// Back one document (inside the sheet first).
    @discardableResult func back() -> Bool
    /// The sheet was closed (its Close button or a swipe).
    func dismissSheet()
    /// The model kept for `route`.
    func model(for route: NodeRoute) -> Document
}

extension RuntimeHosting {
    /// A host that cannot follow a development preview follows none.
    public var previewFollow: PreviewFollowState? { nil }
}
