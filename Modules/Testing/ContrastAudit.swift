public import DynamicUIModels
public import DynamicUIRendering
import Foundation

/// A text or control of a render tree whose colours fall below the contrast WCAG 2 asks for.
public struct ContrastFinding: Sendable, Hashable, CustomStringConvertible {
    /// The node's id in the tree.
    public var nodeId: String
    /// What the node shows (its text, or the kind of control).
    public var text: String
    /// The foreground as drawn (`#rrggbb`, opacity and translucency already blended in).
    public var foreground: String
    /// The background behind it (`#rrggbb`).
    public var background: String
    /// The contrast ratio of the two (1…21).
    public var ratio: Double
    /// The ratio required: 4.5 for text, 3 for large text and controls.
    public var required: Double
    /// Whether the pair is the dark appearance's.
    public var dark: Bool

    /// One line naming the node, its colours and both ratios.
    public var description: String {
        let ratio = (self.ratio * 100).rounded() / 100
        return "\(nodeId) «\(text)» \(foreground) on \(background): \(ratio):1, needs \(required):1"
            + (dark ? " (dark)" : " (light)")
    }
}

/// Checks the colours of a render tree as the SwiftUI face draws them: every text, value, row,
/// chip and control against the background it sits on, in light or dark appearance. Text needs
/// 4.5:1; large text (18 points, or 14 points bold) and controls need 3:1.
///
/// Colours resolve as the SwiftUI face resolves them: a theme token (light or dark value), a
/// literal colour with its dark variant (`AdaptiveColor`), or a system colour name. A background
/// with transparency is blended over the one below it, the rows of an inset grouped list and of a
/// form sit on the grouped cell background, and a node's opacity fades its text into its
/// background.
public struct ContrastAudit: Sendable {
    /// The node app's theme, or `nil` for a screen app drawn with the system colours.
    public let theme: Theme?
    /// Whether to check the dark appearance.
    public let dark: Bool
    /// How many rows of each list are checked.
    public let rowLimit: Int

    /// An audit of `theme`'s colours (or the system's) in the dark or light appearance.
    public init(theme: Theme? = nil, dark: Bool, rowLimit: Int = 20) {
        self.theme = theme
        self.dark = dark
        self.rowLimit = max(0, rowLimit)
    }

    /// Every pair in `root` below the ratio it needs, in tree order.
    public func findings(in root: RenderNode) -> [ContrastFinding] {
        var findings: [ContrastFinding] = []
        let page = resolve(theme?.colors["background"] == nil ? nil : "background", role: .background) ?? systemBackground
        let text = resolve(theme?.colors["text_primary"] == nil ? nil : "text_primary", role: .foreground) ?? systemLabel
        walk(root, foreground: text, background: page, opacity: 1, into: &findings)
        return findings
    }

    /// The WCAG contrast ratio of two colours (`#RGB`, `#RRGGBB`, `#RRGGBBAA`, `white`,
    /// `black`), or `nil` when either is not one. Translucent colours are taken as opaque.
    public static func ratio(_ first: String, _ second: String) -> Double? {
        guard let first = RGB(first), let second = RGB(second) else { return nil }
        return first.contrast(with: second)
    }

    // MARK: - Walking the tree

