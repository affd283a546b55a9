public import DynamicUIModels

/// A node-dialect action with its parameter bindings compiled.
public indirect enum CompiledNodeAction: Sendable, Hashable {
    /// Push a screen with params.
    case navigate(screen: String, params: ValueTemplate)
    /// Present a screen as a sheet with params.
    case present(screen: String, params: ValueTemplate)
    /// Dismiss the current sheet.
    case dismiss
    /// Call an endpoint and store the result (and the element `select` picks from it).
    case api(endpoint: String, params: ValueTemplate, resultKey: String?, select: CompiledSelection? = nil)
    /// Set a state value.
    case setState(key: String, value: ValueTemplate)
    /// Dispatch a host event.
    case custom(event: String, payload: ValueTemplate)
    /// Fetch a patch and apply it to the shown document.
    case patch(endpoint: String)
    /// Command a timer of the document.
    case timer(id: String, command: TimerCommand)
    /// Run in order, stopping at the first failure.
    case sequence([CompiledNodeAction])
    /// An action type the SDK does not know.
    case unknown(actionType: String)
}

extension CompiledNodeAction {
    /// The `actionType` it was written with. Its cases are named as `NodeAction`'s, whose names
    /// are the wire names, so a known action's type is its case's name (checked for every type
    /// by `GenericActionTests`), read through reflection: an app built without reflection
    /// metadata reports the case's description instead.
    public var actionType: String {
        if case .unknown(let type) = self { return type }
        return Mirror(reflecting: self).children.first?.label ?? String(describing: self)
    }
}

/// An `api` action's selection with its `where` values compiled.
public struct CompiledSelection: Sendable, Hashable {
    /// The state key the picked element is stored under.
    public let key: String
    /// The keys from the result to the array.
    public let from: [String]
    /// The fields an element must have (an object; values may be bindings).
    public let matching: ValueTemplate

    /// The first element of the array at `from` in `result` whose fields equal `values` (as
    /// text), or `null`.
    public func pick(from result: JSONValue, values: JSONValue) -> JSONValue {
        var array = result
        for key in from { array = array[key] ?? .null }
        let wanted = values.objectValue ?? [:]
        return array.arrayValue?.first { element in
            wanted.allSatisfy { entry in element[entry.key].map { !$0.isNull && $0.text == entry.value.text } ?? false }
        } ?? .null
    }
}

/// A view node with its condition, bindable props, nested nodes and actions compiled.
public final class CompiledNode: Sendable {
    /// The node as decoded.
    public let node: ViewNode
    /// Drawn only when this is truthy.
    public let condition: DynamicExpression?
    /// Bindable props by name (`content`, `source`, `title`, `items`, `parameters`, `destination.params`).
    public let bindings: [String: ValueTemplate]
    /// Nested nodes by prop name (`label`, `itemTemplate`, `body`, `toolbar`, `root`, `content`).
    public let nested: [String: CompiledNode]
    /// Actions by prop name (`action`, `onSubmit`, `onLoad`; a screen's named actions under
    /// `namedActionKey(_:)`).
    public let actions: [String: CompiledNodeAction]
    /// Two-way binding targets (`binding` of `text_field` and `search_bar`).
    public let bindingTarget: PathExpression?
    /// Compiled children.
    public let children: [CompiledNode]
    /// What the node and everything below it read (its condition, props, actions and binding).
    public let reads: NodeReads

    init(
        node: ViewNode, condition: DynamicExpression?, bindings: [String: ValueTemplate], nested: [String: CompiledNode],
        actions: [String: CompiledNodeAction], bindingTarget: PathExpression?, children: [CompiledNode]
    ) {
        self.node = node
        self.condition = condition
        self.bindings = bindings
        self.nested = nested
        self.actions = actions
        self.bindingTarget = bindingTarget
        self.children = children
        var reads = NodeReads()
        if let condition { reads.add(condition) }
        for binding in bindings.values { reads.add(binding) }
        for action in actions.values { reads.add(action) }
        if let bindingTarget { reads.add(bindingTarget) }
        if node.dataEndpoint != nil, let id = node.nodeId { reads.addSection(id) }
        if case .component = node.props { reads.addComponent() }
        for inner in nested.values { reads.formUnion(inner.reads) }
        for child in children { reads.formUnion(child.reads) }
        self.reads = reads
    }

    /// The key of a screen's named action `name` among its actions, and in the rendered
    /// document's action table (`actions.finish`).
    public static func namedActionKey(_ name: String) -> String { "actions." + name }

    /// Every node of the tree, depth first (nested props included).
    public var allNodes: [CompiledNode] {
        [self] + nested.keys.sorted().flatMap { nested[$0]!.allNodes } + children.flatMap(\.allNodes)
    }
}

