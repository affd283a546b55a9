/// What happens when a trigger fires (seed 000 §2.6).
public struct ActionDefinition: JSONModel, Identifiable {
    /// Unique within the screen.
    public var id: String
    /// What fires the action.
    public var trigger: ActionTrigger
    /// The slot that fires it, for button triggers.
    public var triggerSlotId: String?
    /// What the action does.
    public var type: ActionType
    /// Type-specific settings (`screen_key`, `endpoint`, `message`, …).
    public var config: [String: JSONValue]?
    /// The permission the signed-in user needs (`materials.delete`): without it the action and
    /// the elements that fire it are not offered. The server still decides.
    public var permission: String?

    /// Creates an action.
    public init(
        id: String, trigger: ActionTrigger, triggerSlotId: String? = nil, type: ActionType,
        config: [String: JSONValue]? = nil, permission: String? = nil
    ) {
        self.id = id
        self.trigger = trigger
        self.triggerSlotId = triggerSlotId
        self.type = type
        self.config = config
        self.permission = permission
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        id = try context.required("id", in: o)
        trigger = try context.required("trigger", in: o)
        triggerSlotId = try context.optional("trigger_slot_id", in: o)
        type = try context.required("type", in: o)
        config = try context.optional("config", in: o)
        permission = try context.optional("permission", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("id", id)
        b.set("trigger", trigger)
        b.set("trigger_slot_id", triggerSlotId)
        b.set("type", type)
        b.set("config", config)
        b.set("permission", permission)
        return b.json
    }

    /// Whether a user with `permissions` is offered the action (`nil`: the server did not say
    /// what the user may do, so everything is offered and the server decides).
    public func isAllowed(by permissions: Set<String>?) -> Bool {
        Self.allows(permission, permissions)
    }

    /// Whether a user with `permissions` may use what needs `permission`: yes when nothing is
    /// needed or the app did not say what the user may do (the server decides).
    public static func allows(_ permission: String?, _ permissions: Set<String>?) -> Bool {
        guard let permission, let permissions else { return true }
        return permissions.contains(permission)
    }

    /// Whether the record the action acts on lets the user take it: a record may carry the
    /// server's grants for the signed-in user (`"permissions": ["materials.update", …]`), and
    /// then an action that needs a permission is offered only when the record grants it (a
    /// teacher edits his own materials, not a colleague's). A record without grants says nothing.
    public func isGranted(on record: JSONValue?) -> Bool {
        guard let permission, let grants = record?["permissions"]?.arrayValue else { return true }
        return grants.contains { $0.stringValue == permission }
    }
}

/// How the data endpoint is called (seed 000 §2.7).
public struct DataConfig: JSONModel {
    /// Query parameters sent with every request.
    public var defaultParams: [String: String]?
    /// Offset pagination, when the endpoint pages.
    public var pagination: PaginationConfig?
    /// Seconds between automatic refreshes while the screen is visible.
    public var refreshInterval: Int?

    /// Creates a data configuration.
    public init(defaultParams: [String: String]? = nil, pagination: PaginationConfig? = nil, refreshInterval: Int? = nil) {
        self.defaultParams = defaultParams
        self.pagination = pagination
        self.refreshInterval = refreshInterval
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        defaultParams = try context.optional("default_params", in: o)
        pagination = try context.optional("pagination", in: o)
        refreshInterval = try context.optional("refresh_interval", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("default_params", defaultParams)
        b.set("pagination", pagination)
        b.set("refresh_interval", refreshInterval)
        return b.json
    }
}

/// Offset pagination: page size and the names of the limit and offset parameters.
public struct PaginationConfig: JSONModel {
    /// Items per page.
    public var pageSize: Int
    /// Name of the limit query parameter.
    public var limitParam: String
    /// Name of the offset query parameter.
    public var offsetParam: String

    /// Creates a pagination configuration.
    public init(pageSize: Int, limitParam: String = "limit", offsetParam: String = "offset") {
        self.pageSize = pageSize
        self.limitParam = limitParam
        self.offsetParam = offsetParam
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        pageSize = try context.required("page_size", in: o)
        limitParam = try context.required("limit_param", in: o)
        offsetParam = try context.required("offset_param", in: o)
        if pageSize <= 0 {
            throw context.error(.invalidValue, key: "page_size", "page_size must be positive, found \(pageSize)")
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("page_size", pageSize)
        b.set("limit_param", limitParam)
        b.set("offset_param", offsetParam)
        return b.json
    }
}

/// The app's tabs and sidebar as the server defines them (seed 000 §2.8).
public struct NavigationDefinition: JSONModel {
    /// Tab bar items (compact size class).
    public var bottomNav: [NavItem]
    /// Sidebar items (regular size class); the tabs are used when absent.
    public var drawerItems: [NavItem]?
    /// Version of the definition.
    public var version: Int

    /// Creates a navigation definition.
    public init(bottomNav: [NavItem], drawerItems: [NavItem]? = nil, version: Int) {
        self.bottomNav = bottomNav
        self.drawerItems = drawerItems
        self.version = version
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        bottomNav = try context.required("bottom_nav", in: o)
        drawerItems = try context.optional("drawer_items", in: o)
        version = try context.required("version", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("bottom_nav", bottomNav)
        b.set("drawer_items", drawerItems)
        b.set("version", version)
        return b.json
    }
}

/// One tab or sidebar entry.
public struct NavItem: JSONModel, Identifiable {
    /// Unique key of the entry.
    public var key: String
    /// Text shown.
    public var label: String
    /// SF Symbol name.
    public var icon: String
    /// The screen it opens.
    public var screenKey: String
    /// Position among its siblings.
    public var sortOrder: Int
    /// Sub-entries (a sidebar group).
    public var children: [NavItem]?

    /// The entry's key.
    public var id: String { key }

    /// Creates an entry.
    public init(key: String, label: String, icon: String, screenKey: String, sortOrder: Int, children: [NavItem]? = nil) {
        self.key = key
        self.label = label
        self.icon = icon
        self.screenKey = screenKey
        self.sortOrder = sortOrder
        self.children = children
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self = try context.node { context throws(ModelDecodingError) in
            let o = try context.object(json)
            return NavItem(
                key: try context.required("key", in: o),
                label: try context.required("label", in: o),
                icon: try context.required("icon", in: o),
                screenKey: try context.required("screen_key", in: o),
                sortOrder: try context.required("sort_order", in: o),
                children: try context.optional("children", in: o)
            )
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("key", key)
        b.set("label", label)
        b.set("icon", icon)
        b.set("screen_key", screenKey)
        b.set("sort_order", sortOrder)
        b.set("children", children)
        return b.json
    }
}
