// Apple's published declarations of the iOS 17 SwiftUI APIs the package uses that the iPhoneOS
// 16.5 SDK in ../shared/apple-sdk lacks. Each is copied from the Apple developer documentation
// page named above it: signature, generic constraints, isolation and availability. Bodies are
// never compiled (the check skips them); only the declarations matter.
public import SwiftUI

// MARK: ContentUnavailableView
// https://developer.apple.com/documentation/swiftui/contentunavailableview
// (The current pages spell the builders `@ContentBuilder`, the iOS 27 SDK's name; the iOS 17
// through 26 SDKs that this package builds with declare them `@ViewBuilder`.)
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
nonisolated public struct ContentUnavailableView<Label, Description, Actions>: View
where Label: View, Description: View, Actions: View {
    // https://developer.apple.com/documentation/swiftui/contentunavailableview/init(label:description:actions:)
    public init(
        @ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
        @ViewBuilder actions: () -> Actions = { EmptyView() }
    ) { fatalError() }

    /// The content of the view.
    @MainActor @preconcurrency public var body: some View { fatalError() }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ContentUnavailableView where Label == SwiftUI.Label<Text, Image>, Description == Text?, Actions == EmptyView {
    // https://developer.apple.com/documentation/swiftui/contentunavailableview/init(_:systemimage:description:)
    nonisolated public init(_ titleKey: LocalizedStringKey, systemImage name: String, description: Text? = nil) {
        fatalError()
    }

    // https://developer.apple.com/documentation/swiftui/contentunavailableview/init(_:systemimage:description:)
    // (the StringProtocol overload on the same page)
    nonisolated public init<S>(_ title: S, systemImage name: String, description: Text? = nil) where S: StringProtocol {
        fatalError()
    }
}

// MARK: Inspector
extension View {
    // https://developer.apple.com/documentation/swiftui/view/inspector(ispresented:content:)
    @available(iOS 17.0, macOS 14.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    nonisolated public func inspector<V>(isPresented: Binding<Bool>, @ViewBuilder content: () -> V) -> some View
    where V: View { fatalError() }

    // https://developer.apple.com/documentation/swiftui/view/inspectorcolumnwidth(min:ideal:max:)
    @available(iOS 17.0, macOS 14.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    nonisolated public func inspectorColumnWidth(min: CGFloat? = nil, ideal: CGFloat, max: CGFloat? = nil) -> some View {
        fatalError()
    }

    // https://developer.apple.com/documentation/swiftui/view/inspectorcolumnwidth(_:)
    @available(iOS 17.0, macOS 14.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    nonisolated public func inspectorColumnWidth(_ width: CGFloat) -> some View { fatalError() }
}

// MARK: Container-relative frames
extension View {
    // https://developer.apple.com/documentation/swiftui/view/containerrelativeframe(_:alignment:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func containerRelativeFrame(_ axes: Axis.Set, alignment: Alignment = .center) -> some View {
        fatalError()
    }

    // https://developer.apple.com/documentation/swiftui/view/containerrelativeframe(_:count:span:spacing:alignment:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func containerRelativeFrame(
        _ axes: Axis.Set, count: Int, span: Int = 1, spacing: CGFloat, alignment: Alignment = .center
    ) -> some View { fatalError() }
}

// MARK: Scroll targets
// https://developer.apple.com/documentation/swiftui/scrolltarget
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct ScrollTarget {
    /// The rect that a scrollable view should try and have contained.
    public var rect: CGRect
    /// The anchor to which the rect should be aligned within the visible region.
    public var anchor: UnitPoint?
}

// https://developer.apple.com/documentation/swiftui/scrolltargetbehaviorcontext
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct ScrollTargetBehaviorContext {
    /// The original target when the scroll gesture began.
    public var originalTarget: ScrollTarget { fatalError() }
    /// The size of the container of the scrollable view.
    public var containerSize: CGSize { fatalError() }
    /// The size of the content of the scrollable view.
    public var contentSize: CGSize { fatalError() }
    /// The axes in which the scrollable view is scrollable.
    public var axes: Axis.Set { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/scrolltargetbehavior
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public protocol ScrollTargetBehavior {
    // https://developer.apple.com/documentation/swiftui/scrolltargetbehavior/updatetarget(_:context:)
    func updateTarget(_ target: inout ScrollTarget, context: Self.TargetContext)
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ScrollTargetBehavior {
    // https://developer.apple.com/documentation/swiftui/scrolltargetbehavior/targetcontext
    public typealias TargetContext = ScrollTargetBehaviorContext
}

// https://developer.apple.com/documentation/swiftui/pagingscrolltargetbehavior
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct PagingScrollTargetBehavior: ScrollTargetBehavior {
    // https://developer.apple.com/documentation/swiftui/pagingscrolltargetbehavior/init()
    public init() { fatalError() }
    // https://developer.apple.com/documentation/swiftui/pagingscrolltargetbehavior/updatetarget(_:context:)
    public func updateTarget(_ target: inout ScrollTarget, context: PagingScrollTargetBehavior.TargetContext) {
        fatalError()
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ScrollTargetBehavior where Self == PagingScrollTargetBehavior {
    // https://developer.apple.com/documentation/swiftui/scrolltargetbehavior/paging
    public static var paging: PagingScrollTargetBehavior { fatalError() }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/scrolltargetlayout(isenabled:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func scrollTargetLayout(isEnabled: Bool = true) -> some View { fatalError() }

    // https://developer.apple.com/documentation/swiftui/view/scrolltargetbehavior(_:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func scrollTargetBehavior(_ behavior: some ScrollTargetBehavior) -> some View { fatalError() }
}

// MARK: onChange with the old and new value
extension View {
    // https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func onChange<V>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View where V: Equatable { fatalError() }

    // https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View
    where V: Equatable { fatalError() }
}
