// A native component with a prop the SDK does not know (`max`) and an event of its own
// (`onChange`): a row of stars that sets the form field it edits and fires `onChange`.

import DynamicUIModels
public import DynamicUIRendering

#if canImport(SwiftUI)
    public import DynamicUISwiftUI
    public import SwiftUI
#endif

/// Stars to rate with: `rating-stars` (screens) or `rating_stars` (node documents), with the
/// current `value` and `max` stars (1…10, 5 by default); fires `onChange` when a star is chosen.
public struct RatingStarsComponent: NativeComponent {
    /// `rating-stars`.
    public let type = "rating-stars"
    /// `onChange`.
    public let actionNames = ["onChange"]

    /// The component.
    public init() {}

    /// What a node shows: the stars chosen and the stars there are, clamped (a server's number
    /// never traps: `max` to 1…10, the value to 0…`max`).
    public struct Stars: Sendable, Hashable {
        /// Stars there are.
        public let maximum: Int
        /// Stars chosen.
        public let chosen: Int

        /// The stars of `node`: its `max` prop and its value (the field it edits, else `value`).
        public init(_ node: CustomNode) {
            maximum = WireNumber.int(rounding: node.props["max"]?.doubleValue ?? 5, in: 1...10)
            let current = node.value.doubleValue ?? Double(node.value.stringValue ?? "") ?? node.props["value"]?.doubleValue
            chosen = WireNumber.int(rounding: current ?? 0, in: 0...maximum)
        }

        /// "★★★☆☆".
        public var text: String { String(repeating: "★", count: chosen) + String(repeating: "☆", count: maximum - chosen) }
    }

    /// The web preview: the stars as text and a button that fires `onChange`.
    public func html(_ node: CustomNode) -> HTMLFragment {
        let stars = Stars(node)
        return .element(
            "div",
            attributes: [
                HTMLAttribute("class", "rating-stars"), HTMLAttribute("aria-label", "\(stars.chosen) of \(stars.maximum)"),
            ],
            children: [
                .element("span", children: [.text(stars.text)]),
                .action("onChange", label: [.text("Rate")]),
            ])
    }
}

#if canImport(SwiftUI)
    extension RatingStarsComponent: SwiftUINativeComponent {
        /// A row of star buttons (smaller when the row does not fit): a tap sets the value and
        /// fires `onChange`.
        @MainActor
        public func view(_ node: CustomNode, actions: NativeComponentActions) -> AnyView {
            let stars = Stars(node)
            func row(_ font: Font) -> some View {
                HStack {
                    ForEach(1...stars.maximum, id: \.self) { star in
                        Button {
                            actions.setValue(.number(JSONNumber(star)))
                            actions.perform("onChange")
                        } label: {
                            Image(systemName: star <= stars.chosen ? "star.fill" : "star").font(font)
                        }
                        .accessibilityLabel("\(star) of \(stars.maximum)")
                    }
                }
            }
            // SwiftUI's own `Axis` needs no module name beside the SDK's modules.
            return AnyView(
                ViewThatFits(in: Axis.Set.horizontal) {
                    row(.title2); row(.body)
                })
        }
    }
#endif
