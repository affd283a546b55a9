/// A storage operation failed: the database could not be opened, read or written, or a file
/// could not be written.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case database, file, invalidRequest = "invalid request", full
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// SQLite reported an error.
        public static let database = Code(.database)
        /// A file could not be read or written.
        public static let file = Code(.file)
        /// The request cannot be queued (for example, it is not mutating).
        public static let invalidRequest = Code(.invalidRequest)
        /// The offline queue holds as many changes as it may (`OfflineQueueStore.capacity`).
        public static let full = Code(.full)

        public var description: String { base.rawValue }
    }

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
