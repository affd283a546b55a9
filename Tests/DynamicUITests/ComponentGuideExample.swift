import DynamicUIModels
public import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

#if canImport(SwiftUI)
    public import DynamicUISwiftUI
    public import SwiftUI
#endif

// The code of Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md, compiled and
// tested here (the guide's code blocks must appear in this file verbatim).

/// A pin on a map: `map-pin` (screens) or `map_pin` (node documents) with `latitude`,
/// `longitude` and `title`; fires `onOpen` when the user opens it in Maps.
public struct MapPinComponent: NativeComponent {
    public let type = "map-pin"
    public let actionNames = ["onOpen"]

    public init() {}

    /// The web preview: the place's name and coordinates, and a button that fires `onOpen`.
    public func html(_ node: CustomNode) -> HTMLFragment {
        let title = node.props["title"]?.stringValue ?? "Pin"
        let latitude = node.props["latitude"]?.doubleValue ?? 0
        let longitude = node.props["longitude"]?.doubleValue ?? 0
        return .element(
            "figure", attributes: [HTMLAttribute("class", "map-pin")],
            children: [
                .element("figcaption", children: [.text(title)]),
                .element("small", children: [.text("\(latitude), \(longitude)")]),
                .action("onOpen", label: [.text("Open in Maps")]),
            ])
    }
}

#if canImport(SwiftUI)
    extension MapPinComponent: SwiftUINativeComponent {
        @MainActor
        public func view(_ node: CustomNode, actions: NativeComponentActions) -> AnyView {
            AnyView(
                Button {
                    actions.perform("onOpen")
                } label: {
                    Label(node.props["title"]?.stringValue ?? "Pin", systemImage: "mappin.and.ellipse")
                })
        }
    }
#endif

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
