/// An action of the node dialect (seed 002 §8). Parameter values may be bindings.
public indirect enum NodeAction: JSONModel {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// Push `screen` with a new context built from `params`.
    case navigate(screen: String, params: [String: JSONValue])
    /// Present `screen` as a sheet.
    case present(screen: String, params: [String: JSONValue])
    /// Dismiss the current sheet.
    case dismiss
    /// Call `endpoint` with query `params`, store the result under `resultKey` and the element
    /// `select` picks from it under the selection's key.
    case api(endpoint: String, params: [String: JSONValue], resultKey: String?, select: NodeResultSelection? = nil)
    /// Set state `key` to `value`.
    case setState(key: String, value: JSONValue)
    /// Dispatch a named event with a payload to a host handler.
    case custom(event: String, payload: [String: JSONValue])
    /// Run actions in order, stopping at the first failure.
    case sequence([NodeAction])
    /// An action type the SDK does not know, kept as written.
    case unknown(actionType: String, object: JSONObject)

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        let type: String = try context.required("actionType", in: o)
        switch type {
        case "navigate":
            self = .navigate(screen: try context.required("screen", in: o), params: try context.optional("params", in: o) ?? [:])
        case "present":
            self = .present(screen: try context.required("screen", in: o), params: try context.optional("params", in: o) ?? [:])
        case "dismiss":
            self = .dismiss
        case "api":
            self = .api(
                endpoint: try context.required("endpoint", in: o), params: try context.optional("params", in: o) ?? [:],
                resultKey: try context.optional("resultKey", in: o), select: try context.optional("select", in: o))
        case "setState":
            guard let value = o["value"] else {
                throw context.error(.missingField, key: "value", "required field 'value' is missing")
            }
            self = .setState(key: try context.required("key", in: o), value: value)
        case "custom":
            self = .custom(event: try context.required("event", in: o), payload: try context.optional("payload", in: o) ?? [:])
        case "sequence":
            self = .sequence(try context.required("actions", in: o))
        default:
            self = .unknown(actionType: type, object: o)
        }
    }

    /// The action types this SDK knows.
    public static let knownTypes = ["navigate", "present", "dismiss", "api", "setState", "custom", "sequence"]

    /// The `actionType` name.
    public var actionType: String {
        switch self {
        case .navigate: "navigate"
        case .present: "present"
        case .dismiss: "dismiss"
        case .api: "api"
        case .setState: "setState"
        case .custom: "custom"
        case .sequence: "sequence"
        case .unknown(let type, _): type
        }
    }

    public var json: JSONValue {
        if case .unknown(_, let object) = self { return .object(object) }
        var b = JSONObjectBuilder()
        b.set("actionType", actionType)
        switch self {
        case .navigate(let screen, let params), .present(let screen, let params):
            b.set("screen", screen)
            if !params.isEmpty { b.set("params", params) }
        case .dismiss, .unknown:
            break
        case .api(let endpoint, let params, let resultKey, let select):
            b.set("endpoint", endpoint)
            if !params.isEmpty { b.set("params", params) }
            b.set("resultKey", resultKey)
            b.set("select", select)
        case .setState(let key, let value):
            b.set("key", key)
            b.set("value", value)
        case .custom(let event, let payload):
            b.set("event", event)
            if !payload.isEmpty { b.set("payload", payload) }
        case .sequence(let actions):
            b.set("actions", actions)
        }
        return b.json
    }
}

/// One element of an `api` action's result, picked by its fields: the first element of the
/// array at `from` whose fields equal `where` (values may be bindings), stored under `key`, or
/// `null` when none does. A link can then carry an id instead of a whole record.
public struct NodeResultSelection: JSONModel {  // wire:
    /// The state key the element is stored under.
    public var key: String
    /// Dot-separated keys from the result to the array (`results`); empty: the result itself.
    public var from: String = ""  // wire: omitEmpty
    /// The fields an element must have, and their values (compared as text: `42` equals `"42"`).
    public var matching: [String: JSONValue]  // wire: key=where

    // wire: the memberwise initializer, generated by tools/wire/generate.py; do not edit.
    /// Creates a `NodeResultSelection` from its members.
    public init(key: String, from: String = "", matching: [String: JSONValue]) {
        self.key = key
        self.from = from
        self.matching = matching
    }
    // wire: end of generated code.

}
