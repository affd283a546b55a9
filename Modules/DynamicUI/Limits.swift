public import DynamicUIModels
public import DynamicUIResolvers

/// Every bound the SDK enforces on what a server sends (DESIGN rule 3), in one place: the
/// runtime applies them to the transport (body size), the JSON reader (bytes, depth, string
/// length, values), the model decoder (nodes, depth), the compiler and evaluator (expressions)
/// and the data loader (items per response). Exceeding one is a typed error, never a crash.
public struct DynamicUILimits: Sendable, Hashable {
    /// Bounds of the JSON reader; `maxBytes` is also where the transport stops reading a body.
    public var reader: JSONReader.Limits
    /// Bounds on decoded screen and node documents.
    public var model: ModelLimits
    /// Bounds on expressions and their evaluation.
    public var expressions: ExpressionLimits
    /// The most items one data response may carry.
    public var maxDataItems: Int

    /// Creates limits; each defaults to its module's safe default and 10,000 items a response.
    public init(
        reader: JSONReader.Limits = .default, model: ModelLimits = .default, expressions: ExpressionLimits = .default,
        maxDataItems: Int = 10_000
    ) {
        self.reader = reader
        self.model = model
        self.expressions = expressions
        self.maxDataItems = maxDataItems
    }

    /// The defaults of every module.
    public static let `default` = DynamicUILimits()

    /// The decoder of screen and node documents under these limits.
    public var documentDecoder: DocumentDecoder { DocumentDecoder(readerLimits: reader, modelLimits: model) }
}
