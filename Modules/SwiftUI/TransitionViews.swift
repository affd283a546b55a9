#if canImport(SwiftUI)
    import DynamicUIModels
    import DynamicUIRendering
    import SwiftUI

    /// A node's declared transition as it appears or disappears; with Reduce Motion on, a slide
    /// or a scale becomes a cross-fade (`RenderTransition.reducedMotion`).
    struct NodeTransition: ViewModifier {
        let transition: RenderTransition?
        @Environment(\.accessibilityReduceMotion) private var reduceMotion

        func body(content: Content) -> some View {
            if let effective = Self.effective(transition, reduceMotion: reduceMotion) {
                content.transition(Self.anyTransition(effective.kind))
            } else {
                content
            }
        }

        /// The transition drawn, Reduce Motion considered.
        static func effective(_ transition: RenderTransition?, reduceMotion: Bool) -> RenderTransition? {
            guard let transition else { return nil }
            return reduceMotion ? transition.reducedMotion : transition
        }

        static func anyTransition(_ kind: RenderTransition.Kind) -> AnyTransition {
            switch kind {
            case .fade: .opacity
            case .slide: .move(edge: .bottom).combined(with: .opacity)
            case .scale: .scale(scale: 0.92).combined(with: .opacity)
            }
        }

        static func animation(_ transition: RenderTransition) -> Animation {
            let duration = transition.duration
            switch transition.curve {
            case .linear: return .linear(duration: duration)
            case .easeIn: return .easeIn(duration: duration)
            case .easeOut: return .easeOut(duration: duration)
            case .spring: return .spring(response: duration, dampingFraction: 0.8, blendDuration: 0)
            default: return .easeInOut(duration: duration)
            }
        }

        /// The animation of a container whose children come and go: the first child's declared
        /// one, `nil` when no child declares any.
        static func animation(for children: [RenderNode], reduceMotion: Bool) -> Animation? {
            for child in children {
                if let effective = effective(child.transition, reduceMotion: reduceMotion) { return animation(effective) }
            }
            return nil
        }
    }
#endif
