public import DynamicUIModels

/// The JSON Schema (draft 2020-12) of every DynamicUI document, both wire dialects, built from
/// the models' wire names and known values, for editors and for tools that check documents.
///
/// The root accepts any document kind (`anyOf`): a screen definition, a catalog screen instance
/// or template, a navigation definition, a view node, a component library or a theme. Open
/// enumerations (patterns, zone, control, action and node types) accept any string, since
/// unknown values must stay valid; their known values are listed in `examples`. Unknown members
/// are allowed everywhere, as the decoders ignore them.
public enum DynamicUISchema {
    /// The schema's `$id`.
    public static let identifier = "https://dynamicui.dev/schema/v1.json"

    /// The JSON Schema draft the document follows (`$schema`).
    public static let draft = "https://json-schema.org/draft/2020-12/schema"

    /// The `$defs` names of the document kinds the root accepts.
    public static let documentKinds = [
        "ScreenDefinition", "ScreenInstance", "ScreenTemplateDocument", "NavigationDefinition", "ViewNode",
        "ComponentLibrary", "Theme", "ClientCapabilities",
    ]

    /// The schema.
    public static func document() -> JSONValue {
        object([
            ("$schema", .string(draft)),
            ("$id", .string(identifier)),
            ("title", "DynamicUI documents"),
            (
                "description",
                "A screen-dialect or node-dialect DynamicUI document. Optional members may be null; unknown members are ignored."
            ),
            ("anyOf", .array(documentKinds.map { ref($0) })),
            ("$defs", object(screenDefinitions() + nodeDefinitions() + [("ClientCapabilities", capabilities())])),
        ])
    }

    /// The schema as pretty-printed JSON text.
    public static func text() -> String {
        JSONWriter(prettyPrinted: true).string(from: document())
    }

    // MARK: Capabilities

    /// A capability manifest (`sdui capabilities`): what an app version can draw.
    private static func capabilities() -> JSONValue {
        func names(_ description: String) -> JSONValue { array(of: string(), description) }
        return model(
            "What an app version can draw (sdui capabilities): the schema version it speaks and every type, action and transform it knows.",
            [
                required("schema_version", typed("integer", "The document schema version the app speaks.")),
                required("sdk_version", string("The SDK version that derived it.")),
                optional("platform", string("ios, ipad or mac.")),
                optional("patterns", names("Screen patterns.")),
                optional("zone_types", names("Zone types.")),
                optional("control_types", names("Control types of slots.")),
                optional("node_types", names("Node types.")),
                optional("action_types", names("Screen-dialect action types.")),
                optional("node_action_types", names("Node-dialect action types.")),
                optional("transforms", names("Transforms of the expression language.")),
                optional("components", names("Native components the app registers.")),
            ])
    }

    // MARK: Screen dialect

