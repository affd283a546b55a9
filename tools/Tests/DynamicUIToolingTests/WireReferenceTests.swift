import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITooling
import Foundation
import Testing

// The wire format reference (Modules/DynamicUI/DynamicUI.docc/WireFormatReference.md) is made
// from the same declarations as `sdui schema` (DynamicUISchema) and the SDK's capability
// manifest (ClientCapabilities.sdk()), so it cannot drift: the test fails when the committed
// article differs from what they give, and `DYNAMICUI_WRITE_REFERENCE=1 swift test --filter
// WireReferenceTests` writes it again.

/// The wire format reference as a DocC article.
enum WireReference {
    /// The article's path, relative to the package root.
    static let path = "Modules/DynamicUI/DynamicUI.docc/WireFormatReference.md"

    /// One family of capability names and how a minimal element of it is written.
    struct Family {
        var title: String
        var prefix: String
        var values: [String]
        var field: String
        var example: (String) -> String
    }

    /// The capability families of `capabilities`, in the order the article lists them.
    static func families(_ capabilities: ClientCapabilities) -> [Family] {
        func sorted(_ values: Set<String>) -> [String] { values.sorted() }
        return [
            Family(
                title: "Screen patterns", prefix: "pattern", values: sorted(capabilities.patterns),
                field: "`pattern` of a screen or template"
            ) { "{\"pattern\": \"\($0)\", \"template\": {\"zones\": []}}" },
            Family(
                title: "Zone types", prefix: "zone", values: sorted(capabilities.zoneTypes), field: "`type` of a zone"
            ) { "{\"id\": \"z1\", \"type\": \"\($0)\", \"slots\": []}" },
            Family(
                title: "Control types", prefix: "control", values: sorted(capabilities.controlTypes),
                field: "`control_type` of a slot"
            ) { "{\"id\": \"s1\", \"control_type\": \"\($0)\"}" },
            Family(
                title: "Screen-dialect action types", prefix: "action", values: sorted(capabilities.actionTypes),
                field: "`type` of an action"
            ) { "{\"id\": \"a1\", \"trigger\": \"BUTTON_CLICK\", \"type\": \"\($0)\"}" },
            Family(
                title: "Node types", prefix: "node", values: sorted(capabilities.nodeTypes), field: "`type` of a view node"
            ) { "{\"type\": \"\($0)\"}" },
            Family(
                title: "Node-dialect action types", prefix: "node-action", values: sorted(capabilities.nodeActionTypes),
                field: "`actionType` of a node action"
            ) { "{\"actionType\": \"\($0)\"}" },
            Family(
                title: "Transforms (expression functions)", prefix: "transform", values: sorted(capabilities.transforms),
                field: "after `|` in an expression"
            ) { "$.value | \(transformExample($0))" },
        ]
    }

    /// A transform as written with a typical argument.
    static func transformExample(_ name: String) -> String {
        switch name {
        case "date": "date:yyyy-MM-dd"
        case "duration": "duration:mm:ss"
        case "join": "join:' / '"
        case "default": "default:—"
        case "truncate": "truncate:20"
        default: name
        }
    }

    /// The article.
    static func markdown(
        schema: JSONValue = DynamicUISchema.document(), capabilities: ClientCapabilities = .sdk()
    ) -> String {
        var out: [String] = []
        out.append("# Wire format reference")
        out.append("")
        out.append("Every element of both wire dialects: its fields, types, limits, capability name and a minimal example.")
        out.append("")
        out.append("## Overview")
        out.append("")
        out.append(
            "This article is generated from the declarations behind `sdui schema` (the JSON Schema of both "
                + "dialects) and the SDK's capability manifest (`sdui capabilities`), so it cannot drift from what the "
                + "decoders accept: a test fails when it differs, and "
                + "`DYNAMICUI_WRITE_REFERENCE=1 swift test --package-path tools --filter WireReferenceTests` writes it again. "
                + "Schema version \(capabilities.schemaVersion), SDK \(capabilities.sdkVersion).")
        out.append("")
        out.append(
            "Unknown members are ignored everywhere; optional members may be `null`. A value of an open list "
                + "(patterns, zone, control, action and node types) that the SDK does not know decodes as unknown "
                + "and is drawn by its `fallback` (see <doc:AuthoringScreens>). An element may declare the "
                + "capabilities it `requires`; the name of each is given below. The file layout of the catalogs "
                + "is described in `tools/catalog/FORMAT.md`.")
        out.append("")
        out.append("## Capabilities")
        out.append("")
        for family in families(capabilities) {
            out.append("### \(family.title)")
            out.append("")
            out.append("Written as \(family.field). \(family.values.count) values.")
            out.append("")
            out.append("| value | capability | minimal example |")
            out.append("|---|---|---|")
            for value in family.values {
                out.append("| `\(cell(value))` | `\(family.prefix):\(cell(value))` | `\(cell(family.example(value)))` |")
            }
            out.append("")
        }
        out.append("### Native components")
        out.append("")
        out.append(
            "A component a host registers is `component:<type>` (`_` and `-` are the same) and is also a "
                + "control type and a node type: `control:media-player`, `node:media_player`.")
        out.append("")
        out.append("## Documents and elements")
        out.append("")
        out.append(
            "Each document kind and element, as the JSON Schema declares it. A document is one of: "
                + DynamicUISchema.documentKinds.map { "`\($0)`" }.joined(separator: ", ") + ".")
        out.append("")
        let definitions = schema["$defs"]?.objectValue ?? [:]
        for (name, definition) in definitions {
            out.append("### \(name)")
            out.append("")
            if let description = definition["description"]?.stringValue {
                out.append(description)
                out.append("")
            }
            let table = fieldTable(definition)
            out += table
            if table.isEmpty, definition["type"]?.stringValue != "object" {
                out.append("Written as: \(typeName(definition)).")
                out.append("")
            }
            for branch in definition["allOf"]?.arrayValue ?? [] {
                guard let condition = branch["if"], let then = branch["then"] else { continue }
                out.append("When \(describeCondition(condition)):")
                out.append("")
                let branchTable = fieldTable(then)
                out += branchTable.isEmpty ? ["(no further fields)", ""] : branchTable
            }
            if let example = minimalExample(definition) {
                out.append("Minimal example: `\(cell(example))`")
                out.append("")
            }
        }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }

    /// The table of a definition's fields, or nothing when it has none.
    static func fieldTable(_ definition: JSONValue) -> [String] {
        guard let properties = definition["properties"]?.objectValue, !properties.isEmpty else { return [] }
        let required = Set((definition["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var out = ["| field | type | required | description |", "|---|---|---|---|"]
        for (field, property) in properties {
            out.append(
                "| `\(cell(field))` | \(cell(typeName(property))) | \(required.contains(field) ? "yes" : "no") | "
                    + "\(cell(details(property))) |")
        }
        out.append("")
        return out
    }

    /// A property's type in words: `string`, `array of Zone`, `Zone or null`.
    static func typeName(_ property: JSONValue) -> String {
        if let reference = property["$ref"]?.stringValue {
            return String(reference.split(separator: "/").last ?? "")
        }
        if let options = property["anyOf"]?.arrayValue {
            return options.map(typeName).joined(separator: " or ")
        }
        if let constant = property["const"] {
            return "`\(JSONWriter().string(from: constant))`"
        }
        let kinds: [String] =
            if let many = property["type"]?.arrayValue { many.compactMap(\.stringValue) } else {
                [property["type"]?.stringValue].compactMap { $0 }
            }
        if kinds.isEmpty { return "any" }
        return kinds.map { kind in
            switch kind {
            case "array": property["items"].map { "array of \(typeName($0))" } ?? "array"
            case "object":
                property["additionalProperties"].flatMap { $0.objectValue != nil ? "object of \(typeName($0))" : nil }
                    ?? "object"
            default: kind
            }
        }.joined(separator: " or ")
    }

    /// A property's description with its limits and listed values.
    static func details(_ property: JSONValue) -> String {
        var parts: [String] = []
        if let description = property["description"]?.stringValue { parts.append(description) }
        if let length = property["minLength"]?.intValue { parts.append("At least \(length) character(s).") }
        if let minimum = property["minimum"] { parts.append("Minimum \(JSONWriter().string(from: minimum)).") }
        if let maximum = property["maximum"] { parts.append("Maximum \(JSONWriter().string(from: maximum)).") }
        if let bound = property["exclusiveMinimum"] { parts.append("More than \(JSONWriter().string(from: bound)).") }
        if let meaning = property["x-pattern-meaning"]?.stringValue {
            parts.append("Must be \(meaning).")
        } else if let pattern = property["pattern"]?.stringValue {
            parts.append("Matches `\(pattern)`.")
        }
        if let values = property["enum"]?.arrayValue {
            parts.append("One of " + values.map { "`\(JSONWriter().string(from: $0))`" }.joined(separator: ", ") + ".")
        }
        return parts.joined(separator: " ")
    }

    /// `actionType` is `navigate` or `present`, from an `if` of the schema.
    static func describeCondition(_ condition: JSONValue) -> String {
        guard let properties = condition["properties"]?.objectValue else { return "the condition holds" }
        return properties.map { element -> String in
            let (field, rule) = element
            let values = (rule["enum"]?.arrayValue ?? [rule["const"]].compactMap { $0 })
                .map { "`\(JSONWriter().string(from: $0))`" }
            return "`\(field)` is \(values.joined(separator: " or "))"
        }.joined(separator: " and ")
    }

    /// The smallest object with the definition's required fields.
    static func minimalExample(_ definition: JSONValue) -> String? {
        guard definition["type"]?.stringValue == "object", let properties = definition["properties"]?.objectValue else {
            return nil
        }
        let required = (definition["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        let pairs = required.map { field in (field, sample(properties[field] ?? .null)) }
        return JSONWriter().string(from: .object(JSONObject(pairs)))
    }

    /// A value of a property's type.
    static func sample(_ property: JSONValue, depth: Int = 0) -> JSONValue {
        if let first = property["examples"]?.arrayValue?.first { return first }
        if let first = property["enum"]?.arrayValue?.first { return first }
        if let constant = property["const"] { return constant }
        if let reference = property["$ref"]?.stringValue {
            // The referenced definition's own smallest value: a known value of an enumeration,
            // the required members of a model (nested models only two levels deep).
            let name = String(reference.dropFirst("#/$defs/".count))
            guard depth < 2, let definition = DynamicUISchema.document()["$defs"]?[name] else { return .object([:]) }
            if definition["type"]?.stringValue == "object", let properties = definition["properties"]?.objectValue {
                let required = (definition["required"]?.arrayValue ?? []).compactMap(\.stringValue)
                return .object(JSONObject(required.map { ($0, sample(properties[$0] ?? .null, depth: depth + 1)) }))
            }
            return sample(definition, depth: depth + 1)
        }
        if let options = property["anyOf"]?.arrayValue, let first = options.first { return sample(first, depth: depth) }
        let kind = property["type"]?.stringValue ?? property["type"]?.arrayValue?.first?.stringValue ?? ""
        switch kind {
        case "string": return "text"
        case "integer": return 1
        case "number": return 1
        case "boolean": return true
        case "array": return []
        case "object": return .object([:])
        default: return .null
        }
    }

    /// Text safe in a Markdown table cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

@Suite("The wire format reference is generated from the schema and the capability manifest")
struct WireReferenceTests {
    static let url = ExampleSnippetTests.root.appendingPathComponent(WireReference.path)

    @Test func theCommittedReferenceIsTheGeneratedOne() throws {
        let generated = WireReference.markdown()
        if ProcessInfo.processInfo.environment["DYNAMICUI_WRITE_REFERENCE"] == "1" {
            try Data(generated.utf8).write(to: Self.url)
        }
        let committed = try String(contentsOf: Self.url, encoding: .utf8)
        #expect(
            committed == generated,
            """
            \(WireReference.path) differs from the schema and the capability manifest; regenerate it with \
            DYNAMICUI_WRITE_REFERENCE=1 swift test --package-path tools --filter WireReferenceTests:
            \(ExampleSnippets.diff(committed, generated))
            """)
    }

    /// Every value the decoders know, family by family, straight from the models' own lists.
    @Test func theReferenceCoversEveryElementTheDecodersAccept() throws {
        let reference = try String(contentsOf: Self.url, encoding: .utf8)
        let known: [(String, [String])] = [
            ("pattern", ScreenPattern.knownCases.map(\.rawValue)),
            ("zone", ZoneType.knownCases.map(\.rawValue)),
            ("control", ControlType.knownCases.map(\.rawValue)),
            ("action", ActionType.knownCases.map(\.rawValue)),
            ("node", NodeType.knownCases.map(\.rawValue)),
            ("node-action", NodeAction.knownTypes),
            ("transform", Transform.names),
        ]
        for (prefix, values) in known {
            #expect(!values.isEmpty)
            for value in values {
                #expect(reference.contains("| `\(prefix):\(WireReference.cell(value))` |"), "no row for \(prefix):\(value)")
            }
        }
        for trigger in ActionTrigger.knownCases.map(\.rawValue) + Distribution.knownCases.map(\.rawValue) {
            #expect(reference.contains(trigger), "the reference never names \(trigger)")
        }
        let definitions = DynamicUISchema.document()["$defs"]?.objectValue?.keys ?? []
        #expect(definitions.count > 20)
        for name in definitions { #expect(reference.contains("\n### \(name)\n"), "no section for \(name)") }
    }

    @Test func aFieldTableGivesTypesLimitsAndRequiredness() {
        let definition: JSONValue = [
            "type": "object",
            "properties": [
                "id": ["type": "string", "description": "The id.", "minLength": 1],
                "zones": ["type": "array", "items": ["$ref": "#/$defs/Zone"]],
                "mode": ["type": ["string", "null"], "enum": ["a", "b"]],
            ],
            "required": ["id"],
        ]
        #expect(
            WireReference.fieldTable(definition) == [
                "| field | type | required | description |", "|---|---|---|---|",
                "| `id` | string | yes | The id. At least 1 character(s). |",
                "| `zones` | array of Zone | no |  |",
                "| `mode` | string or null | no | One of `\"a\"`, `\"b\"`. |",
                "",
            ])
        #expect(WireReference.minimalExample(definition) == "{\"id\":\"text\"}")
    }
}
