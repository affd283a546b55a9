// Apple's published declarations of the iOS 17 geometry APIs the package uses that the
// iPhoneOS 16.5 SDK in ../shared/apple-sdk lacks, each copied from the Apple developer
// documentation page named above it. Bodies are never compiled; only the declarations matter.
public import CoreGraphics
public import SwiftUI

// https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public protocol CoordinateSpaceProtocol {
    // https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol/coordinatespace
    var coordinateSpace: CoordinateSpace { get }
}

// https://developer.apple.com/documentation/swiftui/namedcoordinatespace
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@frozen public struct NamedCoordinateSpace: CoordinateSpaceProtocol, Equatable {
    public var coordinateSpace: CoordinateSpace { fatalError() }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension CoordinateSpaceProtocol where Self == NamedCoordinateSpace {
    // https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol/scrollview
    public static var scrollView: NamedCoordinateSpace { fatalError() }
}

extension GeometryProxy {
    // https://developer.apple.com/documentation/swiftui/geometryproxy/bounds(of:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public func bounds(of coordinateSpace: NamedCoordinateSpace) -> CGRect? { fatalError() }
}