    private static func screenDefinitions() -> [(String, JSONValue)] {
        [
            ("ScreenDefinition", screenDefinition()),
            ("ScreenInstance", screenInstance()),
            ("ScreenTemplateDocument", templateDocument()),
            (
                "ScreenTemplate",
                model(
                    "The structure of a screen: navigation bar, zones and per-platform overrides.",
                    [
                        optional("navigation", ref("NavigationConfig")),
                        required("zones", array(of: ref("Zone"), "Top-level zones, in drawing order.")),
                        optional(
                            "platform_overrides",
                            dictionary(of: ref("PlatformOverride"), "Overrides keyed by platform (ios, ipad, mac).")),
                    ])
            ),
            (
                "NavigationConfig",
                model("The navigation bar of a screen.", [optional("top_bar", ref("TopBarConfig"))])
            ),
            (
                "TopBarConfig",
                model(
                    "The title and back button of the navigation bar.",
                    [
                        optional("title", string("Title text; placeholders allowed.")),
                        optional("show_back", typed("boolean", "Whether a back button is shown.")),
                    ])
            ),
            (
                "PlatformOverride",
                model(
                    "Changes for one platform: the screen's distribution and per-zone overrides.",
                    [
                        optional("distribution", openEnum(Distribution.self, "Distribution that replaces the original one.")),
                        optional("zones", dictionary(of: ref("ZoneOverride"), "Per-zone overrides keyed by zone id.")),
                    ])
            ),
            (
                "ZoneOverride",
                model(
                    "Changes to one zone on one platform.",
                    [
                        optional("visible", typed("boolean", "false hides the zone.")),
                        optional("height", typed("integer", "Fixed height in points.")),
                        optional("distribution", openEnum(Distribution.self, "Distribution that replaces the original one.")),
                    ])
            ),
            ("Zone", zone()),
            (
                "ItemLayout",
                model(
                    "The slots drawn for each item of a list zone.",
                    [required("slots", array(of: ref("Slot"), "The row's controls; their fields read from the item."))])
            ),
            ("Slot", slot()),
            (
                "SlotOption",
                model(
                    "One choice of a select or radio-group slot.",
                    [required("value", string("The value submitted.")), required("label", string("The text shown."))])
            ),
            ("ActionDefinition", action()),
            (
                "DataConfig",
                model(
                    "How the data endpoint is called.",
                    [
                        optional("default_params", dictionary(of: string(), "Query parameters sent with every request.")),
                        optional("pagination", ref("PaginationConfig")),
                        optional(
                            "refresh_interval",
                            typed("integer", "Seconds between automatic refreshes.", [("minimum", .number(JSONNumber(0)))])),
                    ])
            ),
            (
                "PaginationConfig",
                model(
                    "Offset pagination: page size and the names of the limit and offset parameters.",
                    [
                        required(
                            "page_size",
                            typed(
                                "integer", "Items per page.",
                                [("minimum", .number(JSONNumber(1))), ("maximum", .number(JSONNumber(500)))])),
                        required("limit_param", string("Name of the limit query parameter.", minLength: 1)),
                        required("offset_param", string("Name of the offset query parameter.", minLength: 1)),
                    ])
            ),
            (
                "NavigationDefinition",
                model(
                    "The app's tabs and sidebar as the server defines them.",
                    [
                        required("bottom_nav", array(of: ref("NavItem"), "Tab bar items (at most five are shown).")),
                        optional("drawer_items", array(of: ref("NavItem"), "Sidebar items; the tabs are used when absent.")),
                        required("version", typed("integer", "Version of the definition.")),
                    ])
            ),
            (
                "NavItem",
                model(
                    "One tab or sidebar entry.",
                    [
                        required("key", string("Unique key of the entry.", minLength: 1)),
                        required("label", string("Text shown.")),
                        required("icon", string("SF Symbol name.")),
                        required("screen_key", string("The screen it opens.", minLength: 1)),
                        required("sort_order", typed("integer", "Position among its siblings.")),
                        optional("children", array(of: ref("NavItem"), "Sub-entries (a sidebar group).")),
                    ])
            ),
        ]
    }

    /// A complete screen: the template's `pattern` and `template` with the instance's members.
    private static func screenDefinition() -> JSONValue {
        var fields: [Field] = [
            required("screen_id", string("Stable identifier of the screen instance.")),
            required("screen_key", string("The key the screen is requested by.", minLength: 1)),
            required("screen_name", string("Human-readable name, the default title.")),
            required("pattern", openEnum(ScreenPattern.self, "Which pattern lowering draws the screen.")),
            required("version", typed("integer", "Version of the instance.")),
            required("template", ref("ScreenTemplate")),
        ]
        fields += instanceFields()
        return model(
            "A complete screen as GET /v1/screens/{key} returns it: a template combined with a screen instance.", fields)
    }

    /// A catalog screen instance: `template_id` and `zone_overrides` instead of `pattern` and `template`.
    private static func screenInstance() -> JSONValue {
        var fields: [Field] = [
            required("screen_id", string("Stable identifier of the screen instance.")),
            required("screen_key", string("The key the screen is requested by.", minLength: 1)),
            required("screen_name", string("Human-readable name, the default title.")),
            required("template_id", string("The template the instance is combined with.", minLength: 1)),
            required("version", typed("integer", "Version of the instance.")),
        ]
        fields += instanceFields()
        let overrides = dictionary(
            of: typed("object", "Zone members that replace the template's; null removes a member."),
            "Per-zone replacements keyed by zone id.")
        fields.append(optional("zone_overrides", overrides))
        return model(
            "A catalog screen instance: the per-screen part of a screen, combined with the template named by template_id.",
            fields)
    }

    /// The members of a screen that come from its instance.
    private static func instanceFields() -> [Field] {
        [
            optional(
                "slot_data", dictionary(of: anyValue, "Static values read by bind \"slot:<key>\"; strings may hold placeholders.")
            ),
            optional(
                "data_endpoint",
                string("Where the data comes from: an optional admin: or mobile: prefix, then a path with {param} names.")),
            optional("data_config", ref("DataConfig")),
            required("actions", array(of: ref("ActionDefinition"), "What the screen's triggers do.")),
            optional("handler_key", string("The screen-handler plugin that sees the actions first.")),
            required("updated_at", string("When the instance last changed (ISO 8601).")),
            optional("requires", requires("the whole screen")),
            optional("log_id", logId),
        ]
    }

