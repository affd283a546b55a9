public import Foundation

/// Reads bytes and builds a model in one call, with both sets of limits. Throws
/// `JSONReadError` for syntax and size errors and `ModelDecodingError` for model errors.
public struct DocumentDecoder: Sendable {
    /// Limits of the JSON reader.
    public var readerLimits: JSONReader.Limits
    /// Limits of the models.
    public var modelLimits: ModelLimits

    /// Creates a decoder.
    public init(readerLimits: JSONReader.Limits = .default, modelLimits: ModelLimits = .default) {
        self.readerLimits = readerLimits
        self.modelLimits = modelLimits
    }

    /// Decodes `T` from UTF-8 bytes, read as a `JSONDocument` (a model's decoder reads the
    /// members it needs in place; the result and the errors are those of decoding the tree).
    public func decode<T: JSONModelDecodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let document = try JSONReader(limits: readerLimits).document(bytes)
        return try T(node: document.root, limits: modelLimits)
    }

    /// Decodes `T` from UTF-8 data.
    public func decode<T: JSONModelDecodable>(_ type: T.Type, from data: Data) throws -> T {
        let document = try JSONReader(limits: readerLimits).document(data)
        return try T(node: document.root, limits: modelLimits)
    }
}
