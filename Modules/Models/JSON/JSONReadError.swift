/// A JSON syntax or limit error, with the byte offset, line and column where it was found and
/// what was expected there.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case unexpectedByte = "unexpected byte"
            case unexpectedEnd = "unexpected end of input"
            case invalidNumber = "invalid number"
            case numberOutOfRange = "number out of range"
            case invalidEscape = "invalid escape"
            case loneSurrogate = "lone surrogate"
            case controlCharacter = "control character in string"
            case invalidUTF8 = "invalid UTF-8"
            case trailingData = "trailing data"
            case duplicateKey = "duplicate key"
            case depthLimit = "nesting depth limit exceeded"
            case sizeLimit = "size limit exceeded"
            case stringLimit = "string length limit exceeded"
            case valueLimit = "value count limit exceeded"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A byte that cannot start or continue what was expected.
        public static let unexpectedByte = Code(.unexpectedByte)
        /// The input ended in the middle of a value.
        public static let unexpectedEnd = Code(.unexpectedEnd)
        /// A number that breaks the RFC 8259 grammar (leading zero, missing digits, …).
        public static let invalidNumber = Code(.invalidNumber)
        /// A number too large to represent as a finite `Double`.
        public static let numberOutOfRange = Code(.numberOutOfRange)
        /// A backslash escape that RFC 8259 does not define, or a malformed `\u` escape.
        public static let invalidEscape = Code(.invalidEscape)
        /// A `\u` escape of a UTF-16 surrogate without its pair.
        public static let loneSurrogate = Code(.loneSurrogate)
        /// An unescaped control character (U+0000–U+001F) inside a string.
        public static let controlCharacter = Code(.controlCharacter)
        /// Bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// Something other than white space after the top-level value.
        public static let trailingData = Code(.trailingData)
        /// An object key written twice, when `JSONReader.Options.rejectDuplicateKeys` is set.
        public static let duplicateKey = Code(.duplicateKey)
        /// Arrays and objects nested deeper than `JSONReader.Limits.maxDepth`.
        public static let depthLimit = Code(.depthLimit)
        /// Input longer than `JSONReader.Limits.maxBytes`.
        public static let sizeLimit = Code(.sizeLimit)
        /// A string longer than `JSONReader.Limits.maxStringBytes`.
        public static let stringLimit = Code(.stringLimit)
        /// More values (scalars, arrays and objects) than `JSONReader.Limits.maxValues`.
        public static let valueLimit = Code(.valueLimit)

        public var description: String { base.rawValue }
    }

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