/// Compiles node-dialect documents, collecting every error with its JSON path.
public struct NodeCompiler: Sendable {
    /// The expression compiler.
    public var compiler: ExpressionCompiler

    /// Creates a node compiler.
    public init(compiler: ExpressionCompiler = ExpressionCompiler()) { self.compiler = compiler }

    /// Compiles a document; throws `CompilationError` listing every failure.
    public func compile(_ node: ViewNode, at location: JSONLocation = .root) throws(CompilationError) -> CompiledNode {
        var diagnostics: [Diagnostic] = []
        let compiled = compile(node, at: location, diagnostics: &diagnostics)
        if !diagnostics.isEmpty { throw CompilationError(diagnostics: diagnostics) }
        return compiled
    }

    /// Compiles every component body of a library.
    public func compile(_ library: ComponentLibrary) throws(CompilationError) -> [String: CompiledNode] {
        var diagnostics: [Diagnostic] = []
        var result: [String: CompiledNode] = [:]
        for (name, component) in library.components {
            let location = JSONLocation(components: [.key("components"), .key(name), .key("body")])
            result[name] = compile(component.body, at: location, diagnostics: &diagnostics)
        }
        if !diagnostics.isEmpty { throw CompilationError(diagnostics: diagnostics) }
        return result
    }

    private func record(_ error: ExpressionError, _ diagnostics: inout [Diagnostic]) {
        diagnostics.append(
            Diagnostic(
                .error, at: error.location ?? .root,
                "\(error.code): \(error.message) in \(error.expression.debugDescription) at offset \(error.offset)"))
    }

