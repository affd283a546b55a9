#if canImport(SwiftUI)
    public import DynamicUI
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    public import SwiftUI

    /// A node-dialect app drawn natively: the root's `tab_view` as a `TabView`, each
    /// tab a `NavigationStack` over the runtime's stack, `present` as a sheet, the theme's
    /// colors (light and dark) and accent, dark mode from the `dark_mode` setting or the system.
    public struct NodeAppView: View {
        private let app: NodeAppRuntime
        @Environment(\.scenePhase) private var scenePhase

        /// The app; it is started when the view appears.
        public init(app: NodeAppRuntime) { self.app = app }

        /// The tabs (or the single root screen), with the sheet over them.
        public var body: some View {
            content
                .safeAreaInset(edge: .top, spacing: 0) {
                    // Debug builds that follow a development preview say so.
                    if let follow = app.previewFollow { PreviewFollowBanner(state: follow, strings: app.strings) }
                }
                .environment(\.nodeTheme, app.theme)
                .modifier(NodeAppAppearance(theme: app.theme, darkMode: app.darkMode))
                .sheet(item: sheetBinding) { route in
                    // A link inside the sheet opens in the sheet (its own stack); Close or a
                    // swipe closes it, and its documents' models go with it.
                    NavigationStack(path: sheetPath) {
                        NodeDocumentView(app: app, route: route)
                            .navigationDestination(for: NodeRoute.self) { pushed in
                                NodeDocumentView(app: app, route: pushed)
                            }
                            .toolbar {
                                ToolbarItem(placement: .cancellationAction) {
                                    Button(app.strings(.close)) { app.dismissSheet() }
                                }
                            }
                    }
                    .environment(\.nodeTheme, app.theme)
                    // The sheet is presented outside the app's content: it takes the theme's tint too.
                    .modifier(NodeAppAppearance(theme: app.theme, darkMode: app.darkMode))
                }
                .task { [app] in
                    // Again after an interrupted start; a failure waits for its retry.
                    await app.startIfNeeded()
                }
                // Timers stop ticking in the background (not while merely inactive).
                .onChange(of: scenePhase) { _, phase in
                    Task { await app.scenePhaseChanged(HostScenePhase(phase)) }
                }
        }

        @ViewBuilder
        private var content: some View {
            // An offline launch recovers: retry once the connection is back.
            PhaseView(phase: app.phase, failureTitle: app.strings(.couldNotLoadApp), retryTitle: app.strings(.retry)) {
                await app.start()
            } ready: {
                if app.tabs.isEmpty {
                    NodeStackView(app: app, root: app.tabRoute(app.selectedDocument ?? app.configuration.rootDocument))
                } else {
                    TabView(selection: tabBinding) {
                        // Two tabs may show the same document: each keeps its own identity.
                        ForEach(Keyed.list(app.tabs, key: \.screen)) { entry in
                            NodeStackView(app: app, root: app.tabRoute(entry.element.screen))
                                .tabItem { Label(entry.element.title, systemImage: entry.element.icon ?? "circle") }
                                .tag(entry.element.screen)
                        }
                    }
                }
            }
        }

        private var tabBinding: Binding<String> {
            Binding(get: { app.selectedDocument ?? "" }, set: { app.select($0) })
        }

        private var sheetBinding: Binding<NodeRoute?> {
            Binding(get: { app.sheet }, set: { if $0 == nil, app.sheet != nil { app.dismissSheet() } })
        }

        private var sheetPath: Binding<[NodeRoute]> {
            Binding(
                get: { app.sheetStack },
                set: { path in
                    while app.sheetStack.count > path.count, app.back() {}
                    for route in path.dropFirst(app.sheetStack.count) { app.push(route) }
                })
        }
    }

    /// The theme's accent as the tint, and the color scheme the `dark_mode` setting chose.
    struct NodeAppAppearance: ViewModifier {
        let theme: DynamicUIModels.Theme
        let darkMode: Bool?
        @Environment(\.colorScheme) private var colorScheme

        func body(content: Content) -> some View {
            let dark = darkMode ?? (colorScheme == .dark)
            content
                .ifPresent(NodeColor.color(theme.color("accent", dark: dark) ?? theme.color("primary", dark: dark))) {
                    view, accent in view.tint(accent)
                }
                .preferredColorScheme(darkMode.map { $0 ? ColorScheme.dark : ColorScheme.light })
        }
    }

    /// One tab: a `NavigationStack` whose path is the runtime's stack (going back pops it).
    struct NodeStackView: View {
        let app: NodeAppRuntime
        let root: NodeRoute

        var body: some View {
            NavigationStack(path: pathBinding) {
                NodeDocumentView(app: app, route: root)
                    .navigationDestination(for: NodeRoute.self) { route in
                        NodeDocumentView(app: app, route: route)
                    }
            }
        }

        /// The tab's own stack: kept while another tab is shown; only the shown tab changes it.
        private var pathBinding: Binding<[NodeRoute]> {
            Binding(
                get: { app.stacks[root.document] ?? [] },
                set: { path in
                    guard app.selectedDocument == root.document || app.tabs.isEmpty else { return }
                    while app.stack.count > path.count, app.back() {}
                    for route in path.dropFirst(app.stack.count) { app.push(route) }
                })
        }
    }

    /// One document: loaded (its `onLoad` run) when it appears, drawn from its model.
    struct NodeDocumentView: View {
        let app: NodeAppRuntime
        let route: NodeRoute

        var body: some View {
            NodeDocumentContent(app: app, model: app.model(for: route))
        }
    }

    /// The drawing of a document's model: loading, failure, or its render tree.
    struct NodeDocumentContent: View {
        let app: NodeAppRuntime
        let model: NodeScreenModel
        #if os(iOS)
            @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        #endif

        var body: some View {
            content.modifier(DocumentLife(model: model, options: options))
        }

        @ViewBuilder
        private var content: some View {
            PhaseView(phase: model.phase, failureTitle: app.strings(.failedTitle), retryTitle: app.strings(.retry)) {
                await model.load()
            } ready: {
                if let rendered = model.rendered {
                    document(rendered)
                } else {
                    ProgressView()
                }
            }
        }

        private func document(_ rendered: RenderedDocument) -> some View {
            RenderTreeView(node: rendered.root, host: NodeScope(app: app, model: model))
                .modifier(DocumentBanner(model: model, banner: model.banner, closeLabel: app.strings(.close)))
        }

        private var options: RenderOptions {
            #if os(iOS)
                RenderOptions(sizeClass: horizontalSizeClass == .regular ? .regular : .compact, platform: .ios)
            #else
                RenderOptions(sizeClass: .regular, platform: .mac)
            #endif
        }
    }

    /// The node dialect's side of the render tree: a document's model and its app. Actions run
    /// on the model (a row's action keeps its row's context there), bound values are state keys.
    @MainActor
    struct NodeScope: RenderTreeHost {
        let app: NodeAppRuntime
        let model: NodeScreenModel

        static var layout: RenderTreeLayout { .document }

        var strings: DynamicUIStrings { app.strings }

        var nativeComponents: NativeComponentRegistry { app.nativeComponents }

        /// Documents have no focus chain.
        var focusedField: String? {
            get { nil }
            nonmutating set {}
        }

        func fire(_ key: String, item: JSONValue?) {
            model.fire(key)
        }

        func open(screen: String, params: JSONObject) { model.open(screen: screen, params: params) }

        func select(tab screen: String) { app.select(screen) }

        func boundValue(for binding: String) -> String? {
            model.state[NodeScreenModel.stateKey(binding)]?.displayText
        }

        func setBoundValue(_ value: JSONValue, for binding: String) { model.setValue(value, for: binding) }

        func sheetNodeDismissed(_ id: String) { model.sheetNodeDismissed(id) }

        func recordImpression(_ logId: String) { model.recordImpression(logId) }

        func visibilityChanged(of id: String, visibility: RenderVisibility, fraction: Double) {
            model.visibilityChanged(of: id, visibility: visibility, fraction: fraction)
        }

        /// A document's rows keep their item in their actions' context, not here.
        func item(forRow rowId: String, at index: Int) -> JSONValue? { nil }

        /// Documents have no row actions.
        func rowActions(_ ids: [String]) -> [RowAction] { [] }

        /// Documents have no pagination.
        func loadNextPage() async {}

        func rowAppeared(at index: Int) async {}

        func screen(_ node: RenderNode, chrome: ScreenChrome, item: JSONValue?) -> NodeScreenView {
            NodeScreenView(node: node, chrome: chrome, scope: self)
        }
    }

    /// A document's screen: its title in the navigation bar, its toolbar node in the toolbar, in
    /// the writing direction of its language.
    struct NodeScreenView: View {
        let node: RenderNode
        let chrome: ScreenChrome
        let scope: NodeScope

        var body: some View {
            let toolbar = node.children.first { $0.id.hasSuffix(".toolbar") }
            VStack(alignment: .leading, spacing: 0) {
                ForEach(node.children.filter { !$0.id.hasSuffix(".toolbar") }) { child in
                    RenderTreeView(node: child, host: scope)
                }
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
            .environment(\.layoutDirection, chrome.strings.direction == .rightToLeft ? .rightToLeft : .leftToRight)
            .navigationTitle(chrome.title)
            .titleDisplayMode(large: chrome.largeTitle)
            .toolbar {
                if let toolbar {
                    SwiftUI.ToolbarItem(placement: .primaryAction) {
                        RenderTreeView(node: toolbar, host: scope)
                    }
                }
            }
        }
    }
#endif