    /// `requires`: capability names an app must have to draw the element.
    private static func requires(_ what: String) -> JSONValue {
        array(
            of: string(),
            "Capabilities \(what) needs (control:media-player, node:video_player, transform:duration, schema:3); "
                + "an app without one draws the fallback.")
    }

    /// `fallback`: another element of the same kind, or "drop".
    private static func fallback(_ element: String) -> JSONValue {
        object([
            (
                "description",
                .string(
                    "What an app that lacks a required capability, or the element's type, draws instead: another \(element), or \"drop\"."
                )
            ),
            ("anyOf", .array([object([("const", "drop")]), ref(element)])),
        ])
    }

    /// `log_id`: the id analytics report impressions under.
    private static let logId = string("The id analytics report the element's impressions under.")

    private static func templateDocument() -> JSONValue {
        model(
            "A reusable catalog template: the pattern and template a screen instance is combined with.",
            [
                required("template_id", string("The id screen instances refer to.", minLength: 1)),
                required("pattern", openEnum(ScreenPattern.self, "Which pattern lowering draws the screens.")),
                optional("description", string("What the template is for.")),
                required("template", ref("ScreenTemplate")),
            ])
    }

    private static func zone() -> JSONValue {
        model(
            "A region of a screen: slots laid out by a distribution, nested zones, or a list whose rows follow item_layout.",
            [
                required("id", string("Unique within the screen.", minLength: 1)),
                required("type", openEnum(ZoneType.self, "What kind of zone this is.")),
                optional("distribution", openEnum(Distribution.self, "How the zone lays out its children.")),
                optional("condition", string("The zone is drawn only when this condition holds (data.isEmpty, title != null).")),
                optional("title", string("Header text of a section; placeholders allowed.")),
                optional("field", string("For a list zone: the dotted path of its items inside the data.")),
                optional("slots", array(of: ref("Slot"), "The zone's controls.")),
                optional("zones", array(of: ref("Zone"), "Nested zones.")),
                optional("item_layout", ref("ItemLayout")),
                optional("requires", requires("the zone")),
                optional("fallback", fallback("Zone")),
                optional("log_id", logId),
            ])
    }

    private static func slot() -> JSONValue {
        model(
            "One control of a zone and where its value comes from (field, then bind, then value).",
            [
                required("id", string("Unique within the screen; actions refer to it by trigger_slot_id.", minLength: 1)),
                required("control_type", openEnum(ControlType.self, "The control drawn.")),
                optional("bind", string("slot:<key> reads slot_data[key].")),
                optional("field", string("A dotted path into the data or the current item; in a form, the field name.")),
                optional("label", string("Label text; placeholders allowed.")),
                optional("value", anyValue),
                optional("placeholder", string("Placeholder text of an input.")),
                optional("icon", string("An SF Symbol name.")),
                optional("required", typed("boolean", "Whether a form value is required.")),
                optional("read_only", typed("boolean", "Whether an input is read-only.")),
                optional("min", typed("number", "The smallest value a number input accepts.")),
                optional("max", typed("number", "The largest value a number input accepts.")),
                optional("style", string("A named style (headline-large, caption, primary, destructive, …).")),
                optional("width", string("Preferred width (fill, auto or points).")),
                optional("weight", typed("number", "Share of the row in a side-by-side distribution.")),
                optional("accessibility_label", string("VoiceOver label; required for an icon-only button.")),
                optional("options", array(of: ref("SlotOption"), "Choices of a select or radio-group.")),
                optional("requires", requires("the slot")),
                optional("fallback", fallback("Slot")),
                optional("log_id", logId),
            ])
    }

    private static func action() -> JSONValue {
        model(
            "What happens when a trigger fires.",
            [
                required("id", string("Unique within the screen.", minLength: 1)),
                required("trigger", openEnum(ActionTrigger.self, "What fires the action.")),
                optional("trigger_slot_id", string("The slot that fires it, for button triggers.")),
                required("type", openEnum(ActionType.self, "What the action does.")),
                optional(
                    "config",
                    typed(
                        "object",
                        "Type-specific settings (screen_key, endpoint, method, message, …); strings may hold placeholders.")),
                optional(
                    "permission",
                    string(
                        "The permission the signed-in user needs (materials.delete); without it the action is not offered.")),
            ])
    }

    // MARK: Node dialect

