public import DynamicUIModels

/// A host-registered element as it reaches a backend: its registered type, every prop
/// evaluated against the data, the actions it may fire and the form field or state key it edits.
public struct CustomNode: Sendable, Hashable {
    /// The type it was registered for (`video-player`).
    public var type: String
    /// Every prop, bindings evaluated (node dialect: `props`; screen dialect: the slot's
    /// `value`, `label`, `placeholder`, `icon`, `style` and `config`).
    public var props: JSONObject
    /// What each action name fires: an action key of the node document (`onPlay`) or the
    /// screen's action id for the slot (`tap`).
    public var actions: [String: String]
    /// The form field (screen dialect) or state key (node dialect) the component edits.
    public var binding: String?
    /// The current value of that binding.
    public var value: JSONValue
    /// The SDK's words in the screen's locale, for the component's own words.
    public var strings: DynamicUIStrings = .current

    /// Creates a node.
    public init(
        type: String, props: JSONObject = [:], actions: [String: String] = [:], binding: String? = nil, value: JSONValue = .null
    ) {
        self.type = type
        self.props = props
        self.actions = actions
        self.binding = binding
        self.value = value
    }
}

/// Markup a native component draws in the web preview. It holds elements, attributes and text
/// only; `HTMLRenderer` escapes every value, keeps only safe tags and attributes, checks every
/// URL, and turns `action` into a button that fires the component's action, so no prop from
/// the server can inject script.
public indirect enum HTMLFragment: Sendable, Hashable {
    /// Text, escaped.
    case text(String)
    /// An element with attributes (name, value) and children.
    case element(String, attributes: [HTMLAttribute] = [], children: [HTMLFragment] = [])
    /// A button that fires the component's action `name` with `label` inside.
    case action(String, label: [HTMLFragment])
    /// Several fragments in order.
    case group([HTMLFragment])
}

/// One attribute of an `HTMLFragment` element.
public struct HTMLAttribute: Sendable, Hashable {
    /// The name (`src`, `aria-label`, `data-kind`).
    public var name: String
    /// The value, escaped when written.
    public var value: String

    /// Creates an attribute.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A native component a host registers for a `control_type` (screen dialect) or node `type`
/// (node dialect) the SDK does not draw itself, the way DivKit's custom divs or Adaptive
/// Cards' element registry work. It receives every prop and bound value as `JSONValue` in a
/// `CustomNode`; the SwiftUI face is `SwiftUINativeComponent` in `DynamicUISwiftUI`.
public protocol NativeComponent: Sendable {
    /// The type it draws (`video-player`; `video_player` in node documents matches too).
    var type: String { get }
    /// The actions it may fire (`play`, `ended`), for validators and documentation.
    var actionNames: [String] { get }
    /// The web preview's drawing of `node`.
    func html(_ node: CustomNode) -> HTMLFragment
}

extension NativeComponent {
    /// No actions.
    public var actionNames: [String] { [] }
}

/// Why components could not be registered.
public struct ComponentRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type registered twice, or shadowing one the SDK draws.
    public let type: String
    /// What is wrong.
    public let message: String

    public var description: String { "native component '\(type)': \(message)" }
}

/// The native components of an app, built once at start and immutable after (like
/// `ScreenHandlerRegistry`): a type registered twice, or one the SDK already draws, is an error
/// at start, never a silent override.
public struct NativeComponentRegistry: Sendable {
    private let components: [String: any NativeComponent]

    /// No components.
    public static let empty = NativeComponentRegistry(checked: [:])

    private init(checked: [String: any NativeComponent]) { components = checked }

    /// Registers `components`; throws on a duplicate type or a built-in one.
    public init(_ components: [any NativeComponent]) throws(ComponentRegistrationError) {
        var byType: [String: any NativeComponent] = [:]
        for component in components {
            let key = Self.key(component.type)
            guard !key.isEmpty, key.utf8.allSatisfy({ Self.isNameByte($0) }) else {
                throw ComponentRegistrationError(
                    type: component.type, message: "a type is lower-case letters, digits, '-' and '_'")
            }
            if byType[key] != nil { throw ComponentRegistrationError(type: component.type, message: "registered twice") }
            if Self.isBuiltIn(component.type) {
                throw ComponentRegistrationError(type: component.type, message: "the SDK already draws this type")
            }
            byType[key] = component
        }
        self.components = byType
    }

    /// The component registered for `type` (`video_player` finds `video-player`).
    public func component(for type: String) -> (any NativeComponent)? { components[Self.key(type)] }

    /// Whether `type` is registered.
    public func contains(_ type: String) -> Bool { components[Self.key(type)] != nil }

    /// The registered types, sorted.
    public var types: [String] { components.values.map(\.type).sorted() }

    /// Whether there are no components.
    public var isEmpty: Bool { components.isEmpty }

    static func key(_ type: String) -> String { ClientCapabilities.componentKey(type) }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }

    private static func isBuiltIn(_ type: String) -> Bool {
        let key = key(type)
        return ControlType.knownCases.contains { Self.key($0.rawValue) == key }
            || NodeType.knownCases.contains { Self.key($0.rawValue) == key }
    }
}