    private func walk(
        _ node: RenderNode, foreground: RGB, background: RGB, opacity: Double, into findings: inout [ContrastFinding]
    ) {
        var foreground = foreground
        var background = background
        let opacity = opacity * min(max(node.style?.opacity ?? 1, 0), 1)
        if let name = node.style?.backgroundColor, let color = resolveRGBA(name, role: .background) {
            background = color.over(background)
        }
        if let name = node.style?.foregroundColor, let color = resolveRGBA(name, role: .foreground) {
            foreground = color.over(background)
        }
        for (text, large, control) in texts(of: node) where !text.isEmpty {
            var shown = foreground
            if case .chip(_, let style) = node.kind, node.style?.foregroundColor == nil {
                // A status capsule draws its text in the label colour over 15 % of its tint.
                let tint = chipTint(style)
                let capsule = RGBA(tint, alpha: 0.15).over(background)
                shown = systemLabel
                check(node, text, shown, capsule, opacity, large: large, control: control, into: &findings)
                continue
            }
            shown = foreground
            check(node, text, shown, background, opacity, large: large, control: control, into: &findings)
        }
        if case .list(let style, let rows) = node.kind {
            // An inset grouped list draws its rows on the grouped cell background.
            let rowBackground = style == .insetGrouped ? groupedCell : background
            for row in rows.rows(limit: rowLimit) {
                walk(row, foreground: foreground, background: rowBackground, opacity: opacity, into: &findings)
            }
        }
        if case .form = node.kind { background = groupedCell }
        for child in node.children {
            walk(child, foreground: foreground, background: background, opacity: opacity, into: &findings)
        }
    }

    private func check(
        _ node: RenderNode, _ text: String, _ foreground: RGB, _ background: RGB, _ opacity: Double, large: Bool,
        control: Bool, into findings: inout [ContrastFinding]
    ) {
        let drawn = RGBA(foreground, alpha: opacity).over(background)
        let ratio = drawn.contrast(with: background)
        let required = large || control ? 3.0 : 4.5
        guard ratio + 0.005 < required else { return }
        findings.append(
            ContrastFinding(
                nodeId: node.id, text: String(text.prefix(40)), foreground: drawn.hex, background: background.hex,
                ratio: ratio, required: required, dark: dark))
    }

    /// The texts a node draws itself, each with whether it is large and whether it is a control.
    private func texts(of node: RenderNode) -> [(String, Bool, Bool)] {
        let large = isLarge(node)
        switch node.kind {
        case .text(let text, let style, _): return [(text, large || Self.largeStyles.contains(style), false)]
        case .metric(let label, let value, _): return [(label, false, false), (value, true, false)]
        case .labeledContent(let label, let value): return [(label, large, false), (value, large, false)]
        case .row(let row): return [(row.title, large, false)] + row.subtitles.map { ($0, large, false) }
        case .chip(let text, _): return [(text, large, false)]
        case .emptyState(let title, let message, _): return [(title, true, false)] + (message.map { [($0, large, false)] } ?? [])
        case .control(let control): return [(control.label ?? control.field ?? "control", large, true)]
        case .textField(let placeholder, _, let text), .searchField(let placeholder, _, let text, _):
            return [(text.isEmpty ? placeholder ?? "field" : text, large, true)]
        default: return []
        }
    }

    /// Dynamic Type styles of 20 points and more.
    private static let largeStyles: Set<RenderTextStyle> = [.largeTitle, .title, .title2, .title3]

    /// Whether the node's theme font is large: 18 points, or 14 points in a bold weight.
    private func isLarge(_ node: RenderNode) -> Bool {
        guard let name = node.style?.font, let font = theme?.fonts[name] else { return false }
        let bold = ["semibold", "bold", "heavy", "black"].contains(font.weight ?? "")
        return font.size >= 18 || (bold && font.size >= 14)
    }

    // MARK: - Colours

    private var systemBackground: RGB { dark ? RGB(0, 0, 0) : RGB(1, 1, 1) }
    private var systemLabel: RGB { dark ? RGB(1, 1, 1) : RGB(0, 0, 0) }
    /// The background of a grouped list's or a form's rows (`secondarySystemGroupedBackground`).
    private var groupedCell: RGB { dark ? RGB(0x1C / 255, 0x1C / 255, 0x1E / 255) : RGB(1, 1, 1) }

    private func resolve(_ name: String?, role: AdaptiveColor.Role) -> RGB? {
        guard let name, let color = resolveRGBA(name, role: role) else { return nil }
        return color.over(systemBackground)
    }

    /// A colour as the SwiftUI face resolves it: theme token, literal with its dark variant,
    /// then a system colour name.
    private func resolveRGBA(_ name: String, role: AdaptiveColor.Role) -> RGBA? {
        if let value = theme?.color(name, dark: dark), value.hasPrefix("#") { return RGBA(value) }
        if let adaptive = AdaptiveColor(name, role: role) { return RGBA(dark ? adaptive.dark : adaptive.light) }
        return systemColor(name).map { RGBA($0, alpha: 1) }
    }

