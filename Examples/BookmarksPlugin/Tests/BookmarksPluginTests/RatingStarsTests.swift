import BookmarksPlugin
import DynamicUIModels
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

/// The component as both dialects lower it and as the web preview draws it.
@Suite("Rating stars: a prop of its own and an event of its own")
struct RatingStarsTests {
    let harness: NativeComponentHarness

    init() throws { harness = try NativeComponentHarness([RatingStarsComponent()]) }

    @Test func aScreenSlotGivesItsMaxAndFiresOnChange() throws {
        let slot: JSONValue = ["id": "rating", "control_type": "rating-stars", "field": "rating", "props": ["max": 7]]
        let actions: [JSONValue] = [
            [
                "id": "rated", "trigger": "BUTTON_CLICK", "trigger_slot_id": "rating", "event": "onChange", "type": "CUSTOM",
                "config": ["event": "rated"],
            ]
        ]
        let node = try #require(try harness.slot(slot, actions: actions))
        #expect(node.type == "rating-stars")
        #expect(node.props["max"] == 7)
        #expect(node.actions == ["onChange": "rated"])
        #expect(RatingStarsComponent.Stars(node).maximum == 7)
    }

    @Test func aNodeDocumentGivesTheSameAndItsTypeIsAsRegistered() throws {
        let document: JSONValue = [
            "type": "rating_stars",
            "props": [
                "value": "$.rating", "max": "$.max",
                "onChange": ["actionType": "setState", "key": "rated", "value": true],
            ],
        ]
        let node = try #require(try harness.node(document, data: ["rating": 3, "max": 4]))
        #expect(node.type == "rating-stars")
        let stars = RatingStarsComponent.Stars(node)
        #expect(stars.maximum == 4 && stars.chosen == 3)
        #expect(stars.text == "★★★☆")
    }

    @Test func hostileNumbersAreClampedAndTheFaceIsEscaped() throws {
        let node = CustomNode(
            type: "rating-stars", props: ["max": 1e300, "value": -5], actions: ["onChange": "x"], binding: nil,
            value: .null)
        let stars = RatingStarsComponent.Stars(node)
        #expect(stars.maximum == 10 && stars.chosen == 0)
        let html = harness.html(node)
        #expect(html.contains("☆☆☆☆☆☆☆☆☆☆"))
        #expect(html.contains("Rate</button>"))
        #expect(!html.contains("<script"))
    }
}
