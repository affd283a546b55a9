/// A model could not be built from a JSON value: a required field is missing, a field has the
/// wrong type or an invalid value, or a limit was exceeded. `location` names the field.
public struct ModelDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is (`ErrorCode<ModelDecodingError>`); new codes may be added, so switch with a `default`.
    public typealias Code = ErrorCode<ModelDecodingError>

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

/// The codes of `ModelDecodingError`.
extension ErrorCode where Domain == ModelDecodingError {
    /// A required field is absent (or `null`).
    public static var missingField: Self { Self("missing field") }
    /// A field holds a different kind of JSON value than the model needs.
    public static var typeMismatch: Self { Self("type mismatch") }
    /// A field has the right type but a value the model cannot accept.
    public static var invalidValue: Self { Self("invalid value") }
    /// The document is larger or deeper than `ModelLimits` allow.
    public static var limitExceeded: Self { Self("limit exceeded") }
}
