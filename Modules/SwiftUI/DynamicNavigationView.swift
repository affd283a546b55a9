#if canImport(SwiftUI)
    public import DynamicUI
    import DynamicUIActions
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    public import SwiftUI

    /// The app's navigation: the login screen while signed out; once signed in, a
    /// `TabView` of the server's tabs in compact width and a `NavigationSplitView` with its sidebar
    /// in regular width (always on the Mac). Each root is a `NavigationStack` driven by the
    /// runtime's `NavigationModel`: pushed routes are its path, sheet routes are sheets. Changes
    /// waiting in the offline queue show a small indicator at the top.
    public struct DynamicNavigationView: View {
        private let runtime: DynamicUIRuntime
        @Environment(\.scenePhase) private var scenePhase
        #if os(iOS)
            @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        #endif

        /// Navigation over `runtime`. The runtime is started when the view appears (starting it
        /// again is harmless, so a host that already started it loses nothing); deep links opened
        /// with the app go to `runtime.open(deepLink:)`.
        public init(runtime: DynamicUIRuntime) {
            self.runtime = runtime
        }

        /// The login screen, or the tabs or the sidebar of the signed-in user.
        public var body: some View {
            // A ZStack rather than a Group, so signing in does not cancel `start()` halfway.
            ZStack {
                if runtime.isRestoring {
                    // A saved session is being restored: neither the login screen nor an empty app.
                    ProgressView()
                        .frame(maxWidth: .infinity, maxHeight: .infinity)
                } else if !runtime.isSignedIn {
                    NavigationLevelView(
                        runtime: runtime, root: Route.root(runtime.configuration.loginScreenKey), start: 0, isActive: true
                    )
                    .id(runtime.configuration.loginScreenKey)
                } else if navigationStyle == .sidebar {
                    SidebarNavigationView(runtime: runtime)
                        // Each session is drawn anew, from its own models.
                        .id(runtime.modelGeneration)
                } else {
                    // Tabs on iPhone; on visionOS the system draws the same TabView as an ornament.
                    TabNavigationView(runtime: runtime)
                        .id(runtime.modelGeneration)
                }
            }
            .safeAreaInset(edge: .top, spacing: 0) {
                VStack(spacing: 0) {
                    // Debug builds that follow a development preview say so.
                    if let follow = runtime.previewFollow { PreviewFollowBanner(state: follow, strings: runtime.strings) }
                    if runtime.pendingChanges > 0 {
                        PendingChangesIndicator(
                            count: runtime.pendingChanges, isConnected: runtime.isConnected, strings: runtime.strings)
                    }
                }
            }
            .preferredColorScheme(runtime.darkMode.map { $0 ? ColorScheme.dark : ColorScheme.light })
            .task { [runtime] in
                await runtime.start()
            }
            .onOpenURL { url in
                runtime.open(deepLink: url)
            }
            // Polling pauses in the background (not while merely inactive) and resumes, with fresh
            // data, when the app returns; the runtime applies the changes in order.
            .onChange(of: scenePhase) { _, phase in
                Task { await runtime.scenePhaseChanged(HostScenePhase(phase)) }
            }
            // Tabs in compact width, a sidebar in regular width: the navigation keeps the
            // selection on something the new width draws.
            .onChange(of: isRegular, initial: true) { _, regular in
                runtime.sizeClassChanged(regular: regular)
            }
        }

        /// The layout `PlatformCapabilities` decides for this device and size class.
        private var navigationStyle: PlatformCapabilities.NavigationStyle {
            #if os(macOS)
                return PlatformCapabilities(platform: .mac, sizeClass: .regular).navigationStyle
            #else
                return PlatformCapabilities(platform: .ipad, sizeClass: isRegular ? .regular : .compact).navigationStyle
            #endif
        }

        private var isRegular: Bool {
            #if os(iOS)
                return horizontalSizeClass == .regular
            #else
                return true
            #endif
        }
    }

    /// Compact width: one tab per navigation item, each a navigation level over its own stack
    /// (`NavigationModel.stacks`): a tab keeps its place while another is shown.
    struct TabNavigationView: View {
        let runtime: DynamicUIRuntime

        private var navigation: NavigationModel { runtime.navigation }

        private var items: [NavItem] { navigation.items(regular: false) }

        private var selectedKey: String {
            navigation.selectedScreenKey ?? items.first?.screenKey ?? ""
        }

        private var selection: Binding<String> {
            Binding(
                get: { @MainActor in selectedKey },
                set: { @MainActor in navigation.select($0) })
        }

        var body: some View {
            TabView(selection: selection) {
                ForEach(items) { entry in
                    NavigationLevelView(
                        runtime: runtime, root: Route.root(entry.screenKey), start: 0,
                        isActive: entry.screenKey == selectedKey, tab: entry.screenKey
                    )
                    .id(entry.screenKey)
                    .tabItem {
                        Label(entry.label, systemImage: entry.icon)
                    }
                    .tag(entry.screenKey)
                }
            }
        }
    }

    /// Regular width: a sidebar of the navigation items (groups as sections) and the selected
    /// item's navigation level as the detail.
    struct SidebarNavigationView: View {
        let runtime: DynamicUIRuntime

        private var navigation: NavigationModel { runtime.navigation }

        private var items: [NavItem] { navigation.items(regular: true) }

        /// Every selectable item, groups' children included.
        private var allItems: [NavItem] {
            items.flatMap { [$0] + ($0.children ?? []) }
        }

        private var selectedScreenKey: String? {
            navigation.selectedScreenKey ?? allItems.first?.screenKey
        }

        /// The sidebar selects items by key; the navigation model selects screens.
        private var selection: Binding<String?> {
            Binding(
                get: { @MainActor in allItems.first(where: { $0.screenKey == selectedScreenKey })?.key },
                set: { @MainActor key in
                    guard let entry = allItems.first(where: { $0.key == key }) else { return }
                    navigation.select(entry.screenKey)
                })
        }

        var body: some View {
            NavigationSplitView {
                List(selection: selection) {
                    ForEach(items) { entry in
                        if let children = entry.children, !children.isEmpty {
                            Section(entry.label) {
                                ForEach(children) { child in
                                    Label(child.label, systemImage: child.icon)
                                        .tag(child.key)
                                }
                            }
                        } else {
                            Label(entry.label, systemImage: entry.icon)
                                .tag(entry.key)
                        }
                    }
                }
                .navigationSplitViewColumnWidth(min: 200, ideal: 250)
            } detail: {
                if let key = selectedScreenKey {
                    NavigationLevelView(runtime: runtime, root: Route.root(key), start: 0, isActive: true, tab: key)
                        .id(key)
                } else {
                    ContentUnavailableView(runtime.strings(.noSections), systemImage: "sidebar.left")
                }
            }
        }
    }

    /// One level of navigation: a `NavigationStack` over `root` whose path is the pushed routes of
    /// the navigation stack from `start` up to the first sheet route, which is presented as a sheet
    /// holding the next level. Going back (back button, swipe, closing a sheet) pops the model's
    /// stack to match.
    struct NavigationLevelView: View {
        let runtime: DynamicUIRuntime
        let root: Route
        /// Where this level's routes begin in the navigation stack.
        let start: Int
        /// Whether this level is the one shown (the selected tab, the detail, a sheet): only it
        /// changes the navigation when the user goes back.
        let isActive: Bool
        /// The tab whose stack this level shows (`nil`: the selected one's).
        var tab: String?

        private var navigation: NavigationModel { runtime.navigation }

        /// The stack this level draws from: its tab's, kept while another tab is shown.
        private var stack: [Route] {
            if let tab, !isActive { return navigation.stacks[tab] ?? [] }
            return navigation.stack
        }

        /// The routes pushed on this level.
        private var pushed: [Route] {
            let stack = self.stack
            guard start < stack.count else { return [] }
            return Array(stack[start...].prefix(while: { $0.presentation == .push }))
        }

        /// The sheet route presented from this level.
        private var presented: Route? {
            let stack = self.stack
            let index = start + pushed.count
            guard isActive, index < stack.count else { return nil }
            return stack[index]
        }

        private var path: Binding<[Route]> {
            Binding(
                get: { @MainActor in pushed },
                set: { @MainActor newPath in
                    guard isActive else { return }
                    let current = pushed
                    if newPath.count < current.count {
                        pop(to: start + newPath.count)
                    } else {
                        for route in newPath.dropFirst(current.count) { navigation.push(route) }
                    }
                })
        }

        private var sheetRoute: Binding<Route?> {
            Binding(
                get: { @MainActor in presented },
                set: { @MainActor route in
                    guard route == nil, let shown = presented,
                        let index = navigation.stack.firstIndex(where: { $0.id == shown.id })
                    else { return }
                    pop(to: index)
                })
        }

        var body: some View {
            NavigationStack(path: path) {
                RouteScreenView(runtime: runtime, route: root)
                    .navigationDestination(for: Route.self) { route in
                        RouteScreenView(runtime: runtime, route: route)
                    }
            }
            .sheet(item: sheetRoute) { route in
                NavigationLevelView(runtime: runtime, root: route, start: levelStart(after: route), isActive: true)
                    // A swipe never throws away what was typed: Cancel (or Close) leaves.
                    .interactiveDismissDisabled(runtime.model(for: route).hasUnsavedChanges)
                    .modifier(FormSheetSizing())
            }
        }

        /// Pops the navigation stack until it has `count` routes.
        private func pop(to count: Int) {
            while navigation.stack.count > count {
                guard navigation.back() else { return }
            }
        }

        /// Where the level presented by the sheet `route` begins: right after it.
        private func levelStart(after route: Route) -> Int {
            (navigation.stack.firstIndex(where: { $0.id == route.id }) ?? navigation.stack.count) + 1
        }
    }

    /// The screen of a route, with the view model the runtime keeps for the route (made when the
    /// route appeared in the navigation, released when it goes; a redraw makes none).
    struct RouteScreenView: View {
        let runtime: DynamicUIRuntime
        let route: Route

        var body: some View {
            DynamicScreenView(model: runtime.model(for: route), platform: runtime.configuration.platform)
        }
    }

    extension HostScenePhase {
        /// The host phase of SwiftUI's `phase`.
        init(_ phase: ScenePhase) {
            switch phase {
            case .active: self = .active
            case .background: self = .background
            default: self = .inactive
            }
        }
    }

    /// How many changes wait in the offline queue, and whether the connection is down.
    struct PendingChangesIndicator: View {
        let count: Int
        let isConnected: Bool
        let strings: DynamicUIStrings

        var body: some View {
            Label(text, systemImage: isConnected ? "arrow.triangle.2.circlepath" : "icloud.slash")
                .font(.footnote)
                .padding(.horizontal, 12)
                .padding(.vertical, 6)
                .modifier(GlassBackground(cornerRadius: 14))
                .padding(.top, 4)
                .accessibilityElement(children: .combine)
        }

        private var text: String {
            let changes = count == 1 ? strings(.pendingChange) : strings(.pendingChanges, String(count))
            return isConnected ? changes : strings(.offlineWithChanges, changes)
        }
    }
#endif
