public import DynamicUIModels
public import DynamicUIResolvers
import Foundation

/// The actions of a rendered node document, by the `actionKey` of their render nodes, with the
/// context each was rendered in. A list's rows register in a table of their own, held here, as
/// they are built; so it is thread-safe.
public final class NodeActionTable: @unchecked Sendable {
    /// One registration: an action under its key, or the table of a list's rows.
    enum Registration {
        case action(String, CompiledNodeAction, DataContext)
        case rows(NodeActionTable)
    }

    private let lock = NSLock()
    private var entries: [String: (action: CompiledNodeAction, context: DataContext)] = [:]
    private var rowTables: [NodeActionTable] = []
    /// Every registration, in order, when `recording` (a render memo keeps those of a subtree
    /// with it).
    private var log: [Registration] = []
    /// Whether it keeps its registrations in order (a render with a memo).
    let recording: Bool

    /// An empty table.
    public init() { recording = false }

    /// An empty table that keeps its registrations in order (`registrations(since:)`).
    init(recording: Bool) { self.recording = recording }

    /// Records the action of `key`.
    func register(_ key: String, _ action: CompiledNodeAction, context: DataContext) {
        add(.action(key, action, context))
    }

    /// Adds a registration (one made now, or one a memo kept from an earlier render).
    func add(_ registration: Registration) {
        lock.withLock {
            if recording { log.append(registration) }
            switch registration {
            case .action(let key, let action, let context): entries[key] = (action, context)
            case .rows(let table): rowTables.append(table)
            }
        }
    }

    /// How many registrations were made so far.
    var mark: Int { lock.withLock { log.count } }

    /// The registrations made since `mark`.
    func registrations(since mark: Int) -> [Registration] { lock.withLock { Array(log[mark...]) } }

    /// The action of `key` and the context to evaluate it in.
    public func action(for key: String) -> (action: CompiledNodeAction, context: DataContext)? {
        let (found, rows) = lock.withLock { (entries[key], rowTables) }
        if let found { return found }
        for table in rows.reversed() {
            if let found = table.action(for: key) { return found }
        }
        return nil
    }

    /// Every registered key.
    public var keys: [String] {
        let (own, rows) = lock.withLock { (Array(entries.keys), rowTables) }
        return Set(own + rows.flatMap(\.keys)).sorted()
    }
}

/// A rendered node document: the tree and its actions.
public struct RenderedDocument: Sendable {
    /// The render tree.
    public let root: RenderNode
    /// Actions by `actionKey` (`…action`, `…onSubmit`, `onLoad`).
    public let actions: NodeActionTable

    /// A rendered document.
    public init(root: RenderNode, actions: NodeActionTable) {
        self.root = root
        self.actions = actions
    }
}

/// Lowers node-dialect documents into the render tree: conditions first,
/// then the preset merged with the inline style, then props resolved, `list` rows on demand with
/// `$.item`/`$.index`, and components expanded with only their parameters in scope.
public struct NodeRenderer: Sendable {
    /// The theme (presets, colors, fonts).
    public let theme: Theme
    /// Component definitions (for their parameter names).
    public let library: ComponentLibrary
    /// Compiled component bodies.
    public let components: [String: CompiledNode]
    /// Where and how the tree is drawn.
    public let options: RenderOptions
    /// Deepest component nesting (a component that uses itself stops here with a marker).
    public let maxComponentDepth: Int
    /// Most nodes one lowering builds (the document, or one list row): components that use
    /// each other several times multiply, and past this they stop with a marker.
    public let maxNodes: Int
    /// Deepest nesting of the lowered tree, components included.
    public let maxNesting: Int
    /// The app's native components: a node of a registered type becomes a `.custom` node.
    public let nativeComponents: NativeComponentRegistry
    /// What the signed-in user may do: a node that needs another permission is left out, with
    /// its actions (`nil`: not known, so every node is drawn and the server decides).
    public let permissions: Set<String>?
    /// The states of the document's deferred sections (nodes with a `data_endpoint`), by node id.
    public var sections: [String: SectionState] = [:]

