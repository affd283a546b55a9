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

    /// Decodes `T` from UTF-8 bytes.
    public func decode<T: JSONModelDecodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let json = try JSONReader(limits: readerLimits).read(bytes)
        return try T(json: json, limits: modelLimits)
    }

    /// Decodes `T` from UTF-8 data.
    public func decode<T: JSONModelDecodable>(_ type: T.Type, from data: Data) throws -> T {
        let json = try JSONReader(limits: readerLimits).read(data)
        return try T(json: json, limits: modelLimits)
    }
}
