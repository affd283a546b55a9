/// A strict RFC 8259 JSON reader from UTF-8 bytes to `JSONValue`.
///
/// It rejects everything the RFC rejects (trailing commas, leading zeros, bad escapes, lone
/// surrogates, control characters in strings, invalid UTF-8, trailing garbage), enforces size,
/// depth and string-length limits, and reports each error with its byte offset, line and
/// column. It never recurses, so hostile nesting cannot overflow a thread's stack. A leading
/// UTF-8 byte order mark is skipped, as RFC 8259 §8.1 allows.
public struct JSONReader: Sendable {
    /// Bounds on what the reader accepts.
    public struct Limits: Sendable, Hashable {
        /// Largest accepted input, in bytes.
        public var maxBytes: Int
        /// Deepest accepted nesting of arrays and objects.
        public var maxDepth: Int
        /// Longest accepted string (after unescaping), in UTF-8 bytes.
        public var maxStringBytes: Int
        /// Most values in one document (every scalar, array and object counts one).
        public var maxValues: Int

        /// Creates limits.
        public init(maxBytes: Int = 32 << 20, maxDepth: Int = 256, maxStringBytes: Int = 8 << 20, maxValues: Int = 4_000_000) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
            self.maxStringBytes = maxStringBytes
            self.maxValues = maxValues
        }

        /// 32 MiB, depth 256, strings up to 8 MiB, four million values.
        public static let `default` = Limits()
    }

    /// The limits in force.
    public var limits: Limits
    /// When true a repeated object key is an error; otherwise the last value wins.
    public var rejectDuplicateKeys: Bool

    /// Creates a reader.
    public init(limits: Limits = .default, rejectDuplicateKeys: Bool = false) {
        self.limits = limits
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    /// Reads one JSON text from UTF-8 bytes.
    public func read(_ bytes: UnsafeRawBufferPointer) throws(JSONReadError) -> JSONValue {
        let buffer = bytes.bindMemory(to: UInt8.self)
        var parser = JSONParser(buffer: buffer, limits: limits, rejectDuplicateKeys: rejectDuplicateKeys)
        return try parser.parseDocument()
    }

    /// Reads one JSON text from UTF-8 bytes.
    public func read(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        let result: Result<JSONValue, JSONReadError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONReadError) -> JSONValue in try read(raw) }
        }
        return try result.get()
    }

    /// Reads one JSON text from a string.
    public func read(_ text: String) throws(JSONReadError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONReadError> = text.withUTF8 { utf8 in
            Result { () throws(JSONReadError) -> JSONValue in try read(UnsafeRawBufferPointer(utf8)) }
        }
        return try result.get()
    }
}

