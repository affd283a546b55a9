#if canImport(SwiftUI)
    import DynamicUIModels
    import DynamicUIRendering
    import SwiftUI

    /// A node's declared transition as it appears or disappears; with Reduce Motion on, a slide
    /// or a scale becomes a cross-fade (`RenderTransition.reducedMotion`). Always applied (the
    /// identity transition when none is declared), so a transition that comes or goes with a
    /// patch keeps the node's subtree.
    struct NodeTransition: ViewModifier {
        let transition: RenderTransition?
        @Environment(\.accessibilityReduceMotion) private var reduceMotion

        func body(content: Content) -> some View {
            content.transition(
                Self.effective(transition, reduceMotion: reduceMotion).map { Self.anyTransition($0.kind) } ?? .identity)
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

    /// The animation of a container's children coming and going: the first child's declared
    /// transition animation, `nil` when no child declares one. Applied on the container that
    /// holds the children's `ForEach` (where insertions and removals happen), and always, so
    /// a transitioned child that comes or goes never rebuilds its siblings.
    struct ChildrenAnimation: ViewModifier {
        let children: [RenderNode]
        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        /// The animation of the children drawn before, so a transitioned child that leaves
        /// (and takes its declared animation with it) still animates out.
        @State private var previous: Animation?

        func body(content: Content) -> some View {
            let current = NodeTransition.animation(for: children, reduceMotion: reduceMotion)
            content
                .animation(current ?? previous, value: children.map(\.id))
                .onAppear { remember(current) }
                .onChange(of: children.map(\.id)) { remember(current) }
        }

        private func remember(_ animation: Animation?) {
            if previous != animation { previous = animation }
        }
    }

    extension View {
        /// Animates the children of a container as they come and go (`ChildrenAnimation`).
        func animatesChildren(_ children: [RenderNode]) -> some View {
            modifier(ChildrenAnimation(children: children))
        }
    }
#endif