    private func compile(_ node: ViewNode, at location: JSONLocation, diagnostics: inout [Diagnostic]) -> CompiledNode {
        let props = location.appending(key: "props")
        var bindings: [String: ValueTemplate] = [:]
        var nested: [String: CompiledNode] = [:]
        var actions: [String: CompiledNodeAction] = [:]
        var bindingTarget: PathExpression?

        func bind(_ name: String, _ value: JSONValue?) {
            guard let value else { return }
            do {
                bindings[name] = try compiler.binding(value, at: props.appending(key: name))
            } catch {
                record(error, &diagnostics)
            }
        }
        func child(_ name: String, _ value: ViewNode?) {
            guard let value else { return }
            nested[name] = compile(value, at: props.appending(key: name), diagnostics: &diagnostics)
        }
        func action(_ name: String, _ value: NodeAction?) {
            guard let value else { return }
            actions[name] = compile(value, at: props.appending(key: name), diagnostics: &diagnostics)
        }
        func target(_ text: String?) {
            guard let text else { return }
            do {
                bindingTarget = try compiler.bindingPath(text, at: props.appending(key: "binding"))
            } catch {
                record(error, &diagnostics)
            }
        }

        switch node.props {
        case .list(let items, let itemTemplate, _):
            bind("items", .string(items))
            child("itemTemplate", itemTemplate)
        case .text(let content, _): bind("content", content)
        case .image(let source, _, _, _, let label):
            bind("source", source)
            bind("accessibilityLabel", label.map(JSONValue.string))
        case .button(let label, let nodeAction):
            child("label", label)
            action("action", nodeAction)
        case .navigationLink(let destination, let label):
            bind(
                "destination.params",
                .object(JSONObject(destination.params.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
            child("label", label)
        case .textField(_, let binding): target(binding)
        case .searchBar(_, let binding, let onSubmit):
            target(binding)
            action("onSubmit", onSubmit)
        case .navigationStack(let root): child("root", root)
        case .screen(let title, let body, let toolbar, let onLoad, let named):
            bind("title", title)
            child("body", body)
            child("toolbar", toolbar)
            action("onLoad", onLoad)
            for (name, value) in named {
                actions[CompiledNode.namedActionKey(name)] = compile(
                    value, at: props.appending(key: "actions").appending(key: name), diagnostics: &diagnostics)
            }
        case .sheet(let content): child("content", content)
        case .component(_, let parameters):
            bind("parameters", .object(JSONObject(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
        case .unknown(let object):
            // A type the SDK does not draw may be a host's native component: its props are
            // bindings, props that hold an action (`{"actionType": …}`) are actions, and a
            // `binding` prop is its two-way state key.
            var plain = JSONObject()
            for (key, value) in object {
                if case .object(let member) = value, member["actionType"] != nil {
                    do {
                        action(key, try NodeAction(json: value, at: props.appending(key: key)))
                    } catch {
                        diagnostics.append(Diagnostic(.error, at: error.location, error.message))
                    }
                } else if key == "binding", case .string(let text) = value {
                    target(text)
                    plain[key] = value
                } else {
                    plain[key] = value
                }
            }
            bind("props", .object(plain))
        case .stack, .zstack, .scroll, .spacer, .grid, .tabView, .none:
            break
        }

        var condition: DynamicExpression?
        if let text = node.condition {
            do {
                condition = try compiler.expression(text, at: location.appending(key: "condition"))
            } catch {
                record(error, &diagnostics)
            }
        }
        let children = node.children.enumerated().map { index, child in
            compile(child, at: location.appending(key: "children").appending(index: index), diagnostics: &diagnostics)
        }
        return CompiledNode(
            node: node, condition: condition, bindings: bindings, nested: nested, actions: actions, bindingTarget: bindingTarget,
            children: children)
    }

    private func compile(_ action: NodeAction, at location: JSONLocation, diagnostics: inout [Diagnostic]) -> CompiledNodeAction {
        func values(_ object: [String: JSONValue], _ key: String) -> ValueTemplate {
            let json = JSONValue.object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
            do {
                return try compiler.binding(json, at: location.appending(key: key))
            } catch {
                record(error, &diagnostics)
                return .literal(json)
            }
        }
        switch action {
        case .navigate(let screen, let params): return .navigate(screen: screen, params: values(params, "params"))
        case .present(let screen, let params): return .present(screen: screen, params: values(params, "params"))
        case .dismiss: return .dismiss
        case .api(let endpoint, let params, let resultKey, let select):
            return .api(
                endpoint: endpoint, params: values(params, "params"), resultKey: resultKey,
                select: select.map {
                    CompiledSelection(
                        key: $0.key, from: $0.from.split(separator: ".").map(String.init),
                        matching: values($0.matching, "select.where"))
                })
        case .setState(let key, let value):
            do {
                return .setState(key: key, value: try compiler.binding(value, at: location.appending(key: "value")))
            } catch {
                record(error, &diagnostics)
                return .setState(key: key, value: .literal(value))
            }
        case .custom(let event, let payload): return .custom(event: event, payload: values(payload, "payload"))
        case .patch(let endpoint): return .patch(endpoint: endpoint)
        case .timer(let id, let command): return .timer(id: id, command: command)
        case .sequence(let steps):
            return .sequence(
                steps.enumerated().map { index, step in
                    compile(step, at: location.appending(key: "actions").appending(index: index), diagnostics: &diagnostics)
                })
        case .unknown(let type, _): return .unknown(actionType: type)
        }
    }
}

/// Compiled screens and node documents cached per key and version (the screen's `version`
/// or the response's ETag), so a data refresh or a new page never re-compiles.
public actor ProgramCache {
    private struct Key: Hashable {
        let key: String
        let version: String
    }

    private var screens: [Key: CompiledScreen] = [:]
    private var nodes: [Key: CompiledNode] = [:]
    private let capacity: Int
    private var order: [Key] = []
    /// How many compilations the cache performed (misses).
    public private(set) var compilations = 0

    /// A cache holding at most `capacity` programs of each kind.
    public init(capacity: Int = 64) { self.capacity = capacity }

    /// The compiled screen of `key` at `version`, if it was compiled already.
    public func cachedScreen(key: String, version: String) -> CompiledScreen? {
        screens[Key(key: key, version: version)]
    }

    /// The compiled screen for `screen`, compiling on the first request for its key and version.
    public func screen(
        _ screen: ScreenDefinition, version: String? = nil, compiler: ScreenCompiler = ScreenCompiler()
    )
        throws(CompilationError) -> CompiledScreen
    {
        let key = Key(key: screen.screenKey, version: version ?? String(screen.version))
        if let cached = screens[key] { return cached }
        let compiled = try compiler.compile(screen)
        screens[key] = compiled
        didCompile(key)
        return compiled
    }

    /// The compiled document `name` at `version`.
    public func node(
        _ node: ViewNode, name: String, version: String, compiler: NodeCompiler = NodeCompiler()
    )
        throws(CompilationError) -> CompiledNode
    {
        let key = Key(key: "node:" + name, version: version)
        if let cached = nodes[key] { return cached }
        let compiled = try compiler.compile(node)
        nodes[key] = compiled
        didCompile(key)
        return compiled
    }

    /// Drops every program of `key` (all versions).
    public func invalidate(key: String) {
        screens = screens.filter { $0.key.key != key }
        nodes = nodes.filter { $0.key.key != "node:" + key }
        order.removeAll { $0.key == key || $0.key == "node:" + key }
    }

    /// Counts a compilation of `key` and evicts the oldest programs beyond the capacity.
    private func didCompile(_ key: Key) {
        compilations += 1
        order.append(key)
        while order.count > capacity * 2 {
            let evicted = order.removeFirst()
            screens[evicted] = nil
            nodes[evicted] = nil
        }
    }
}
