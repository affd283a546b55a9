public import DynamicUIModels

/// A compiled expression: a path, a literal, a pipe of transforms, a comparison or a logical
/// combination. Compiled once, evaluated many times; `description` prints canonical source
/// that compiles back to an equal expression.
public indirect enum DynamicExpression: Sendable, Hashable, CustomStringConvertible {
    /// A constant.
    case literal(JSONValue)
    /// A lookup in the data context.
    case path(PathExpression)
    /// A value passed through transforms, left to right.
    case pipe(DynamicExpression, [Transform])
    /// Logical negation of the operand's truthiness.
    case not(DynamicExpression)
    /// A comparison.
    case compare(ComparisonOperator, DynamicExpression, DynamicExpression)
    /// True when both operands are truthy (the right one is evaluated only when needed).
    case and(DynamicExpression, DynamicExpression)
    /// True when either operand is truthy (the right one is evaluated only when needed).
    case or(DynamicExpression, DynamicExpression)

    public var description: String {
        switch self {
        case .literal(let value): Self.printLiteral(value)
        case .path(let path): path.description
        case .pipe(let base, let transforms):
            ([base.operandDescription] + transforms.map(\.description)).joined(separator: " | ")
        case .not(let operand): "!" + operand.operandDescription
        case .compare(let op, let lhs, let rhs): "\(lhs.operandDescription) \(op.rawValue) \(rhs.operandDescription)"
        case .and(let lhs, let rhs): "\(lhs.operandDescription) && \(rhs.operandDescription)"
        case .or(let lhs, let rhs): "\(lhs.operandDescription) || \(rhs.operandDescription)"
        }
    }

    /// The description, parenthesised unless it is a single primary.
    var operandDescription: String {
        switch self {
        case .literal, .path: description
        default: "(\(description))"
        }
    }

    /// Prints a literal as expression source (strings single-quoted).
    static func printLiteral(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): quote(string)
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.description
        case .array, .object: quote(value.description)
        }
    }

    /// Single-quotes `string`, escaping backslashes, quotes and control characters.
    static func quote(_ string: String) -> String {
        var result = "'"
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "'"
    }
}

/// A path such as `$.podcast.trackName`, `item.author.name` or `data.isEmpty`.
///
/// A `.scoped` path looks its first key up in the data context's scopes (`item`, `user`,
/// `env`, component parameters, …) and, failing that, in the context's default object (the
/// screen data, or the current item). A `.relative` path (a slot's `field`) reads only the
/// default object.
public struct PathExpression: Sendable, Hashable, CustomStringConvertible {
    /// Where the first key is looked up.
    public enum Root: Sendable, Hashable {
        /// Scopes first, then the default object.
        case scoped
        /// The default object only.
        case relative
    }

    /// Where the first key is looked up.
    public var root: Root
    /// The steps; numeric keys also index arrays (`questions.0.text`).
    public var components: [JSONLocation.Component]

    /// Creates a path.
    public init(root: Root, components: [JSONLocation.Component]) {
        self.root = root
        self.components = components
    }

    /// The first key, if the path starts with one.
    public var rootName: String? {
        if case .key(let key)? = components.first { return key }
        return nil
    }

    public var description: String {
        var text = root == .scoped ? "$" : ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainKey(key) {
                    text += text.isEmpty ? key : "." + key
                } else {
                    text += "[\(DynamicExpression.quote(key))]"
                }
            }
        }
        return text
    }

    /// Whether `key` can be written after a dot: an identifier, or all digits.
    static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first else { return false }
        if key.unicodeScalars.allSatisfy({ $0.properties.numericType != nil && $0.isASCII }) { return true }
        guard first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy {
            $0 == "_" || $0.properties.isAlphabetic || ($0.isASCII && $0.properties.numericType != nil)
        }
    }
}

/// A comparison operator.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// Same kind and value.
    case equal = "=="
    /// Different kind or value.
    case notEqual = "!="
    /// Numbers or strings in ascending order.
    case less = "<"
    /// Less than or equal.
    case lessOrEqual = "<="
    /// Greater than.
    case greater = ">"
    /// Greater than or equal.
    case greaterOrEqual = ">="
}

/// A step of a pipe (`| uppercase`, `| date:MMM d, yyyy`).
public enum Transform: Sendable, Hashable, CustomStringConvertible {
    /// Formats an ISO-8601 date (or a Unix timestamp) with a date pattern.
    case date(String)
    /// Formats milliseconds with `h`, `m`, `s` tokens (`mm:ss`, `h:mm:ss`).
    case duration(String)
    /// Upper-cases text.
    case uppercase
    /// Lower-cases text.
    case lowercase
    /// Joins an array's elements with a separator.
    case join(String)
    /// Replaces `null`, a missing value or an empty string.
    case defaultValue(JSONValue)
    /// Keeps at most `n` characters, adding `…` when it cuts.
    case truncate(Int)
    /// Number of elements, members or characters.
    case count
    /// Whether the value is present (not `null`).
    case exists
    /// Whether the value is `null`, `""`, `[]` or `{}`.
    case empty
    /// The negation of `empty`.
    case notEmpty

    /// Every transform name, for error messages.
    public static let names = [
        "date", "duration", "uppercase", "lowercase", "join", "default", "truncate", "count", "exists", "empty", "!empty",
    ]

    public var description: String {
        switch self {
        case .date(let format): "date:\(DynamicExpression.quote(format))"
        case .duration(let format): format.isEmpty ? "duration" : "duration:\(DynamicExpression.quote(format))"
        case .uppercase: "uppercase"
        case .lowercase: "lowercase"
        case .join(let separator): "join:\(DynamicExpression.quote(separator))"
        case .defaultValue(let value): "default:\(DynamicExpression.printLiteral(value))"
        case .truncate(let length): "truncate:\(length)"
        case .count: "count"
        case .exists: "exists"
        case .empty: "empty"
        case .notEmpty: "!empty"
        }
    }
}
