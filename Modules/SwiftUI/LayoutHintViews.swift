#if canImport(SwiftUI)
    import CoreGraphics
    import DynamicUIRendering
    import SwiftUI

    /// A row whose children share its width as their `LayoutHints` say: fixed widths first,
    /// then fractions of the row, then the rest by weight (`fill` weighs 1); children without
    /// hints keep their ideal width.
    struct WeightedRow: Layout {
        let spacing: CGFloat
        let hints: [LayoutHints?]

        func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
            let ideal = subviews.reduce(0) { $0 + $1.sizeThatFits(.unspecified).width } + totalSpacing(subviews)
            let width = proposal.width ?? ideal
            let widths = columnWidths(width, subviews)
            let height =
                zip(subviews, widths).map { subview, width in
                    subview.sizeThatFits(ProposedViewSize(width: width, height: proposal.height)).height
                }.max() ?? 0
            return CGSize(width: width, height: height)
        }

        func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
            var x = bounds.minX
            for (subview, width) in zip(subviews, columnWidths(bounds.width, subviews)) {
                subview.place(
                    at: CGPoint(x: x, y: bounds.midY), anchor: .leading,
                    proposal: ProposedViewSize(width: width, height: bounds.height))
                x += width + spacing
            }
        }

        private func totalSpacing(_ subviews: Subviews) -> CGFloat { spacing * CGFloat(max(0, subviews.count - 1)) }

        /// The width of each child for a row `total` wide.
        private func columnWidths(_ total: CGFloat, _ subviews: Subviews) -> [CGFloat] {
            let free = max(0, total - totalSpacing(subviews))
            var widths: [CGFloat?] = []
            var weights: [Double] = []
            for (index, subview) in subviews.enumerated() {
                let hint = index < hints.count ? hints[index] : nil
                switch hint?.width {
                case .points(let value)?:
                    widths.append(CGFloat(value))
                    weights.append(0)
                case .fraction(let value)?:
                    widths.append(free * CGFloat(value))
                    weights.append(0)
                case .fill?:
                    widths.append(nil)
                    weights.append(hint?.weight ?? 1)
                case nil:
                    if let weight = hint?.weight {
                        widths.append(nil)
                        weights.append(weight)
                    } else {
                        widths.append(subview.sizeThatFits(.unspecified).width)
                        weights.append(0)
                    }
                }
            }
            let taken = widths.compactMap { $0 }.reduce(0, +)
            let rest = max(0, free - taken)
            let totalWeight = weights.reduce(0, +)
            return widths.enumerated().map { index, width in
                width ?? (totalWeight > 0 ? rest * CGFloat(weights[index] / totalWeight) : 0)
            }
        }
    }

    /// A slot's fixed or filling width outside a weighted row (a fraction needs the row).
    struct SlotSizing: ViewModifier {
        let layout: LayoutHints?

        func body(content: Content) -> some View {
            switch layout?.width {
            case .points(let value)?:
                content.frame(width: CGFloat(value), alignment: .leading)
            case .fill?:
                content.frame(maxWidth: .infinity, alignment: .leading)
            default:
                content
            }
        }
    }

    extension LayoutHints {
        /// Whether a row of these children needs `WeightedRow`.
        static func needsWeightedRow(_ children: [RenderNode]) -> Bool {
            children.contains { $0.layout?.weight != nil || $0.layout?.width != nil }
        }
    }
#endif
