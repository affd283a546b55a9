// The test of Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md (GuideSnippetTests
// checks that the guide's block is this region).

// snippet: test
import DynamicUIModels
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

@Test func mapPinDrawsItsPropsAndFiresOnOpen() throws {
    let harness = try NativeComponentHarness([MapPinComponent()])
    let node = try #require(
        try harness.node(
            [
                "type": "map_pin",
                "props": [
                    "title": "$.school.name", "latitude": "$.school.lat", "longitude": "$.school.lon",
                    "onOpen": ["actionType": "custom", "event": "openMaps", "payload": ["name": "$.school.name"]],
                ],
            ], data: ["school": ["name": "Colegio Andino", "lat": -12.05, "lon": -77.04]]))
    #expect(node.props["title"] == "Colegio Andino")
    #expect(node.actions.keys.contains("onOpen"))
    let html = harness.html(node)
    #expect(html.contains("<figcaption>Colegio Andino</figcaption>"))
    #expect(html.contains("-12.05, -77.04"))
    #expect(html.contains("Open in Maps</button>"))
}
// snippet: end
