#if canImport(SwiftUI)
    public import DynamicUI
    import DynamicUIActions
    import DynamicUIModels
    public import DynamicUIRendering
    import DynamicUIResolvers
    import Foundation
    public import SwiftUI
    import Accessibility

    /// One server-driven screen: loads its view model when it appears (and polls while visible),
    /// shows a spinner while the definition loads, an error with a retry button when it fails, and
    /// otherwise draws the model's render tree with native SwiftUI views. Put it in a
    /// `NavigationStack` (as `DynamicNavigationView` does) for its title, toolbar and search field.
    /// External URLs the model opens go to the environment's `openURL`.
    public struct DynamicScreenView: View {
        private let model: DynamicScreenViewModel
        private let fixedOptions: RenderOptions?
        private let platform: RenderPlatform?
        private let showUnknownMarkers: Bool
        #if os(iOS)
            @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        #endif

        /// Draws `model` with fixed options: the size class and platform the tree is lowered for.
        public init(model: DynamicScreenViewModel, options: RenderOptions) {
            self.model = model
            self.fixedOptions = options
            self.platform = options.platform
            self.showUnknownMarkers = options.showUnknownMarkers
        }

        /// Draws `model` in the environment's size class (always regular on the Mac). Without a
        /// `platform`, the Mac is `mac` and iOS is `ipad` in regular width and `ios` in compact width.
        public init(model: DynamicScreenViewModel, platform: RenderPlatform? = nil, showUnknownMarkers: Bool = false) {
            self.model = model
            self.fixedOptions = nil
            self.platform = platform
            self.showUnknownMarkers = showUnknownMarkers
        }

        /// The loading state, the error state or the rendered screen.
        public var body: some View {
            // A ZStack rather than a Group: a Group's modifiers go to each state's view, so the
            // task would be cancelled (and the load with it) when the state changes.
            ZStack {
                switch model.screenState {
                case .loading:
                    ProgressView(model.strings(.loading))
                        .frame(maxWidth: .infinity, maxHeight: .infinity)
                case .error:
                    // The failure as a person reads it (offline, not allowed, not found), never the raw error.
                    let failure = model.failure ?? .failed(model.strings(.screenLoadFailed))
                    FailureView(
                        title: failure.title(model.strings), systemImage: failure.systemImage,
                        message: failure.message(model.strings), retryTitle: model.strings(.retry),
                        canRetry: failure.isRetryable
                    ) {
                        await model.load()
                    }
                case .ready:
                    renderedScreen
                }
            }
            .modifier(DocumentLife(model: model, options: options))
        }

        @ViewBuilder
        private var renderedScreen: some View {
            switch model.tree {
            case .success(let root)? where showsInspector:
                InspectedScreen(split: InspectorLayout.split(root), model: model)
            case .success(let root)?:
                RenderTreeView(node: root, host: model)
            case .failure(let error)? where model.screenState != .loading:
                ContentUnavailableView(
                    model.strings(.screenShowFailed), systemImage: "exclamationmark.triangle",
                    description: Text(String(describing: error)))
            case .failure?, nil:
                // The first build is scheduled as the options arrive.
                ProgressView(model.strings(.loading))
                    .frame(maxWidth: .infinity, maxHeight: .infinity)
            }
        }

        /// A detail screen on a Mac or a regular iPad puts its secondary sections in an inspector.
        private var showsInspector: Bool {
            guard let pattern = model.pattern else { return false }
            return PlatformCapabilities(platform: options.platform, sizeClass: options.sizeClass).showsInspector(for: pattern)
        }

        private var options: RenderOptions {
            if let fixedOptions { return fixedOptions }
            let sizeClass = environmentSizeClass
            return RenderOptions(
                sizeClass: sizeClass, platform: platform ?? Self.defaultPlatform(for: sizeClass),
                showUnknownMarkers: showUnknownMarkers)
        }

        private var environmentSizeClass: SizeClass {
            #if os(iOS)
                return horizontalSizeClass == .compact ? .compact : .regular
            #else
                return .regular
            #endif
        }

        private static func defaultPlatform(for sizeClass: SizeClass) -> RenderPlatform {
            #if os(macOS)
                return .mac
            #else
                return sizeClass == .regular ? .ipad : .ios
            #endif
        }
    }

    /// The screen dialect's side of the render tree: actions fire in order on the model, bound
    /// values are form fields, list rows carry their items.
    extension DynamicScreenViewModel: RenderTreeHost {
        static var layout: RenderTreeLayout { .patterns }

        func screen(_ node: RenderNode, chrome: ScreenChrome, item: JSONValue?) -> ScreenNodeView {
            ScreenNodeView(node: node, chrome: chrome, model: self, item: item)
        }
    }

    /// A `screen` node: its content with the screen's chrome — navigation title (large or inline),
    /// toolbar items, `.searchable`, `.refreshable`, the pagination the list's last row uses, the
    /// banner at the bottom and the confirmation dialog.
    struct ScreenNodeView: View {
        let node: RenderNode
        let chrome: ScreenChrome
        let model: DynamicScreenViewModel
        let item: JSONValue?
        @State private var query: String
        @State private var isAnsweringConfirmation = false

        init(node: RenderNode, chrome: ScreenChrome, model: DynamicScreenViewModel, item: JSONValue?) {
            self.node = node
            self.chrome = chrome
            self.model = model
            self.item = item
            _query = State(initialValue: chrome.search?.text ?? "")
        }

        var body: some View {
            content
                .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
                .overlay {
                    if model.isLoadingFirstData {
                        ProgressView(model.strings(.loading))
                    }
                }
                .environment(\.screenPagination, chrome.pagination)
                // The locale's writing direction: right-to-left mirrors the screen.
                .environment(\.layoutDirection, chrome.strings.direction == .rightToLeft ? .rightToLeft : .leftToRight)
                .navigationTitle(chrome.title)
                .titleDisplayMode(large: chrome.largeTitle)
                .navigationBarBackButtonHidden(!chrome.showsBack)
                .modifier(ToolbarGroup(placement: .cancellationAction, items: items(.cancellation), model: model))
                .modifier(ToolbarGroup(placement: .confirmationAction, items: items(.confirmation), model: model))
                .modifier(ToolbarGroup(placement: .primaryAction, items: items(.primaryAction), model: model))
                .ifPresent(chrome.search) { view, search in
                    view
                        .searchable(text: $query, prompt: Text(search.prompt))
                        .onSubmit(of: .search) {
                            Task { await model.searchSubmitted(query, field: search.field) }
                        }
                        .task(id: query) { [model, query] in
                            await model.searchChanged(query, field: search.field)
                        }
                        // The model may change the query itself ("Clear search"): the field follows.
                        .onChange(of: search.text) { _, text in
                            if text != query { query = text }
                        }
                }
                .ifPresent(chrome.refreshActionId) { view, actionId in
                    view.refreshable { [model] in
                        await model.perform(actionId: actionId, item: nil, confirmed: false)
                    }
                }
                .modifier(DocumentBanner(model: model, banner: chrome.banner, closeLabel: model.strings(.close)))
                .confirmationDialog(
                    chrome.confirmation?.title ?? "", isPresented: isConfirmationPresented, titleVisibility: .visible,
                    presenting: chrome.confirmation
                ) { request in
                    Button(request.confirmLabel, role: request.destructive ? .destructive : nil) {
                        isAnsweringConfirmation = true
                        Task {
                            await model.confirm()
                            isAnsweringConfirmation = false
                        }
                    }
                    Button(request.cancelLabel, role: .cancel) {
                        model.cancelConfirmation()
                    }
                } message: { request in
                    if let message = request.message {
                        Text(message)
                    }
                }
        }

        /// The data failed to load: an error with a retry button instead of the content.
        @ViewBuilder
        private var content: some View {
            if let message = model.dataErrorMessage {
                FailureView(title: model.strings(.dataLoadFailed), message: message, retryTitle: model.strings(.retry)) {
                    await model.refresh()
                }
            } else {
                VStack(spacing: 0) {
                    RenderTreeChildren(node: node, host: model, item: item)
                }
            }
        }

        private func items(_ placement: DynamicUIRendering.RenderToolbarPlacement) -> [DynamicUIRendering.RenderToolbarItem] {
            chrome.toolbar.filter { $0.placement == placement }
        }

        /// Shown while a confirmation is pending. Dismissing it declines, except when it is
        /// dismissed because it was accepted (the accepted request must still be pending when
        /// `confirm()` runs).
        private var isConfirmationPresented: Binding<Bool> {
            Binding(
                get: { @MainActor in chrome.confirmation != nil && !isAnsweringConfirmation },
                set: { @MainActor isPresented in
                    if !isPresented, !isAnsweringConfirmation { model.cancelConfirmation() }
                })
        }
    }

    /// The toolbar items of one placement.
    struct ToolbarGroup: ViewModifier {
        let placement: ToolbarItemPlacement
        let items: [DynamicUIRendering.RenderToolbarItem]
        let model: DynamicScreenViewModel

        // Always applied, empty or not: the content keeps its identity (scroll position, focus)
        // when items come and go.
        func body(content: Content) -> some View {
            content.toolbar {
                ToolbarItemGroup(placement: placement) {
                    ForEach(Keyed.list(items) { "\($0.actionId)|\($0.title)" }) { keyed in
                        let entry = keyed.element
                        Button(role: entry.isDestructive ? .destructive : nil) {
                            model.fire(entry.actionId, item: nil)
                        } label: {
                            if let symbol = entry.systemImage {
                                Label(entry.title, systemImage: symbol)
                            } else {
                                Text(entry.title)
                            }
                        }
                        .accessibilityLabel(Text(entry.title))
                    }
                }
            }
        }
    }

    /// A detail screen with its secondary sections in `.inspector`, which a toolbar button shows
    /// and hides.
    struct InspectedScreen: View {
        let split: (content: RenderNode, inspector: [RenderNode])
        let model: DynamicScreenViewModel
        @State private var isPresented = true

        var body: some View {
            RenderTreeView(node: split.content, host: model)
                .inspector(isPresented: $isPresented) {
                    ScrollView {
                        VStack(alignment: .leading, spacing: 16) {
                            ForEach(split.inspector) { section in
                                RenderTreeView(node: section, host: model)
                            }
                        }
                        .padding()
                    }
                    .inspectorColumnWidth(min: 240, ideal: 300, max: 420)
                }
                .toolbar {
                    SwiftUI.ToolbarItem(placement: .primaryAction) {
                        Button {
                            isPresented.toggle()
                        } label: {
                            Label("Inspector", systemImage: "sidebar.trailing")
                        }
                    }
                }
        }
    }
#endif
