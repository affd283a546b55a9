/// What kind of error an SDK error is: a name that reads well in a message, compared by value.
/// Each error type has its own codes (`NetworkError.Code` is `ErrorCode<NetworkError>`), and new
/// codes may be added in any release, so switch over them with a `default`.
public struct ErrorCode<Domain>: Sendable, Hashable, CustomStringConvertible {
    /// The code's name as messages print it (`"rate limited"`).
    public let name: String

    /// A code of `Domain`; only the SDK declares codes.
    package init(_ name: String) { self.name = name }

    public var description: String { name }
}