    private static func nodeDefinitions() -> [(String, JSONValue)] {
        var definitions: [(String, JSONValue)] = [
            ("ViewNode", viewNode()),
            ("NodeStyle", nodeStyle()),
            (
                "EdgePadding",
                object([
                    ("description", "Padding: one number for every edge, or per edge (missing edges are zero)."),
                    (
                        "anyOf",
                        .array([
                            typed("number"),
                            model(
                                "Per-edge padding.",
                                ["top", "bottom", "leading", "trailing"].map { optional($0, typed("number")) }),
                        ])
                    ),
                ])
            ),
            (
                "Dimension",
                object([
                    ("description", "A frame dimension: points, or \"infinity\" to fill the available space."),
                    ("anyOf", .array([typed("number"), object([("const", "infinity")])])),
                ])
            ),
            (
                "ShadowStyle",
                model(
                    "A drop shadow.",
                    [
                        optional("radius", typed("number", "Blur radius.")),
                        optional("x", typed("number", "Horizontal offset.")),
                        optional("y", typed("number", "Vertical offset.")),
                        optional("color", string("Shadow color.")),
                    ])
            ),
            ("NodeAction", nodeAction()),
            (
                "ScreenReference",
                object([
                    ("description", "The target of a navigation_link: a screen document name, or the name with params."),
                    (
                        "anyOf",
                        .array([
                            string("The screen document name."),
                            model(
                                "A screen document and the params of its data context.",
                                [
                                    required("screen", string("The screen document name.")),
                                    optional("params", typed("object", "Bindings or literals placed in the new context.")),
                                ]),
                        ])
                    ),
                ])
            ),
            (
                "NodeResultSelection",
                model(
                    "One element of an api action's result: the first element of the array at from whose fields equal where.",
                    [
                        required("key", string("The state key the element is stored under (null when none matches).")),
                        optional(
                            "from", string("Dot-separated keys from the result to the array; the result itself when absent.")),
                        required(
                            "where", typed("object", "Field names to the values (bindings or literals) they must equal, as text.")
                        ),
                    ])
            ),
            (
                "TabItem",
                model(
                    "A tab of a tab_view.",
                    [
                        required("title", string("Tab title.")),
                        optional("icon", string("SF Symbol name.")),
                        required("screen", string("The screen document the tab shows.")),
                    ])
            ),
            (
                "Theme",
                model(
                    "A theme: named colors, fonts and style presets; it has at least one of the three.",
                    [
                        optional("colors", dictionary(of: string("#RRGGBB or #RRGGBBAA."), "Color name to color.")),
                        optional("fonts", dictionary(of: ref("FontSpec"), "Font name to font.")),
                        optional("presets", dictionary(of: ref("NodeStyle"), "Preset name to style.")),
                    ],
                    extra: [
                        (
                            "anyOf",
                            .array(["colors", "fonts", "presets"].map { object([("required", .array([.string($0)]))]) })
                        )
                    ])
            ),
            (
                "FontSpec",
                model(
                    "A font of the theme.",
                    [
                        required("size", typed("number", "Point size at the default Dynamic Type size.")),
                        optional("weight", string("regular, medium, semibold, bold, …")),
                        optional("design", string("default, rounded, serif or monospaced.")),
                    ])
            ),
            (
                "ComponentLibrary",
                model(
                    "Reusable components, each with declared parameters and a body.",
                    [required("components", dictionary(of: ref("ComponentDefinition"), "Component name to definition."))])
            ),
            (
                "ComponentDefinition",
                model(
                    "A reusable component: the names of its parameters and the node it expands to.",
                    [
                        optional("parameters", array(of: string(), "Parameter names, visible in the body as $.<name>.")),
                        required("body", ref("ViewNode")),
                    ])
            ),
        ]
        definitions += nodePropsDefinitions()
        return definitions
    }

    /// The node types of each props definition, and whether `props` is required for them.
    private static let nodeCases: [(types: [NodeType], props: String, isRequired: Bool)] = [
        ([.vstack, .hstack, .lazyVStack, .lazyHStack], "StackProps", false),
        ([.zstack], "ZStackProps", false),
        ([.scroll], "ScrollProps", false),
        ([.list], "ListProps", true),
        ([.spacer], "SpacerProps", false),
        ([.grid], "GridProps", false),
        ([.text], "TextProps", false),
        ([.image], "ImageProps", false),
        ([.button], "ButtonProps", false),
        ([.navigationLink], "NavigationLinkProps", true),
        ([.textField], "TextFieldProps", false),
        ([.searchBar], "SearchBarProps", false),
        ([.tabView], "TabViewProps", true),
        ([.navigationStack], "NavigationStackProps", false),
        ([.screen], "ScreenProps", false),
        ([.sheet], "SheetProps", false),
        ([.component], "ComponentProps", true),
    ]

