import Foundation

/// A color a server wrote (`#RRGGBB`, `#RGB`, `#RRGGBBAA`, `white`, `black`) with the variant that
/// reads in dark mode: a light surface becomes a dark one and dark text becomes light, keeping
/// their hue; mid-tone colors (a brand's) stay as they are, and so do white text and black
/// surfaces (white on a colored button, a video's backdrop). Theme tokens have their own dark
/// colors and do not come here.
public struct AdaptiveColor: Sendable, Hashable {
    /// What the color paints, which decides how it adapts.
    public enum Role: Sendable, Hashable {
        /// Text and icons.
        case foreground
        /// A surface behind content.
        case background
    }

    /// The color in light mode, `#rrggbbaa`.
    public let light: String
    /// The color in dark mode, `#rrggbbaa`.
    public let dark: String

    /// The adaptive color of `name` in `role`, or `nil` when it is not a literal color (a theme
    /// token or a system name, which adapt on their own).
    public init?(_ name: String, role: Role) {
        guard let rgba = RGBA(name) else { return nil }
        light = rgba.hex
        dark = Self.dark(of: rgba, role: role).hex
    }

    private static func dark(of color: RGBA, role: Role) -> RGBA {
        let luminance = color.luminance
        switch role {
        case .background where luminance > 0.6, .foreground where luminance < 0.25:
            return color.withInvertedLightness()
        default:
            return color
        }
    }
}

/// A color as four components from 0 to 1.
struct RGBA: Hashable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double

    init(red: Double, green: Double, blue: Double, alpha: Double) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `white` or `black`; anything else is `nil`.
    init?(_ name: String) {
        switch name.lowercased() {
        case "white":
            self.init(red: 1, green: 1, blue: 1, alpha: 1)
            return
        case "black":
            self.init(red: 0, green: 0, blue: 0, alpha: 1)
            return
        default: break
        }
        guard name.hasPrefix("#") else { return nil }
        var digits = Array(name.utf8.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8, let value = UInt64(String(decoding: digits, as: UTF8.self), radix: 16)
        else { return nil }
        let shift: UInt64 = digits.count == 8 ? 8 : 0
        self.init(
            red: Double((value >> (16 + shift)) & 0xFF) / 255, green: Double((value >> (8 + shift)) & 0xFF) / 255,
            blue: Double((value >> shift) & 0xFF) / 255, alpha: digits.count == 8 ? Double(value & 0xFF) / 255 : 1)
    }

    /// `#rrggbbaa`.
    var hex: String {
        let digits = "0123456789abcdef".map { $0 }
        var text = "#"
        for component in [red, green, blue, alpha] {
            let byte = Int((min(max(component, 0), 1) * 255).rounded())
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0xF])
        }
        return text
    }

    /// Relative luminance (WCAG).
    var luminance: Double {
        func linear(_ value: Double) -> Double {
            value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The same hue and saturation with lightness mirrored (HSL): white ↔ black, light gray ↔
    /// dark gray, a pale tint ↔ a deep shade of it.
    func withInvertedLightness() -> RGBA {
        let high = max(red, green, blue)
        let low = min(red, green, blue)
        let lightness = (high + low) / 2
        let target = 1 - lightness
        // Shift every component by the same amount, scaled so the chroma is kept.
        let chroma = high - low
        guard chroma > 0 else { return RGBA(red: target, green: target, blue: target, alpha: alpha) }
        let scale = min(1, min(target, 1 - target) * 2 / chroma)
        func map(_ value: Double) -> Double { target + (value - lightness) * scale }
        return RGBA(red: map(red), green: map(green), blue: map(blue), alpha: alpha)
    }
}
