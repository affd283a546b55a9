/// A region of a screen: slots laid out by a distribution, nested zones, or a list whose rows
/// follow `itemLayout` (seed 000 §2.4).
public struct Zone: JSONModel, Identifiable {
    /// Unique within the screen; platform overrides and `zone_overrides` refer to it.
    public var id: String
    /// What kind of zone this is.
    public var type: ZoneType
    /// How the zone lays out its slots and child zones.
    public var distribution: Distribution?
    /// The zone is drawn only when this condition holds (`data.isEmpty`, `title != null`, …).
    public var condition: String?
    /// Header text of a section (placeholders allowed).
    public var title: String?
    /// For a list zone: the dotted path of its items inside the data (`recent_activity`); the
    /// data itself when absent.
    public var field: String?
    /// The zone's controls.
    public var slots: [Slot]?
    /// Nested zones.
    public var zones: [Zone]?
    /// The row template of a list zone, applied to each data item.
    public var itemLayout: ItemLayout?
    /// Capabilities the zone needs (`zone:carousel`, `schema:3`); see `ClientCapabilities`.
    public var requires: [String]?
    /// What an app without them (or without the zone's type) draws instead; nothing when absent.
    public var fallback: Fallback<Zone>?
    /// The id analytics report the zone's impressions under.
    public var logId: String?

    /// Creates a zone.
    public init(
        id: String, type: ZoneType, distribution: Distribution? = nil, condition: String? = nil, title: String? = nil,
        field: String? = nil, slots: [Slot]? = nil, zones: [Zone]? = nil, itemLayout: ItemLayout? = nil,
        requires: [String]? = nil, fallback: Fallback<Zone>? = nil, logId: String? = nil
    ) {
        self.requires = requires
        self.fallback = fallback
        self.logId = logId
        self.id = id
        self.type = type
        self.distribution = distribution
        self.condition = condition
        self.title = title
        self.field = field
        self.slots = slots
        self.zones = zones
        self.itemLayout = itemLayout
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self = try context.node { context throws(ModelDecodingError) in
            let o = try context.object(json)
            return Zone(
                id: try context.required("id", in: o),
                type: try context.required("type", in: o),
                distribution: try context.optional("distribution", in: o),
                condition: try context.optional("condition", in: o),
                title: try context.optional("title", in: o),
                field: try context.optional("field", in: o),
                slots: try context.optional("slots", in: o),
                zones: try context.optional("zones", in: o),
                itemLayout: try context.optional("item_layout", in: o),
                requires: try context.optional("requires", in: o),
                fallback: try context.optional("fallback", in: o),
                logId: try context.optional("log_id", in: o)
            )
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("id", id)
        b.set("type", type)
        b.set("distribution", distribution)
        b.set("condition", condition)
        b.set("title", title)
        b.set("field", field)
        b.set("slots", slots)
        b.set("zones", zones)
        b.set("item_layout", itemLayout)
        b.set("requires", requires)
        b.set("fallback", fallback)
        b.set("log_id", logId)
        return b.json
    }
}

/// The slots drawn for each item of a list zone.
public struct ItemLayout: JSONModel {
    /// The row's controls; their `field`s read from the item.
    public var slots: [Slot]

    /// Creates an item layout.
    public init(slots: [Slot]) { self.slots = slots }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        slots = try context.required("slots", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("slots", slots)
        return b.json
    }
}

/// One control of a zone and where its value comes from (seed 000 §2.5).
public struct Slot: JSONModel, Identifiable {
    /// Unique within its zone; actions refer to it by `trigger_slot_id`.
    public var id: String
    /// The control drawn.
    public var controlType: ControlType
    /// `slot:<key>` reads `slot_data[key]`.
    public var bind: String?
    /// A dotted path into the endpoint data (or the current item); in a form, the field name.
    public var field: String?
    /// Label text (placeholders allowed).
    public var label: String?
    /// A literal value, used when neither `field` nor `bind` gives one.
    public var value: JSONValue?
    /// Placeholder text of an input.
    public var placeholder: String?
    /// An SF Symbol name.
    public var icon: String?
    /// Whether a form value is required.
    public var required: Bool?
    /// Whether an input is read-only.
    public var readOnly: Bool?
    /// The smallest value a number input accepts (`min`).
    public var minimum: Double?
    /// The largest value a number input accepts (`max`).
    public var maximum: Double?
    /// A named style (`headline-large`, `caption`, `primary`, `destructive`, …).
    public var style: String?
    /// Preferred width (`fill`, `auto` or points).
    public var width: String?
    /// Share of the row in a side-by-side distribution.
    public var weight: Double?
    /// VoiceOver label; required for an icon-only button.
    public var accessibilityLabel: String?
    /// Choices of a `select` or `radio-group`.
    public var options: [SlotOption]?
    /// Capabilities the slot needs (`control:media-player`, `transform:duration`).
    public var requires: [String]?
    /// What an app without them (or without the control type) draws instead; nothing when absent.
    public var fallback: Fallback<Slot>?
    /// The id analytics report the slot's impressions under.
    public var logId: String?

