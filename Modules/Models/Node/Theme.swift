/// Style properties of a node or theme preset (seed 002 §7.2). Colors are theme color names
/// or `#RRGGBB[AA]`.
public struct NodeStyle: JSONModel {
    /// A font name from the theme.
    public var font: String?
    /// Text and icon color.
    public var foregroundColor: String?
    /// Background color.
    public var backgroundColor: String?
    /// Padding on all edges or per edge.
    public var padding: EdgePadding?
    /// Corner radius in points.
    public var cornerRadius: Double?
    /// Fixed width.
    public var width: Dimension?
    /// Fixed height.
    public var height: Dimension?
    /// Maximum width.
    public var maxWidth: Dimension?
    /// Maximum height.
    public var maxHeight: Dimension?
    /// Drop shadow.
    public var shadow: ShadowStyle?
    /// Opacity from 0 to 1.
    public var opacity: Double?
    /// Clip mask: `circle` or `roundedRect`.
    public var clipShape: String?

    /// Creates a style.
    public init(
        font: String? = nil, foregroundColor: String? = nil, backgroundColor: String? = nil, padding: EdgePadding? = nil,
        cornerRadius: Double? = nil, width: Dimension? = nil, height: Dimension? = nil, maxWidth: Dimension? = nil,
        maxHeight: Dimension? = nil, shadow: ShadowStyle? = nil, opacity: Double? = nil, clipShape: String? = nil
    ) {
        self.font = font
        self.foregroundColor = foregroundColor
        self.backgroundColor = backgroundColor
        self.padding = padding
        self.cornerRadius = cornerRadius
        self.width = width
        self.height = height
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.shadow = shadow
        self.opacity = opacity
        self.clipShape = clipShape
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        font = try context.optional("font", in: o)
        foregroundColor = try context.optional("foregroundColor", in: o)
        backgroundColor = try context.optional("backgroundColor", in: o)
        padding = try context.optional("padding", in: o)
        cornerRadius = try context.optional("cornerRadius", in: o)
        width = try context.optional("width", in: o)
        height = try context.optional("height", in: o)
        maxWidth = try context.optional("maxWidth", in: o)
        maxHeight = try context.optional("maxHeight", in: o)
        shadow = try context.optional("shadow", in: o)
        opacity = try context.optional("opacity", in: o)
        clipShape = try context.optional("clipShape", in: o)
        if let opacity, !(0...1).contains(opacity) {
            throw context.error(.invalidValue, key: "opacity", "opacity must be between 0 and 1, found \(opacity)")
        }
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("font", font)
        b.set("foregroundColor", foregroundColor)
        b.set("backgroundColor", backgroundColor)
        b.set("padding", padding)
        b.set("cornerRadius", cornerRadius)
        b.set("width", width)
        b.set("height", height)
        b.set("maxWidth", maxWidth)
        b.set("maxHeight", maxHeight)
        b.set("shadow", shadow)
        b.set("opacity", opacity)
        b.set("clipShape", clipShape)
        return b.json
    }

    /// This style with every property that `override` sets replacing its own.
    public func merged(with override: NodeStyle?) -> NodeStyle {
        guard let override else { return self }
        return NodeStyle(
            font: override.font ?? font, foregroundColor: override.foregroundColor ?? foregroundColor,
            backgroundColor: override.backgroundColor ?? backgroundColor, padding: override.padding ?? padding,
            cornerRadius: override.cornerRadius ?? cornerRadius, width: override.width ?? width,
            height: override.height ?? height, maxWidth: override.maxWidth ?? maxWidth,
            maxHeight: override.maxHeight ?? maxHeight, shadow: override.shadow ?? shadow,
            opacity: override.opacity ?? opacity, clipShape: override.clipShape ?? clipShape)
    }
}

/// Padding: one value for every edge, or per edge (missing edges are zero).
public enum EdgePadding: JSONModel {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// The same padding on every edge.
    case all(Double)
    /// Per-edge padding.
    case edges(top: Double, bottom: Double, leading: Double, trailing: Double)

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        if case .number(let number) = json {
            self = .all(number.doubleValue)
            return
        }
        guard case .object(let o) = json else {
            throw context.error(.typeMismatch, "expected a number or an object of edges, found \(json.kindName)")
        }
        self = .edges(
            top: try context.optional("top", in: o) ?? 0, bottom: try context.optional("bottom", in: o) ?? 0,
            leading: try context.optional("leading", in: o) ?? 0, trailing: try context.optional("trailing", in: o) ?? 0)
    }

    public var json: JSONValue {
        switch self {
        case .all(let value): return value.json
        case .edges(let top, let bottom, let leading, let trailing):
            return ["top": top.json, "bottom": bottom.json, "leading": leading.json, "trailing": trailing.json]
        }
    }
}

