// Apple's published declaration of a standard-library API that the iPhoneOS 16.5 SDK's Swift
// standard library lacks (it shipped with Swift 5.9, back-deployed). Copied from the Apple
// developer documentation page named above it. The body is never compiled.

extension AsyncStream {
    // https://developer.apple.com/documentation/swift/asyncstream/makestream(of:bufferingpolicy:)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    public static func makeStream(
        of elementType: Element.Type = Element.self,
        bufferingPolicy limit: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> (stream: AsyncStream<Element>, continuation: AsyncStream<Element>.Continuation) { fatalError() }
}