    /// Creates a renderer.
    public init(
        theme: Theme, library: ComponentLibrary, components: [String: CompiledNode], options: RenderOptions = RenderOptions(),
        maxComponentDepth: Int = 16, maxNodes: Int = 20_000, maxNesting: Int = 96,
        nativeComponents: NativeComponentRegistry = .empty, permissions: Set<String>? = nil
    ) {
        self.permissions = permissions
        self.nativeComponents = nativeComponents
        self.theme = theme
        self.library = library
        self.components = components
        self.options = options
        self.maxComponentDepth = maxComponentDepth
        self.maxNodes = maxNodes
        self.maxNesting = maxNesting
    }

    /// Renders a document in `context`.
    public func render(_ document: CompiledNode, context: DataContext, name: String) -> RenderedDocument {
        render(document, context: context, name: name, kept: nil)
    }

    /// Renders a document in `context` with its `memo` (one per open document): a subtree that
    /// reads nothing that changed since the memo's last render is taken as it was drawn.
    public func render(
        _ document: CompiledNode, context: DataContext, name: String, memo: NodeRenderMemo
    ) -> RenderedDocument {
        render(document, context: context, name: name, kept: memo)
    }

    private func render(
        _ document: CompiledNode, context: DataContext, name: String, kept memo: NodeRenderMemo?
    ) -> RenderedDocument {
        let table = NodeActionTable(recording: memo != nil)
        let pass = memo?.begin(
            NodeRenderBasis(
                document: document, context: context, sections: sections, theme: theme, components: components,
                options: options, permissions: permissions))
        let root =
            lower(
                document, context: context, path: name, depth: 0, table: table, budget: NodeBudget(maxNodes), level: 0,
                pass: pass)
            ?? RenderNode(id: name, kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false))
        if let memo, let pass { memo.end(pass) }
        return RenderedDocument(root: root, actions: table)
    }

    /// The merged style of a node: its preset, overridden by its inline style.
    public func style(of node: ViewNode) -> NodeStyle? {
        let preset = node.style.flatMap { theme.presets[$0] }
        guard preset != nil || node.inlineStyle != nil else { return nil }
        return (preset ?? NodeStyle()).merged(with: node.inlineStyle)
    }

    private func evaluate(_ node: CompiledNode, _ name: String, in context: DataContext) -> JSONValue {
        guard let binding = node.bindings[name] else { return .null }
        return (try? binding.evaluate(in: context)) ?? .null
    }

    /// Lowers `compiled` at `path`; with a memo `pass`, and in the document's own context (not
    /// a row's, a component body's or a section's), a subtree is taken from the memo when
    /// nothing it reads changed, and what is drawn anew is kept for the next render.
    func lower(
        _ compiled: CompiledNode, context: DataContext, path: String, depth: Int, table: NodeActionTable, budget: NodeBudget,
        level: Int, pass: NodeMemoPass? = nil
    ) -> RenderNode? {
        guard let pass, context.parent == nil else {
            return lowerNode(compiled, context: context, path: path, depth: depth, table: table, budget: budget, level: level)
        }
        if let kept = pass.kept(at: path, compiled) {
            budget.spend(kept.spent)
            for registration in kept.registrations { table.add(registration) }
            return kept.node
        }
        let (mark, registered, remaining) = (pass.mark, table.mark, budget.remaining)
        let node = lowerNode(
            compiled, context: context, path: path, depth: depth, table: table, budget: budget, level: level, pass: pass)
        // A subtree cut short by the node budget depends on what was drawn before it: not kept.
        guard budget.remaining >= 0 else { return node }
        pass.drew(
            at: path, compiled, node: node, registrations: table.registrations(since: registered),
            spent: remaining - budget.remaining, since: mark)
        return node
    }

    private func lowerNode(
        _ compiled: CompiledNode, context: DataContext, path: String, depth: Int, table: NodeActionTable, budget: NodeBudget,
        level: Int, pass: NodeMemoPass? = nil
    ) -> RenderNode? {
        if let condition = compiled.condition, (try? condition.isTrue(in: context)) != true { return nil }
        let node = compiled.node
        guard node.isAllowed(by: permissions) else { return nil }
        let id = node.nodeId.map { "\(path)#\($0)" } ?? path
        guard budget.spend(), level < maxNesting else {
            return options.showUnknownMarkers ? RenderNode(id: id, kind: .unknown("node limit")) : nil
        }
        var sectionContext: DataContext?
        // Sections are the document's own nodes (not its root, not a component's body).
        if node.dataEndpoint != nil, level > 0, depth == 0, let sectionId = node.nodeId {
            // A deferred section: a skeleton until its data arrives, its own error and retry.
            switch sections[sectionId] {
            case .loaded(let data)?:
                sectionContext = context.child([("section", data)])
            case .failed(let message)?:
                let strings = context.environment.strings
                let retry = ControlNode(
                    type: .textButton, label: strings(.retry), value: .null, isRequired: false, isReadOnly: false,
                    options: [], icon: "arrow.clockwise", role: .plain, actionId: SectionState.retryActionId(sectionId))
                return RenderNode(
                    id: id, kind: .emptyState(title: strings(.dataLoadFailed), message: message, systemImage: "wifi.slash"),
                    children: [
                        RenderNode(
                            id: "\(id)/retry", kind: .control(retry),
                            accessibility: AccessibilityInfo(label: strings(.retry), traits: ["button"]))
                    ])
            case .loading?, nil:
                return RenderNode(
                    id: id, kind: .skeleton(lines: max(1, min(compiled.children.count, 6))),
                    accessibility: AccessibilityInfo(label: context.environment.strings(.loading), traits: []))
            }
        }
        let context = sectionContext ?? context
        let style = style(of: node)
        func child(_ name: String) -> RenderNode? {
            compiled.nested[name].flatMap {
                lower(
                    $0, context: context, path: "\(id).\(name)", depth: depth, table: table, budget: budget, level: level + 1,
                    pass: pass)
            }
        }
        func register(_ name: String) -> String? {
            guard let action = compiled.actions[name] else { return nil }
            let key = "\(id).\(name)"
            table.register(key, action, context: context)
            return key
        }
        var children = compiled.children.enumerated().compactMap { index, element in
            lower(
                element, context: context, path: "\(id)/\(index)", depth: depth, table: table, budget: budget, level: level + 1,
                pass: pass)
        }
        var accessibility: AccessibilityInfo?
        var layout: LayoutHints?
        let kind: RenderKind
        switch node.props {
        case .stack(let spacing, let alignment):
            let lazy = node.type == .lazyVStack || node.type == .lazyHStack
            let horizontal = node.type == .hstack || node.type == .lazyHStack
            kind = .stack(
                axis: horizontal ? .horizontal : .vertical, spacing: spacing, alignment: RenderAlignment(wire: alignment),
                lazy: lazy)
        case .zstack(let alignment):
            kind = .zstack(alignment: RenderAlignment(wire: alignment))
        case .scroll(let axis):
            kind = .scroll(axis: axis == "horizontal" ? .horizontal : .vertical)
        case .list(_, _, let separator):
            if let separator { layout = LayoutHints(showsSeparators: separator) }
            let items = evaluate(compiled, "items", in: context).arrayValue ?? []
            let template = compiled.nested["itemTemplate"]
            let listId = "\(id).items"
            let identity: @Sendable (Int) -> String = { index in
                guard let id = items[index]["trackId"] ?? items[index]["id"], !id.isNull else { return "\(listId)[\(index)]" }
                return "\(listId)/\(id.text)"
            }
            let renderer = self
            // With a memo, the rows register in a table of their own, which a kept list keeps
            // (they are drawn after the render, so never in the render's own order).
            let rowTable = table.recording ? NodeActionTable() : table
            if rowTable !== table { table.add(.rows(rowTable)) }
            let rows = LazyRows(count: items.count, id: identity) { index in
                let row = context.item(items[index], index: index)
                let rowId = identity(index)
                return template.flatMap {
                    renderer.lower(
                        $0, context: row, path: rowId, depth: depth, table: rowTable, budget: NodeBudget(renderer.maxNodes),
                        level: level + 1)
                }
                    ?? RenderNode(id: rowId, kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false))
            }
            kind = .list(style: .plain, rows: rows)
        case .spacer(let minLength):
            kind = .spacer(minLength: minLength)
        case .grid(let columns, let spacing):
            kind = .grid(columns: RenderKind.gridColumns(columns ?? (options.sizeClass == .regular ? 4 : 2)), spacing: spacing)
        case .text(_, let lineLimit):
            let text = evaluate(compiled, "content", in: context).text
            kind = .text(text, style: textStyle(of: style), lineLimit: RenderKind.lineLimit(lineLimit))
        case .image(_, let resizable, let aspectRatio, let contentMode, _):
            if resizable != nil || aspectRatio != nil { layout = LayoutHints(aspectRatio: aspectRatio, resizable: resizable) }
            let source = evaluate(compiled, "source", in: context).text
            let symbol = source.hasPrefix("system:")
            kind = .image(
                source: symbol ? String(source.dropFirst(7)) : source, isSymbol: symbol,
                contentMode: RenderContentMode(wire: contentMode))
            let label = evaluate(compiled, "accessibilityLabel", in: context)
            accessibility = AccessibilityInfo(label: label.isNull ? nil : label.text, traits: ["image"])
        case .none:
            kind = node.type == .divider ? .divider : .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false)
        case .button:
            kind = .button(actionKey: register("action") ?? "\(id).action")
            children = (child("label").map { [$0] } ?? []) + children
            accessibility = AccessibilityInfo(
                label: Self.iconOnlyLabel(children, strings: context.environment.strings), traits: ["button"])
        case .navigationLink(let destination, _):
            kind = .navigationLink(
                screen: destination.screen, params: evaluate(compiled, "destination.params", in: context).objectValue ?? [:])
            children = (child("label").map { [$0] } ?? []) + children
            accessibility = AccessibilityInfo(
                label: Self.iconOnlyLabel(children, strings: context.environment.strings), traits: ["link"])
        case .textField(let placeholder, let binding):
            let text = compiled.bindingTarget.map { $0.resolve(in: context).text } ?? ""
            kind = .textField(placeholder: placeholder, binding: binding, text: text)
        case .searchBar(let placeholder, let binding, _):
            let text = compiled.bindingTarget.map { $0.resolve(in: context).text } ?? ""
            kind = .searchField(placeholder: placeholder, binding: binding, text: text, actionKey: register("onSubmit"))
        case .tabView(let tabs):
            kind = .tabView(tabs)
        case .navigationStack:
            kind = .navigationStack
            children = (child("root").map { [$0] } ?? []) + children
        case .screen:
            // A screen's actions are its `onLoad` and its named actions, each under its key; the
            // document's named actions are its root screen's (a nested screen's do not replace them).
            for (key, action) in compiled.actions where level == 0 || key == "onLoad" {
                table.register(key, action, context: context)
            }
            let title = evaluate(compiled, "title", in: context)
            var chrome = ScreenChrome(pattern: "node", title: title.isNull ? "" : title.text, largeTitle: true, showsBack: true)
            chrome.strings = context.environment.strings
            kind = .screen(chrome)
            var content = (child("body").map { [$0] } ?? []) + children
            if let toolbar = child("toolbar") { content.append(toolbar) }
            children = content
        case .sheet:
            kind = .sheet
            children = (child("content").map { [$0] } ?? []) + children
        case .component(let name, _):
            guard let body = components[name], let definition = library.components[name], depth < maxComponentDepth else {
                return options.showUnknownMarkers ? RenderNode(id: id, kind: .unknown("component \(name)")) : nil
            }
            let arguments = evaluate(compiled, "parameters", in: context).objectValue ?? [:]
            let scope = context.component(parameters: definition.parameters.map { ($0, arguments[$0] ?? .null) })
            guard
                var expanded = lower(
                    body, context: scope, path: "\(id)/\(name)", depth: depth + 1, table: table, budget: budget, level: level + 1)
            else {
                return nil
            }
            if let style { expanded.style = (expanded.style ?? NodeStyle()).merged(with: style) }
            return expanded
        case .unknown where nativeComponents.contains(node.type.rawValue):
            var actionKeys: [String: String] = [:]
            for name in compiled.actions.keys.sorted() { actionKeys[name] = register(name) }
            let props = evaluate(compiled, "props", in: context).objectValue ?? [:]
            var binding: String?
            if case .unknown(let raw) = node.props { binding = raw["binding"]?.stringValue }
            let value = compiled.bindingTarget.map { $0.resolve(in: context) } ?? .null
            // The type as the component registered it (`rating-stars`), whichever spelling the
            // document uses (`rating_stars`).
            let type = nativeComponents.component(for: node.type.rawValue)?.type ?? node.type.rawValue
            var custom = CustomNode(type: type, props: props, actions: actionKeys, binding: binding, value: value)
            custom.strings = context.environment.strings
            kind = .custom(custom)
            let label = props["accessibilityLabel"]?.stringValue ?? props["title"]?.stringValue
            accessibility = label.map { AccessibilityInfo(label: $0) }
        case .unknown:
            guard options.showUnknownMarkers else { return nil }
            kind = .unknown(node.type.rawValue)
        }
        return RenderNode(
            id: id, kind: kind, children: children, accessibility: accessibility, style: style, logId: node.logId, layout: layout,
            transition: node.transition.flatMap(RenderTransition.init),
            visibility: RenderVisibility(appear: node.visibilityActions, disappear: node.disappearActions))
    }

    /// What a button or link whose label is only an image says to VoiceOver: its image's own
    /// label, else what the image's SF Symbol means; `nil` when the label draws text (the text
    /// is read) or nothing is known.
    static func iconOnlyLabel(_ label: [RenderNode], strings: DynamicUIStrings) -> String? {
        guard !label.contains(where: \.holdsText), let image = firstImage(in: label) else { return nil }
        if let spoken = image.accessibility?.label, !spoken.isEmpty { return spoken }
        guard case .image(let source, true, _) = image.kind else { return nil }
        return ScreenLowering.symbolMeaning(source, strings: strings)
    }

    private static func firstImage(in nodes: [RenderNode]) -> RenderNode? {
        for node in nodes {
            if case .image = node.kind { return node }
            if let image = firstImage(in: node.children) { return image }
        }
        return nil
    }

    /// The text style of a node style's font: the theme font's size mapped to the nearest
    /// Dynamic Type style.
    func textStyle(of style: NodeStyle?) -> RenderTextStyle {
        guard let font = style?.font, let spec = theme.fonts[font] else { return .body }
        switch spec.size {
        case 30...: return .largeTitle
        case 24..<30: return .title
        case 20..<24: return .title2
        case 18..<20: return .title3
        case 16..<18: return spec.weight == "semibold" || spec.weight == "bold" ? .headline : .body
        case 14..<16: return .subheadline
        case 13..<14: return .footnote
        default: return .caption
        }
    }
}

/// The nodes one lowering may still build; shared down one eager lowering (never across threads).
final class NodeBudget {
    private(set) var remaining: Int

    init(_ limit: Int) { remaining = limit }

    /// Takes one node from the budget; false once it is spent.
    func spend() -> Bool {
        remaining -= 1
        return remaining >= 0
    }

    /// Takes the nodes a kept subtree was drawn with.
    func spend(_ nodes: Int) { remaining -= nodes }
}