    /// The iOS system colours the SwiftUI face maps names to (`NodeColor`).
    private func systemColor(_ name: String) -> RGB? {
        let accent = theme.flatMap { $0.color("accent", dark: dark) ?? $0.color("primary", dark: dark) }.flatMap(RGB.init)
        switch name.lowercased() {
        case "primary", "accent", "tint", "brand": return accent ?? pick("#007aff", "#0a84ff")
        case "secondary": return RGBA(pick("#3c3c43", "#ebebf5"), alpha: 0.6).over(systemBackground)
        case "onprimary", "on-primary", "on_primary", "white": return RGB(1, 1, 1)
        case "black": return RGB(0, 0, 0)
        case "error", "danger", "destructive", "red": return pick("#ff3b30", "#ff453a")
        case "success", "green": return pick("#34c759", "#30d158")
        case "warning", "orange": return pick("#ff9500", "#ff9f0a")
        case "info", "blue": return pick("#007aff", "#0a84ff")
        case "gray", "grey": return pick("#8e8e93", "#8e8e93")
        default: return nil
        }
    }

    /// The tint of a status capsule of `style`, as `ChipView` draws it.
    private func chipTint(_ style: RenderChipStyle) -> RGB {
        switch style {
        case .success: return systemColor("green") ?? systemLabel
        case .warning: return systemColor("orange") ?? systemLabel
        case .danger: return systemColor("red") ?? systemLabel
        case .info: return systemColor("blue") ?? systemLabel
        case .neutral: return systemColor("secondary") ?? systemLabel
        }
    }

    private func pick(_ light: String, _ dark: String) -> RGB { RGB(self.dark ? dark : light) ?? systemLabel }
}

/// An opaque colour, components 0…1.
private struct RGB: Hashable {
    var red, green, blue: Double

    init(_ red: Double, _ green: Double, _ blue: Double) { (self.red, self.green, self.blue) = (red, green, blue) }

    init?(_ name: String) {
        guard let color = RGBA(name) else { return nil }
        self = color.color
    }

    var luminance: Double {
        func linear(_ value: Double) -> Double { value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    func contrast(with other: RGB) -> Double {
        let (high, low) = (max(luminance, other.luminance), min(luminance, other.luminance))
        return (high + 0.05) / (low + 0.05)
    }

    var hex: String {
        "#" + [red, green, blue].map { String(format: "%02x", Int((min(max($0, 0), 1) * 255).rounded())) }.joined()
    }
}

/// A colour with its opacity.
private struct RGBA {
    var color: RGB
    var alpha: Double

    init(_ color: RGB, alpha: Double) {
        self.color = color
        self.alpha = min(max(alpha, 0), 1)
    }

    /// `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `white` or `black`.
    init?(_ name: String) {
        switch name.lowercased() {
        case "white": self.init(RGB(1, 1, 1), alpha: 1)
        case "black": self.init(RGB(0, 0, 0), alpha: 1)
        default:
            guard name.hasPrefix("#") else { return nil }
            var digits = Array(name.dropFirst())
            if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
            guard digits.count == 6 || digits.count == 8, let value = UInt64(String(digits), radix: 16) else { return nil }
            let shift: UInt64 = digits.count == 8 ? 8 : 0
            let component = { (offset: UInt64) in Double((value >> (offset + shift)) & 0xFF) / 255 }
            self.init(
                RGB(component(16), component(8), component(0)), alpha: digits.count == 8 ? Double(value & 0xFF) / 255 : 1)
        }
    }

    /// This colour painted over `below`.
    func over(_ below: RGB) -> RGB {
        RGB(
            color.red * alpha + below.red * (1 - alpha), color.green * alpha + below.green * (1 - alpha),
            color.blue * alpha + below.blue * (1 - alpha))
    }
}
