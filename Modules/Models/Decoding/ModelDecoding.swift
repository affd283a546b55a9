/// Bounds on decoded models, on top of the JSON reader's own limits.
public struct ModelLimits: Sendable, Hashable {
    /// Deepest nesting of view nodes (node dialect) or zones (screen dialect).
    public var maxNodeDepth: Int
    /// Most view nodes, zones and slots in one document.
    public var maxNodeCount: Int

    /// Creates limits.
    public init(maxNodeDepth: Int = 64, maxNodeCount: Int = 20_000) {
        self.maxNodeDepth = maxNodeDepth
        self.maxNodeCount = maxNodeCount
    }

    /// Depth 64, 20,000 nodes.
    public static let `default` = ModelLimits()
}

/// The state of one model decode: the current location (kept as a stack, materialised only
/// for errors) and the node budget.
public struct ModelDecodingContext: ~Copyable {
    /// The limits in force.
    public let limits: ModelLimits
    private var path: [JSONLocation.Component]
    private var nodeCount = 0
    private var nodeDepth = 0

    /// Starts at `base` (the location of the value being decoded).
    public init(limits: ModelLimits = .default, base: JSONLocation = .root) {
        self.limits = limits
        self.path = base.components
    }

    /// The current location.
    public var location: JSONLocation { JSONLocation(components: path) }

    /// An error at the current location.
    public func error(_ code: ModelDecodingError.Code, _ message: String) -> ModelDecodingError {
        ModelDecodingError(code, at: location, message)
    }

    /// An error at member `key` of the current location.
    public func error(_ code: ModelDecodingError.Code, key: String, _ message: String) -> ModelDecodingError {
        ModelDecodingError(code, at: location.appending(key: key), message)
    }

    /// Runs `body` with the location extended by `key`.
    @inlinable
    public mutating func at<T>(
        key: String, _ body: (inout ModelDecodingContext) throws(ModelDecodingError) -> T
    ) throws(ModelDecodingError) -> T {
        try at(.key(key), body)
    }

    /// Runs `body` with the location extended by `index`.
    @inlinable
    public mutating func at<T>(
        index: Int, _ body: (inout ModelDecodingContext) throws(ModelDecodingError) -> T
    ) throws(ModelDecodingError) -> T {
        try at(.index(index), body)
    }

    /// Runs `body` with the location extended by `component`.
    @inlinable @inline(__always)
    mutating func at<T>(
        _ component: JSONLocation.Component, _ body: (inout ModelDecodingContext) throws(ModelDecodingError) -> T
    ) throws(ModelDecodingError) -> T {
        push(component)
        defer { pop() }
        return try body(&self)
    }

    @usableFromInline mutating func push(_ component: JSONLocation.Component) { path.append(component) }
    @usableFromInline mutating func pop() { path.removeLast() }

    /// Counts one node and runs `body` one level deeper, enforcing `ModelLimits`.
    public mutating func node<T>(
        _ body: (inout ModelDecodingContext) throws(ModelDecodingError) -> T
    ) throws(ModelDecodingError) -> T {
        try enterNode()
        defer { leaveNode() }
        return try body(&self)
    }

    /// Counts one node and goes one level deeper, enforcing `ModelLimits`; once it returns,
    /// `leaveNode()` must follow (`defer { context.leaveNode() }`).
    public mutating func enterNode() throws(ModelDecodingError) {
        nodeCount += 1
        if nodeCount > limits.maxNodeCount {
            throw error(.limitExceeded, "more than \(limits.maxNodeCount) nodes")
        }
        if nodeDepth >= limits.maxNodeDepth {
            throw error(.limitExceeded, "nodes nested more than \(limits.maxNodeDepth) deep")
        }
        nodeDepth += 1
    }

    /// Comes back up the level `enterNode()` went down (never above the top).
    public mutating func leaveNode() { nodeDepth = max(0, nodeDepth - 1) }

