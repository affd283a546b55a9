import Foundation

/// What an app version can draw, by capability name, and the schema version it speaks (the
/// compatibility contract between app versions and screens). Names are namespaced:
/// `pattern:dashboard`, `zone:metric-grid`, `control:text-input`, `node:lazy_vstack`,
/// `action:OPEN_URL`, `node-action:present`, `transform:duration`, `component:media-player`,
/// and `schema:3` (met by schema version 3 or later).
///
/// The SDK derives its own (`ClientCapabilities.sdk(…)` in `DynamicUIRendering`), sends a compact
/// form with every screen request, and uses it to choose each element's `fallback`; `sdui
/// capabilities` writes it as JSON and `sdui validate --client` checks documents against an
/// older app's.
public struct ClientCapabilities: JSONModel {  // wire: snake_case, init
    /// The document schema version the app speaks.
    public var schemaVersion: Int
    /// The SDK version that derived it.
    public var sdkVersion: String
    /// The platform (`ios`, `ipad`, `mac`), when known.
    public var platform: String?
    /// Screen patterns.
    public var patterns: Set<String> = []
    /// Zone types.
    public var zoneTypes: Set<String> = []
    /// Control types of slots.
    public var controlTypes: Set<String> = []
    /// Node types.
    public var nodeTypes: Set<String> = []
    /// Screen-dialect action types.
    public var actionTypes: Set<String> = []
    /// Node-dialect action types.
    public var nodeActionTypes: Set<String> = []
    /// Transforms of the expression language.
    public var transforms: Set<String> = []
    /// Native components registered by the host (`media-player`; `_` and `-` are the same).
    public var components: Set<String> = []
    /// Behaviours beyond the types (`deferred-sections`, `variables`, `timers`, `patches`).
    public var features: Set<String> = []

    /// Creates capabilities.
    public init(
        schemaVersion: Int, sdkVersion: String, platform: String? = nil, patterns: Set<String> = [],
        zoneTypes: Set<String> = [], controlTypes: Set<String> = [], nodeTypes: Set<String> = [],
        actionTypes: Set<String> = [], nodeActionTypes: Set<String> = [], transforms: Set<String> = [],
        components: Set<String> = [], features: Set<String> = []
    ) {
        self.features = features
        self.schemaVersion = schemaVersion
        self.sdkVersion = sdkVersion
        self.platform = platform
        self.patterns = patterns
        self.zoneTypes = zoneTypes
        self.controlTypes = controlTypes
        self.nodeTypes = nodeTypes
        self.actionTypes = actionTypes
        self.nodeActionTypes = nodeActionTypes
        self.transforms = transforms
        self.components = Set(components.map(Self.componentKey))
    }

    /// The schema version of this SDK's documents: 2 adds `requires`, `fallback` and `log_id`.
    public static let currentSchemaVersion = 2

    /// Whether the app has the capability `name` (unknown namespaces are not met).
    public func has(_ name: String) -> Bool {
        // Found by its byte: a search by character would break the name into graphemes.
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let space = name[..<colon]
        let value = String(name[name.index(after: colon)...])
        switch space {
        case "schema": return Int(value).map { $0 <= schemaVersion } ?? false
        case "pattern": return patterns.contains(value)
        case "zone": return zoneTypes.contains(value)
        case "control": return controlTypes.contains(value) || components.contains(Self.componentKey(value))
        case "node": return nodeTypes.contains(value) || components.contains(Self.componentKey(value))
        case "action": return actionTypes.contains(value)
        case "node-action": return nodeActionTypes.contains(value)
        case "transform": return transforms.contains(value)
        case "component": return components.contains(Self.componentKey(value))
        case "feature": return features.contains(value)
        default: return false
        }
    }

    /// The names of `requires` the app lacks.
    public func missing(_ requires: [String]?) -> [String] { (requires ?? []).filter { !has($0) } }

    /// Every capability name, sorted.
    public var names: [String] {
        var names = ["schema:\(schemaVersion)"]
        for (space, values) in [
            ("pattern", patterns), ("zone", zoneTypes), ("control", controlTypes), ("node", nodeTypes), ("action", actionTypes),
            ("node-action", nodeActionTypes), ("transform", transforms), ("component", components), ("feature", features),
        ] {
            names += values.map { "\(space):\($0)" }
        }
        return names.sorted()
    }

    /// A short, stable hash of every name (FNV-1a, hex): the same app version always sends the same.
    public var hash: String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in names.joined(separator: "\n").utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// The compact form sent with every screen request (`DynamicUI-Capabilities` header): schema,
    /// SDK version, platform, the host's components and the hash of the whole manifest.
    public var compact: String {
        var parts = ["schema=\(schemaVersion)", "sdk=\(sdkVersion)"]
        if let platform { parts.append("platform=\(platform)") }
        if !components.isEmpty { parts.append("components=\(components.sorted().joined(separator: ","))") }
        parts.append("hash=\(hash)")
        return parts.joined(separator: "; ")
    }

    /// The fields of a compact form (`schema`, `sdk`, `platform`, `components`, `hash`), for servers.
    public static func parseCompact(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for part in text.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        return fields
    }

    /// `video_player` and `VIDEO-PLAYER` are `video-player`: how component types compare
    /// everywhere (the native-component registry too).
    public static func componentKey(_ type: String) -> String { String(type.lowercased().map { $0 == "_" ? "-" : $0 }) }

}

/// What an element does when the app lacks what it `requires` (or does not know its type): use
/// another element in its place, or nothing.
public indirect enum Fallback<Element: JSONModel>: JSONModel {
    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// Draw nothing (`"fallback": "drop"`).
    case drop
    /// Draw this element instead (it may have requirements and a fallback of its own).
    case element(Element)

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        if case .string(let text) = json {
            guard text == "drop" else { throw context.error(.invalidValue, "expected \"drop\" or an element, found \"\(text)\"") }
            self = .drop
        } else {
            self = .element(try Element(json: json, context: &context))
        }
    }

    public var json: JSONValue {
        switch self {
        case .drop: .string("drop")
        case .element(let element): element.json
        }
    }
}
