extension JSONValue: JSONModelDecodable, JSONModelEncodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) { self = json }
    public init(node: JSONNode, context: inout ModelDecodingContext) { self = node.value }
    public var json: JSONValue { self }
}

extension String: JSONModelDecodable, JSONModelEncodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard case .string(let value) = json else { throw context.mismatch("a string", found: json) }
        self = value
    }
    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard let value = node.stringValue else { throw context.mismatch("a string", found: node) }
        self = value
    }
    public var json: JSONValue { .string(self) }
}

extension Int: JSONModelDecodable, JSONModelEncodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard case .number(let number) = json else { throw context.mismatch("an integer", found: json) }
        guard let value = number.intValue else {
            throw context.error(.invalidValue, "expected an integer, found \(number)")
        }
        self = value
    }
    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard let number = node.numberValue else { throw context.mismatch("an integer", found: node) }
        guard let value = number.intValue else {
            throw context.error(.invalidValue, "expected an integer, found \(number)")
        }
        self = value
    }
    public var json: JSONValue { .number(JSONNumber(self)) }
}

extension Bool: JSONModelDecodable, JSONModelEncodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard case .bool(let value) = json else { throw context.mismatch("a boolean", found: json) }
        self = value
    }
    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard let value = node.boolValue else { throw context.mismatch("a boolean", found: node) }
        self = value
    }
    public var json: JSONValue { .bool(self) }
}

extension Double: JSONModelDecodable, JSONModelEncodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard case .number(let number) = json else { throw context.mismatch("a number", found: json) }
        self = number.doubleValue
    }
    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard let number = node.numberValue else { throw context.mismatch("a number", found: node) }
        self = number.doubleValue
    }
    public var json: JSONValue { .number(JSONNumber(self)) }
}

extension JSONObject: JSONModelDecodable, JSONModelEncodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self = try context.object(json)
    }
    public var json: JSONValue { .object(self) }
}

extension Array: JSONModelDecodable where Element: JSONModelDecodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard case .array(let elements) = json else { throw context.mismatch("an array", found: json) }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(
                try context.at(index: index) { context throws(ModelDecodingError) in
                    try Element(json: element, context: &context)
                })
        }
        self = result
    }

    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard node.isArray else { throw context.mismatch("an array", found: node) }
        var result: [Element] = []
        result.reserveCapacity(node.count)
        try node.forEachElement { element, index throws(ModelDecodingError) in
            context.push(.index(index))
            defer { context.pop() }
            result.append(try Element(node: element, context: &context))
        }
        self = result
    }
}

extension Array: JSONModelEncodable where Element: JSONModelEncodable {
    public var json: JSONValue { .array(map(\.json)) }
}

extension Set: JSONModelDecodable where Element: JSONModelDecodable {
    /// Decodes a JSON array; repeated elements count once.
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self.init(try [Element](json: json, context: &context))
    }

    /// Decodes a JSON array; repeated elements count once.
    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        self.init(try [Element](node: node, context: &context))
    }
}

extension Set: JSONModelEncodable where Element: JSONModelEncodable & Comparable {
    /// Elements are written sorted, so the output is stable.
    public var json: JSONValue { sorted().json }
}

extension Dictionary: JSONModelDecodable where Key == String, Value: JSONModelDecodable {
    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let object = try context.object(json)
        // Sized at creation: `reserveCapacity` is not specialized (a generic call of ~1,300
        // instructions a dictionary).
        var result = [String: Value](minimumCapacity: object.count)
        for (key, value) in object {
            result[key] = try context.at(key: key) { context throws(ModelDecodingError) in
                try Value(json: value, context: &context)
            }
        }
        self = result
    }

    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        // An object that repeats a key is read as the tree reads it (the last value wins).
        if node.hasRepeatedKeys {
            try self.init(json: node.value, context: &context)
            return
        }
        let object = try context.object(node)
        if Value.self == JSONValue.self {
            // A `JSONValue` member cannot fail to decode: no location kept for its errors, no
            // node made for it. (The same type, checked: a cast would convert entry by entry.)
            self = unsafeBitCast(object.uniqueMembersDictionary(), to: Self.self)
            return
        }
        var result = [String: Value](minimumCapacity: object.count)
        for (key, value) in object.members {
            result[key] = try context.at(key: key) { context throws(ModelDecodingError) in
                try Value(node: value, context: &context)
            }
        }
        self = result
    }
}

extension Dictionary: JSONModelEncodable where Key == String, Value: JSONModelEncodable {
    /// Keys are written sorted, so the output is stable.
    public var json: JSONValue {
        .object(JSONObject(uniqueEntries: sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }))
    }
}

/// Builds a JSON object for a model, skipping `nil` members.
public struct JSONObjectBuilder: Sendable {
    /// The object built so far.
    public private(set) var object = JSONObject()

    /// An empty builder.
    public init() {}

    /// Sets `key` to `value`, or leaves it out when `value` is `nil`.
    public mutating func set<T: JSONModelEncodable>(_ key: String, _ value: T?) {
        if let value { object[key] = value.json }
    }

    /// The built value.
    public var json: JSONValue { .object(object) }
}

/// A string-valued enum that decodes unknown values as `.unknown(raw)` instead of failing, and
/// writes them back unchanged.
public protocol OpenEnum: RawRepresentable, JSONModel, CustomStringConvertible where RawValue == String {
    /// Every case the SDK knows, without `unknown`.
    static var knownCases: [Self] { get }
    /// A value the SDK does not know (yet).
    static func unknown(_ rawValue: String) -> Self
    /// The known cases by raw value, for parsing (by default built on each use; generated
    /// conformances store it).
    static var rawValueTable: OpenEnumTable<Self> { get }
}

extension OpenEnum {
    /// The known case with this raw value, or `.unknown(rawValue)`.
    public init(rawValue: String) { self.init(parsing: rawValue) }

    /// The known case with exactly this raw value (its UTF-8 bytes, as the wire writes them),
    /// or `.unknown(rawValue)`, which encodes back unchanged.
    public init(parsing rawValue: String) {
        self = rawValue.withBorrowedUTF8 { Self.rawValueTable.match($0) } ?? .unknown(rawValue)
    }

    /// The known cases by raw value, built from `knownCases`.
    public static var rawValueTable: OpenEnumTable<Self> { OpenEnumTable(knownCases) }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        guard case .string(let raw) = json else {
            throw context.error(.typeMismatch, "expected a string, found \(json.kindName)")
        }
        self.init(parsing: raw)
    }

    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        // A known case is matched by the string's bytes in the document, without a `String`.
        switch node.withUTF8({ Self.rawValueTable.match($0) }) {
        case .some(.some(let known)): self = known
        case .some(.none): self = .unknown(node.stringValue ?? "")
        case .none: throw context.error(.typeMismatch, "expected a string, found \(node.kindName)")
        }
    }

    public var json: JSONValue { .string(rawValue) }

    /// Whether this is a value the SDK knows.
    public var isKnown: Bool { Self.knownCases.contains(self) }

    public var description: String { rawValue }
}
