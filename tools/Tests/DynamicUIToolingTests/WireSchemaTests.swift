import DynamicUIModels
import Testing

@testable import DynamicUITooling

/// The exported schema and the decoders, checked against each other both ways: every member
/// the schema lists is decoded with the same type, required-ness and default, and every member
/// the decoder reads (and the encoder writes) is in the schema.
@Suite("Wire schema ⇄ decoders")
struct WireSchemaTests {
    static let schema = DynamicUISchema.document()
    static let definitions = schema["$defs"]?.objectValue ?? JSONObject()
    static let checker = JSONSchemaChecker()

    /// Every declared model, by its `$defs` name.
    static let models: [(name: String, type: any JSONModel.Type)] = [
        ("ScreenDefinition", ScreenDefinition.self), ("ScreenTemplate", ScreenTemplate.self),
        ("NavigationConfig", NavigationConfig.self), ("TopBarConfig", TopBarConfig.self),
        ("PlatformOverride", PlatformOverride.self), ("ZoneOverride", ZoneOverride.self), ("Zone", Zone.self),
        ("ItemLayout", ItemLayout.self), ("Slot", Slot.self), ("SlotOption", SlotOption.self),
        ("ActionDefinition", ActionDefinition.self), ("DataConfig", DataConfig.self),
        ("PaginationConfig", PaginationConfig.self), ("NavigationDefinition", NavigationDefinition.self),
        ("NavItem", NavItem.self), ("ViewNode", ViewNode.self), ("TabItem", TabItem.self), ("NodeStyle", NodeStyle.self),
        ("ShadowStyle", ShadowStyle.self), ("FontSpec", FontSpec.self), ("Theme", Theme.self),
        ("ComponentLibrary", ComponentLibrary.self), ("ComponentDefinition", ComponentDefinition.self),
        ("NodeResultSelection", NodeResultSelection.self), ("AuthUserInfo", AuthUserInfo.self),
        ("UserContext", UserContext.self), ("ClientCapabilities", ClientCapabilities.self),
        ("DocumentPatch", DocumentPatch.self), ("PatchChange", PatchChange.self),
        ("VariableDeclaration", VariableDeclaration.self), ("VariableTrigger", VariableTrigger.self),
        ("TimerDefinition", TimerDefinition.self), ("ElementTransition", ElementTransition.self),
        ("VisibilityAction", VisibilityAction.self),
    ]

    /// Definitions with members that no Swift struct declares: catalog documents the composer
    /// reads as JSON, and the props of each node type (decoded by `NodeProps`, checked below).
    static let documentOnly: Set<String> = ["ScreenInstance", "ScreenTemplateDocument", "NodeAction"]

    @Test func everyObjectDefinitionHasADecoder() {
        let declared = Set(Self.models.map(\.name))
        for (name, definition) in Self.definitions where definition["properties"] != nil {
            if name.hasSuffix("Props") || Self.documentOnly.contains(name) { continue }
            #expect(declared.contains(name), "$defs/\(name) has members but no decoder in this test's list")
        }
        for name in declared { #expect(Self.definitions[name] != nil, "\(name) is not in the schema") }
    }

    @Test(arguments: models.map(\.name))
    func schemaAndDecoderAgree(name: String) throws {
        let type = try #require(Self.models.first { $0.name == name }?.type)
        let definition = try #require(Self.definitions[name])
        try Self.checkAgreement(name: name, definition: definition) { json throws(ModelDecodingError) in
            try type.init(json: json, at: .root, limits: .default).json
        } populated: { json in
            let value = try type.init(json: json, at: .root, limits: .default)
            return Mirror(reflecting: value).children.filter { Self.isNil($0.value) }.compactMap(\.label)
        }
    }

    @Test func nodePropsOfEveryTypeAgreeWithTheirDefinitions() throws {
        let branches = try #require(Self.definitions["ViewNode"]?["allOf"]?.arrayValue)
        var covered: Set<String> = []
        for branch in branches {
            let types = try #require(branch["if"]?["properties"]?["type"]?["enum"]?.arrayValue)
            let reference = try #require(
                branch["then"]?["properties"]?["props"]?["anyOf"]?[0]?["$ref"]?.stringValue
                    ?? branch["then"]?["properties"]?["props"]?["$ref"]?.stringValue)
            let propsName = String(reference.dropFirst("#/$defs/".count))
            let definition = try #require(Self.definitions[propsName])
            for case .string(let type) in types {
                covered.insert(type)
                try Self.checkAgreement(name: "\(propsName) (\(type))", definition: definition, at: "props") {
                    json throws(ModelDecodingError) in
                    let node = try ViewNode(json: ["type": .string(type), "props": json])
                    return .object(node.props.object)
                } populated: { _ in
                    []
                }
            }
        }
        let withProps = NodeType.knownCases.map(\.rawValue).filter { $0 != "divider" }
        #expect(covered == Set(withProps), "a props branch for every node type with props")
    }

