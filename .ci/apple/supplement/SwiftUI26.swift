// Apple's published declarations of the iOS 26 Liquid Glass APIs the package uses (behind
// `#available`), which the iPhoneOS 16.5 SDK lacks. Each is copied from the Apple developer
// documentation page named above it. Bodies are never compiled.
public import SwiftUI

// https://developer.apple.com/documentation/swiftui/glass
@available(iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, *)
public struct Glass: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/glass/regular
    public static var regular: Glass { fatalError() }
    // https://developer.apple.com/documentation/swiftui/glass/clear
    public static var clear: Glass { fatalError() }
    // https://developer.apple.com/documentation/swiftui/glass/identity
    public static var identity: Glass { fatalError() }
    // https://developer.apple.com/documentation/swiftui/glass/tint(_:)
    public func tint(_ color: Color?) -> Glass { fatalError() }
    // https://developer.apple.com/documentation/swiftui/glass/interactive(_:)
    public func interactive(_ isEnabled: Bool = true) -> Glass { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/defaultglasseffectshape
@available(iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, *)
nonisolated public struct DefaultGlassEffectShape: Shape {
    /// Creates the default shape (a capsule).
    public init() { fatalError() }
    /// The shape's path in a rectangle.
    nonisolated public func path(in rect: CGRect) -> Path { fatalError() }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/glasseffect(_:in:)
    @available(iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, *)
    nonisolated public func glassEffect(
        _ glass: Glass = .regular, in shape: some Shape = DefaultGlassEffectShape()
    )
        -> some View
    { fatalError() }
}
