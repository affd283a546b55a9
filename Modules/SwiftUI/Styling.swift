#if canImport(SwiftUI)
    import DynamicUI
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    import SwiftUI

    /// Where a node is drawn, so lists and sections pick the native container that fits there.
    enum NodeContainer: Sendable {
        /// A plain stack: a list becomes a `List`, a section a header over its content.
        case plain
        /// Inside a `ScrollView`: a list is a lazy stack of its rows (a `List` would collapse).
        case scroll
        /// Inside a `List` or `Form`: list rows become rows of it, sections become `Section`s.
        case list
    }

    struct NodeContainerKey: EnvironmentKey {
        static let defaultValue = NodeContainer.plain
    }

    struct ScreenPaginationKey: EnvironmentKey {
        static let defaultValue: PaginationState? = nil
    }

    struct ListRowIsCardKey: EnvironmentKey {
        static let defaultValue = false
    }

    extension EnvironmentValues {
        /// The container the current node is drawn in.
        var nodeContainer: NodeContainer {
            get { self[NodeContainerKey.self] }
            set { self[NodeContainerKey.self] = newValue }
        }

        /// The pagination of the screen's list, for the last row that loads the next page.
        var screenPagination: PaginationState? {
            get { self[ScreenPaginationKey.self] }
            set { self[ScreenPaginationKey.self] = newValue }
        }

        /// Whether the current list row is a card of a card list (the row draws the card).
        var listRowIsCard: Bool {
            get { self[ListRowIsCardKey.self] }
            set { self[ListRowIsCardKey.self] = newValue }
        }
    }

    extension View {
        /// Applies `transform` when `value` is present, and leaves the view as it is otherwise.
        @ViewBuilder
        func ifPresent<Value, Content: View>(_ value: Value?, @ViewBuilder transform: (Self, Value) -> Content) -> some View {
            if let value {
                transform(self, value)
            } else {
                self
            }
        }
    }

    extension DynamicUIRendering.RenderTextStyle {
        /// The Dynamic Type text style of the same name.
        var font: Font {
            switch self {
            case .largeTitle: .largeTitle
            case .title: .title
            case .title2: .title2
            case .title3: .title3
            case .headline: .headline
            case .subheadline: .subheadline
            case .body: .body
            case .callout: .callout
            case .footnote: .footnote
            case .caption: .caption
            case .caption2: .caption2
            }
        }
    }

    extension JSONValue {
        /// The value as display text: strings as they are, numbers in shortest form, booleans as
        /// `true`/`false`, `null` and objects as empty text, arrays joined with `, `.
        var displayText: String {
            switch self {
            case .null: ""
            case .bool(let flag): flag ? "true" : "false"
            case .number(let number): number.description
            case .string(let string): string
            case .array(let values): values.map(\.displayText).joined(separator: ", ")
            case .object: ""
            }
        }
    }

    /// Colors named by the tree: `#RRGGBB`, `#RRGGBBAA`, `#RGB`, or a system color name.
    enum NodeColor {
        /// The color of `name`, or `nil` when it is not one this layer knows (the view keeps its own).
        static func color(_ name: String?) -> Color? {
            guard let name, !name.isEmpty else { return nil }
            if name.hasPrefix("#") { return hex(String(name.dropFirst())) }
            switch name.lowercased() {
            case "primary", "accent", "tint", "brand": return .accentColor
            case "secondary": return .secondary
            case "onprimary", "on-primary", "on_primary", "white": return .white
            case "black": return .black
            case "error", "danger", "destructive", "red": return .red
            case "success", "green": return .green
            case "warning", "orange": return .orange
            case "info", "blue": return .blue
            case "yellow": return .yellow
            case "purple": return .purple
            case "pink": return .pink
            case "teal": return .teal
            case "indigo": return .indigo
            case "mint": return .mint
            case "cyan": return .cyan
            case "brown": return .brown
            case "gray", "grey": return .gray
            case "clear": return .clear
            default: return nil
            }
        }

        private static func hex(_ text: String) -> Color? {
            let digits = text.count == 3 ? String(text.flatMap { [$0, $0] }) : text
            guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
            let hasAlpha = digits.count == 8
            let shift: UInt64 = hasAlpha ? 8 : 0
            let red = Double((value >> (16 + shift)) & 0xFF) / 255
            let green = Double((value >> (8 + shift)) & 0xFF) / 255
            let blue = Double((value >> shift) & 0xFF) / 255
            let opacity = hasAlpha ? Double(value & 0xFF) / 255 : 1
            return Color(.sRGB, red: red, green: green, blue: blue, opacity: opacity)
        }
    }

    /// The accessibility of a node: its label and hint when present, and its traits. One
    /// accessibility attachment whether or not the node has a label or hint: a label that comes
    /// with the data changes a value of the attachment, never the content's identity (a text
    /// field keeps its focus, an image its load, a player its state).
    struct NodeAccessibility: ViewModifier {
        let info: AccessibilityInfo?

        func body(content: Content) -> some View {
            // Each step is `ModifiedContent<Content, AccessibilityAttachmentModifier>`, so an
            // absent label or hint is the same view without that value, not another branch.
            let attached = content.accessibilityAddTraits(traits)
            let labeled = nonEmpty(info?.label).map { attached.accessibilityLabel(Text($0)) } ?? attached
            return nonEmpty(info?.hint).map { labeled.accessibilityHint(Text($0)) } ?? labeled
        }

        private func nonEmpty(_ text: String?) -> String? {
            guard let text, !text.isEmpty else { return nil }
            return text
        }

        private var traits: AccessibilityTraits {
            var traits: AccessibilityTraits = []
            for name in info?.traits ?? [] {
                switch name {
                case "button": traits.formUnion(.isButton)
                case "header": traits.formUnion(.isHeader)
                case "link": traits.formUnion(.isLink)
                case "image": traits.formUnion(.isImage)
                case "selected": traits.formUnion(.isSelected)
                default: break
                }
            }
            return traits
        }
    }

    /// The resolved style of a node (presets and inline styles, zone heights): padding, frame,
    /// colors, corner radius, clip shape, shadow and opacity. Fonts are already text styles.
    /// Applied to every node, styled or not, with neutral values where the style is silent, so a
    /// style that comes or goes does not replace the node's subtree (scroll position, focus and
    /// image loads survive). The frame follows `NodeFrame`: never wider than the space, and text
    /// grows past a fixed height at the accessibility sizes.
    struct NodeStyleModifier: ViewModifier {
        let style: NodeStyle?
        /// Whether the node draws text (asked only when the style fixes a height).
        let holdsText: Bool
        @Environment(\.nodeTheme) private var theme
        @Environment(\.colorScheme) private var colorScheme
        @Environment(\.dynamicTypeSize) private var typeSize

        /// A color of the tree: the node app's theme token (light or dark), else a literal color
        /// with its dark variant for `role` (as the web preview draws it; a shadow has no role and
        /// stays as written), else a system name.
        private func color(_ name: String?, _ role: AdaptiveColor.Role?) -> Color? {
            guard let name else { return nil }
            let dark = colorScheme == .dark
            if let value = theme?.color(name, dark: dark), value.hasPrefix("#") {
                return NodeColor.color(value)
            }
            if let role, let adaptive = AdaptiveColor(name, role: role) {
                return NodeColor.color(dark ? adaptive.dark : adaptive.light)
            }
            return NodeColor.color(name)
        }

        func body(content: Content) -> some View {
            let frame = NodeFrame(style: style, holdsText: holdsText, accessibilityTextSize: typeSize.isAccessibilitySize)
            // The foreground has no neutral value (any style set here would override the one a
            // button or label gives its content) and a clear shadow still costs an offscreen pass:
            // those two are applied only when set, which the definition decides, not the data.
            return clipped(
                content
                    .padding(insets)
                    .frame(height: frame.height.map { CGFloat($0) })
                    .frame(
                        minWidth: frame.idealWidth == nil ? nil : 0, idealWidth: frame.idealWidth.map { CGFloat($0) },
                        maxWidth: frame.maxWidth.map { CGFloat($0) }, minHeight: frame.minHeight.map { CGFloat($0) },
                        maxHeight: frame.maxHeight.map { CGFloat($0) }
                    )
                    .ifPresent(color(style?.foregroundColor, .foreground)) { view, color in view.foregroundStyle(color) }
                    .background(
                        color(style?.backgroundColor, .background) ?? Color.clear,
                        in: RoundedRectangle(cornerRadius: CGFloat(style?.cornerRadius ?? 0)))
            )
            .ifPresent(style?.shadow) { view, shadow in
                view.shadow(
                    color: color(shadow.color, nil) ?? Color.black.opacity(0.2), radius: CGFloat(shadow.radius),
                    x: CGFloat(shadow.x), y: CGFloat(shadow.y))
            }
            .opacity(style?.opacity ?? 1)
        }

        /// The clip shape: a circle, a rounded rectangle, or none (a zero-radius clip would cut
        /// what draws outside the node, such as a focus ring, and a clip on every node would cost
        /// each one a layer). Like the shadow, the definition decides it, never the data.
        @ViewBuilder
        private func clipped(_ view: some View) -> some View {
            // swiftui-lint: allow the clip is the style's (preset or inline), never bound to data
            if style?.clipShape == "circle" {
                view.clipShape(Circle())
            } else if let radius = style?.cornerRadius {
                view.clipShape(RoundedRectangle(cornerRadius: CGFloat(radius)))
            } else {
                view
            }
        }

        private var insets: EdgeInsets {
            switch style?.padding {
            case .all(let value)?:
                let inset = CGFloat(value)
                return EdgeInsets(top: inset, leading: inset, bottom: inset, trailing: inset)
            case .edges(let top, let bottom, let leading, let trailing)?:
                return EdgeInsets(
                    top: CGFloat(top), leading: CGFloat(leading), bottom: CGFloat(bottom), trailing: CGFloat(trailing))
            case nil:
                return EdgeInsets()
            }
        }
    }

    /// At least 44 by 44 points to tap (Apple's minimum hit target), however small the icon drawn.
    struct MinimumTapTarget: ViewModifier {
        func body(content: Content) -> some View {
            content
                .frame(minWidth: 44, minHeight: 44)
                .contentShape(Rectangle())
        }
    }

    /// A screen presented as a sheet (a create or edit form) is form-sized where the system
    /// sizes presentations (iOS 18, macOS 15): a centred form sheet on an iPad's regular width,
    /// the whole height on an iPhone.
    struct FormSheetSizing: ViewModifier {
        @ViewBuilder
        func body(content: Content) -> some View {
            // swiftui-lint: allow an availability check never changes while the app runs
            if #available(iOS 18.0, macOS 15.0, *) {
                content.presentationSizing(.form)
            } else {
                content
            }
        }
    }

    /// Liquid Glass where the system has it (iOS 26, macOS 26), the regular material before.
    struct GlassBackground: ViewModifier {
        var cornerRadius: CGFloat = 16

        @ViewBuilder
        func body(content: Content) -> some View {
            #if compiler(>=6.2)
                if #available(iOS 26.0, macOS 26.0, *) {
                    content.glassEffect(.regular, in: RoundedRectangle(cornerRadius: cornerRadius))
                } else {
                    content.background(.regularMaterial, in: RoundedRectangle(cornerRadius: cornerRadius))
                }
            #else
                content.background(.regularMaterial, in: RoundedRectangle(cornerRadius: cornerRadius))
            #endif
        }
    }

    extension View {
        /// The navigation-bar title size (iOS only; macOS has one title style).
        @ViewBuilder
        func titleDisplayMode(large: Bool) -> some View {
            #if os(iOS)
                navigationBarTitleDisplayMode(large ? .large : .inline)
            #else
                self
            #endif
        }

        /// A checkbox on the Mac when `isCheckbox`; iOS has only switches.
        @ViewBuilder
        func checkboxStyle(_ isCheckbox: Bool) -> some View {
            #if os(macOS)
                if isCheckbox {
                    toggleStyle(.checkbox)
                } else {
                    self
                }
            #else
                self
            #endif
        }
    }

    /// A failure as a person reads it: a title, the message and, when it can be tried again, a
    /// prominent button that runs `retry`.
    struct FailureView: View {
        let title: String
        var systemImage = "exclamationmark.triangle"
        let message: String
        let retryTitle: String
        var canRetry = true
        let retry: @MainActor @Sendable () async -> Void

        var body: some View {
            ContentUnavailableView {
                Label(title, systemImage: systemImage)
            } description: {
                Text(message)
            } actions: {
                if canRetry {
                    Button(retryTitle) { Task { await retry() } }
                        .buttonStyle(.borderedProminent)
                }
            }
        }
    }

    /// What a loading phase shows: a spinner, the failure with a retry, or the content.
    struct PhaseView<Ready: View>: View {
        let phase: LoadPhase
        let failureTitle: String
        let retryTitle: String
        let retry: @MainActor @Sendable () async -> Void
        @ViewBuilder let ready: () -> Ready

        var body: some View {
            switch phase {
            case .idle, .loading:
                ProgressView()
            case .failed(let message):
                FailureView(title: failureTitle, message: message, retryTitle: retryTitle, retry: retry)
            case .ready:
                ready()
            }
        }
    }
#endif
