public import Foundation

/// The tabs of a navigation as a value: which tab is selected and what each has pushed above
/// its root, so a tab keeps its place while another is shown (as on iOS). The screen dialect's
/// `NavigationModel` and a node app hold one each; it is tested without either.
public struct TabStacks<Route: Hashable & Identifiable & Sendable>: Hashable, Sendable where Route.ID == UUID {
    /// The selected tab (its root's key).
    public var selected: String?
    /// Each tab's stack above its root, by the tab's key; a tab at its root has no entry.
    public private(set) var stacks: [String: [Route]] = [:]

    /// No tab selected, nothing pushed.
    public init(selected: String? = nil) {
        self.selected = selected
    }

    /// The stack above the selected tab's root.
    public var stack: [Route] {
        get { selected.flatMap { stacks[$0] } ?? [] }
        set { if let selected { self[selected] = newValue } }
    }

    /// The stack above `tab`'s root (empty: at its root).
    public subscript(tab: String) -> [Route] {
        get { stacks[tab] ?? [] }
        set { stacks[tab] = newValue.isEmpty ? nil : newValue }
    }

    /// Selects `tab`; selecting the selected tab again goes back to its root (as tapping it does).
    public mutating func select(_ tab: String) {
        if selected == tab { stack.removeAll() } else { selected = tab }
    }

    /// Goes back one on the selected tab; returns whether there was one.
    public mutating func back() -> Bool {
        guard !stack.isEmpty else { return false }
        stack.removeLast()
        return true
    }

    /// Closes the route `id` and what is above it, on whichever tab it is; returns whether it was.
    public mutating func close(_ id: UUID) -> Bool {
        for (tab, routes) in stacks {
            guard let index = routes.firstIndex(where: { $0.id == id }) else { continue }
            self[tab] = Array(routes[..<index])
            return true
        }
        return false
    }

    /// Whether a tab's stack holds the route `id`.
    public func holds(_ id: UUID) -> Bool { stacks.values.contains { $0.contains { $0.id == id } } }

    /// Every route pushed, tab by tab in the order of their keys.
    public var pushed: [Route] { stacks.keys.sorted().flatMap { stacks[$0] ?? [] } }

    /// Forgets the stacks of the tabs `keep` does not accept.
    public mutating func keepTabs(where keep: (String) -> Bool) {
        stacks = stacks.filter { keep($0.key) }
    }
}
