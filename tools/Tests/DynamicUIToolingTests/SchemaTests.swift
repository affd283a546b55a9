import DynamicUICatalog
import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUITooling

@Suite("JSON Schema")
struct SchemaTests {
    static let checker = JSONSchemaChecker()
    static let edugo = try! EduGoCatalog()
    static let podcasts = PodcastsCatalog()

    static func violations(inBroken file: String) throws -> [JSONSchemaChecker.Violation] {
        let data = try Data(contentsOf: brokenFolder.appendingPathComponent(file))
        return checker.check(try JSONReader().read(data))
    }

    @Test func isADraft2020SchemaWithADefinitionPerModel() throws {
        let schema = DynamicUISchema.document()
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"]?.stringValue == "https://dynamicui.dev/schema/v1.json")
        let definitions = try #require(schema["$defs"]?.objectValue)
        let models = [
            "ScreenDefinition", "ScreenInstance", "ScreenTemplateDocument", "ScreenTemplate", "NavigationConfig", "TopBarConfig",
            "PlatformOverride", "ZoneOverride", "Zone", "ItemLayout", "Slot", "SlotOption", "ActionDefinition", "DataConfig",
            "PaginationConfig", "NavigationDefinition", "NavItem", "ViewNode", "NodeStyle", "EdgePadding", "FrameDimension",
            "ShadowStyle", "NodeAction", "ScreenReference", "TabItem", "Theme", "FontSpec", "ComponentLibrary",
            "ComponentDefinition", "ListProps", "ButtonProps",
        ]
        for name in models { #expect(definitions[name] != nil, "no $defs/\(name)") }
        #expect(schema["anyOf"]?.arrayValue?.count == DynamicUISchema.documentKinds.count)
        #expect(try JSONReader().read(DynamicUISchema.text()) == schema)

        // Every $ref resolves, and no object forbids unknown members.
        var pending = [schema]
        var references: Set<String> = []
        while let value = pending.popLast() {
            switch value {
            case .object(let object):
                if let reference = object["$ref"]?.stringValue { references.insert(reference) }
                #expect(object["additionalProperties"] != .bool(false))
                pending.append(contentsOf: object.values)
            case .array(let elements):
                pending.append(contentsOf: elements)
            default:
                break
            }
        }
        #expect(!references.isEmpty)
        for reference in references {
            #expect(reference.hasPrefix("#/$defs/") && definitions[String(reference.dropFirst(8))] != nil, "\(reference)")
        }
    }

    @Test(arguments: edugo.screenKeys)
    func composedEduGoScreenMatches(key: String) throws {
        let violations = Self.checker.check(try Self.edugo.screenJSON(key))
        #expect(violations.isEmpty, "\(key): \(violations)")
    }

    @Test func eduGoTemplatesInstancesAndNavigationMatch() throws {
        for (id, template) in Self.edugo.templates.sorted(by: { $0.key < $1.key }) {
            let violations = Self.checker.check(template)
            #expect(violations.isEmpty, "template \(id): \(violations)")
        }
        for (key, instance) in Self.edugo.instances.sorted(by: { $0.key < $1.key }) {
            let violations = Self.checker.check(instance)
            #expect(violations.isEmpty, "instance \(key): \(violations)")
        }
        let roles = try Self.edugo.navigationRoles()
        #expect(!roles.isEmpty)
        for role in roles {
            let data = try Data(contentsOf: Self.edugo.folder.appendingPathComponent("navigation/\(role).json"))
            let violations = Self.checker.check(try JSONReader().read(data))
            #expect(violations.isEmpty, "navigation \(role): \(violations)")
        }
    }

    @Test(arguments: PodcastsCatalog.documentNames + ["theme", "components"])
    func podcastDocumentMatches(name: String) throws {
        let violations = Self.checker.check(try Self.podcasts.json(name))
        #expect(violations.isEmpty, "\(name): \(violations)")
    }

    @Test func brokenDocumentsFailAtTheirPath() throws {
        let wrongType = try Self.violations(inBroken: "wrong-type.json")
        #expect(wrongType.map(\.path) == ["template.zones[0].slots[0].id"], "\(wrongType)")
        #expect(wrongType.first?.message == "expected string, found integer")
        let missing = try Self.violations(inBroken: "missing-required-field.json")
        #expect(missing.map(\.path) == ["screen_name"], "\(missing)")
        let pageSize = try Self.violations(inBroken: "pagination-page-size-zero.json")
        #expect(pageSize.map(\.path) == ["data_config.pagination.page_size"], "\(pageSize)")

        let list = try JSONReader().read(#"{"type": "list", "props": {"itemTemplate": {"type": "text"}}}"#)
        #expect(Self.checker.check(list).map(\.path) == ["props.items"], "\(Self.checker.check(list))")
        let theme = try JSONReader().read(#"{"colors": {"primary": 42}}"#)
        #expect(Self.checker.check(theme).map(\.path) == ["colors.primary"], "\(Self.checker.check(theme))")
        let action = try JSONReader().read(#"{"type": "button", "props": {"action": {"actionType": "navigate"}}}"#)
        #expect(Self.checker.check(action).map(\.path) == ["props.action.screen"], "\(Self.checker.check(action))")
        #expect(Self.checker.check([1, 2]).map(\.path) == ["$"])
    }

    @Test func unknownTypesAndRulesBeyondTheSchemaStayValid() throws {
        // Unknown control types decode as `.unknown`, so the schema accepts any string.
        #expect(try Self.violations(inBroken: "unknown-control-type.json").isEmpty)
        // Duplicate ids and malformed endpoints are the validator's business, not the schema's.
        #expect(try Self.violations(inBroken: "duplicate-slot-id.json").isEmpty)
        #expect(try Self.violations(inBroken: "malformed-path-param.json").isEmpty)
        let node = try JSONReader().read(#"{"type": "hologram", "props": {"depth": 3}, "futureMember": true}"#)
        #expect(Self.checker.check(node).isEmpty)
    }

    @Test func checkerKeywords() throws {
        let schema = try JSONReader().read(
            #"""
            {
              "$defs": {"Name": {"type": "string", "minLength": 2}},
              "type": "object",
              "required": ["name", "count"],
              "properties": {
                "name": {"$ref": "#/$defs/Name"},
                "count": {"type": ["integer", "null"], "minimum": 0, "maximum": 10},
                "kind": {"enum": ["a", "b"]},
                "fixed": {"const": true},
                "tags": {"type": "array", "items": {"type": "string"}},
                "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "shape": {"if": {"required": ["radius"]}, "then": {"required": ["center"]}, "else": {"required": ["width"]}}
              },
              "additionalProperties": {"type": "number"}
            }
            """#)
        let checker = JSONSchemaChecker(schema: schema)
        let valid = try JSONReader().read(
            #"{"name": "ab", "count": 3, "kind": "a", "fixed": true, "tags": ["x"], "either": 1, "shape": {"width": 2}, "extra": 1.5}"#
        )
        #expect(checker.check(valid).isEmpty, "\(checker.check(valid))")
        #expect(checker.isValid(try JSONReader().read(#"{"name": "ab", "count": null}"#)))

        let invalid = try JSONReader().read(
            #"{"name": "a", "count": 1.5, "kind": "c", "fixed": false, "tags": [1], "either": true, "shape": {"radius": 1}, "extra": "x"}"#
        )
        #expect(
            checker.check(invalid).map(\.path) == [
                "name", "count", "kind", "fixed", "tags[0]", "either", "shape.center", "extra",
            ], "\(checker.check(invalid))")
        #expect(checker.check(try JSONReader().read("{}")).map(\.path) == ["name", "count"])
        let tooMany = try JSONReader().read(#"{"name": "ab", "count": 11}"#)
        #expect(checker.check(tooMany).map(\.message) == ["expected at most 10, found 11"])
        let negative = try JSONReader().read(#"{"name": "ab", "count": -1}"#)
        #expect(checker.check(negative).map(\.message) == ["expected at least 0, found -1"])

        let ambiguous = JSONSchemaChecker(schema: try JSONReader().read(#"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#))
        #expect(ambiguous.check(1).map(\.message) == ["matches 2 alternatives of oneOf; expected exactly one"])
        #expect(ambiguous.check(1.5).isEmpty)
        #expect(JSONSchemaChecker(schema: false).check(1).count == 1)
        #expect(JSONSchemaChecker(schema: true).check(1).isEmpty)
    }
}
