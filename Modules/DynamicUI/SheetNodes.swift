import DynamicUIRendering

extension RenderNode {
    /// The tree without the `sheet` nodes whose ids are in `closed`; `present` collects the ids of
    /// those found (a closed sheet that is no longer in the tree may show again).
    func removingSheets(_ closed: Set<String>, present: inout Set<String>) -> RenderNode {
        guard !children.isEmpty else { return self }
        var node = self
        node.children = children.compactMap { child in
            if case .sheet = child.kind, closed.contains(child.id) {
                present.insert(child.id)
                return nil
            }
            return child.removingSheets(closed, present: &present)
        }
        return node
    }

    /// The innermost `sheet` node whose subtree registered `actionKey` (the key begins with the
    /// sheet's id and a `/` or `.`), if any.
    func sheet(holdingAction actionKey: String) -> String? {
        var found: String?
        if case .sheet = kind, actionKey.hasPrefix(id) {
            let rest = actionKey.dropFirst(id.count)
            if rest.first == "/" || rest.first == "." { found = id }
        }
        for child in children {
            if let inner = child.sheet(holdingAction: actionKey) { return inner }
        }
        return found
    }
}
