/// A complete screen as `GET /v1/screens/{key}` returns it: a template combined with one
/// screen instance (seed 000 §2.1).
public struct ScreenDefinition: JSONModel, Identifiable {
    /// Stable identifier of the screen instance.
    public var screenId: String
    /// The key the screen is requested by (`materials-list`).
    public var screenKey: String
    /// Human-readable name, used as the default title.
    public var screenName: String
    /// Which pattern lowering draws the screen.
    public var pattern: ScreenPattern
    /// Version of the instance; changes when the backend edits it.
    public var version: Int
    /// Zones, navigation bar and platform overrides.
    public var template: ScreenTemplate
    /// Static values read by `bind: "slot:key"`.
    public var slotData: [String: JSONValue]?
    /// Where the screen's data comes from (`admin:`/`mobile:` prefix, `{id}` params).
    public var dataEndpoint: String?
    /// Default parameters, pagination and polling for the data endpoint.
    public var dataConfig: DataConfig?
    /// What the screen's triggers do.
    public var actions: [ActionDefinition]
    /// The screen-handler plugin that sees actions first.
    public var handlerKey: String?
    /// When the instance last changed (ISO 8601).
    public var updatedAt: String
    /// Capabilities the whole screen needs; an app without them shows that it must be updated.
    public var requires: [String]?
    /// The id analytics report the screen under (its key when absent).
    public var logId: String?

    /// The screen id.
    public var id: String { screenId }

    /// Creates a screen definition.
    public init(
        screenId: String, screenKey: String, screenName: String, pattern: ScreenPattern, version: Int,
        template: ScreenTemplate, slotData: [String: JSONValue]? = nil, dataEndpoint: String? = nil,
        dataConfig: DataConfig? = nil, actions: [ActionDefinition] = [], handlerKey: String? = nil,
        updatedAt: String, requires: [String]? = nil, logId: String? = nil
    ) {
        self.requires = requires
        self.logId = logId
        self.screenId = screenId
        self.screenKey = screenKey
        self.screenName = screenName
        self.pattern = pattern
        self.version = version
        self.template = template
        self.slotData = slotData
        self.dataEndpoint = dataEndpoint
        self.dataConfig = dataConfig
        self.actions = actions
        self.handlerKey = handlerKey
        self.updatedAt = updatedAt
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        screenId = try context.required("screen_id", in: o)
        screenKey = try context.required("screen_key", in: o)
        screenName = try context.required("screen_name", in: o)
        pattern = try context.required("pattern", in: o)
        version = try context.required("version", in: o)
        template = try context.required("template", in: o)
        slotData = try context.optional("slot_data", in: o)
        dataEndpoint = try context.optional("data_endpoint", in: o)
        dataConfig = try context.optional("data_config", in: o)
        actions = try context.required("actions", in: o)
        handlerKey = try context.optional("handler_key", in: o)
        updatedAt = try context.required("updated_at", in: o)
        requires = try context.optional("requires", in: o)
        logId = try context.optional("log_id", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("screen_id", screenId)
        b.set("screen_key", screenKey)
        b.set("screen_name", screenName)
        b.set("pattern", pattern)
        b.set("version", version)
        b.set("template", template)
        b.set("slot_data", slotData)
        b.set("data_endpoint", dataEndpoint)
        b.set("data_config", dataConfig)
        b.set("actions", actions)
        b.set("handler_key", handlerKey)
        b.set("updated_at", updatedAt)
        b.set("requires", requires)
        b.set("log_id", logId)
        return b.json
    }

    /// The action fired by the slot `slotId` (via `trigger_slot_id`), if any.
    public func action(forSlot slotId: String) -> ActionDefinition? {
        actions.first { $0.triggerSlotId == slotId }
    }

    /// The first action with the given trigger and no slot.
    public func action(for trigger: ActionTrigger) -> ActionDefinition? {
        actions.first { $0.trigger == trigger }
    }
}

/// The structure of a screen: navigation bar, zones and per-platform overrides (seed 000 §2.3).
public struct ScreenTemplate: JSONModel {
    /// The navigation bar.
    public var navigation: NavigationConfig?
    /// Top-level zones, in drawing order.
    public var zones: [Zone]
    /// Overrides keyed by platform (`ios`, `ipad`, `mac`).
    public var platformOverrides: [String: PlatformOverride]?

    /// Creates a template.
    public init(navigation: NavigationConfig? = nil, zones: [Zone], platformOverrides: [String: PlatformOverride]? = nil) {
        self.navigation = navigation
        self.zones = zones
        self.platformOverrides = platformOverrides
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        navigation = try context.optional("navigation", in: o)
        zones = try context.required("zones", in: o)
        platformOverrides = try context.optional("platform_overrides", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("navigation", navigation)
        b.set("zones", zones)
        b.set("platform_overrides", platformOverrides)
        return b.json
    }

    /// Every zone, depth first, nested zones included.
    public var allZones: [Zone] {
        var result: [Zone] = []
        func visit(_ zones: [Zone]) {
            for zone in zones {
                result.append(zone)
                visit(zone.zones ?? [])
            }
        }
        visit(zones)
        return result
    }
}

/// The navigation bar of a screen.
public struct NavigationConfig: JSONModel {
    /// Title and back button.
    public var topBar: TopBarConfig?

    /// Creates a navigation configuration.
    public init(topBar: TopBarConfig? = nil) { self.topBar = topBar }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        topBar = try context.optional("top_bar", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("top_bar", topBar)
        return b.json
    }
}

/// The title and back button of the navigation bar.
public struct TopBarConfig: JSONModel {
    /// Title text (placeholders allowed).
    public var title: String?
    /// Whether a back button is shown.
    public var showBack: Bool?

    /// Creates a top bar configuration.
    public init(title: String? = nil, showBack: Bool? = nil) {
        self.title = title
        self.showBack = showBack
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        title = try context.optional("title", in: o)
        showBack = try context.optional("show_back", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("title", title)
        b.set("show_back", showBack)
        return b.json
    }
}

/// Changes for one platform (`ios`, `ipad`, `mac`): the screen's distribution and per-zone
/// overrides.
public struct PlatformOverride: JSONModel {
    /// Distribution that replaces the original one.
    public var distribution: Distribution?
    /// Per-zone overrides keyed by zone id.
    public var zones: [String: ZoneOverride]?

    /// Creates a platform override.
    public init(distribution: Distribution? = nil, zones: [String: ZoneOverride]? = nil) {
        self.distribution = distribution
        self.zones = zones
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        distribution = try context.optional("distribution", in: o)
        zones = try context.optional("zones", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("distribution", distribution)
        b.set("zones", zones)
        return b.json
    }
}

/// Changes to one zone on one platform.
public struct ZoneOverride: JSONModel {
    /// `false` hides the zone.
    public var visible: Bool?
    /// Fixed height in points.
    public var height: Int?
    /// Distribution that replaces the original one.
    public var distribution: Distribution?

    /// Creates a zone override.
    public init(visible: Bool? = nil, height: Int? = nil, distribution: Distribution? = nil) {
        self.visible = visible
        self.height = height
        self.distribution = distribution
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        visible = try context.optional("visible", in: o)
        height = try context.optional("height", in: o)
        distribution = try context.optional("distribution", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("visible", visible)
        b.set("height", height)
        b.set("distribution", distribution)
        return b.json
    }
}