    private static func viewNode() -> JSONValue {
        let cases: [JSONValue] = nodeCases.map { entry in
            let field = entry.isRequired ? required("props", ref(entry.props)) : optional("props", ref(entry.props))
            return when("type", entry.types.map(\.rawValue), [field])
        }
        return model(
            "One element of a node-dialect document: a typed node with style, condition, children and props.",
            [
                required("type", openEnum(NodeType.self, "The node's type; props depend on it.")),
                optional("id", string("Optional unique id; identity comes from the position when absent.")),
                optional("style", string("A theme preset name.")),
                optional("inlineStyle", ref("NodeStyle")),
                optional("condition", string("The node is drawn only when this condition is truthy.")),
                optional("children", array(of: ref("ViewNode"), "Child nodes.")),
                optional("props", typed("object", "Type-specific properties.")),
                optional("requires", requires("the node")),
                optional("fallback", fallback("ViewNode")),
                optional("log_id", logId),
                optional(
                    "permission",
                    string("The permission the signed-in user needs to see the node and use its actions.")),
            ],
            extra: [("allOf", .array(cases))])
    }

    private static func nodeStyle() -> JSONValue {
        model(
            "Style properties of a node or theme preset. Colors are theme color names or #RRGGBB[AA].",
            [
                optional("font", string("A font name from the theme.")),
                optional("foregroundColor", string("Text and icon color.")),
                optional("backgroundColor", string("Background color.")),
                optional("padding", ref("EdgePadding")),
                optional("cornerRadius", typed("number", "Corner radius in points.")),
                optional("width", ref("Dimension")),
                optional("height", ref("Dimension")),
                optional("maxWidth", ref("Dimension")),
                optional("maxHeight", ref("Dimension")),
                optional("shadow", ref("ShadowStyle")),
                optional(
                    "opacity",
                    typed(
                        "number", "Opacity from 0 to 1.",
                        [("minimum", .number(JSONNumber(0))), ("maximum", .number(JSONNumber(1)))])
                ),
                optional("clipShape", string("Clip mask: circle or roundedRect.")),
            ])
    }

    private static func nodeAction() -> JSONValue {
        let kinds = ["navigate", "present", "dismiss", "api", "setState", "custom", "sequence"]
        let kindSchema = object([
            ("type", "string"),
            (
                "description",
                .string(
                    "What the action does. Known values: \(kinds.joined(separator: ", ")); other values are kept and do nothing.")
            ),
            ("examples", .array(kinds.map { JSONValue.string($0) })),
        ])
        let params = typed("object", "Parameter names to bindings or literals.")
        let cases: [JSONValue] = [
            when(
                "actionType", ["navigate", "present"],
                [required("screen", string("The screen document.")), optional("params", params)]),
            when(
                "actionType", ["api"],
                [
                    required("endpoint", string("The endpoint called.")), optional("params", params),
                    optional("resultKey", string("Where the result is stored.")),
                    optional("select", ref("NodeResultSelection")),
                ]),
            when("actionType", ["setState"], [required("key", string("The state key.")), required("value", anyValue)]),
            when(
                "actionType", ["custom"],
                [required("event", string("The event name.")), optional("payload", typed("object", "The event's payload."))]),
            when("actionType", ["sequence"], [required("actions", array(of: ref("NodeAction"), "Run in order."))]),
        ]
        return model(
            "An action of the node dialect; parameter values may be bindings.",
            [required("actionType", kindSchema)], extra: [("allOf", .array(cases))])
    }

