public import DynamicUIModels

/// An expression that does not compile: what is wrong, the byte offset inside the expression,
/// and (once known) the JSON location of the field that held it.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is (`ErrorCode<ExpressionError>`); new codes may be added, so switch with a `default`.
    public typealias Code = ErrorCode<ExpressionError>

    /// What went wrong.
    public let code: Code
    /// Byte offset inside `expression`.
    public let offset: Int
    /// The expression text (cut to 200 characters).
    public let expression: String
    /// A readable explanation.
    public let message: String
    /// The field that held the expression, when compiled from a document.
    public var location: JSONLocation?

    /// Creates an error.
    public init(_ code: Code, offset: Int, expression: String, _ message: String, location: JSONLocation? = nil) {
        self.code = code
        self.offset = offset
        self.expression = expression.count > 200 ? String(expression.prefix(200)) + "…" : expression
        self.message = message
        self.location = location
    }

    /// This error located at `location`.
    public func located(at location: JSONLocation) -> ExpressionError {
        var copy = self
        copy.location = location
        return copy
    }

    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return "\(place)\(code) at offset \(offset) in \(expression.debugDescription): \(message)"
    }
}

/// Bounds on expressions; exceeding one is an `ExpressionError` or `EvaluationError`.
public struct ExpressionLimits: Sendable, Hashable {
    /// Longest expression or template, in UTF-8 bytes.
    public var maxLength: Int
    /// Deepest nesting of parentheses and `!`.
    public var maxDepth: Int
    /// Most transforms in one pipe.
    public var maxTransforms: Int
    /// Most evaluation steps (nodes visited plus elements joined) per evaluation.
    public var maxEvaluationSteps: Int

    /// Creates limits.
    public init(maxLength: Int = 4096, maxDepth: Int = 32, maxTransforms: Int = 16, maxEvaluationSteps: Int = 100_000) {
        self.maxLength = maxLength
        self.maxDepth = maxDepth
        self.maxTransforms = maxTransforms
        self.maxEvaluationSteps = maxEvaluationSteps
    }

    /// 4 KiB, depth 32, 16 transforms, 100,000 steps.
    public static let `default` = ExpressionLimits()
}

/// The codes of `ExpressionError`.
extension ErrorCode where Domain == ExpressionError {
    /// The text does not follow the grammar.
    public static var syntax: Self { Self("syntax error") }
    /// A `| name` that is not a known transform.
    public static var unknownTransform: Self { Self("unknown transform") }
    /// A transform argument that is missing or malformed (`truncate:abc`).
    public static var invalidArgument: Self { Self("invalid transform argument") }
    /// A binding form the SDK does not support (`bind: "api:x"`).
    public static var unsupportedBinding: Self { Self("unsupported binding") }
    /// Longer or deeper than `ExpressionLimits` allow.
    public static var limitExceeded: Self { Self("limit exceeded") }
}
