/// Any JSON value. Integers stay exact (`JSONNumber`) and object keys keep their order
/// (`JSONObject`).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; integers stay exact.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys keep their order.
    case object(JSONObject)

    /// The string, when this is a string.
    @inlinable
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }

    /// The boolean, when this is a boolean.
    @inlinable
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// The number, when this is a number.
    @inlinable
    public var numberValue: JSONNumber? { if case .number(let value) = self { value } else { nil } }

    /// The number as `Int` when it is a whole number in range.
    public var intValue: Int? { numberValue?.intValue }

    /// The number as `Double`.
    public var doubleValue: Double? { numberValue?.doubleValue }

    /// The elements, when this is an array.
    @inlinable
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

    /// The object, when this is an object.
    @inlinable
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }

    /// Whether this is `null`.
    @inlinable
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The member `key` of an object; `nil` for a missing key or a non-object.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    @inlinable
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The value at a dotted path such as `author.name` or `results[0].trackName`; `nil` when
    /// any step is missing.
    public subscript(path path: String) -> JSONValue? {
        var current = self
        for component in JSONLocation.parse(path).components {
            switch component {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let next = current[index] else { return nil }
                current = next
            }
        }
        return current
    }

    /// A short name of the value's kind, used in error messages (`string`, `object`, …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.isInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text of the value.
    public var description: String { JSONWriter().string(from: self) }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(JSONObject(value.map { ($0.key, $0.value) }))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let number):
            switch number.storage {
            case .integer(let value): try container.encode(value)
            case .floating(let value): try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let object):
            var keyed = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in object { try keyed.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

/// A coding key made from any string.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