    // MARK: Field access

    /// The value as an object, or a type mismatch.
    public func object(_ value: JSONValue) throws(ModelDecodingError) -> JSONObject {
        guard case .object(let object) = value else { throw mismatch("an object", found: value) }
        return object
    }

    /// The type mismatch of a value that is not the kind a model needs (`"a string"`).
    public func mismatch(_ expected: String, found value: JSONValue) -> ModelDecodingError {
        error(.typeMismatch, "expected \(expected), found \(value.kindName)")
    }

    /// The required member `key` of `object`, decoded as `T`.
    @inlinable
    public mutating func required<T: JSONModelDecodable>(
        _ key: String, in object: JSONObject, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T {
        guard let value = object[key], !value.isNull else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return try at(key: key) { context throws(ModelDecodingError) in try T(json: value, context: &context) }
    }

    /// The required member `key` of `object` as written, `null` included (a value that may be null).
    @inlinable
    public mutating func present(_ key: String, in object: JSONObject) throws(ModelDecodingError) -> JSONValue {
        guard let value = object[key] else { throw error(.missingField, key: key, "required field '\(key)' is missing") }
        return value
    }

    /// The required member `key` of `object`, decoded as `T`, counted in `found` (the members of
    /// `object` found so far; see `optional(_:in:found:as:)`).
    @inlinable
    public mutating func required<T: JSONModelDecodable>(
        _ key: String, in object: JSONObject, found: inout Int, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T {
        guard let value = object[key], !value.isNull else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        found += 1
        return try at(key: key) { context throws(ModelDecodingError) in try T(json: value, context: &context) }
    }

    /// The optional member `key` of `object` decoded as `T` (`nil` when absent or `null`),
    /// counting the members found in `found`: once as many members were found as the object
    /// has (its keys are unique), every later one is absent without being looked for, so a
    /// model with many optional members pays only for those its object has.
    @inlinable
    public mutating func optional<T: JSONModelDecodable>(
        _ key: String, in object: JSONObject, found: inout Int, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T? {
        guard found < object.count, let value = object[key] else { return nil }
        found += 1
        guard !value.isNull else { return nil }
        return try at(key: key) { context throws(ModelDecodingError) in try T(json: value, context: &context) }
    }

    /// The optional member `key` of `object` decoded as `T`; `nil` when absent or `null`.
    @inlinable
    public mutating func optional<T: JSONModelDecodable>(
        _ key: String, in object: JSONObject, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T? {
        guard let value = object[key], !value.isNull else { return nil }
        return try at(key: key) { context throws(ModelDecodingError) in try T(json: value, context: &context) }
    }
}

/// A model that can be built from a `JSONValue` by the project's own decoder (the fast path).
public protocol JSONModelDecodable: Sendable {
    /// Builds the value from `json`; errors name `context.location`.
    init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError)

    /// Builds the value from a `JSONDocument`'s node, with the same result or the same error as
    /// from `node.value`; by default through `node.value`.
    init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError)
}

extension JSONModelDecodable {
    /// Builds the value from `node.value` (a model without a decoder of its own for nodes).
    public init(node: JSONNode, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        try self.init(json: node.value, context: &context)
    }

    /// Builds the value from a `JSONDocument`'s node with fresh limits, reporting errors
    /// relative to `location`.
    public init(
        node: JSONNode, at location: JSONLocation = .root, limits: ModelLimits = .default
    )
        throws(ModelDecodingError)
    {
        var context = ModelDecodingContext(limits: limits, base: location)
        try self.init(node: node, context: &context)
    }
}

// MARK: Field access in a document

extension ModelDecodingContext {
    /// The node as an object, or a type mismatch.
    public func object(_ node: JSONNode) throws(ModelDecodingError) -> JSONNode {
        guard node.isObject else { throw mismatch("an object", found: node) }
        return node
    }

    /// The type mismatch of a node that is not the kind a model needs (`"a string"`).
    public func mismatch(_ expected: String, found node: JSONNode) -> ModelDecodingError {
        error(.typeMismatch, "expected \(expected), found \(node.kindName)")
    }

    /// The object `node`'s members for lookups by key (`required(_:in:as:)` and the others
    /// taking a cursor), or a type mismatch.
    public func members(_ node: JSONNode) throws(ModelDecodingError) -> JSONMemberCursor {
        guard let members = node.memberCursor else { throw mismatch("an object", found: node) }
        return members
    }

    /// The required member `key` of the object `members` reads, decoded as `T`.
    @inlinable
    public mutating func required<T: JSONModelDecodable>(
        _ key: String, in members: inout JSONMemberCursor, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T {
        guard let value = members.take(key), !value.isNull else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return try at(key: key) { context throws(ModelDecodingError) in try T(node: value, context: &context) }
    }

    /// The required member `key` of the object `members` reads as written, `null` included.
    @inlinable
    public mutating func present(
        _ key: String, in members: inout JSONMemberCursor
    ) throws(ModelDecodingError)
        -> JSONValue
    {
        guard let value = members.take(key) else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return value.value
    }

    /// The optional member `key` of the object `members` reads, decoded as `T` (`nil` when
    /// absent or `null`); once every member of the object was found, absent without a search.
    @inlinable
    public mutating func optional<T: JSONModelDecodable>(
        _ key: String, in members: inout JSONMemberCursor, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T? {
        guard !members.isExhausted, let value = members.take(key), !value.isNull else { return nil }
        return try at(key: key) { context throws(ModelDecodingError) in try T(node: value, context: &context) }
    }
}

// MARK: Scalar members read in place

/// Members that are strings, numbers, booleans or open enumerations are read from the document
/// where they are, without a `JSONNode` (nor the reference counting of one) for each: the same
/// values and the same errors, at the same locations, as the generic lookups above.
extension ModelDecodingContext {
    /// The required string member `key` of the object `members` reads.
    public mutating func required(
        _ key: String, in members: inout JSONMemberCursor, as type: String.Type = String.self
    ) throws(ModelDecodingError) -> String {
        try string(at: requiredPosition(key, in: &members), key: key, in: members.view)
    }

    /// The optional string member `key` of the object `members` reads.
    public mutating func optional(
        _ key: String, in members: inout JSONMemberCursor, as type: String.Type = String.self
    ) throws(ModelDecodingError) -> String? {
        guard let position = optionalPosition(key, in: &members) else { return nil }
        return try string(at: position, key: key, in: members.view)
    }

    /// The required boolean member `key` of the object `members` reads.
    public mutating func required(
        _ key: String, in members: inout JSONMemberCursor, as type: Bool.Type = Bool.self
    ) throws(ModelDecodingError) -> Bool {
        try bool(at: requiredPosition(key, in: &members), key: key, in: members.view)
    }

    /// The optional boolean member `key` of the object `members` reads.
    public mutating func optional(
        _ key: String, in members: inout JSONMemberCursor, as type: Bool.Type = Bool.self
    ) throws(ModelDecodingError) -> Bool? {
        guard let position = optionalPosition(key, in: &members) else { return nil }
        return try bool(at: position, key: key, in: members.view)
    }

    /// The required number member `key` of the object `members` reads, as a `Double`.
    public mutating func required(
        _ key: String, in members: inout JSONMemberCursor, as type: Double.Type = Double.self
    ) throws(ModelDecodingError) -> Double {
        try double(at: requiredPosition(key, in: &members), key: key, in: members.view)
    }

    /// The optional number member `key` of the object `members` reads, as a `Double`.
    public mutating func optional(
        _ key: String, in members: inout JSONMemberCursor, as type: Double.Type = Double.self
    ) throws(ModelDecodingError) -> Double? {
        guard let position = optionalPosition(key, in: &members) else { return nil }
        return try double(at: position, key: key, in: members.view)
    }

    /// The required integer member `key` of the object `members` reads.
    public mutating func required(
        _ key: String, in members: inout JSONMemberCursor, as type: Int.Type = Int.self
    ) throws(ModelDecodingError) -> Int {
        try int(at: requiredPosition(key, in: &members), key: key, in: members.view)
    }

    /// The optional integer member `key` of the object `members` reads.
    public mutating func optional(
        _ key: String, in members: inout JSONMemberCursor, as type: Int.Type = Int.self
    ) throws(ModelDecodingError) -> Int? {
        guard let position = optionalPosition(key, in: &members) else { return nil }
        return try int(at: position, key: key, in: members.view)
    }

    /// The required open-enumeration member `key` of the object `members` reads (a known case
    /// matched by its bytes, without a `String`).
    public mutating func required<T: OpenEnum>(
        _ key: String, in members: inout JSONMemberCursor, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T {
        try openEnum(at: requiredPosition(key, in: &members), key: key, in: members.view, of: members.object)
    }

    /// The optional open-enumeration member `key` of the object `members` reads.
    public mutating func optional<T: OpenEnum>(
        _ key: String, in members: inout JSONMemberCursor, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T? {
        guard let position = optionalPosition(key, in: &members) else { return nil }
        return try openEnum(at: position, key: key, in: members.view, of: members.object) as T
    }

    /// The position of required member `key`'s value, or the missing-field error when it is
    /// absent or `null`.
    private func requiredPosition(_ key: String, in members: inout JSONMemberCursor) throws(ModelDecodingError) -> Int {
        guard let position = members.position(of: key), !members.view.isNull(at: position) else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return position
    }

    /// The position of optional member `key`'s value; nil when it is absent or `null`.
    private func optionalPosition(_ key: String, in members: inout JSONMemberCursor) -> Int? {
        guard !members.isExhausted, let position = members.position(of: key), !members.view.isNull(at: position)
        else { return nil }
        return position
    }

    /// The value at `position` as `read` gives it, or the type mismatch naming `expected` (the
    /// kind the model needs: `"a string"`).
    @inline(__always)
    private func scalar<T>(
        _ expected: String, at position: Int, key: String, in view: JSONTapeView, _ read: (JSONTapeView, Int) -> T?
    ) throws(ModelDecodingError) -> T {
        guard let value = read(view, position) else {
            throw error(.typeMismatch, key: key, "expected \(expected), found \(view.kindName(at: position))")
        }
        return value
    }

    fileprivate func string(at position: Int, key: String, in view: JSONTapeView) throws(ModelDecodingError) -> String {
        try scalar("a string", at: position, key: key, in: view) { $0.stringValue(at: $1) }
    }

    fileprivate func bool(at position: Int, key: String, in view: JSONTapeView) throws(ModelDecodingError) -> Bool {
        try scalar("a boolean", at: position, key: key, in: view) { $0.boolValue(at: $1) }
    }

    fileprivate func double(at position: Int, key: String, in view: JSONTapeView) throws(ModelDecodingError) -> Double {
        try scalar("a number", at: position, key: key, in: view) { $0.numberValue(at: $1) }.doubleValue
    }

    fileprivate func int(at position: Int, key: String, in view: JSONTapeView) throws(ModelDecodingError) -> Int {
        let number = try scalar("an integer", at: position, key: key, in: view) { $0.numberValue(at: $1) }
        guard let value = number.intValue else {
            throw error(.invalidValue, key: key, "expected an integer, found \(number)")
        }
        return value
    }

    /// The open enumeration at `position` of the document `object` belongs to (which keeps
    /// `view` alive).
    fileprivate func openEnum<T: OpenEnum>(
        at position: Int, key: String, in view: JSONTapeView, of object: JSONNode
    )
        throws(ModelDecodingError) -> T
    {
        let bytes = try scalar("a string", at: position, key: key, in: view) { $0.stringBytesValue(at: $1) }
        return withExtendedLifetime(object) {
            T.rawValueTable.match(bytes) ?? .unknown(view.string(at: position))
        }
    }
}

// MARK: Members found by a key set

/// A generated decoder finds its object's members in one walk (`fields(_:_:)`) and reads each
/// by its number in the model's `JSONKeySet`; `key` names the member in errors. The same values
/// and the same errors, at the same locations, as the lookups by key above.
extension ModelDecodingContext {
    /// The object `node`'s members found by `keys`, or a type mismatch.
    @inline(__always)
    package func fields(_ node: JSONNode, _ keys: JSONKeySet) throws(ModelDecodingError) -> JSONFields {
        guard node.isObject else { throw mismatch("an object", found: node) }
        return JSONFields(object: node, keys: keys)
    }

    /// The required member `key`, numbered `field`, of the object `fields` found, decoded as `T`.
    @inlinable
    package mutating func required<T: JSONModelDecodable>(
        _ key: String, field: Int, in fields: inout JSONFields, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T {
        guard let value = fields.node(field), !value.isNull else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return try at(key: key) { context throws(ModelDecodingError) in try T(node: value, context: &context) }
    }

    /// The required member `key`, numbered `field`, as written, `null` included.
    @inlinable
    package mutating func present(_ key: String, field: Int, in fields: inout JSONFields) throws(ModelDecodingError) -> JSONValue
    {
        guard let value = fields.node(field) else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return value.value
    }

    /// The optional member `key`, numbered `field`, decoded as `T` (`nil` when absent or `null`).
    @inlinable
    package mutating func optional<T: JSONModelDecodable>(
        _ key: String, field: Int, in fields: inout JSONFields, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T? {
        guard let value = fields.node(field), !value.isNull else { return nil }
        return try at(key: key) { context throws(ModelDecodingError) in try T(node: value, context: &context) }
    }

    /// The required string member `key`, numbered `field`.
    package mutating func required(
        _ key: String, field: Int, in fields: inout JSONFields, as type: String.Type = String.self
    ) throws(ModelDecodingError) -> String {
        try string(at: requiredPosition(key, field: field, in: &fields), key: key, in: fields.view)
    }

    /// The optional string member `key`, numbered `field`.
    package mutating func optional(
        _ key: String, field: Int, in fields: inout JSONFields, as type: String.Type = String.self
    ) throws(ModelDecodingError) -> String? {
        guard let position = optionalPosition(field: field, in: &fields) else { return nil }
        return try string(at: position, key: key, in: fields.view)
    }

    /// The required boolean member `key`, numbered `field`.
    package mutating func required(
        _ key: String, field: Int, in fields: inout JSONFields, as type: Bool.Type = Bool.self
    ) throws(ModelDecodingError) -> Bool {
        try bool(at: requiredPosition(key, field: field, in: &fields), key: key, in: fields.view)
    }

    /// The optional boolean member `key`, numbered `field`.
    package mutating func optional(
        _ key: String, field: Int, in fields: inout JSONFields, as type: Bool.Type = Bool.self
    ) throws(ModelDecodingError) -> Bool? {
        guard let position = optionalPosition(field: field, in: &fields) else { return nil }
        return try bool(at: position, key: key, in: fields.view)
    }

    /// The required number member `key`, numbered `field`, as a `Double`.
    package mutating func required(
        _ key: String, field: Int, in fields: inout JSONFields, as type: Double.Type = Double.self
    ) throws(ModelDecodingError) -> Double {
        try double(at: requiredPosition(key, field: field, in: &fields), key: key, in: fields.view)
    }

    /// The optional number member `key`, numbered `field`, as a `Double`.
    package mutating func optional(
        _ key: String, field: Int, in fields: inout JSONFields, as type: Double.Type = Double.self
    ) throws(ModelDecodingError) -> Double? {
        guard let position = optionalPosition(field: field, in: &fields) else { return nil }
        return try double(at: position, key: key, in: fields.view)
    }

    /// The required integer member `key`, numbered `field`.
    package mutating func required(
        _ key: String, field: Int, in fields: inout JSONFields, as type: Int.Type = Int.self
    ) throws(ModelDecodingError) -> Int {
        try int(at: requiredPosition(key, field: field, in: &fields), key: key, in: fields.view)
    }

    /// The optional integer member `key`, numbered `field`.
    package mutating func optional(
        _ key: String, field: Int, in fields: inout JSONFields, as type: Int.Type = Int.self
    ) throws(ModelDecodingError) -> Int? {
        guard let position = optionalPosition(field: field, in: &fields) else { return nil }
        return try int(at: position, key: key, in: fields.view)
    }

    /// The required open-enumeration member `key`, numbered `field`.
    package mutating func required<T: OpenEnum>(
        _ key: String, field: Int, in fields: inout JSONFields, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T {
        try openEnum(at: requiredPosition(key, field: field, in: &fields), key: key, in: fields.view, of: fields.object)
    }

    /// The optional open-enumeration member `key`, numbered `field`.
    package mutating func optional<T: OpenEnum>(
        _ key: String, field: Int, in fields: inout JSONFields, as type: T.Type = T.self
    ) throws(ModelDecodingError) -> T? {
        guard let position = optionalPosition(field: field, in: &fields) else { return nil }
        return try openEnum(at: position, key: key, in: fields.view, of: fields.object) as T
    }

    /// The position of required member `key`'s value, or the missing-field error when it is
    /// absent or `null`.
    private func requiredPosition(_ key: String, field: Int, in fields: inout JSONFields) throws(ModelDecodingError) -> Int {
        let position = fields.position(field)
        guard position >= 0, !fields.view.isNull(at: position) else {
            throw error(.missingField, key: key, "required field '\(key)' is missing")
        }
        return position
    }

    /// The position of the optional member numbered `field`; nil when it is absent or `null`.
    @inline(__always)
    private func optionalPosition(field: Int, in fields: inout JSONFields) -> Int? {
        let position = fields.position(field)
        guard position >= 0, !fields.view.isNull(at: position) else { return nil }
        return position
    }
}

/// A model that can describe itself as a `JSONValue` (with the wire format's keys).
public protocol JSONModelEncodable: Sendable {
    /// The JSON form of the value.
    var json: JSONValue { get }
}

/// A model with both JSON paths. Conforming also gives `Codable` through the same code, so
/// `JSONDecoder`/`JSONEncoder` produce equal values and identical wire keys.
public protocol JSONModel: JSONModelDecodable, JSONModelEncodable, Codable, Hashable {}

extension JSONModelDecodable {
    /// Builds the value from `json` with fresh limits, reporting errors relative to `location`.
    public init(
        json: JSONValue, at location: JSONLocation = .root, limits: ModelLimits = .default
    )
        throws(ModelDecodingError)
    {
        var context = ModelDecodingContext(limits: limits, base: location)
        try self.init(json: json, context: &context)
    }
}

extension JSONModel {
    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// Decodes through `JSONValue` and the fast path, so `Codable` and the project's decoder
    /// agree. Enum models call this from an explicit `init(from:)`, since the compiler would
    /// otherwise synthesize a different encoding for enums with associated values.
    public init(bridging decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json: json)
        } catch {
            var codingPath = decoder.codingPath
            for component in error.location.components {
                switch component {
                case .key(let key): codingPath.append(AnyCodingKey(key))
                case .index(let index): codingPath.append(IndexCodingKey(index))
                }
            }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: error.message, underlyingError: error)
            )
        }
    }
}

/// A coding key for an array position.
struct IndexCodingKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}