/// A frame dimension: points or `"infinity"` (fill the available space).
public enum Dimension: JSONModel {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// A length in points.
    case points(Double)
    /// As large as the container allows.
    case infinity

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        switch json {
        case .number(let number): self = .points(number.doubleValue)
        case .string("infinity"): self = .infinity
        default: throw context.error(.typeMismatch, "expected a number or \"infinity\", found \(json)")
        }
    }

    public var json: JSONValue {
        switch self {
        case .points(let value): value.json
        case .infinity: "infinity"
        }
    }
}

/// A drop shadow.
public struct ShadowStyle: JSONModel {
    /// Blur radius.
    public var radius: Double
    /// Horizontal offset.
    public var x: Double
    /// Vertical offset.
    public var y: Double
    /// Shadow color.
    public var color: String?

    /// Creates a shadow.
    public init(radius: Double, x: Double = 0, y: Double = 0, color: String? = nil) {
        self.radius = radius
        self.x = x
        self.y = y
        self.color = color
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        radius = try context.optional("radius", in: o) ?? 0
        x = try context.optional("x", in: o) ?? 0
        y = try context.optional("y", in: o) ?? 0
        color = try context.optional("color", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("radius", radius)
        b.set("x", x)
        b.set("y", y)
        b.set("color", color)
        return b.json
    }
}

/// A font of the theme.
public struct FontSpec: JSONModel {
    /// Point size at the default Dynamic Type size.
    public var size: Double
    /// `regular`, `medium`, `semibold`, `bold`, …
    public var weight: String?
    /// `default`, `rounded`, `serif`, `monospaced`.
    public var design: String?

    /// Creates a font.
    public init(size: Double, weight: String? = nil, design: String? = nil) {
        self.size = size
        self.weight = weight
        self.design = design
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        size = try context.required("size", in: o)
        weight = try context.optional("weight", in: o)
        design = try context.optional("design", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("size", size)
        b.set("weight", weight)
        b.set("design", design)
        return b.json
    }
}

/// A theme: named colors, fonts and style presets (seed 002 §7.1).
public struct Theme: JSONModel {
    /// Color name → `#RRGGBB[AA]`.
    public var colors: [String: String]
    /// Color name → `#RRGGBB[AA]` in dark mode (`dark_colors`); a name missing here keeps its
    /// light value.
    public var darkColors: [String: String]
    /// Font name → font.
    public var fonts: [String: FontSpec]
    /// Preset name → style.
    public var presets: [String: NodeStyle]

    /// Creates a theme.
    public init(
        colors: [String: String] = [:], darkColors: [String: String] = [:], fonts: [String: FontSpec] = [:],
        presets: [String: NodeStyle] = [:]
    ) {
        self.colors = colors
        self.darkColors = darkColors
        self.fonts = fonts
        self.presets = presets
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        colors = try context.optional("colors", in: o) ?? [:]
        darkColors = try context.optional("dark_colors", in: o) ?? [:]
        fonts = try context.optional("fonts", in: o) ?? [:]
        presets = try context.optional("presets", in: o) ?? [:]
    }

    /// The value of color `name` (a theme token, or `#hex` as is) in light or dark mode.
    public func color(_ name: String, dark: Bool) -> String? {
        if name.hasPrefix("#") { return name }
        return (dark ? darkColors[name] : nil) ?? colors[name]
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("colors", colors)
        if !darkColors.isEmpty { b.set("dark_colors", darkColors) }
        b.set("fonts", fonts)
        b.set("presets", presets)
        return b.json
    }
}

/// Reusable components, each with declared parameters and a body (seed 002 §4.3).
public struct ComponentLibrary: JSONModel {
    /// Component name → definition.
    public var components: [String: ComponentDefinition]

    /// Creates a library.
    public init(components: [String: ComponentDefinition] = [:]) { self.components = components }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        components = try context.required("components", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("components", components)
        return b.json
    }
}

/// A reusable component: the names of its parameters and the node it expands to.
public struct ComponentDefinition: JSONModel {
    /// Parameter names, visible in the body as `$.<name>`.
    public var parameters: [String]
    /// The expanded node.
    public var body: ViewNode

    /// Creates a component.
    public init(parameters: [String], body: ViewNode) {
        self.parameters = parameters
        self.body = body
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        parameters = try context.optional("parameters", in: o) ?? []
        body = try context.required("body", in: o)
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("parameters", parameters)
        b.set("body", body)
        return b.json
    }
}
