#if canImport(SwiftUI)
    import DynamicUI
    import DynamicUIModels
    import SwiftUI

    /// The small banner of an app that follows a development preview (debug builds): where it
    /// follows, or why not, and a broken save's errors while the last good screens stay shown.
    struct PreviewFollowBanner: View {
        let state: PreviewFollowState
        /// The SDK's words in the app's locale.
        let strings: DynamicUIStrings

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                Label(state.summary(strings), systemImage: state.isProblem ? "exclamationmark.triangle.fill" : "eye")
                    .font(.caption.weight(.semibold))
                    .lineLimit(2)
                ForEach(Array(state.errors.prefix(4).enumerated()), id: \.offset) { _, error in
                    Text(error)
                        .font(.caption2.monospaced())
                        .lineLimit(3)
                }
                if state.errors.count > 4 {
                    Text("+\(state.errors.count - 4)")
                        .font(.caption2)
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
            .padding(.horizontal, 12)
            .padding(.vertical, 6)
            .foregroundStyle(state.isProblem ? Color.white : Color.primary)
            .background(state.isProblem ? Color.red.opacity(0.9) : Color.yellow.opacity(0.3))
            .accessibilityElement(children: .combine)
        }
    }
#endif
