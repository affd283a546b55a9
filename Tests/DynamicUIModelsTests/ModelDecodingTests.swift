import Foundation
import Testing

@testable import DynamicUIModels

/// Decodes `text` through the fast path and returns the model error.
private func modelError<T: JSONModelDecodable>(
    _ type: T.Type, _ text: String, limits: ModelLimits = .default
) throws
    -> ModelDecodingError?
{
    let json = try JSONReader().read(text)
    do {
        _ = try T(json: json, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// A minimal valid screen whose third zone's first slot is given by `slot`.
private func screenText(slot: String, version: String = "1") -> String {
    """
    {"screen_id": "s1", "screen_key": "k", "screen_name": "N", "pattern": "list", "version": \(version),
     "updated_at": "2026-01-01T00:00:00Z", "actions": [],
     "template": {"zones": [
        {"id": "z0", "type": "container"},
        {"id": "z1", "type": "container", "slots": []},
        {"id": "z2", "type": "container", "slots": [\(slot)]}
     ]}}
    """
}

@Suite("Models: forward compatibility and errors")
struct ModelDecodingTests {
    @Test func unknownEnumValuesRoundTrip() throws {
        let slot = try Slot(json: try JSONReader().read(#"{"id": "h", "control_type": "hologram", "future_field": {"x": 1}}"#))
        #expect(slot.controlType == .unknown("hologram"))
        #expect(!slot.controlType.isKnown)
        #expect(slot.json["control_type"] == "hologram")
        #expect(slot.json["future_field"] == nil)
        let pattern = ScreenPattern(rawValue: "wizard")
        #expect(pattern == .unknown("wizard"))
        #expect(ScreenPattern(rawValue: "empty-state") == .emptyState)
        for known in ControlType.knownCases { #expect(ControlType(rawValue: known.rawValue) == known) }
        for known in ZoneType.knownCases { #expect(ZoneType(rawValue: known.rawValue) == known) }
        for known in ActionType.knownCases { #expect(ActionType(rawValue: known.rawValue) == known) }
        for known in NodeType.knownCases { #expect(NodeType(rawValue: known.rawValue) == known) }
        let encoded = try JSONEncoder().encode(ActionType.unknown("TELEPORT"))
        #expect(String(decoding: encoded, as: UTF8.self) == "\"TELEPORT\"")
        #expect(try JSONDecoder().decode(ActionType.self, from: encoded) == .unknown("TELEPORT"))
    }

    @Test func unknownNodeTypeKeepsPropsAndChildren() throws {
        let json = try JSONReader().read(
            #"{"type": "carousel", "props": {"interval": 3, "items": "$.x"}, "children": [{"type": "text", "props": {"content": "hi"}}], "extra": 1}"#
        )
        let node = try ViewNode(json: json)
        #expect(node.type == .unknown("carousel"))
        #expect(node.props == .unknown(["interval": 3, "items": "$.x"]))
        #expect(node.children.count == 1)
        #expect(try ViewNode(json: node.json) == node)
        let action = try NodeAction(json: try JSONReader().read(#"{"actionType": "vibrate", "pattern": [1, 2]}"#))
        #expect(action.actionType == "vibrate")
        #expect(action.json["pattern"] == [1, 2])
    }

    @Test func missingRequiredFieldNamesThePath() throws {
        let error = try #require(try modelError(ScreenDefinition.self, screenText(slot: #"{"id": "a"}"#)))
        #expect(error.code == .missingField)
        #expect(error.location.description == "template.zones[2].slots[0].control_type")
        #expect(error.description == "template.zones[2].slots[0].control_type: required field 'control_type' is missing")
    }

    @Test func nullRequiredFieldIsMissing() throws {
        let error = try #require(try modelError(ScreenDefinition.self, screenText(slot: #"{"id": "a", "control_type": null}"#)))
        #expect(error.code == .missingField)
        #expect(error.location.description == "template.zones[2].slots[0].control_type")
    }

    @Test func wrongTypeNamesThePath() throws {
        let slotError = try #require(try modelError(ScreenDefinition.self, screenText(slot: #"{"id": "a", "control_type": 7}"#)))
        #expect(slotError.code == .typeMismatch)
        #expect(slotError.location.description == "template.zones[2].slots[0].control_type")
        #expect(slotError.message == "expected a string, found integer")
        let versionError = try #require(
            try modelError(ScreenDefinition.self, screenText(slot: #"{"id": "a", "control_type": "label"}"#, version: "\"3\"")))
        #expect(versionError.code == .typeMismatch)
        #expect(versionError.location.description == "version")
        let fraction = try #require(
            try modelError(ScreenDefinition.self, screenText(slot: #"{"id": "a", "control_type": "label"}"#, version: "1.5")))
        #expect(fraction.code == .invalidValue)
        #expect(try modelError(ScreenDefinition.self, "[]")?.location == .root)
    }

    @Test func codablePathReportsTheSamePlace() throws {
        let data = Data(screenText(slot: #"{"id": "a"}"#).utf8)
        do {
            _ = try JSONDecoder().decode(ScreenDefinition.self, from: data)
            Issue.record("decoded an invalid screen")
        } catch let DecodingError.dataCorrupted(context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            #expect(path == ["template", "zones", "[2]", "slots", "[0]", "control_type"])
            #expect(context.underlyingError is ModelDecodingError)
        }
    }

    @Test func invalidValuesAreRejected() throws {
        let pagination = try #require(
            try modelError(PaginationConfig.self, #"{"page_size": 0, "limit_param": "l", "offset_param": "o"}"#))
        #expect(pagination.location.description == "page_size")
        let opacity = try #require(try modelError(NodeStyle.self, #"{"opacity": 2}"#))
        #expect(opacity.code == .invalidValue)
        #expect(opacity.location.description == "opacity")
        let dimension = try #require(try modelError(NodeStyle.self, #"{"width": "wide"}"#))
        #expect(dimension.location.description == "width")
        let setState = try #require(try modelError(NodeAction.self, #"{"actionType": "setState", "key": "k"}"#))
        #expect(setState.location.description == "value")
    }

    @Test func nodeDepthAndCountLimits() throws {
        var text = #"{"type": "text"}"#
        for _ in 0..<70 { text = #"{"type": "vstack", "children": [\#(text)]}"# }
        let depth = try #require(try modelError(ViewNode.self, text))
        #expect(depth.code == .limitExceeded)
        #expect(depth.location.components.count == 64 * 2)
        let wide =
            "{\"type\": \"vstack\", \"children\": [" + Array(repeating: #"{"type": "divider"}"#, count: 50).joined(separator: ",")
            + "]}"
        let count = try #require(try modelError(ViewNode.self, wide, limits: ModelLimits(maxNodeCount: 20)))
        #expect(count.code == .limitExceeded)
        #expect(count.location.description == "children[19]")
        #expect(try modelError(ViewNode.self, wide) == nil)
    }

    @Test func nodeVariantsDecode() throws {
        let padding = try NodeStyle(json: try JSONReader().read(#"{"padding": {"top": 4, "leading": 8}, "width": "infinity"}"#))
        #expect(padding.padding == .edges(top: 4, bottom: 0, leading: 8, trailing: 0))
        #expect(padding.width == .infinity)
        let merged = NodeStyle(font: "title", padding: .all(12), cornerRadius: 8).merged(
            with: NodeStyle(padding: .all(2), opacity: 0.5))
        #expect(merged == NodeStyle(font: "title", padding: .all(2), cornerRadius: 8, opacity: 0.5))
        let link = try ViewNode(json: try JSONReader().read(#"{"type": "navigation_link", "props": {"destination": "browse"}}"#))
        #expect(link.props == .navigationLink(destination: ScreenReference(screen: "browse"), label: nil))
        let list = try #require(try modelError(ViewNode.self, #"{"type": "list", "props": {"items": "$.x"}}"#))
        #expect(list.location.description == "props.itemTemplate")
    }
}

@Suite("Screen composer")
struct ScreenComposerTests {
    let template: JSONValue = [
        "template_id": "t", "pattern": "list",
        "template": [
            "zones": [
                [
                    "id": "outer", "type": "container",
                    "zones": [["id": "items", "type": "simple-list", "condition": "data.isNotEmpty"]],
                ]
            ]
        ],
    ]

    @Test func overridesReplaceFieldsOfNestedZones() throws {
        let instance: JSONValue = [
            "screen_id": "s", "screen_key": "k", "screen_name": "K", "template_id": "t", "version": 2, "actions": [],
            "updated_at": "2026-01-01T00:00:00Z",
            "zone_overrides": [
                "items": ["item_layout": ["slots": [["id": "t", "control_type": "label", "field": "title"]]], "condition": nil]
            ],
        ]
        let screen = try ScreenComposer.composeScreen(template: template, instance: instance)
        #expect(screen.pattern == .list)
        let items = try #require(screen.template.allZones.first { $0.id == "items" })
        #expect(items.itemLayout?.slots.first?.field == "title")
        #expect(items.condition == nil)
        #expect(items.type == .simpleList)
        let composed = try ScreenComposer.compose(template: template, instance: instance)
        #expect(composed["template_id"] == nil)
        #expect(composed["zone_overrides"] == nil)
    }

    @Test func overrideOfMissingZoneIsLocated() throws {
        let instance: JSONValue = ["screen_key": "k", "zone_overrides": ["nope": ["title": "x"]]]
        do {
            _ = try ScreenComposer.compose(template: template, instance: instance)
            Issue.record("accepted an override for a missing zone")
        } catch {
            #expect(error.location.description == "zone_overrides.nope")
            #expect(error.code == .invalidValue)
        }
    }
}
