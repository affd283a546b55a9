public import DynamicUIModels

/// A storage operation failed: the database could not be opened, read or written, or a file
/// could not be written.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is (`ErrorCode<StorageError>`); new codes may be added, so switch with a `default`.
    public typealias Code = ErrorCode<StorageError>

    /// What went wrong.
    public let code: Code
    /// The underlying message.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code) error: \(message)" }
}

/// The codes of `StorageError`.
extension ErrorCode where Domain == StorageError {
    /// SQLite reported an error.
    public static var database: Self { Self("database") }
    /// A file could not be read or written.
    public static var file: Self { Self("file") }
    /// The request cannot be queued (for example, it is not mutating).
    public static var invalidRequest: Self { Self("invalid request") }
    /// The offline queue holds as many changes as it may (`OfflineQueueStore.capacity`).
    public static var full: Self { Self("full") }
}
