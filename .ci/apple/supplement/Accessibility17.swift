// Apple's published declarations of the iOS 17 Accessibility APIs the package uses that the
// iPhoneOS 16.5 SDK lacks. Each is copied from the Apple developer documentation page named above
// it. Bodies are never compiled.

// https://developer.apple.com/documentation/accessibility/accessibilitynotification
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum AccessibilityNotification {
    // https://developer.apple.com/documentation/accessibility/accessibilitynotification/announcement
    public struct Announcement {
        // https://developer.apple.com/documentation/accessibility/accessibilitynotification/announcement/init(_:)
        // (the String overload)
        public init(_ announcement: String) { fatalError() }

        // https://developer.apple.com/documentation/accessibility/accessibilitynotification/announcement/post()
        public func post() { fatalError() }
    }
}