    /// Creates a slot.
    public init(
        id: String, controlType: ControlType, bind: String? = nil, field: String? = nil, label: String? = nil,
        value: JSONValue? = nil, placeholder: String? = nil, icon: String? = nil, required: Bool? = nil,
        readOnly: Bool? = nil, style: String? = nil, width: String? = nil, weight: Double? = nil,
        accessibilityLabel: String? = nil, options: [SlotOption]? = nil, requires: [String]? = nil,
        fallback: Fallback<Slot>? = nil, logId: String? = nil, minimum: Double? = nil, maximum: Double? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.requires = requires
        self.fallback = fallback
        self.logId = logId
        self.id = id
        self.controlType = controlType
        self.bind = bind
        self.field = field
        self.label = label
        self.value = value
        self.placeholder = placeholder
        self.icon = icon
        self.required = required
        self.readOnly = readOnly
        self.style = style
        self.width = width
        self.weight = weight
        self.accessibilityLabel = accessibilityLabel
        self.options = options
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self = try context.node { context throws(ModelDecodingError) in
            let o = try context.object(json)
            return Slot(
                id: try context.required("id", in: o),
                controlType: try context.required("control_type", in: o),
                bind: try context.optional("bind", in: o),
                field: try context.optional("field", in: o),
                label: try context.optional("label", in: o),
                value: o["value"].flatMap { $0.isNull ? nil : $0 },
                placeholder: try context.optional("placeholder", in: o),
                icon: try context.optional("icon", in: o),
                required: try context.optional("required", in: o),
                readOnly: try context.optional("read_only", in: o),
                style: try context.optional("style", in: o),
                width: try context.optional("width", in: o),
                weight: try context.optional("weight", in: o),
                accessibilityLabel: try context.optional("accessibility_label", in: o),
                options: try context.optional("options", in: o),
                requires: try context.optional("requires", in: o),
                fallback: try context.optional("fallback", in: o),
                logId: try context.optional("log_id", in: o),
                minimum: try context.optional("min", in: o),
                maximum: try context.optional("max", in: o)
            )
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("id", id)
        b.set("control_type", controlType)
        b.set("bind", bind)
        b.set("field", field)
        b.set("label", label)
        b.set("value", value)
        b.set("placeholder", placeholder)
        b.set("icon", icon)
        b.set("required", required)
        b.set("read_only", readOnly)
        b.set("min", minimum)
        b.set("max", maximum)
        b.set("style", style)
        b.set("width", width)
        b.set("weight", weight)
        b.set("accessibility_label", accessibilityLabel)
        b.set("options", options)
        b.set("requires", requires)
        b.set("fallback", fallback)
        b.set("log_id", logId)
        return b.json
    }

    /// The form field this slot edits: `field`, else `id` (seed 000 §10).
    public var formFieldName: String { field ?? id }
}

/// One choice of a `select` or `radio-group` slot.
public struct SlotOption: JSONModel {
    /// The value submitted.
    public var value: String
    /// The text shown.
    public var label: String

    /// Creates an option.
    public init(value: String, label: String) {
        self.value = value
        self.label = label
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        value = try context.required("value", in: o)
        label = try context.required("label", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("value", value)
        b.set("label", label)
        return b.json
    }
}
