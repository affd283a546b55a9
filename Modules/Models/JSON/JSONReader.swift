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
        var parser = JSONParser(
            buffer: buffer, limits: limits, rejectDuplicateKeys: rejectDuplicateKeys,
            builder: JSONTreeBuilder(base: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!))
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

/// An array or object the parser has opened and not yet closed.
struct JSONFrame {
    var isObject: Bool
    /// Where the builder's record of this container starts (its first value, or its tape word).
    var valueStart: Int
    /// Where the builder's keys of this object start.
    var keyStart: Int
    /// Where this object's key offsets start in `JSONParser.keyOffsets` (duplicates rejected).
    var offsetStart: Int
    /// The intern slot (plus one) of the key this container is the value of; an array's
    /// elements inherit their array's.
    var ownerSlot: UInt8
    /// The intern slot (plus one) of this object's latest key; zero before the first.
    var lastSlot: UInt8
    /// Whether two of this object's keys may be equal: a slot was used twice, or a key was
    /// not interned. Distinct slots mean distinct keys (equal keys always share a slot).
    var mayRepeat = false
    /// How many of this object's keys were not predicted, up to `KeyTable.largeObjectKeys`
    /// (then its later keys are not interned).
    var unpredictedKeys: UInt32 = 0
    /// The intern slots used by this object's keys, a bit each.
    var seenSlots: (low: UInt64, high: UInt64) = (0, 0)

    init(isObject: Bool, valueStart: Int, keyStart: Int, offsetStart: Int, ownerSlot: UInt8) {
        self.isObject = isObject
        self.valueStart = valueStart
        self.keyStart = keyStart
        self.offsetStart = offsetStart
        self.ownerSlot = ownerSlot
        self.lastSlot = 0
    }

    /// Records a key's slot (plus one; zero for a key that was not interned).
    @inline(__always)
    mutating func noteKey(slot: UInt8) {
        lastSlot = slot
        guard slot != 0 else {
            mayRepeat = true
            return
        }
        let index = slot &- 1
        let bit = UInt64(1) &<< UInt64(index & 63)
        if index < 64 {
            if seenSlots.low & bit != 0 { mayRepeat = true }
            seenSlots.low |= bit
        } else {
            if seenSlots.high & bit != 0 { mayRepeat = true }
            seenSlots.high |= bit
        }
    }
}

/// What `JSONParser` makes of a document: the parser checks the text (limits, errors, key
/// rules) and reports each value to its builder in document order; a key comes just before
/// its value, a container's values between its `open` and its close. Every byte range it
/// passes is validated UTF-8.
protocol JSONBuilder: ~Copyable {
    /// What a whole document becomes.
    associatedtype Output
    /// What the key table keeps for an interned key.
    associatedtype InternedKey

    /// The interned form of the key of `length` bytes at `offset` of the input, made once per
    /// distinct key.
    mutating func internedKey(offset: Int, length: Int) -> InternedKey
    /// An array or object opens; returns where its values and its keys start.
    mutating func open(isObject: Bool) -> (values: Int, keys: Int)
    /// An interned key whose bytes are the `length` at `offset` of the input.
    mutating func key(_ key: consuming InternedKey, slot: UInt8, at offset: Int, length: Int)
    /// A key that was not interned (too long), the `length` bytes at `offset` of the input.
    mutating func key(at offset: Int, length: Int)
    /// A key that had escapes, decoded.
    mutating func key(unescaped bytes: UnsafeBufferPointer<UInt8>)
    /// A string without escapes, the `length` bytes at `offset` of the input.
    mutating func string(at offset: Int, length: Int)
    /// A string that had escapes, decoded.
    mutating func string(unescaped bytes: UnsafeBufferPointer<UInt8>)
    /// A number.
    mutating func number(_ number: JSONNumber)
    /// `true` or `false`.
    mutating func bool(_ value: Bool)
    /// `null`.
    mutating func null()
    /// The array opened as `frame` closes.
    mutating func closeArray(_ frame: JSONFrame)
    /// The object opened as `frame` closes. When `rejectingDuplicates`, returns the index of its
    /// first key that repeats an earlier one (and the document is abandoned); otherwise nil.
    mutating func closeObject(_ frame: JSONFrame, rejectingDuplicates: Bool) -> Int?
    /// The document, once its one value has been reported.
    mutating func finish() -> Output
}