/// The parsing state machine behind `JSONReader`.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let count: Int
    private let limits: JSONReader.Limits
    private let rejectDuplicateKeys: Bool
    private var position = 0
    /// Values started so far, against `limits.maxValues`.
    private var valueCount = 0
    /// Values of every open container, flattened; a container takes its slice when it closes.
    private var values: [JSONValue] = []
    /// Keys of every open object, flattened, parallel to their values.
    private var keys: [String] = []
    /// Where each key of `keys` starts, kept only when duplicates are rejected (for the error).
    private var keyOffsets: [Int] = []
    /// Open containers, innermost last.
    private var frames: [Frame] = []
    /// Reusable buffer for strings that contain escapes.
    private var scratch: [UInt8] = []

    private struct Frame {
        var isObject: Bool
        var valueStart: Int
        var keyStart: Int
    }

    init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits, rejectDuplicateKeys: Bool) {
        self.bytes = buffer
        self.count = buffer.count
        self.limits = limits
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    // MARK: Errors

    private func error(_ code: JSONReadError.Code, at offset: Int, expected: String) -> JSONReadError {
        JSONReadError(code, offset: offset, expected: expected, in: bytes)
    }

    private func unexpected(expected: String) -> JSONReadError {
        if position >= count { return error(.unexpectedEnd, at: position, expected: expected) }
        return error(.unexpectedByte, at: position, expected: expected)
    }

    // MARK: Scanning

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private func peek() -> UInt8? {
        position < count ? bytes[position] : nil
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONReadError) -> JSONValue {
        if count > limits.maxBytes {
            throw error(.sizeLimit, at: limits.maxBytes, expected: "at most \(limits.maxBytes) bytes")
        }
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        var value = try parseValueOrOpen()
        while true {
            guard let frame = frames.last else { break }
            skipWhitespace()
            if frame.isObject {
                values.append(value)
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                    try parseKeyAndColon()
                case UInt8(ascii: "}"):
                    position += 1
                    value = try closeObject(frame)
                    continue
                default:
                    throw unexpected(expected: "',' or '}'")
                }
            } else {
                values.append(value)
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    value = closeArray(frame)
                    continue
                default:
                    throw unexpected(expected: "',' or ']'")
                }
            }
            value = try parseValueOrOpen()
        }
        skipWhitespace()
        if position < count {
            throw error(.trailingData, at: position, expected: "end of input")
        }
        return value
    }

    /// Parses a scalar, or opens containers until it reaches a scalar or an empty container, and
    /// returns that first complete value.
    private mutating func parseValueOrOpen() throws(JSONReadError) -> JSONValue {
        while true {
            skipWhitespace()
            guard position < count else { throw unexpected(expected: "a value") }
            valueCount += 1
            if valueCount > limits.maxValues {
                throw error(.valueLimit, at: position, expected: "at most \(limits.maxValues) values")
            }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try open(isObject: true)
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    return try closeObject(frames[frames.count - 1])
                }
                try parseKeyAndColon()
            case UInt8(ascii: "["):
                try open(isObject: false)
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    position += 1
                    return closeArray(frames[frames.count - 1])
                }
            case UInt8(ascii: "\""):
                return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return .number(try parseNumber())
            default:
                throw unexpected(expected: "a value")
            }
        }
    }

    private mutating func open(isObject: Bool) throws(JSONReadError) {
        if frames.count >= limits.maxDepth {
            throw error(.depthLimit, at: position, expected: "nesting at most \(limits.maxDepth) deep")
        }
        position += 1
        frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
    }

    private mutating func parseKeyAndColon() throws(JSONReadError) {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
        let keyOffset = position
        let key = try parseString()
        if rejectDuplicateKeys { keyOffsets.append(keyOffset) }
        keys.append(key)
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw unexpected(expected: "':'") }
        position += 1
    }

    private mutating func closeArray(_ frame: Frame) -> JSONValue {
        frames.removeLast()
        var elements: [JSONValue] = []
        elements.reserveCapacity(values.count - frame.valueStart)
        for index in frame.valueStart..<values.count { elements.append(values[index]) }
        values.removeSubrange(frame.valueStart...)
        return .array(elements)
    }

    private mutating func closeObject(_ frame: Frame) throws(JSONReadError) -> JSONValue {
        frames.removeLast()
        // Build the entries by index: a live slice would keep the shared buffers non-unique and
        // make the removals below copy the whole stack.
        let count = values.count - frame.valueStart
        var entries: [JSONObject.Element] = []
        entries.reserveCapacity(count)
        for offset in 0..<count {
            entries.append((keys[frame.keyStart + offset], values[frame.valueStart + offset]))
        }
        values.removeSubrange(frame.valueStart...)
        keys.removeSubrange(frame.keyStart...)
        if rejectDuplicateKeys {
            // Checked once per object, hashed when large: linear, not a scan per key.
            if !Self.keysAreUnique(entries), let repeated = Self.firstRepeatedKey(entries) {
                throw error(
                    .duplicateKey, at: keyOffsets[frame.keyStart + repeated], expected: "a key not already in this object")
            }
            keyOffsets.removeSubrange(frame.keyStart...)
            return .object(JSONObject(uniqueEntries: entries))
        }
        if Self.keysAreUnique(entries) {
            return .object(JSONObject(uniqueEntries: entries))
        }
        // A repeated key: the last value wins, at the position of the first occurrence.
        return .object(JSONObject(entries.map { ($0.key, $0.value) }))
    }

    /// The index of the first key that repeats an earlier one.
    private static func firstRepeatedKey(_ entries: [JSONObject.Element]) -> Int? {
        var seen = Set<JSONKey>(minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() where !seen.insert(JSONKey(entry.key)).inserted { return index }
        return nil
    }

    /// Whether no key repeats: pairwise for small objects, hashed for large ones.
    private static func keysAreUnique(_ entries: [JSONObject.Element]) -> Bool {
        guard entries.count > 1 else { return true }
        if entries.count <= JSONObject.indexThreshold {
            for i in 1..<entries.count {
                for j in 0..<i where JSONKey.bytesEqual(entries[j].key, entries[i].key) { return false }
            }
            return true
        }
        var seen = Set<JSONKey>(minimumCapacity: entries.count)
        for entry in entries where !seen.insert(JSONKey(entry.key)).inserted { return false }
        return true
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let length = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<length {
            guard position + offset < count, bytes[position + offset] == start[offset] else {
                position += offset
                throw unexpected(expected: "'\(literal)'")
            }
        }
        position += length
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONReadError) -> JSONNumber {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < count else { throw error(.unexpectedEnd, at: position, expected: "a digit") }
        var magnitude: UInt64 = 0
        var overflow = false
        let first = bytes[position]
        if first == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(bytes[position]) {
                throw error(.invalidNumber, at: position, expected: "'.', 'e' or the end of the number (no leading zeros)")
            }
        } else if isDigit(first) {
            while position < count, isDigit(bytes[position]) {
                let digit = UInt64(bytes[position] &- UInt8(ascii: "0"))
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                overflow = overflow || o1 || o2
                magnitude = sum
                position += 1
            }
        } else {
            throw error(.invalidNumber, at: position, expected: "a digit")
        }
        var isInteger = true
        if position < count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < count, isDigit(bytes[position]) else {
                throw position < count
                    ? error(.invalidNumber, at: position, expected: "a digit after '.'")
                    : error(.unexpectedEnd, at: position, expected: "a digit after '.'")
            }
            while position < count, isDigit(bytes[position]) { position += 1 }
        }
        if position < count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < count, isDigit(bytes[position]) else {
                throw position < count
                    ? error(.invalidNumber, at: position, expected: "a digit in the exponent")
                    : error(.unexpectedEnd, at: position, expected: "a digit in the exponent")
            }
            while position < count, isDigit(bytes[position]) { position += 1 }
        }
        if isInteger, !overflow {
            if negative {
                if magnitude <= UInt64(Int64.max) { return JSONNumber(-Int64(magnitude)) }
                if magnitude == UInt64(Int64.max) + 1 { return JSONNumber(Int64.min) }
            } else if magnitude <= UInt64(Int64.max) {
                return JSONNumber(Int64(magnitude))
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw error(.numberOutOfRange, at: start, expected: "a number within the range of Double")
        }
        return JSONNumber(double)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Strings

    /// Parses a string starting at the opening quote.
    private mutating func parseString() throws(JSONReadError) -> String {
        position += 1
        let start = position
        // Fast path: ASCII without escapes.
        while position < count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let length = position - start
                if length > limits.maxStringBytes {
                    throw error(.stringLimit, at: start, expected: "a string of at most \(limits.maxStringBytes) bytes")
                }
                position += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        return try parseStringSlow(start: start)
    }

    /// Handles escapes, non-ASCII (validated) and errors. `position` is at the first byte the
    /// fast path could not take.
    private mutating func parseStringSlow(start: Int) throws(JSONReadError) -> String {
        var hasEscapes = false
        scratch.removeAll(keepingCapacity: true)
        var copiedUpTo = start
        while true {
            guard position < count else {
                throw error(.unexpectedEnd, at: position, expected: "'\"' to close the string")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                break
            } else if byte == UInt8(ascii: "\\") {
                if !hasEscapes { hasEscapes = true }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<position]))
                try parseEscape()
                copiedUpTo = position
            } else if byte < 0x20 {
                throw error(.controlCharacter, at: position, expected: "an escaped control character such as \\n or \\u0000")
            } else if byte < 0x80 {
                position += 1
            } else {
                try validateUTF8Sequence()
            }
            let produced = hasEscapes ? scratch.count + (position - copiedUpTo) : position - start
            if produced > limits.maxStringBytes {
                throw error(.stringLimit, at: start, expected: "a string of at most \(limits.maxStringBytes) bytes")
            }
        }
        let end = position
        position += 1
        if !hasEscapes {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<end]))
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Validates one multi-byte UTF-8 sequence at `position` (RFC 3629: no overlongs, no
    /// surrogates, nothing above U+10FFFF) and moves past it.
    private mutating func validateUTF8Sequence() throws(JSONReadError) {
        let lead = bytes[position]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default:
            throw error(.invalidUTF8, at: position, expected: "a valid UTF-8 lead byte")
        }
        for offset in 1..<length {
            let index = position + offset
            guard index < count else {
                throw error(.unexpectedEnd, at: index, expected: "a UTF-8 continuation byte")
            }
            let byte = bytes[index]
            let (low, high) = offset == 1 ? (lowerBound, upperBound) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else {
                throw error(.invalidUTF8, at: index, expected: "a valid UTF-8 continuation byte")
            }
        }
        position += length
    }

    /// Decodes one escape at `position` (the backslash) into `scratch`.
    private mutating func parseEscape() throws(JSONReadError) {
        let escapeStart = position
        position += 1
        guard position < count else { throw error(.unexpectedEnd, at: position, expected: "an escape character") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4()
            var scalarValue = UInt32(unit)
            if unit >= 0xD800, unit <= 0xDBFF {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        .loneSurrogate, at: escapeStart, expected: "a low surrogate \\uDC00–\\uDFFF after a high surrogate")
                }
                position += 2
                let low = try parseHex4()
                guard low >= 0xDC00, low <= 0xDFFF else {
                    throw error(.loneSurrogate, at: position - 6, expected: "a low surrogate \\uDC00–\\uDFFF")
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if unit >= 0xDC00, unit <= 0xDFFF {
                throw error(.loneSurrogate, at: escapeStart, expected: "a high surrogate before a low surrogate")
            }
            appendUTF8(scalarValue)
        default:
            throw error(.invalidEscape, at: escapeStart, expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func parseHex4() throws(JSONReadError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < count else { throw error(.unexpectedEnd, at: position, expected: "4 hexadecimal digits") }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidEscape, at: position, expected: "a hexadecimal digit")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
