/// A JSON syntax or limit error, with the byte offset, line and column where it was found and
/// what was expected there.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is (`ErrorCode<JSONReadError>`); new codes may be added, so switch with a `default`.
    public typealias Code = ErrorCode<JSONReadError>

    /// What went wrong.
    public let code: Code
    /// Zero-based byte offset of the offending byte.
    public let offset: Int
    /// One-based line number.
    public let line: Int
    /// One-based column, counted in Unicode scalars.
    public let column: Int
    /// What the reader expected at that position (for example `',' or ']'`).
    public let expected: String

    /// Creates an error; `line` and `column` are computed from `offset` in `bytes`.
    init(_ code: Code, offset: Int, expected: String, in bytes: UnsafeBufferPointer<UInt8>) {
        self.code = code
        self.offset = offset
        var line = 1
        var column = 1
        var position = 0
        let limit = min(offset, bytes.count)
        while position < limit {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            position += 1
        }
        self.line = line
        self.column = column
        self.expected = expected
    }

    public var description: String {
        "\(code) at line \(line), column \(column) (byte \(offset)): expected \(expected)"
    }
}

/// The codes of `JSONReadError`.
extension ErrorCode where Domain == JSONReadError {
    /// A byte that cannot start or continue what was expected.
    public static var unexpectedByte: Self { Self("unexpected byte") }
    /// The input ended in the middle of a value.
    public static var unexpectedEnd: Self { Self("unexpected end of input") }
    /// A number that breaks the RFC 8259 grammar (leading zero, missing digits, …).
    public static var invalidNumber: Self { Self("invalid number") }
    /// A number too large to represent as a finite `Double`.
    public static var numberOutOfRange: Self { Self("number out of range") }
    /// A backslash escape that RFC 8259 does not define, or a malformed `\u` escape.
    public static var invalidEscape: Self { Self("invalid escape") }
    /// A `\u` escape of a UTF-16 surrogate without its pair.
    public static var loneSurrogate: Self { Self("lone surrogate") }
    /// An unescaped control character (U+0000–U+001F) inside a string.
    public static var controlCharacter: Self { Self("control character in string") }
    /// Bytes that are not valid UTF-8.
    public static var invalidUTF8: Self { Self("invalid UTF-8") }
    /// Something other than white space after the top-level value.
    public static var trailingData: Self { Self("trailing data") }
    /// An object key written twice, when `JSONReader.Options.rejectDuplicateKeys` is set.
    public static var duplicateKey: Self { Self("duplicate key") }
    /// Arrays and objects nested deeper than `JSONReader.Limits.maxDepth`.
    public static var depthLimit: Self { Self("nesting depth limit exceeded") }
    /// Input longer than `JSONReader.Limits.maxBytes`.
    public static var sizeLimit: Self { Self("size limit exceeded") }
    /// A string longer than `JSONReader.Limits.maxStringBytes`.
    public static var stringLimit: Self { Self("string length limit exceeded") }
    /// More values (scalars, arrays and objects) than `JSONReader.Limits.maxValues`.
    public static var valueLimit: Self { Self("value count limit exceeded") }
}
