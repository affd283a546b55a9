/// One element of a node-dialect document: a typed node with style, condition, children and
/// typed props (seed 002 §4.1).
public struct ViewNode: JSONModel, Identifiable {
    /// The node's type.
    public var type: NodeType
    /// Optional unique id; when absent, identity comes from the node's position.
    public var nodeId: String?
    /// A theme preset name.
    public var style: String?
    /// Style properties that override the preset.
    public var inlineStyle: NodeStyle?
    /// The node is drawn only when this condition is truthy.
    public var condition: String?
    /// Child nodes.
    public var children: [ViewNode]
    /// Type-specific properties.
    public var props: NodeProps
    /// Capabilities the node needs (`node:video_player`, `transform:duration`, `schema:3`).
    public var requires: [String]?
    /// What an app without them (or without the node's type) draws instead; nothing when absent.
    public var fallback: Fallback<ViewNode>?
    /// The id analytics report the node's impressions under.
    public var logId: String?
    /// The permission the signed-in user needs for the node (and the actions inside it) to be
    /// drawn, e.g. `podcasts.manage`; drawn for everyone when absent.
    public var permission: String?

    /// The node's id, or its type name when it has none.
    public var id: String { nodeId ?? type.rawValue }

    /// Creates a node.
    public init(
        type: NodeType, id: String? = nil, style: String? = nil, inlineStyle: NodeStyle? = nil,
        condition: String? = nil, children: [ViewNode] = [], props: NodeProps = .none, requires: [String]? = nil,
        fallback: Fallback<ViewNode>? = nil, logId: String? = nil, permission: String? = nil
    ) {
        self.permission = permission
        self.requires = requires
        self.fallback = fallback
        self.logId = logId
        self.type = type
        self.nodeId = id
        self.style = style
        self.inlineStyle = inlineStyle
        self.condition = condition
        self.children = children
        self.props = props
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self = try context.node { context throws(ModelDecodingError) in
            let o = try context.object(json)
            let type: NodeType = try context.required("type", in: o)
            let propsObject: JSONObject = try context.optional("props", in: o) ?? JSONObject()
            let props = try context.at(key: "props") { context throws(ModelDecodingError) in
                try NodeProps(type: type, object: propsObject, context: &context)
            }
            return ViewNode(
                type: type,
                id: try context.optional("id", in: o),
                style: try context.optional("style", in: o),
                inlineStyle: try context.optional("inlineStyle", in: o),
                condition: try context.optional("condition", in: o),
                children: try context.optional("children", in: o) ?? [],
                props: props,
                requires: try context.optional("requires", in: o),
                fallback: try context.optional("fallback", in: o),
                logId: try context.optional("log_id", in: o),
                permission: try context.optional("permission", in: o)
            )
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("type", type)
        b.set("id", nodeId)
        b.set("style", style)
        b.set("inlineStyle", inlineStyle)
        b.set("condition", condition)
        if !children.isEmpty { b.set("children", children) }
        let propsObject = props.object
        if !propsObject.isEmpty { b.set("props", propsObject) }
        b.set("requires", requires)
        b.set("fallback", fallback)
        b.set("log_id", logId)
        b.set("permission", permission)
        return b.json
    }

    /// Whether a user with `permissions` sees the node (`nil`: the app did not say what the
    /// user may do, so the node is drawn and the server decides).
    public func isAllowed(by permissions: Set<String>?) -> Bool {
        ActionDefinition.allows(permission, permissions)
    }
}

/// A tab of a `tab_view`.
public struct TabItem: JSONModel {
    /// Tab title.
    public var title: String
    /// SF Symbol name.
    public var icon: String?
    /// The screen document the tab shows.
    public var screen: String

    /// Creates a tab.
    public init(title: String, icon: String? = nil, screen: String) {
        self.title = title
        self.icon = icon
        self.screen = screen
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        title = try context.required("title", in: o)
        icon = try context.optional("icon", in: o)
        screen = try context.required("screen", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("title", title)
        b.set("icon", icon)
        b.set("screen", screen)
        return b.json
    }
}

/// The target of a `navigation_link`: a screen document and the params of its data context.
public struct ScreenReference: JSONModel {
    /// The screen document name.
    public var screen: String
    /// Bindings or literals placed in the new screen's context.
    public var params: [String: JSONValue]

    /// Creates a reference.
    public init(screen: String, params: [String: JSONValue] = [:]) {
        self.screen = screen
        self.params = params
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        if case .string(let name) = json {
            self.init(screen: name)
        } else {
            let o = try context.object(json)
            self.init(screen: try context.required("screen", in: o), params: try context.optional("params", in: o) ?? [:])
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("screen", screen)
        if !params.isEmpty { b.set("params", params) }
        return b.json
    }
}
