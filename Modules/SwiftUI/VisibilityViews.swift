#if canImport(SwiftUI)
    import DynamicUIRendering
    import SwiftUI

    /// Reports a node's visible share to its host as it crosses one of its actions' thresholds:
    /// the part of the node inside its innermost scroll view (all of it outside one), and
    /// nothing once it is gone (`onDisappear`). The host times and fires the actions. Applied
    /// to every node, watching only when it has visibility actions: actions that come with a
    /// patch do not rebuild the node.
    struct VisibilityReporter: ViewModifier {
        let id: String
        let visibility: RenderVisibility?
        let report: @MainActor (String, RenderVisibility, Double) -> Void

        func body(content: Content) -> some View {
            content
                .background {
                    if let visibility {
                        GeometryReader { proxy in
                            let share = Self.bucket(Self.visibleShare(proxy), thresholds: visibility.thresholds)
                            Color.clear
                                .onAppear { report(id, visibility, share) }
                                .onChange(of: share) { _, share in report(id, visibility, share) }
                        }
                    }
                }
                .onDisappear {
                    if let visibility { report(id, visibility, 0) }
                }
        }

        /// The share (0…1) of the node's own bounds inside its innermost scroll view.
        static func visibleShare(_ proxy: GeometryProxy) -> Double {
            let own = CGRect(origin: .zero, size: proxy.size)
            guard own.width > 0, own.height > 0 else { return 0 }
            guard let viewport = proxy.bounds(of: .scrollView) else { return 1 }
            let shown = own.intersection(viewport)
            guard !shown.isNull else { return 0 }
            return Double((shown.width * shown.height) / (own.width * own.height))
        }

        /// The share rounded down to the highest threshold it reaches (0 below them all), so the
        /// view reports only the changes its actions can see, not every scrolled point. A share
        /// just above a disappear threshold stays above it.
        static func bucket(_ share: Double, thresholds: [Double]) -> Double {
            var reached = 0.0
            for threshold in thresholds where share >= threshold {
                reached = share > threshold ? max(reached, threshold + 0.005) : threshold
            }
            return min(reached, 1)
        }
    }
#endif