    @Test func nodeActionsOfEveryTypeAgreeWithTheirDefinitions() throws {
        let definition = try #require(Self.definitions["NodeAction"])
        let branches = try #require(definition["allOf"]?.arrayValue)
        var covered: Set<String> = []
        for branch in branches {
            let types = try #require(branch["if"]?["properties"]?["actionType"]?["enum"]?.arrayValue)
            let then = try #require(branch["then"])
            for case .string(let type) in types {
                covered.insert(type)
                try Self.checkAgreement(name: "NodeAction (\(type))", definition: then) { json throws(ModelDecodingError) in
                    var object = try json.objectValue.orThrow()
                    object["actionType"] = .string(type)
                    var encoded = try NodeAction(json: .object(object)).json.objectValue.orThrow()
                    encoded["actionType"] = nil
                    return .object(encoded)
                } populated: { _ in
                    []
                }
            }
        }
        let known = definition["properties"]?["actionType"]?["examples"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(covered.union(["dismiss"]) == Set(known), "every action type with members has a branch")
    }

    @Test func openEnumerationsListExactlyTheKnownValues() throws {
        func known<Value: OpenEnum>(_ type: Value.Type) -> [String] { Value.knownCases.map(\.rawValue) }
        let enums: [(String, [String])] = [
            ("ScreenPattern", known(ScreenPattern.self)), ("ZoneType", known(ZoneType.self)),
            ("Distribution", known(Distribution.self)), ("ControlType", known(ControlType.self)),
            ("ActionTrigger", known(ActionTrigger.self)), ("ActionType", known(ActionType.self)),
            ("NodeType", known(NodeType.self)),
        ]
        for (name, values) in enums {
            let examples = Self.definitions[name]?["examples"]?.arrayValue?.compactMap(\.stringValue)
            #expect(examples == values, "\(name)")
        }
    }

    @Test func darkColorsAreInTheSchema() throws {
        let member = try #require(Self.definitions["Theme"]?["properties"]?["dark_colors"])
        #expect(member["additionalProperties"]?["type"] == "string")
        #expect(member["default"] == .object(JSONObject()))
    }

    // MARK: The check

    /// Checks one definition against its decoder (`decode` returns what the encoder writes):
    /// a sample with every member decodes, validates and is written back member for member;
    /// every stored property of the decoded value is set (else the decoder reads a member the
    /// schema lacks); a missing member is an error exactly when the schema requires it; a value
    /// of a type the schema rejects is rejected by the decoder at that member; an absent member
    /// with a schema default is written back as that default.
    static func checkAgreement(
        name: String, definition: JSONValue, at base: String = "",
        decode: (JSONValue) throws(ModelDecodingError) -> JSONValue,
        populated unset: (JSONValue) throws -> [String]
    ) throws {
        let properties = definition["properties"]?.objectValue ?? JSONObject()
        let required = Set(definition["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let sample = Self.sample(definition, depth: 0)
        let sampleObject = try #require(sample.objectValue, "\(name)")
        #expect(Self.checker.check(sample, against: definition).isEmpty, "\(name): the sample breaks the schema")

        let written: JSONValue
        do {
            written = try decode(sample)
        } catch {
            Issue.record("\(name): the decoder rejects a sample the schema accepts: \(error)")
            return
        }
        let writtenKeys = Set(written.objectValue?.keys ?? [])
        #expect(
            writtenKeys == Set(sampleObject.keys),
            "\(name): written \(writtenKeys.sorted()) vs schema \(sampleObject.keys.sorted())")
        let missing = try unset(sample)
        #expect(missing.isEmpty, "\(name): members \(missing) stay unset with every schema member given")

        for (key, property) in properties {
            let path = base.isEmpty ? key : "\(base).\(key)"
            var without = sampleObject
            without[key] = nil
            do {
                let rewritten = try decode(.object(without))
                #expect(!required.contains(key), "\(name).\(key) is required by the schema, but the decoder accepts its absence")
                if let defaultValue = property["default"] {
                    let value = rewritten[key] ?? Self.empty(like: defaultValue)
                    #expect(
                        value == defaultValue, "\(name).\(key): absent is written as \(value), schema default \(defaultValue)")
                }
            } catch {
                #expect(required.contains(key), "\(name).\(key) is optional in the schema, but the decoder requires it")
                #expect(error.code == .missingField && error.location.description == path, "\(name).\(key): \(error)")
            }
            for wrong in Self.rejected(by: property) {
                var broken = sampleObject
                broken[key] = wrong
                do {
                    _ = try decode(.object(broken))
                    Issue.record("\(name).\(key): the schema rejects \(wrong), the decoder accepts it")
                } catch {
                    #expect(error.location.description.hasPrefix(path), "\(name).\(key) = \(wrong): error at \(error.location)")
                }
            }
        }
    }

    /// A value with every member `schema` lists (only the required ones below depth 3).
    static func sample(_ schema: JSONValue, depth: Int) -> JSONValue {
        if let reference = schema["$ref"]?.stringValue,
            let target = definitions[String(reference.dropFirst("#/$defs/".count))]
        {
            return sample(target, depth: depth + 1)
        }
        if let constant = schema["const"] { return constant }
        let types = schema["type"].map { $0.arrayValue ?? [$0] }?.compactMap(\.stringValue).filter { $0 != "null" } ?? []
        if types.isEmpty, schema["properties"] != nil { return sample(schema.merging(type: "object"), depth: depth) }
        if types.isEmpty, let first = schema["anyOf"]?.arrayValue?.first(where: { $0["type"] != "null" }) {
            return sample(first, depth: depth)
        }
        switch types.first {
        case "string":
            if let example = schema["examples"]?[0] { return example }
            // A text that meets the member's pattern (a color, a non-blank name).
            let pattern = (schema["pattern"]?.stringValue).flatMap { try? Regex($0) }
            let text = ["sample", "#1A2B3C"].first { pattern == nil || $0.firstMatch(of: pattern!) != nil } ?? "sample"
            return .string(text)
        case "integer": return 1
        case "number": return schema["maximum"] == 1 ? 0.5 : 1.5
        case "boolean": return true
        case "array": return [sample(schema["items"] ?? "sample", depth: depth)]
        case "object":
            var object = JSONObject()
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (key, member) in schema["properties"]?.objectValue ?? JSONObject() where depth < 3 || required.contains(key) {
                object[key] = sample(member, depth: depth)
            }
            // The members the branch of an `allOf` whose `if` the object meets adds (the props of
            // a node's type, the members of an action's type).
            for branch in schema["allOf"]?.arrayValue ?? [] {
                guard let condition = branch["if"]?["properties"]?.objectValue, let then = branch["then"] else { continue }
                let met = condition.allSatisfy { key, rule in
                    object[key].map { rule["enum"]?.arrayValue?.contains($0) ?? true } ?? false
                }
                if met, case .object(let members) = sample(then.merging(type: "object"), depth: depth) {
                    for (key, value) in members { object[key] = value }
                }
            }
            if object.isEmpty { object["key"] = sample(schema["additionalProperties"] ?? "sample", depth: depth) }
            return .object(object)
        default:
            return "sample"
        }
    }

    /// Values of every JSON kind (but null) that `schema` rejects.
    static func rejected(by schema: JSONValue) -> [JSONValue] {
        let candidates: [JSONValue] = [true, 7, 2.5, "text", [], ["key": 1]]
        return candidates.filter { !checker.check($0, against: schema).isEmpty }
    }

    static func empty(like value: JSONValue) -> JSONValue {
        switch value {
        case .array: []
        case .object: .object(JSONObject())
        case .string: ""
        default: .null
        }
    }

    static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}

extension JSONSchemaChecker {
    /// Violations of `value` against `schema`, resolving references in the DynamicUI schema.
    func check(_ value: JSONValue, against schema: JSONValue) -> [Violation] {
        var document = DynamicUISchema.document().objectValue ?? JSONObject()
        document["anyOf"] = nil
        for (key, keyword) in schema.objectValue ?? JSONObject() { document[key] = keyword }
        return JSONSchemaChecker(schema: .object(document)).check(value)
    }
}

extension JSONValue {
    /// The schema with `type` set.
    fileprivate func merging(type: String) -> JSONValue {
        var object = objectValue ?? JSONObject()
        object["type"] = .string(type)
        return .object(object)
    }
}

extension Optional {
    fileprivate func orThrow() throws(ModelDecodingError) -> Wrapped {
        guard let self else { throw ModelDecodingError(.typeMismatch, at: .root, "expected an object") }
        return self
    }
}