    private static func nodePropsDefinitions() -> [(String, JSONValue)] {
        let node = ref("ViewNode")
        let action = ref("NodeAction")
        return [
            (
                "StackProps",
                props(
                    "vstack, hstack, lazy_vstack, lazy_hstack",
                    [
                        optional("spacing", typed("number")),
                        optional("alignment", string("leading, center, trailing, top or bottom.")),
                    ])
            ),
            ("ZStackProps", props("zstack", [optional("alignment", string())])),
            ("ScrollProps", props("scroll", [optional("axis", string("vertical (default) or horizontal."))])),
            (
                "ListProps",
                props(
                    "list",
                    [
                        required("items", string("A binding to an array.")),
                        required("itemTemplate", node),
                        optional("separator", typed("boolean")),
                    ])
            ),
            ("SpacerProps", props("spacer", [optional("minLength", typed("number"))])),
            ("GridProps", props("grid", [optional("columns", typed("integer")), optional("spacing", typed("number"))])),
            (
                "TextProps",
                props("text", [optional("content", anyValue), optional("lineLimit", typed("integer"))])
            ),
            (
                "ImageProps",
                props(
                    "image",
                    [
                        optional("source", anyValue),
                        optional("resizable", typed("boolean")),
                        optional("aspectRatio", typed("number")),
                        optional("contentMode", string("fit or fill.")),
                        optional(
                            "accessibilityLabel", string("VoiceOver label; needed when the image is a button's only content.")),
                    ])
            ),
            ("ButtonProps", props("button", [optional("label", node), optional("action", action)])),
            (
                "NavigationLinkProps",
                props("navigation_link", [required("destination", ref("ScreenReference")), optional("label", node)])
            ),
            (
                "TextFieldProps",
                props(
                    "text_field", [optional("placeholder", string()), optional("binding", string("A state path ($.env.<key>)."))])
            ),
            (
                "SearchBarProps",
                props(
                    "search_bar",
                    [
                        optional("placeholder", string()), optional("binding", string("A state path ($.env.<key>).")),
                        optional("onSubmit", action),
                    ])
            ),
            ("TabViewProps", props("tab_view", [required("tabs", array(of: ref("TabItem")))])),
            ("NavigationStackProps", props("navigation_stack", [optional("root", node)])),
            (
                "ScreenProps",
                props(
                    "screen",
                    [
                        optional("title", anyValue), optional("body", node), optional("toolbar", node),
                        optional("onLoad", action),
                    ])
            ),
            ("SheetProps", props("sheet", [optional("content", node)])),
            (
                "ComponentProps",
                props(
                    "component",
                    [
                        required("name", string("The component's name in the library.")),
                        optional("parameters", typed("object", "Parameter name to binding or literal.")),
                    ])
            ),
        ]
    }

    // MARK: Building blocks

    /// A member of a model: its wire name, its schema, and whether the decoder requires it.
    private struct Field {
        let name: String
        let schema: JSONValue
        let isRequired: Bool
    }

    /// A member the decoder requires (present and not null).
    private static func required(_ name: String, _ schema: JSONValue) -> Field {
        Field(name: name, schema: schema, isRequired: true)
    }

    /// A member the decoder treats as absent when missing or null.
    private static func optional(_ name: String, _ schema: JSONValue) -> Field {
        Field(name: name, schema: nullable(schema), isRequired: false)
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members))
    }

    /// An object with `fields` as its properties and the required ones in `required`.
    private static func model(_ description: String, _ fields: [Field], extra: [(String, JSONValue)] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", "object"), ("description", .string(description))]
        members.append(("properties", object(fields.map { ($0.name, $0.schema) })))
        let names = fields.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !names.isEmpty { members.append(("required", .array(names))) }
        return object(members + extra)
    }

    /// The props of the node types named in `types`.
    private static func props(_ types: String, _ fields: [Field]) -> JSONValue {
        model("The props of \(types) nodes.", fields)
    }

    /// `then` applies `fields` when the member `discriminator` is one of `values`.
    private static func when(_ discriminator: String, _ values: [String], _ fields: [Field]) -> JSONValue {
        let condition = object([
            ("properties", object([(discriminator, object([("enum", .array(values.map { JSONValue.string($0) }))]))])),
            ("required", .array([.string(discriminator)])),
        ])
        var consequence: [(String, JSONValue)] = [("properties", object(fields.map { ($0.name, $0.schema) }))]
        let names = fields.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !names.isEmpty { consequence.append(("required", .array(names))) }
        return object([("if", condition), ("then", object(consequence))])
    }

    private static func typed(_ type: String, _ description: String? = nil, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(type))]
        if let description { members.append(("description", .string(description))) }
        return object(members + extra)
    }

    private static func string(_ description: String? = nil, minLength: Int? = nil) -> JSONValue {
        var extra: [(String, JSONValue)] = []
        if let minLength { extra.append(("minLength", .number(JSONNumber(minLength)))) }
        return typed("string", description, extra)
    }

    private static func ref(_ name: String) -> JSONValue {
        object([("$ref", .string("#/$defs/" + name))])
    }

    private static func array(of items: JSONValue, _ description: String? = nil) -> JSONValue {
        typed("array", description, [("items", items)])
    }

    /// An object whose members all follow `values` (a JSON object used as a dictionary).
    private static func dictionary(of values: JSONValue, _ description: String? = nil) -> JSONValue {
        typed("object", description, [("additionalProperties", values)])
    }

    /// Any JSON value.
    private static var anyValue: JSONValue { object([("description", "Any JSON value.")]) }

    /// A string enumeration the SDK keeps open: known values as examples, any string accepted.
    private static func openEnum<Value: OpenEnum>(_ type: Value.Type, _ description: String) -> JSONValue {
        let known = Value.knownCases.map(\.rawValue)
        return typed(
            "string",
            "\(description) Known values: \(known.joined(separator: ", ")); "
                + "any other value decodes as unknown and is drawn as a fallback.",
            [("examples", .array(known.map { JSONValue.string($0) }))])
    }

    /// `schema`, also accepting `null` (the decoders treat a null member as absent).
    private static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        let constrained = ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"].contains { members[$0] != nil }
        if !constrained { return schema }
        if case .string(let type)? = members["type"], members["enum"] == nil, members["const"] == nil {
            members["type"] = .array([.string(type), .string("null")])
            return .object(members)
        }
        return object([("anyOf", .array([schema, object([("type", "null")])]))])
    }
}

