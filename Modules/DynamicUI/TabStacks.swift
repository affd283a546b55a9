public import Foundation

/// What each tab of a navigation has pushed above its root, as a value, so a tab keeps its place
/// while another is shown (as on iOS). The screen dialect's `NavigationModel` and a node app
/// hold one each beside their selected tab (apart, so a view that shows only the selection is
/// not drawn again by a push); it is tested without either.
public struct TabStacks<Route: Hashable & Identifiable & Sendable>: Hashable, Sendable where Route.ID == UUID {
    /// Each tab's stack above its root, by the tab's key; a tab at its root has no entry.
    public private(set) var stacks: [String: [Route]] = [:]

    /// Nothing pushed.
    public init() {}

    /// The stack above `tab`'s root (empty: at its root; no tab: nothing, and nothing is kept).
    public subscript(tab: String?) -> [Route] {
        get { tab.flatMap { stacks[$0] } ?? [] }
        set { if let tab { stacks[tab] = newValue.isEmpty ? nil : newValue } }
    }

    /// Goes back one on `tab`; returns whether there was one.
    public mutating func back(on tab: String?) -> Bool {
        guard !self[tab].isEmpty else { return false }
        self[tab].removeLast()
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