/// The parsing state machine behind `JSONReader`.
///
/// One forward pass: strings are scanned eight bytes at a time for their end (and validated as
/// UTF-8 on the way), object keys are interned per document by their bytes, and what the
/// document holds is reported to a `JSONBuilder` (a `JSONValue` tree, or a `JSONDocument`'s tape).
struct JSONParser<Builder: JSONBuilder & ~Copyable>: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let limits: JSONReader.Limits
    private let rejectDuplicateKeys: Bool
    private var position = 0
    /// Values started so far, against `limits.maxValues`.
    private var valueCount = 0
    /// What the document becomes.
    private var builder: Builder
    /// Where each key of the open objects starts, kept only when duplicates are rejected (for the error).
    private var keyOffsets: [Int] = []
    /// Open containers, innermost last.
    private var frames: Stack<JSONFrame>
    /// Reusable buffer for strings that contain escapes (1 KB at first, which most fit in).
    private var scratch = Stack<UInt8>(firstCapacity: 1024)
    /// Object keys seen in this document, by the hash of their bytes.
    private var interned: KeyTable<Builder.InternedKey>

    init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits, rejectDuplicateKeys: Bool, builder: consuming Builder) {
        self.bytes = buffer
        // An empty input has no address; a dangling one is never read (every read is bounds-checked).
        self.base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.count = buffer.count
        self.limits = limits
        self.rejectDuplicateKeys = rejectDuplicateKeys
        self.builder = builder
        self.frames = Stack()
        self.interned = KeyTable()
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
            switch base[position] {
            case 0x0A:
                position += 1
                // Pretty-printed input: the indentation that follows, up to eight spaces a step.
                while position &+ 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                    let other = word ^ 0x2020_2020_2020_2020
                    if other != 0 {
                        position &+= other.trailingZeroBitCount &>> 3
                        break
                    }
                    position &+= 8
                }
            case 0x20, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private func peek() -> UInt8? {
        position < count ? base[position] : nil
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONReadError) -> Builder.Output {
        if count > limits.maxBytes {
            throw error(.sizeLimit, at: limits.maxBytes, expected: "at most \(limits.maxBytes) bytes")
        }
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        try parseValueOrOpen()
        while frames.count > 0 {
            skipWhitespace()
            // The innermost container, read in place (copied only when it closes).
            let frame = frames.pointer + (frames.count - 1)
            if frame.pointee.isObject {
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                    try parseKeyAndColon()
                case UInt8(ascii: "}"):
                    position += 1
                    try closeObject(frame.pointee)
                    continue
                default:
                    throw unexpected(expected: "',' or '}'")
                }
            } else {
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    closeArray(frame.pointee)
                    continue
                default:
                    throw unexpected(expected: "',' or ']'")
                }
            }
            try parseValueOrOpen()
        }
        skipWhitespace()
        if position < count {
            throw error(.trailingData, at: position, expected: "end of input")
        }
        return builder.finish()
    }

    /// Parses a scalar, or opens containers until it reaches a scalar or an empty container,
    /// and reports that first complete value.
    private mutating func parseValueOrOpen() throws(JSONReadError) {
        while true {
            skipWhitespace()
            guard position < count else { throw unexpected(expected: "a value") }
            valueCount += 1
            if valueCount > limits.maxValues {
                throw error(.valueLimit, at: position, expected: "at most \(limits.maxValues) values")
            }
            switch base[position] {
            case UInt8(ascii: "{"):
                try open(isObject: true)
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    return try closeObject(frames.pointer[frames.count - 1])
                }
                try parseKeyAndColon()
            case UInt8(ascii: "["):
                try open(isObject: false)
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    position += 1
                    return closeArray(frames.pointer[frames.count - 1])
                }
            case UInt8(ascii: "\""):
                return try parseString()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return builder.bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return builder.bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return builder.null()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return builder.number(try parseNumber())
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
        var owner: UInt8 = 0
        if let parent = frames.last { owner = parent.isObject ? parent.lastSlot : parent.ownerSlot }
        let start = builder.open(isObject: isObject)
        frames.push(
            JSONFrame(
                isObject: isObject, valueStart: start.values, keyStart: start.keys, offsetStart: keyOffsets.count,
                ownerSlot: owner))
    }

    private mutating func parseKeyAndColon() throws(JSONReadError) {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
        let keyOffset = position
        let frame = frames.pointer + (frames.count - 1)
        let last = frame.pointee.lastSlot
        let context = last == 0 ? KeyTable<Builder.InternedKey>.firstKeyContext(owner: frame.pointee.ownerSlot) : Int(last)
        let predicted = interned.predictedSlot(after: context, base: base, at: position &+ 1, count: count)
        if predicted != 0 {
            // The bytes are those of the latest key that followed the same context unpredicted.
            takePredictedKey(predicted)
            frame.pointee.noteKey(slot: predicted)
        } else {
            frame.pointee.noteKey(slot: try parseKeyUnpredicted(after: context))
        }
        if rejectDuplicateKeys { keyOffsets.append(keyOffset) }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw unexpected(expected: "':'") }
        position += 1
    }

    private mutating func closeArray(_ frame: JSONFrame) {
        frames.removeLast()
        builder.closeArray(frame)
    }

    private mutating func closeObject(_ frame: JSONFrame) throws(JSONReadError) {
        frames.removeLast()
        if let repeated = builder.closeObject(frame, rejectingDuplicates: rejectDuplicateKeys) {
            throw error(.duplicateKey, at: keyOffsets[frame.offsetStart + repeated], expected: "a key not already in this object")
        }
        if rejectDuplicateKeys { keyOffsets.removeSubrange(frame.offsetStart...) }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let length = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<length {
            guard position + offset < count, base[position + offset] == start[offset] else {
                position += offset
                throw unexpected(expected: "'\(literal)'")
            }
        }
        position += length
    }

    // MARK: Numbers

    /// Fails unless a digit is at `position`: an invalid number, or the end of the input.
    @inline(__always)
    private func requireDigit(_ expected: String) throws(JSONReadError) {
        guard position < count, isDigit(base[position]) else {
            throw error(position < count ? .invalidNumber : .unexpectedEnd, at: position, expected: expected)
        }
    }

    private mutating func parseNumber() throws(JSONReadError) -> JSONNumber {
        let start = position
        var negative = false
        if base[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < count else { throw error(.unexpectedEnd, at: position, expected: "a digit") }
        // Every digit, integer and fraction, accumulates into `magnitude` (eight at a time where
        // it can); past 19 significant digits it wraps, and `overflow` says so below.
        var magnitude: UInt64 = 0
        let digitsStart = position
        let first = base[position]
        if first == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(base[position]) {
                throw error(.invalidNumber, at: position, expected: "'.', 'e' or the end of the number (no leading zeros)")
            }
        } else if isDigit(first) {
            accumulateDigits(into: &magnitude)
        } else {
            throw error(.invalidNumber, at: position, expected: "a digit")
        }
        var isInteger = true
        var fractionDigits = 0
        if position < count, base[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try requireDigit("a digit after '.'")
            let fractionStart = position
            accumulateDigits(into: &magnitude)
            fractionDigits = position - fractionStart
        }
        // Nineteen digits always fit in 64 bits; past that (the point aside), count them
        // without the leading zeros of `0.000…`.
        var overflow = false
        if position - digitsStart > 19 {
            var significant = 0
            for index in digitsStart..<position where base[index] != UInt8(ascii: ".") {
                if significant > 0 || base[index] != UInt8(ascii: "0") { significant += 1 }
            }
            overflow = significant > 19
        }
        var exponent = 0
        if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                exponentNegative = base[position] == UInt8(ascii: "-")
                position += 1
            }
            try requireDigit("a digit in the exponent")
            while position < count, isDigit(base[position]) {
                // Saturates past 2^50: more than any count of fraction digits (an input's length)
                // plus Double's range, so the scale below stays out of range (zero or too large)
                // exactly when the number is, and never overflows.
                if exponent < 1 << 50 { exponent = exponent &* 10 &+ Int(base[position] &- UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger, !overflow {
            if negative {
                if magnitude <= UInt64(Int64.max) { return JSONNumber(-Int64(magnitude)) }
                if magnitude == UInt64(Int64.max) + 1 { return JSONNumber(Int64.min) }
            } else if magnitude <= UInt64(Int64.max) {
                return JSONNumber(Int64(magnitude))
            }
        }
        // Exact when the digits fit in 53 bits and the power of ten is exact (|e| ≤ 22): one
        // correctly rounded multiplication or division (Clinger's fast path).
        let scale = exponent - fractionDigits
        if !overflow, magnitude <= 1 << 53, scale >= -22, scale <= 22 {
            let power = Self.powerOfTen(scale < 0 ? -scale : scale)
            let value = scale < 0 ? Double(magnitude) / power : Double(magnitude) * power
            return JSONNumber(negative ? -value : value)
        }
        // Up to 19 digits (any significand that fits in 64 bits): Eisel–Lemire, exact.
        let double: Double
        if !overflow {
            double = DecimalConversion.nearestDouble(significand: magnitude, exponent: scale)
        } else {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
            double = Double(text) ?? .infinity
        }
        guard double.isFinite else {
            throw error(.numberOutOfRange, at: start, expected: "a number within the range of Double")
        }
        return JSONNumber(negative && !overflow ? -double : double)
    }

    /// Adds the run of digits at `position` to `magnitude` (wrapping past 64 bits: the caller
    /// counts the digits): up to four one at a time (most numbers end there), then eight at a
    /// time while eight are there, then the rest one at a time.
    @inline(__always)
    private mutating func accumulateDigits(into magnitude: inout UInt64) {
        let shortEnd = position &+ 4
        while position < count, isDigit(base[position]) {
            magnitude = magnitude &* 10 &+ UInt64(base[position] &- UInt8(ascii: "0"))
            position &+= 1
            if position == shortEnd {
                accumulateLongDigits(into: &magnitude)
                return
            }
        }
    }

    /// The rest of a run of digits past its fourth, eight at a time while eight are there.
    private mutating func accumulateLongDigits(into magnitude: inout UInt64) {
        while position &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            // Each byte 0x30–0x39: its high nibble 3, and adding 6 leaves it 3.
            let high = word & 0xF0F0_F0F0_F0F0_F0F0
            let carried = (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
            guard high | carried >> 4 == 0x3333_3333_3333_3333 else { break }
            // The eight digits' value: pairs, then fours, then the eight (the first digit is the lowest byte).
            var digits = word &- 0x3030_3030_3030_3030
            digits = digits &* 10 &+ digits >> 8
            digits =
                ((digits & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
                    &+ (digits >> 16 & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001) >> 32
            magnitude = magnitude &* 100_000_000 &+ digits
            position &+= 8
        }
        while position < count, isDigit(base[position]) {
            magnitude = magnitude &* 10 &+ UInt64(base[position] &- UInt8(ascii: "0"))
            position &+= 1
        }
    }

    /// 10^exponent for 0 ≤ exponent ≤ 22, all exact in a Double.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        var result = 1.0
        var base = 10.0
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result *= base }
            base *= base
            remaining >>= 1
        }
        return result
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Strings

    /// A mask with the high bit set in each byte of `word` that is a quote, a backslash, a
    /// control character or not ASCII. Bits above the lowest set one may be spurious (borrows),
    /// so only the lowest is used.
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & (ones &* 0x80)
    }

    /// Moves from `position` inside a string (which began at `start`) to the first quote,
    /// backslash or control character, or the end of the input, eight bytes at a time while
    /// they are plain ASCII, validating any UTF-8 sequence on the way (a run of them without
    /// returning to the word loop).
    ///
    /// The string's length is `position - lengthBase` (the bytes since `start`, less what escapes
    /// saved). It is checked before any error of a UTF-8 sequence, so that a string too long
    /// fails on its length first; every caller checks it again where the scan stops.
    @inline(__always)
    private mutating func scanPlain(start: Int, lengthBase: Int) throws(JSONReadError) {
        while true {
            while position &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special != 0 {
                    position &+= special.trailingZeroBitCount &>> 3
                    break
                }
                position &+= 8
            }
            guard position < count else { return }
            let byte = base[position]
            if byte >= 0x80 {
                try skipUTF8Run(start: start, lengthBase: lengthBase)
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                return
            } else {
                position += 1
            }
        }
    }

    /// Fails when the string starting at `start` is longer than the limit: its decoded length
    /// is `position - lengthBase` (what was copied to `scratch`, and what follows it).
    @inline(__always)
    private func checkStringLength(from lengthBase: Int, reportingAt start: Int) throws(JSONReadError) {
        try checkStringLength(position - lengthBase, reportingAt: start)
    }

    /// Fails when `length`, the decoded length so far of the string starting at `start`, is
    /// longer than the limit.
    @inline(__always)
    private func checkStringLength(_ length: Int, reportingAt start: Int) throws(JSONReadError) {
        if length > limits.maxStringBytes {
            throw error(.stringLimit, at: start, expected: "a string of at most \(limits.maxStringBytes) bytes")
        }
    }

    /// Parses a string value starting at the opening quote.
    private mutating func parseString() throws(JSONReadError) {
        position += 1
        let start = position
        try scanPlain(start: start, lengthBase: start)
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            try parseStringSlow(start: start)
            return builder.string(unescaped: scratch.elements)
        }
        try checkStringLength(from: start, reportingAt: start)
        position += 1
        builder.string(at: start, length: position - 1 - start)
    }

    /// Parses an object key starting at its opening quote when it is not the latest key that
    /// followed `context` unpredicted: one of the three learnt before that one, or else scanned
    /// (and learnt). Returns its intern slot plus one (zero for none).
    @inline(never)
    private mutating func parseKeyUnpredicted(after context: Int) throws(JSONReadError) -> UInt8 {
        let frame = frames.pointer + (frames.count - 1)
        if frame.pointee.unpredictedKeys == KeyTable<Builder.InternedKey>.largeObjectKeys {
            // An object with more unpredicted keys than the intern table has slots (a string
            // catalog): its later keys are not interned (each would evict another) and are
            // compared when it closes (slot zero); what followed their context is forgotten,
            // so the next key's prediction fails at once.
            interned.forget(after: context)
            try parseKeyWithoutInterning()
            return 0
        }
        frame.pointee.unpredictedKeys &+= 1
        let earlier = interned.earlierPredictedSlot(after: context, base: base, at: position &+ 1, count: count)
        if earlier != 0 {
            takePredictedKey(earlier)
            return earlier
        }
        let slot = try parseKeyScanning()
        interned.learn(slot, after: context)
        return slot
    }

    /// Reports the key in `slot` (plus one), whose bytes and closing quote the input holds at
    /// `position` past the opening quote, and moves past its closing quote.
    @inline(__always)
    private mutating func takePredictedKey(_ slot: UInt8) {
        let length = interned.length(ofSlot: slot)
        builder.key(interned.key(ofSlot: slot), slot: slot, at: position &+ 1, length: length)
        position &+= 2 &+ length
    }

    /// Parses an object key starting at its opening quote, without interning it.
    @inline(never)
    private mutating func parseKeyWithoutInterning() throws(JSONReadError) {
        position += 1
        let start = position
        try scanPlain(start: start, lengthBase: start)
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            try parseStringSlow(start: start)
            return builder.key(unescaped: scratch.elements)
        }
        try checkStringLength(from: start, reportingAt: start)
        position += 1
        builder.key(at: start, length: position - 1 - start)
    }

    /// Parses an object key starting at its opening quote (when its bytes were not predicted);
    /// a key without escapes is interned. Returns its intern slot plus one (zero for none).
    @inline(__always)
    private mutating func parseKeyScanning() throws(JSONReadError) -> UInt8 {
        position += 1
        let start = position
        try scanPlain(start: start, lengthBase: start)
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            try parseStringSlow(start: start)
            builder.key(unescaped: scratch.elements)
            return 0
        }
        try checkStringLength(from: start, reportingAt: start)
        let length = position - start
        position += 1
        let slot = interned.intern(base: base, start: start, length: length, available: count - start, builder: &builder)
        if slot != 0 {
            builder.key(interned.key(ofSlot: slot), slot: slot, at: start, length: length)
        } else {
            builder.key(at: start, length: length)
        }
        return slot
    }

    /// Handles escapes and errors, leaving the decoded string in `scratch`. `position` is at the
    /// first byte the plain scan stopped at; between escapes the scan goes on a word at a time.
    private mutating func parseStringSlow(start: Int) throws(JSONReadError) {
        try checkStringLength(from: start, reportingAt: start)
        scratch.removeAll()
        var copiedUpTo = start
        while true {
            guard position < count else {
                throw error(.unexpectedEnd, at: position, expected: "'\"' to close the string")
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                break
            } else if byte == UInt8(ascii: "\\") {
                scratch.push(copying: base + copiedUpTo, count: position - copiedUpTo)
                // A run of escapes (text escaped a character at a time) without the scan between
                // them; the decoded length, all in `scratch`, checked after each as the scan would.
                repeat {
                    if !appendCharacterEscape() { try parseEscape() }
                    try checkStringLength(scratch.count, reportingAt: start)
                } while position < count && base[position] == UInt8(ascii: "\\")
                copiedUpTo = position
            } else {
                throw error(.controlCharacter, at: position, expected: "an escaped control character such as \\n or \\u0000")
            }
            // The decoded length is `position - lengthBase`: what was copied, and what follows it.
            let lengthBase = copiedUpTo - scratch.count
            try scanPlain(start: start, lengthBase: lengthBase)
            try checkStringLength(from: lengthBase, reportingAt: start)
        }
        scratch.push(copying: base + copiedUpTo, count: position - copiedUpTo)
        position += 1
    }

    /// Moves past a run of multi-byte UTF-8 characters at `position`, validating each (RFC 3629:
    /// no overlongs, no surrogates, nothing above U+10FFFF).
    ///
    /// The first character is taken alone: most runs are one accented letter. When the run goes
    /// on, two-byte characters (U+0080–U+07FF: Latin accents, Greek, Cyrillic, Arabic) are
    /// checked four to a load, three-byte ones (U+0800–U+FFFF: Devanagari, Thai, CJK) two to a
    /// load, while they are alike.
    @inline(__always)
    private mutating func skipUTF8Run(start: Int, lengthBase: Int) throws(JSONReadError) {
        var at = position
        try skipUTF8Character(at: &at, start: start, lengthBase: lengthBase)
        while at < count && base[at] >= 0x80 {
            if at &+ 8 <= count {
                let word = UTF8Words.word(at: base + at)
                if UTF8Words.isFourTwoByteCharacters(word) {
                    at &+= 8
                    continue
                }
                if UTF8Words.isTwoThreeByteCharacters(word) {
                    at &+= 6
                    continue
                }
            }
            try skipUTF8Character(at: &at, start: start, lengthBase: lengthBase)
        }
        position = at
    }

    /// Moves `at` past the multi-byte UTF-8 character there: a two-byte one by its continuation
    /// byte, a three-byte one by its continuation bytes and its second byte's range after E0 or
    /// ED; any other (and any error) by `validateUTF8Sequence()`, after the length check the
    /// limit's error needs to come first.
    @inline(__always)
    private mutating func skipUTF8Character(at: inout Int, start: Int, lengthBase: Int) throws(JSONReadError) {
        let lead = base[at]
        if lead &- 0xC2 < 0x1E {
            if at &+ 1 < count, base[at &+ 1] & 0xC0 == 0x80 {
                at &+= 2
                return
            }
        } else if lead & 0xF0 == 0xE0, at &+ 2 < count {
            // Both continuation bytes in one load.
            let continuation = UInt16(littleEndian: UnsafeRawPointer(base + (at &+ 1)).loadUnaligned(as: UInt16.self))
            if continuation & 0xC0C0 == 0x8080,
                UTF8Words.isValidSecond(UInt8(truncatingIfNeeded: continuation), afterThreeByteLead: lead)
            {
                at &+= 3
                return
            }
        }
        position = at
        try checkStringLength(from: lengthBase, reportingAt: start)
        try validateUTF8Sequence()
        at = position
    }

    /// Validates one multi-byte UTF-8 sequence at `position` (RFC 3629: no overlongs, no
    /// surrogates, nothing above U+10FFFF) and moves past it.
    private mutating func validateUTF8Sequence() throws(JSONReadError) {
        let lead = base[position]
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
            let byte = base[index]
            let (low, high) = offset == 1 ? (lowerBound, upperBound) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else {
                throw error(.invalidUTF8, at: index, expected: "a valid UTF-8 continuation byte")
            }
        }
        position += length
    }
    /// Decodes a `\uXXXX` escape at `position` (the backslash) into `scratch` at once: a
    /// character that is not a surrogate (the common escape of text), or a high surrogate and
    /// the escaped low one after it (an emoji); false, with nothing consumed, for any other
    /// escape or an invalid one (`parseEscape()` decodes it, or throws its error).
    @inline(__always)
    private mutating func appendCharacterEscape() -> Bool {
        guard position &+ 6 <= count, base[position &+ 1] == UInt8(ascii: "u"),
            let unit = hexDigits(at: position &+ 2)
        else { return false }
        if unit &- 0xD800 >= 0x800 {
            position &+= 6
            appendUTF8(UInt32(unit))
            return true
        }
        // A lone or misplaced surrogate is an error: the full path names it.
        guard unit < 0xDC00, position &+ 12 <= count, base[position &+ 6] == UInt8(ascii: "\\"),
            base[position &+ 7] == UInt8(ascii: "u"), let low = hexDigits(at: position &+ 8), low &- 0xDC00 < 0x400
        else { return false }
        position &+= 12
        appendUTF8(0x10000 &+ (UInt32(unit &- 0xD800) &<< 10) &+ UInt32(low &- 0xDC00))
        return true
    }

    /// Decodes one escape at `position` (the backslash) into `scratch`.
    private mutating func parseEscape() throws(JSONReadError) {
        let escapeStart = position
        position += 1
        guard position < count else { throw error(.unexpectedEnd, at: position, expected: "an escape character") }
        let byte = base[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.push(0x22)
        case UInt8(ascii: "\\"): scratch.push(0x5C)
        case UInt8(ascii: "/"): scratch.push(0x2F)
        case UInt8(ascii: "b"): scratch.push(0x08)
        case UInt8(ascii: "f"): scratch.push(0x0C)
        case UInt8(ascii: "n"): scratch.push(0x0A)
        case UInt8(ascii: "r"): scratch.push(0x0D)
        case UInt8(ascii: "t"): scratch.push(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4()
            var scalarValue = UInt32(unit)
            if unit >= 0xD800, unit <= 0xDBFF {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < count, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u")
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

    /// Four hexadecimal digits at `position`, read at once; any other byte, or the end of the
    /// input, takes the digit-by-digit path, which throws the error at the first bad byte.
    @inline(__always)
    private mutating func parseHex4() throws(JSONReadError) -> UInt16 {
        if let value = hexDigits(at: position) {
            position &+= 4
            return value
        }
        return try parseHex4Checked()
    }

    /// The value of the four hexadecimal digits at `offset`, or nil when the input ends first or
    /// one of them is another byte: the four bytes at once, one per lane of a 32-bit word.
    @inline(__always)
    private func hexDigits(at offset: Int) -> UInt16? {
        guard offset &+ 4 <= count else { return nil }
        let word = UInt32(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self))
        let lanes: UInt32 = 0x0101_0101
        // A digit's value is its low four bits; a letter's (bit 6 set), nine more: 0–24 a lane.
        let letters = (word >> 6) & lanes
        let nibbles = (word & (lanes &* 0x0F)) &+ letters &* 9
        // Only `0`–`9`, `a`–`f` and `A`–`F` are written back to themselves (upper case letters
        // differing in bit 5): a lane's value must be below 16, and its digit spelled as the input's.
        let large = (nibbles &+ lanes &* 0x70) & (lanes &* 0x80)
        let isLetter = ((nibbles &+ lanes &* 0x76) >> 7) & lanes
        let spelled = nibbles &+ lanes &* 0x30 &+ isLetter &* 0x27
        guard large == 0, (word ^ spelled) & ~(isLetter &* 0x20) == 0 else { return nil }
        // The first digit is the lowest lane: pairs, then the two bytes swapped into place.
        let pairs = (nibbles & 0x000F_000F) << 4 | (nibbles >> 8) & 0x000F_000F
        return UInt16(truncatingIfNeeded: (pairs & 0xFF) << 8 | (pairs >> 16) & 0xFF)
    }

    /// `parseHex4()` a digit at a time, naming the first byte that is not a digit.
    private mutating func parseHex4Checked() throws(JSONReadError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < count else { throw error(.unexpectedEnd, at: position, expected: "4 hexadecimal digits") }
            let byte = base[position]
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

    /// Appends the UTF-8 encoding of `scalar` (a scalar value, not a surrogate) to `scratch`.
    @inline(__always)
    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.push(UInt8(scalar))
        case 0x80..<0x800:
            scratch.push(UInt8(0xC0 | (scalar >> 6)))
            scratch.push(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.push(UInt8(0xE0 | (scalar >> 12)))
            scratch.push(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.push(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.push(UInt8(0xF0 | (scalar >> 18)))
            scratch.push(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.push(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.push(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}

/// A stack of values in manually managed memory: pushing moves a value in, and closing a
/// container moves its slice out into the new array, with no retain or release in between.
struct Stack<Element>: ~Copyable {
    /// The first element (a dangling, never-read address while nothing was pushed).
    private(set) var pointer: UnsafeMutablePointer<Element>
    /// How many elements are on the stack.
    private(set) var count = 0
    private var capacity = 0
    /// How many elements the first allocation holds.
    private let firstCapacity: Int

    /// An empty stack, which allocates room for `firstCapacity` elements when first pushed to.
    init(firstCapacity: Int = 16) {
        pointer = UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
        self.firstCapacity = firstCapacity
    }

    deinit {
        if capacity > 0 {
            pointer.deinitialize(count: count)
            pointer.deallocate()
        }
    }

    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow(toHold: count &+ 1) }
        (pointer + count).initialize(to: element)
        count &+= 1
    }

    /// Pushes copies of the `length` elements at `source`, in order.
    @inline(__always)
    mutating func push(copying source: UnsafePointer<Element>, count length: Int) {
        guard length > 0 else { return }
        if capacity &- count < length { grow(toHold: count &+ length) }
        (pointer + count).initialize(from: source, count: length)
        count &+= length
    }

    /// The elements, bottom first, valid until the stack next changes.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: pointer, count: count) }

    /// Removes every element, keeping the memory.
    mutating func removeAll() {
        pointer.deinitialize(count: count)
        count = 0
    }

    /// Room for `needed` elements: the capacity at least doubles.
    private mutating func grow(toHold needed: Int) {
        let newCapacity = Swift.max(firstCapacity, capacity * 2, needed)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if capacity > 0 {
            grown.moveInitialize(from: pointer, count: count)
            pointer.deallocate()
        }
        pointer = grown
        capacity = newCapacity
    }

    /// Moves the elements from `start` to the top into a new array.
    mutating func moveOut(from start: Int) -> [Element] {
        let moved = count - start
        let source = pointer + start
        // Allocated by `reserveCapacity`, which is specialized for `Element` (see `JSONTreeBuilder.entries`).
        var array: [Element] = []
        array.reserveCapacity(moved)
        for offset in 0..<moved { array.append((source + offset).move()) }
        count = start
        return array
    }

    /// Drops the elements from `start` up, which the caller has already moved out.
    mutating func forgetTop(from start: Int) {
        count = start
    }

    /// The top element, if any.
    var last: Element? {
        count > 0 ? pointer[count - 1] : nil
    }

    /// Moves the top element out.
    mutating func pop() -> Element {
        count -= 1
        return (pointer + count).move()
    }

    /// Removes the top element.
    mutating func removeLast() {
        count -= 1
        (pointer + count).deinitialize(count: 1)
    }
}

/// The object keys of one document, by the hash of their bytes: a repeated key (the same
/// keys in every item of a list) is compared by its bytes and shared, not decoded again.
struct KeyTable<Payload>: ~Copyable {
    /// Where a slot's key sits in the input, and its hash.
    private struct Slot {
        var hash: UInt64
        var offset: Int
        var length: Int
    }

    /// Number of slots; a slot number fits a byte with room for "not interned" (zero).
    private static var slotCount: Int { 128 }
    /// An object's keys past this many unpredicted ones are not interned (it has more keys
    /// than the table has slots).
    static var largeObjectKeys: UInt32 { UInt32(slotCount) }
    /// The slots form sets of `ways` slots, chosen by `setBits` of a key's hash. A key takes
    /// the first free way of its set, or else the last way (the others are never evicted), so a
    /// key is in the same slot every time it is interned, and equal keys share a slot: the
    /// builders' check for repeated keys relies on it. Four ways, not one: keys whose hashes
    /// share their top bits no longer evict each other until a fifth comes.
    static var ways: Int { 4 }
    /// log2 of the number of sets (`slotCount / ways`).
    static var setBits: Int { 5 }
    /// Longer keys are not interned.
    private static var maxLength: Int { 64 }

    private var slots: UnsafeMutablePointer<Slot>?
    /// What the builder keeps for each slot's key (its `String`, or where it is).
    private var strings: UnsafeMutablePointer<Payload>?
    /// For each context (a key's slot plus one, or `firstKeyContext(owner:)`), the slots plus
    /// one of the last four keys that followed it and were not predicted, one a byte, the latest
    /// lowest; unused bytes (the high ones) are zero. Four, not one: the nodes of a screen
    /// follow a key with one of a few keys (a quarter of the misses of one).
    private var successors: UnsafeMutablePointer<UInt32>?

    /// The context of an object's first key: the key its object is the value of.
    @inline(__always)
    static func firstKeyContext(owner: UInt8) -> Int { slotCount + 1 + Int(owner) }

    /// The slot (plus one) of the latest key learnt after `context` (one that followed it and
    /// was not predicted), when the input at `start` holds exactly its bytes and a closing
    /// quote; zero otherwise. A slot whose key was evicted since holds other bytes, and fails.
    @inline(__always)
    func predictedSlot(after context: Int, base: UnsafePointer<UInt8>, at start: Int, count: Int) -> UInt8 {
        guard let successors else { return 0 }
        let next = UInt8(truncatingIfNeeded: successors[context])
        guard next != 0, holds(next, base: base, at: start, count: count) else { return 0 }
        return next
    }

    /// The slot (plus one) of one of the three keys learnt after `context` before the latest
    /// one, the latest first, when the input at `start` holds it (as in `predictedSlot`). A hit
    /// here is not learnt again: keys that alternate are found here each time.
    @inline(__always)
    func earlierPredictedSlot(after context: Int, base: UnsafePointer<UInt8>, at start: Int, count: Int) -> UInt8 {
        guard let successors else { return 0 }
        var candidates = successors[context] &>> 8
        while candidates != 0 {
            let next = UInt8(truncatingIfNeeded: candidates)
            if holds(next, base: base, at: start, count: count) { return next }
            candidates &>>= 8
        }
        return 0
    }

    /// Whether the input at `start` holds exactly the key in `slot` (plus one) and a closing quote.
    @inline(__always)
    private func holds(_ slot: UInt8, base: UnsafePointer<UInt8>, at start: Int, count: Int) -> Bool {
        let slot = slots.unsafelyUnwrapped + Int(slot &- 1)
        let length = slot.pointee.length
        let end = start &+ length
        return end < count && base[end] == UInt8(ascii: "\"")
            && KeyBytes.equal(base + slot.pointee.offset, base + start, length)
    }

    /// The length in bytes of the key in `slot` (plus one), which is in use.
    @inline(__always)
    func length(ofSlot slot: UInt8) -> Int {
        slots.unsafelyUnwrapped[Int(slot &- 1)].length
    }

    /// The key in `slot` (plus one), which is in use.
    @inline(__always)
    func key(ofSlot slot: UInt8) -> Payload {
        strings.unsafelyUnwrapped[Int(slot &- 1)]
    }

    /// Forgets the keys learnt after `context`.
    @inline(__always)
    func forget(after context: Int) {
        successors?[context] = 0
    }

    /// Records that the key in `slot` (plus one; zero for a key not interned, which is not
    /// recorded) followed `context` and was not predicted; the oldest of four is forgotten.
    @inline(__always)
    func learn(_ slot: UInt8, after context: Int) {
        guard slot != 0, let successors else { return }
        successors[context] = successors[context] &<< 8 | UInt32(slot)
    }

    init() {}

    deinit {
        if let slots, let strings {
            // Only slots that were used hold a string.
            for index in 0..<Self.slotCount where slots[index].length >= 0 { (strings + index).deinitialize(count: 1) }
            slots.deallocate()
            strings.deallocate()
        }
        successors?.deallocate()
    }

    /// The slot (plus one) of the key of `length` bytes at `start` in `base` (already validated
    /// UTF-8; `available` bytes are readable from `start`), shared with an earlier equal key when
    /// there is one; zero for a key too long to intern.
    @inline(__always)
    mutating func intern<Builder: JSONBuilder & ~Copyable>(
        base: UnsafePointer<UInt8>, start: Int, length: Int, available: Int, builder: inout Builder
    ) -> UInt8 where Builder.InternedKey == Payload {
        let bytes = base + start
        guard length <= Self.maxLength else { return 0 }
        if slots == nil { allocate() }
        let hash = Self.hash(bytes, length, available: available)
        // The key's set, by the top bits of its hash; then its ways in order.
        let first = Int(truncatingIfNeeded: hash >> UInt64(64 - Self.setBits)) &* Self.ways
        let last = first &+ Self.ways &- 1
        var index = first
        while true {
            let slot = slots.unsafelyUnwrapped + index
            let string = strings.unsafelyUnwrapped + index
            if slot.pointee.length < 0 {
                // Ways fill in order, so no later way holds the key: it takes this one.
                string.initialize(to: builder.internedKey(offset: start, length: length))
                slot.pointee = Slot(hash: hash, offset: start, length: length)
                return UInt8(index &+ 1)
            }
            if slot.pointee.hash == hash, slot.pointee.length == length,
                KeyBytes.equal(base + slot.pointee.offset, bytes, length)
            {
                return UInt8(index &+ 1)
            }
            if index == last {
                // The set is full: the last way is given to the new key. The others are never
                // evicted, so a key is always in the same slot (see `setBits`).
                string.pointee = builder.internedKey(offset: start, length: length)
                slot.pointee = Slot(hash: hash, offset: start, length: length)
                return UInt8(index &+ 1)
            }
            index &+= 1
        }
    }

    private mutating func allocate() {
        assert(Self.ways << Self.setBits == Self.slotCount, "the sets' ways fill the slots")
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(hash: 0, offset: 0, length: -1), count: Self.slotCount)
        // A slot's string is initialized when the slot is first used (its length ≥ 0).
        let strings = UnsafeMutablePointer<Payload>.allocate(capacity: Self.slotCount)
        self.slots = slots
        self.strings = strings
        let successors = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * (Self.slotCount + 1))
        successors.initialize(repeating: 0, count: 2 * (Self.slotCount + 1))
        self.successors = successors
    }

    @inline(__always)
    private static func load(_ bytes: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self))
    }

    /// The last `length % 8` bytes of a key as one word (the rest of the word zero).
    @inline(__always)
    private static func tail(_ bytes: UnsafePointer<UInt8>, from offset: Int, length: Int, available: Int) -> UInt64 {
        let remaining = length - offset
        if remaining == 0 { return 0 }
        if offset + 8 <= available {
            return load(bytes, offset) & (UInt64.max >> UInt64(64 - remaining * 8))
        }
        var word: UInt64 = 0
        for index in 0..<remaining { word |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        return word
    }

    /// A hash of `length` bytes, of which (and past which) `available` are readable, under
    /// `seed`. Interning uses none: its table has a fixed number of slots, so keys that collide
    /// only evict each other, and its layout (and so its speed) does not change from one process
    /// to the next. The check for repeated keys, whose table grows with the keys, uses the
    /// process's `keyHashSeed`.
    /// The hash of the check for repeated keys: `hash` under the process's `keyHashSeed`, then
    /// mixed once more so that every byte reaches the low bits that pick a slot (the last
    /// multiplication leaves the top bytes of a short last word out of them).
    @inline(__always)
    static func seededHash(_ bytes: UnsafePointer<UInt8>, _ length: Int, available: Int, seed: UInt64 = keyHashSeed) -> UInt64 {
        var mixed = hash(bytes, length, available: available, seed: seed)
        mixed ^= mixed >> 32
        mixed &*= 0xD6E8_FEB8_6659_FD93
        return mixed ^ (mixed >> 32)
    }

    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, _ length: Int, available: Int, seed: UInt64 = 0) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ seed ^ UInt64(length)
        var offset = 0
        while offset + 8 <= length {
            hash = (hash ^ load(bytes, offset)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        hash = (hash ^ tail(bytes, from: offset, length: length, available: available)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }

}