/// A small JSON Schema validator for the keywords ``DynamicUISchema`` uses: `type` (a name or a
/// list of names, `integer` included), `properties`, `required`, `additionalProperties` (a
/// schema), `items`, `enum`, `const`, `$ref` to `#/$defs/…`, `allOf`, `anyOf`, `oneOf`,
/// `if`/`then`/`else`, `minimum`, `maximum` and `minLength`. Annotations are ignored.
public struct JSONSchemaChecker: Sendable {
    /// One place where a value breaks the schema.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// Where, written like `template.zones[0].slots[0].id`; `$` is the whole value.
        public let path: String
        /// What is wrong.
        public let message: String

        /// Creates a violation.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// The schema values are checked against; its `$defs` resolve `$ref`s.
    public let schema: JSONValue

    /// A checker for `schema`, by default the DynamicUI schema.
    public init(schema: JSONValue = DynamicUISchema.document()) {
        self.schema = schema
    }

    /// Every violation of `value`; empty when it is valid. When no alternative of an `anyOf` or
    /// `oneOf` matches, the violations of the closest alternative are reported (the one whose
    /// type fits and that has most of its required and known members).
    public func check(_ value: JSONValue) -> [Violation] {
        var failures: [Failure] = []
        validate(value, against: schema, at: .root, into: &failures)
        return failures.map { Violation(path: $0.location.description, message: $0.message) }
    }

    /// Whether `value` is valid.
    public func isValid(_ value: JSONValue) -> Bool { check(value).isEmpty }

    private struct Failure {
        let location: JSONLocation
        let message: String
    }

    private func validate(
        _ value: JSONValue, against schema: JSONValue, at location: JSONLocation, into failures: inout [Failure]
    ) {
        let keywords: JSONObject
        switch schema {
        case .bool(let accepts):
            if !accepts { failures.append(Failure(location: location, message: "no value is allowed here")) }
            return
        case .object(let object):
            keywords = object
        default:
            failures.append(Failure(location: location, message: "the schema here is neither an object nor a boolean"))
            return
        }
        if let reference = keywords["$ref"]?.stringValue {
            if let target = resolve(reference) {
                validate(value, against: target, at: location, into: &failures)
            } else {
                failures.append(Failure(location: location, message: "cannot resolve $ref '\(reference)'"))
            }
        }
        if let type = keywords["type"] {
            let names = Self.typeNames(type)
            if !names.contains(where: { Self.value(value, hasType: $0) }) {
                failures.append(
                    Failure(location: location, message: "expected \(names.joined(separator: " or ")), found \(value.kindName)"))
                return
            }
        }
        if let options = keywords["enum"]?.arrayValue, !options.contains(value) {
            let list = options.map(\.description).joined(separator: ", ")
            failures.append(Failure(location: location, message: "expected one of \(list), found \(value)"))
        }
        if let constant = keywords["const"], constant != value {
            failures.append(Failure(location: location, message: "expected \(constant), found \(value)"))
        }
        switch value {
        case .string(let text):
            if let minimum = keywords["minLength"]?.intValue, text.unicodeScalars.count < minimum {
                failures.append(
                    Failure(
                        location: location, message: "expected at least \(minimum) characters, found \(text.unicodeScalars.count)"
                    ))
            }
        case .number(let number):
            if let minimum = keywords["minimum"]?.numberValue, number < minimum {
                failures.append(Failure(location: location, message: "expected at least \(minimum), found \(number)"))
            }
            if let maximum = keywords["maximum"]?.numberValue, maximum < number {
                failures.append(Failure(location: location, message: "expected at most \(maximum), found \(number)"))
            }
        case .array(let elements):
            if let items = keywords["items"] {
                for (index, element) in elements.enumerated() {
                    validate(element, against: items, at: location.appending(index: index), into: &failures)
                }
            }
        case .object(let members):
            for case .string(let name) in keywords["required"]?.arrayValue ?? [] where members[name] == nil {
                failures.append(
                    Failure(location: location.appending(key: name), message: "required property '\(name)' is missing"))
            }
            let properties = keywords["properties"]?.objectValue
            let additional = keywords["additionalProperties"]
            for (name, member) in members {
                if let property = properties?[name] {
                    validate(member, against: property, at: location.appending(key: name), into: &failures)
                } else if let additional {
                    validate(member, against: additional, at: location.appending(key: name), into: &failures)
                }
            }
        case .null, .bool:
            break
        }
        for branch in keywords["allOf"]?.arrayValue ?? [] {
            validate(value, against: branch, at: location, into: &failures)
        }
        if let branches = keywords["anyOf"]?.arrayValue {
            alternatives(branches, exactlyOne: false, value, at: location, into: &failures)
        }
        if let branches = keywords["oneOf"]?.arrayValue {
            alternatives(branches, exactlyOne: true, value, at: location, into: &failures)
        }
        if let condition = keywords["if"] {
            var probe: [Failure] = []
            validate(value, against: condition, at: location, into: &probe)
            if probe.isEmpty {
                if let consequence = keywords["then"] { validate(value, against: consequence, at: location, into: &failures) }
            } else if let alternative = keywords["else"] {
                validate(value, against: alternative, at: location, into: &failures)
            }
        }
    }

