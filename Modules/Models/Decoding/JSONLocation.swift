/// Where a value sits inside a JSON document, written like `template.zones[2].slots[0].control_type`.
public struct JSONLocation: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step: an object member or an array element.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// The steps from the document root.
    public var components: [Component]

    /// The document root.
    public static let root = JSONLocation(components: [])

    /// A location from its steps.
    public init(components: [Component]) { self.components = components }

    /// Parses the dotted form (`a.b[0].c`).
    public init(stringLiteral value: String) { self = Self.parse(value) }

    /// This location extended by a member.
    public func appending(key: String) -> JSONLocation { JSONLocation(components: components + [.key(key)]) }

    /// This location extended by an element.
    public func appending(index: Int) -> JSONLocation { JSONLocation(components: components + [.index(index)]) }

    /// Parses the dotted form (`a.b[0].c`); a key that contains `.`, `[` or `]` cannot be
    /// written in this form.
    public static func parse(_ text: String) -> JSONLocation {
        var components: [Component] = []
        var current = ""
        var inIndex = false
        for character in text {
            switch character {
            case "." where !inIndex:
                if !current.isEmpty { components.append(.key(current)) }
                current = ""
            case "[" where !inIndex:
                if !current.isEmpty { components.append(.key(current)) }
                current = ""
                inIndex = true
            case "]" where inIndex:
                if let index = Int(current) { components.append(.index(index)) } else { components.append(.key(current)) }
                current = ""
                inIndex = false
            default:
                current.append(character)
            }
        }
        if !current.isEmpty { components.append(.key(current)) }
        return JSONLocation(components: components)
    }

    public var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
