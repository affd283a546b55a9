/// A model could not be built from a JSON value: a required field is missing, a field has the
/// wrong type or an invalid value, or a limit was exceeded. `location` names the field.
public struct ModelDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case missingField = "missing field"
            case typeMismatch = "type mismatch"
            case invalidValue = "invalid value"
            case limitExceeded = "limit exceeded"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A required field is absent (or `null`).
        public static let missingField = Code(.missingField)
        /// A field holds a different kind of JSON value than the model needs.
        public static let typeMismatch = Code(.typeMismatch)
        /// A field has the right type but a value the model cannot accept.
        public static let invalidValue = Code(.invalidValue)
        /// The document is larger or deeper than `ModelLimits` allow.
        public static let limitExceeded = Code(.limitExceeded)

        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The field where it went wrong.
    public let location: JSONLocation
    /// A readable explanation.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, at location: JSONLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