    /// `anyOf` (at least one branch matches) or `oneOf` (exactly one does).
    private func alternatives(
        _ branches: [JSONValue], exactlyOne: Bool, _ value: JSONValue, at location: JSONLocation, into failures: inout [Failure]
    ) {
        guard !branches.isEmpty else { return }
        var outcomes: [[Failure]] = []
        for branch in branches {
            var branchFailures: [Failure] = []
            validate(value, against: branch, at: location, into: &branchFailures)
            outcomes.append(branchFailures)
        }
        let matching = outcomes.filter(\.isEmpty).count
        if matching == 1 || (matching > 1 && !exactlyOne) { return }
        if matching > 1 {
            failures.append(
                Failure(location: location, message: "matches \(matching) alternatives of oneOf; expected exactly one"))
            return
        }
        var best = 0
        var bestScore = score(branches[0], value, failureCount: outcomes[0].count)
        for index in outcomes.indices.dropFirst() {
            let candidate = score(branches[index], value, failureCount: outcomes[index].count)
            if candidate > bestScore {
                best = index
                bestScore = candidate
            }
        }
        failures.append(contentsOf: outcomes[best])
    }

    /// How closely `value` fits `branch`: whether its type fits, how many of the branch's
    /// required and known members it has, and how few violations it has.
    private func score(_ branch: JSONValue, _ value: JSONValue, failureCount: Int) -> (Int, Int, Int, Int) {
        let resolved = dereferenced(branch)
        var typeFits = 1
        if let type = resolved["type"] {
            typeFits = Self.typeNames(type).contains { Self.value(value, hasType: $0) } ? 1 : 0
        }
        var requiredPresent = 0
        var knownPresent = 0
        if case .object(let members) = value {
            for case .string(let name) in resolved["required"]?.arrayValue ?? [] where members[name] != nil {
                requiredPresent += 1
            }
            if let properties = resolved["properties"]?.objectValue {
                for (name, _) in members where properties[name] != nil { knownPresent += 1 }
            }
        }
        return (typeFits, requiredPresent, knownPresent, -failureCount)
    }

    /// `schema` with `$ref`s followed.
    private func dereferenced(_ schema: JSONValue) -> JSONValue {
        var current = schema
        for _ in 0..<32 {
            guard let reference = current["$ref"]?.stringValue, let target = resolve(reference) else { return current }
            current = target
        }
        return current
    }

    /// The schema `reference` names: `#` or `#/$defs/<name>`.
    private func resolve(_ reference: String) -> JSONValue? {
        if reference == "#" { return schema }
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix) else { return nil }
        return schema["$defs"]?[String(reference.dropFirst(prefix.count))]
    }

    private static func typeNames(_ type: JSONValue) -> [String] {
        switch type {
        case .string(let name): [name]
        case .array(let names): names.compactMap(\.stringValue)
        default: []
        }
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch value {
        case .null: type == "null"
        case .bool: type == "boolean"
        case .string: type == "string"
        case .array: type == "array"
        case .object: type == "object"
        case .number(let number): type == "number" || (type == "integer" && number.int64Value != nil)
        }
    }
}
