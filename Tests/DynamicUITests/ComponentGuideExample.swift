// The code of Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md, compiled and
// tested here (its test is MapPinComponentTests.swift): each region between snippet lines is one
// of the guide's code blocks (GuideSnippetTests), imports included.

// snippet: component
import DynamicUIModels
public import DynamicUIRendering

#if canImport(SwiftUI)
    public import DynamicUISwiftUI
    public import SwiftUI
#endif

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

// snippet: end

// snippet: view
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
// snippet: end
