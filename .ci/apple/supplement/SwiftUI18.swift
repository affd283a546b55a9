// Apple's published declarations of the iOS 18 presentation sizing the package uses (behind
// `#available`), which the iPhoneOS 16.5 SDK lacks. Each is copied from the Apple developer
// documentation page named above it. Bodies are never compiled.
public import SwiftUI

// https://developer.apple.com/documentation/swiftui/presentationsizing
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public protocol PresentationSizing: Sendable {}

// https://developer.apple.com/documentation/swiftui/formpresentationsizing
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct FormPresentationSizing: PresentationSizing {}

@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension PresentationSizing where Self == FormPresentationSizing {
    // https://developer.apple.com/documentation/swiftui/presentationsizing/form
    public static var form: FormPresentationSizing { fatalError() }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/presentationsizing(_:)
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    nonisolated public func presentationSizing(_ sizing: some PresentationSizing) -> some View { fatalError() }
}
