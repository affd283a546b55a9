import DynamicUIActions
public import DynamicUIModels
public import Foundation
public import Observation

/// One entry of the navigation stack.
public struct Route: Sendable, Hashable, Identifiable {
    /// The screen.
    public var screenKey: String
    /// Its params (`id`, …).
    public var params: [String: String]
    /// Pushed or presented as a sheet.
    public var presentation: Presentation
    /// A unique id, so the same screen can appear twice.
    public let id: UUID

    /// Creates a route.
    public init(screenKey: String, params: [String: String] = [:], presentation: Presentation = .push) {
        self.init(screenKey: screenKey, params: params, presentation: presentation, id: UUID())
    }

    private init(screenKey: String, params: [String: String], presentation: Presentation, id: UUID) {
        self.screenKey = screenKey
        self.params = params
        self.presentation = presentation
        self.id = id
    }

    /// The root of a tab or sidebar entry: the same id every time for the same screen, so what
    /// is kept for it (its view model) survives a redraw.
    public static func root(_ screenKey: String) -> Route {
        Route(screenKey: screenKey, params: [:], presentation: .push, id: stableID(for: "root:" + screenKey))
    }

    /// A UUID derived from `name` (FNV-1a over its bytes, twice with different seeds).
    private static func stableID(for name: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        let high = fnv(0xcbf2_9ce4_8422_2325)
        let low = fnv(0x6c62_272e_07bb_0142)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x50  // version 5 (name-based)
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

/// The app's navigation: the server's tabs and sidebar (or the configured fallback, with the
/// home screen of the user's role, when they cannot be loaded), and a stack driven by
/// `ActionResult`s.
@Observable
@MainActor
public final class NavigationModel: NavigationHosting {
    /// The navigation definition in use.
    public private(set) var definition: NavigationDefinition {
        didSet { didChange?() }
    }
    /// Whether `definition` is the fallback.
    public private(set) var isFallback: Bool
    /// The selected tab or sidebar entry's screen.
    public var selectedScreenKey: String? {
        didSet { didChange?() }
    }
    /// Each tab's stack above its root, by the tab's screen key.
    public private(set) var tabStacks = TabStacks<Route>() {
        didSet { didChange?() }
    }
    /// Each tab's stack above its root, by the tab's screen key: a tab keeps its place while
    /// another is shown, as iOS does.
    public var stacks: [String: [Route]] { tabStacks.stacks }
    /// The stack above the selected root.
    public var stack: [Route] {
        get { tabStacks[selectedScreenKey] }
        set { tabStacks[selectedScreenKey] = newValue }
    }

    /// The words of the fallback navigation's labels.
    public let strings: DynamicUIStrings
    /// The tabs shown while the server's navigation cannot be loaded.
    public let fallback: FallbackNavigation
    /// Called after every change of the stacks, the selection or the definition (the runtime
    /// keeps a view model for each route shown and releases those that went).
    @ObservationIgnored var didChange: (@MainActor () -> Void)?

    /// Starts with `fallback`'s tabs for `role` until a definition is loaded.
    public init(role: String? = nil, fallback: FallbackNavigation = .standard, strings: DynamicUIStrings = .current) {
        self.strings = strings
        self.fallback = fallback
        definition = fallback.definition(role: role, strings: strings)
        isFallback = true
        selectedScreenKey = definition.bottomNav.first?.screenKey
    }

    /// Uses a loaded definition (`nil` keeps the fallback of `role`).
    public func apply(_ loaded: NavigationDefinition?, role: String?) {
        if let loaded, !loaded.bottomNav.isEmpty {
            definition = loaded
            isFallback = false
        } else {
            definition = fallback.definition(role: role, strings: strings)
            isFallback = true
        }
        tabStacks = TabStacks()
        selectedScreenKey = definition.bottomNav.sorted { $0.sortOrder < $1.sortOrder }.first?.screenKey
    }

    /// Uses a loaded definition and keeps the place (a followed preview changed it): the
    /// selected entry and each tab's stack stay while the navigation still offers their entry.
    func update(_ loaded: NavigationDefinition?, role: String?) {
        let next = loaded.flatMap { $0.bottomNav.isEmpty ? nil : $0 } ?? fallback.definition(role: role, strings: strings)
        let offered = Set((next.bottomNav + (next.drawerItems ?? [])).flatMap { [$0] + ($0.children ?? []) }.map(\.screenKey))
        if stacks.keys.contains(where: { !offered.contains($0) }) { tabStacks.keepTabs(where: offered.contains) }
        isFallback = next != loaded
        if definition != next { definition = next }
        if let selected = selectedScreenKey, offered.contains(selected) { return }
        selectedScreenKey = next.bottomNav.sorted { $0.sortOrder < $1.sortOrder }.first?.screenKey
    }

    /// Tabs for compact width, the sidebar (drawer items, else tabs) for regular width.
    public func items(regular: Bool) -> [NavItem] {
        let items = regular ? (definition.drawerItems ?? definition.bottomNav) : definition.bottomNav
        return items.sorted { $0.sortOrder < $1.sortOrder }
    }

    /// The screen on top.
    public var current: Route? {
        stack.last ?? selectedScreenKey.map(Route.root)
    }

    /// Every route the app may show now: each tab's and sidebar entry's root, then each
    /// tab's stack.
    public var routes: [Route] {
        let roots = Set((items(regular: false) + items(regular: true)).flatMap { [$0] + ($0.children ?? []) }.map(\.screenKey))
            .union(selectedScreenKey.map { [$0] } ?? [])
        return roots.sorted().map(Route.root) + tabStacks.pushed
    }

    /// Pushes (or presents) a screen.
    public func push(_ route: Route) { stack.append(route) }

    /// Goes back one screen; returns whether there was one.
    @discardableResult
    public func back() -> Bool { tabStacks.back(on: selectedScreenKey) }

    /// Back to the selected root.
    public func popToRoot() { stack.removeAll() }

    /// Replaces the whole stack with `route`.
    public func replace(with route: Route) { stack = [route] }

    /// Selects a tab or sidebar entry. Another tab keeps its stack, to come back to; selecting
    /// the tab already shown goes back to its root (as tapping the selected tab does on iOS).
    public func select(_ screenKey: String) {
        if selectedScreenKey == screenKey { stack.removeAll() } else { selectedScreenKey = screenKey }
    }

    /// Shows `screenKey` as a fresh root: selected, with nothing above it (the login screen
    /// while signed out). To open a screen the navigation may not draw as a tab, use `show(_:)`.
    public func reset(to screenKey: String) {
        selectedScreenKey = screenKey
        stack.removeAll()
    }

    /// Whether the navigation is drawn in regular width (a sidebar of `drawerItems`) or compact
    /// width (tabs of `bottomNav`); the host sets it as the size class changes.
    public var isRegularWidth = false

    /// The screen keys drawn as tabs or sidebar entries in the current width.
    public var visibleRootKeys: Set<String> {
        Set(items(regular: isRegularWidth).flatMap { [$0] + ($0.children ?? []) }.map(\.screenKey))
    }

    /// Opens `screenKey` where the person can see it: selected with nothing above it when it is
    /// a tab (or sidebar entry) of the current width, else pushed on the first one (a sign-in
    /// destination or a link to a sidebar-only screen on a phone).
    public func show(_ screenKey: String) {
        let visible = visibleRootKeys
        guard !visible.contains(screenKey), let first = items(regular: isRegularWidth).first?.screenKey else {
            reset(to: screenKey)
            return
        }
        selectedScreenKey = first
        tabStacks[first] = [Route(screenKey: screenKey)]
    }

    /// A selection the current width does not draw (a sidebar-only entry after the window
    /// became compact) moves, with its stack, onto the first visible tab.
    public func keepSelectionVisible() {
        guard let selected = selectedScreenKey, !visibleRootKeys.contains(selected),
            let first = items(regular: isRegularWidth).first?.screenKey
        else { return }
        var next = tabStacks
        next[first] = [Route(screenKey: selected)] + next[selected]
        next[selected] = []
        tabStacks = next
        selectedScreenKey = first
    }

    /// Closes `route` and everything above it, on whichever tab's stack it is; returns whether it
    /// was there. An action's "back" closes the screen that asked, never the one on top.
    @discardableResult
    public func close(_ route: Route) -> Bool { tabStacks.close(route.id) }

    /// Whether `route` is on top of the selected tab (or is the selected root with nothing above it).
    public func isOnTop(_ route: Route) -> Bool { current?.id == route.id }

    /// Whether `route` is on a stack or is a root the navigation holds.
    public func holds(_ route: Route) -> Bool {
        tabStacks.holds(route.id) || routes.contains { $0.id == route.id }
    }
}
