#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// The seed of the key hash of the check for repeated keys (`JSONTapeView.firstRepeatedKey`),
/// drawn at random once per process. Keys written to share one hash (a document of keys that
/// all collide, which would make the check quadratic: 20,000 such keys took 437 ms to read, 1 ms
/// ordinary ones) share it under that seed only. With `SWIFT_DETERMINISTIC_HASHING` set, as for
/// Swift's own hashing, it is a constant, so that measurements repeat.
let keyHashSeed: UInt64 = getenv("SWIFT_DETERMINISTIC_HASHING") == nil ? UInt64.random(in: .min ... .max) : 0x2545_F491_4F6C_DD1D

/// The words of a `JSONDocument`'s tape: one or two 64-bit words a value, in document order,
/// with simdjson's layout. The top byte is a tag; below it:
/// - a string or key: its offset in the string buffer (40 bits) and its length (16 bits); a
///   length of `0xFFFF` or more is `0xFFFF` there and the length is the next word;
/// - an integer in ±2^55: the integer; a larger one, or a `Double`, is the next word;
/// - an array or object: the index just past its last word (so a reader skips it in one step);
///   the next word holds how many values (or members) it has, and for an object whose keys
///   repeat, the top bit.
/// A key word comes just before its value's words.
enum JSONTape {
    static let null: UInt64 = 1 << 56
    static let `false`: UInt64 = 2 << 56
    static let `true`: UInt64 = 3 << 56
    static let smallInteger: UInt64 = 4 << 56
    static let integer: UInt64 = 5 << 56
    static let double: UInt64 = 6 << 56
    static let string: UInt64 = 7 << 56
    static let array: UInt64 = 8 << 56
    static let object: UInt64 = 9 << 56

    static let tagMask: UInt64 = 0xFF << 56
    static let payloadMask: UInt64 = (1 << 56) - 1
    static let offsetMask: UInt64 = (1 << 40) - 1
    /// The length field of a string word whose length is in the next word.
    static let longLength: UInt64 = 0xFFFF
    /// The top bit of an object's count word: two of its keys are equal.
    static let repeatsKeys: UInt64 = 1 << 63
    /// The largest string buffer (and so input) a tape addresses.
    static let maxStringBytes = 1 << 40

    /// The word of a string at `offset` of the string buffer, `length` bytes long (a long one
    /// needs its length in the next word too).
    @inline(__always)
    static func stringWord(offset: Int, length: Int) -> UInt64 {
        string | UInt64(truncatingIfNeeded: offset) | (Swift.min(UInt64(truncatingIfNeeded: length), longLength) << 40)
    }

    /// A byte count for `malloc` and `realloc`, never zero.
    @inline(__always)
    static func allocationSize(_ count: Int, of stride: Int) -> Int { Swift.max(count, 1) * stride }

    /// Memory from `malloc`; an allocation failure ends the process, as Swift's own does.
    static func allocate<Element>(_ count: Int, of type: Element.Type) -> UnsafeMutablePointer<Element> {
        guard let raw = malloc(allocationSize(count, of: MemoryLayout<Element>.stride)) else {
            fatalError("JSONDocument: out of memory for \(count) elements")
        }
        return raw.assumingMemoryBound(to: Element.self)
    }

    /// `pointer` resized to `count` elements (in place when the allocator can).
    static func resize<Element>(_ pointer: UnsafeMutablePointer<Element>, to count: Int) -> UnsafeMutablePointer<Element> {
        guard let raw = realloc(pointer, allocationSize(count, of: MemoryLayout<Element>.stride)) else {
            fatalError("JSONDocument: out of memory for \(count) elements")
        }
        return raw.assumingMemoryBound(to: Element.self)
    }

    /// Gives back memory from `allocate` or `resize`.
    static func deallocate<Element>(_ pointer: UnsafeMutablePointer<Element>) { free(pointer) }
}

/// Writes a `JSONDocument`'s tape and string buffer as `JSONParser` reports the document.
///
/// Every string is copied once into the string buffer, and an interned key (the same key in
/// every object of a list) only the first time: its later occurrences share that copy.
struct JSONTapeBuilder: JSONBuilder, ~Copyable {
    private let base: UnsafePointer<UInt8>
    private var tape: UnsafeMutablePointer<UInt64>
    private var count = 0
    private var capacity: Int
    /// Sized for the whole input (strings only shrink when unescaped), trimmed when done.
    private var strings: UnsafeMutablePointer<UInt8>
    private var stringCount = 0
    /// The first word of the innermost open container; -1 at the top level.
    private var current = -1
    /// Whether the buffers were handed to a document (else they are freed here).
    private var finished = false

    init(base: UnsafePointer<UInt8>, count inputCount: Int) {
        self.base = base
        // About one word for every eight bytes of a typical document; grown as needed.
        capacity = inputCount / 8 + 16
        tape = JSONTape.allocate(capacity, of: UInt64.self)
        strings = JSONTape.allocate(inputCount, of: UInt8.self)
    }

    deinit {
        if !finished {
            JSONTape.deallocate(tape)
            JSONTape.deallocate(strings)
        }
    }

    @inline(__always)
    private mutating func append(_ word: UInt64) {
        if count == capacity { grow() }
        tape[count] = word
        count &+= 1
    }

    private mutating func grow() {
        capacity = capacity * 2
        tape = JSONTape.resize(tape, to: capacity)
    }

    /// Counts one more value in the innermost open container.
    @inline(__always)
    private mutating func countValue() {
        if current >= 0 { tape[current &+ 1] &+= 1 }
    }

    /// Copies `length` bytes into the string buffer and appends their word(s).
    @inline(__always)
    private mutating func appendString(_ source: UnsafePointer<UInt8>, _ length: Int) {
        let offset = stringCount
        if length > 0 { (strings + offset).initialize(from: source, count: length) }
        stringCount = offset &+ length
        append(JSONTape.stringWord(offset: offset, length: length))
        if length >= Int(JSONTape.longLength) { append(UInt64(length)) }
    }

    mutating func internedKey(offset: Int, length: Int) -> UInt64 {
        // An interned key is at most 64 bytes: always one word.
        let start = stringCount
        (strings + start).initialize(from: base + offset, count: length)
        stringCount = start &+ length
        return JSONTape.stringWord(offset: start, length: length)
    }

    @inline(__always)
    mutating func open(isObject: Bool) -> (values: Int, keys: Int) {
        countValue()
        let index = count
        // Until it closes, the first word holds the enclosing container (plus one).
        append((isObject ? JSONTape.object : JSONTape.array) | UInt64(bitPattern: Int64(current &+ 1)))
        append(0)
        current = index
        return (index, 0)
    }

    @inline(__always)
    mutating func key(_ key: consuming UInt64, slot: UInt8, at offset: Int, length: Int) { append(key) }

    mutating func key(at offset: Int, length: Int) { appendString(base + offset, length) }

    mutating func key(unescaped bytes: UnsafeBufferPointer<UInt8>) {
        appendString(bytes.baseAddress ?? base, bytes.count)
    }

    @inline(__always)
    mutating func string(at offset: Int, length: Int) {
        countValue()
        appendString(base + offset, length)
    }

    mutating func string(unescaped bytes: UnsafeBufferPointer<UInt8>) {
        countValue()
        appendString(bytes.baseAddress ?? base, bytes.count)
    }

    @inline(__always)
    mutating func number(_ number: JSONNumber) {
        countValue()
        switch number.storage {
        case .integer(let value):
            if value >= -(1 << 55), value < 1 << 55 {
                append(JSONTape.smallInteger | (UInt64(bitPattern: value) & JSONTape.payloadMask))
            } else {
                append(JSONTape.integer)
                append(UInt64(bitPattern: value))
            }
        case .floating(let value):
            append(JSONTape.double)
            append(value.bitPattern)
        }
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        countValue()
        append(value ? JSONTape.true : JSONTape.false)
    }

    @inline(__always)
    mutating func null() {
        countValue()
        append(JSONTape.null)
    }

    /// Ends the container opened at `index`: its first word now holds where it ends.
    @inline(__always)
    private mutating func close(_ index: Int, tag: UInt64) {
        current = Int(truncatingIfNeeded: tape[index] & JSONTape.payloadMask) &- 1
        tape[index] = tag | UInt64(count)
    }

    mutating func closeArray(_ frame: JSONFrame) { close(frame.valueStart, tag: JSONTape.array) }

    mutating func closeObject(_ frame: JSONFrame, rejectingDuplicates: Bool) -> Int? {
        let index = frame.valueStart
        close(index, tag: JSONTape.object)
        // Distinct intern slots mean distinct keys; otherwise the keys are compared.
        guard frame.mayRepeat else { return nil }
        let view = JSONTapeView(tape: tape, count: count, strings: strings, stringCount: stringCount)
        guard let repeated = view.firstRepeatedKey(ofObjectAt: index) else { return nil }
        if rejectingDuplicates { return repeated }
        tape[index &+ 1] |= JSONTape.repeatsKeys
        return nil
    }

    mutating func finish() -> JSONDocument {
        finished = true
        return JSONDocument(
            tape: JSONTape.resize(tape, to: count), count: count, strings: JSONTape.resize(strings, to: stringCount),
            stringCount: stringCount)
    }
}

/// Reads a tape and its string buffer (a finished document's, or one being written, up to
/// `count`).
struct JSONTapeView {
    let tape: UnsafeMutablePointer<UInt64>
    let count: Int
    let strings: UnsafeMutablePointer<UInt8>
    let stringCount: Int

    /// The index just past the value (or key) at `index`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let word = tape[index]
        switch word & JSONTape.tagMask {
        case JSONTape.array, JSONTape.object: return Int(truncatingIfNeeded: word & JSONTape.payloadMask)
        case JSONTape.integer, JSONTape.double: return index &+ 2
        case JSONTape.string: return (word >> 40) & JSONTape.longLength == JSONTape.longLength ? index &+ 2 : index &+ 1
        default: return index &+ 1
        }
    }

    /// The bytes of the string (or key) at `index`.
    @inline(__always)
    func stringBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let word = tape[index]
        var length = Int(truncatingIfNeeded: (word >> 40) & JSONTape.longLength)
        if length == Int(JSONTape.longLength) { length = Int(truncatingIfNeeded: tape[index &+ 1]) }
        return UnsafeBufferPointer(start: strings + Int(truncatingIfNeeded: word & JSONTape.offsetMask), count: length)
    }

    /// The tape position of the value of the first key with the bytes `wanted` among an
    /// object's members from position `start` (a key) up to `limit`, or -1: lengths compared
    /// first, bytes only when they are equal.
    @inline(__always)
    func valuePosition(ofKey wanted: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int) -> Int {
        let wantedLength = UInt64(wanted.count)
        var position = start
        while position < limit {
            let keyWord = tape[position]
            var valueIndex = position &+ 1
            var length = (keyWord >> 40) & JSONTape.longLength
            if length == JSONTape.longLength {
                length = tape[valueIndex]
                valueIndex &+= 1
            }
            if length == wantedLength,
                length == 0
                    || KeyBytes.equal(
                        strings + Int(truncatingIfNeeded: keyWord & JSONTape.offsetMask), wanted.baseAddress!, wanted.count)
            {
                return valueIndex
            }
            position = next(after: valueIndex)
        }
        return -1
    }

    /// The kind's name in errors of the value at `index`, as `JSONValue.kindName` says it.
    func kindName(at index: Int) -> String {
        switch tape[index] & JSONTape.tagMask {
        case JSONTape.null: "null"
        case JSONTape.false, JSONTape.true: "boolean"
        case JSONTape.smallInteger, JSONTape.integer: "integer"
        case JSONTape.double: "number"
        case JSONTape.string: "string"
        case JSONTape.array: "array"
        default: "object"
        }
    }

    /// Whether the value at `index` is `null`.
    @inline(__always)
    func isNull(at index: Int) -> Bool { tape[index] & JSONTape.tagMask == JSONTape.null }

    /// The value at `index` when it is `true` or `false`.
    @inline(__always)
    func boolValue(at index: Int) -> Bool? {
        switch tape[index] & JSONTape.tagMask {
        case JSONTape.true: true
        case JSONTape.false: false
        default: nil
        }
    }

    /// The value at `index` when it is a number.
    @inline(__always)
    func numberValue(at index: Int) -> JSONNumber? {
        let word = tape[index]
        switch word & JSONTape.tagMask {
        case JSONTape.smallInteger:
            // Sign-extends the 56-bit payload.
            return JSONNumber(Int64(bitPattern: word << 8) >> 8)
        case JSONTape.integer: return JSONNumber(Int64(bitPattern: tape[index &+ 1]))
        case JSONTape.double: return JSONNumber(Double(bitPattern: tape[index &+ 1]))
        default: return nil
        }
    }

    /// The value at `index` when it is a string.
    @inline(__always)
    func stringValue(at index: Int) -> String? {
        guard tape[index] & JSONTape.tagMask == JSONTape.string else { return nil }
        return string(at: index)
    }

    /// The bytes of the value at `index` when it is a string.
    @inline(__always)
    func stringBytesValue(at index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard tape[index] & JSONTape.tagMask == JSONTape.string else { return nil }
        return stringBytes(at: index)
    }

    /// The string (or key) at `index`.
    @inline(__always)
    func string(at index: Int) -> String {
        String(validatedUTF8: stringBytes(at: index))
    }

    /// The index (among its members) of the first key of the object at `index` that repeats an
    /// earlier one, by their exact bytes: the keys in an open-addressed table by the hash of their
    /// bytes (seeded per process, so that no input makes them all collide), each entry the hash's
    /// top 32 bits beside the key's ordinal (plus one), so bytes are compared only when two keys'
    /// hashes agree in those bits too. Linear in the keys. (An ordinal fits 32 bits: an object of
    /// 2^32 members is more than 16 GB of text.)
    func firstRepeatedKey(ofObjectAt index: Int) -> Int? {
        let members = Int(truncatingIfNeeded: tape[index + 1] & ~JSONTape.repeatsKeys)
        var capacity = 16
        while capacity < members * 2 { capacity <<= 1 }
        let end = next(after: index)
        let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { table -> Int? in
            table.initialize(repeating: 0)
            let mask = capacity - 1
            var position = index + 2
            var ordinal = 0
            while position < end {
                let bytes = stringBytes(at: position)
                let start = bytes.baseAddress!
                let hash = KeyTable<UInt64>.seededHash(
                    start, bytes.count, available: stringCount - (start - UnsafePointer(strings)))
                let tag = hash & tagMask
                var slot = Int(truncatingIfNeeded: hash) & mask
                while table[slot] != 0 {
                    let entry = table[slot]
                    if entry & tagMask == tag,
                        equalKeys(
                            keyPosition(ofMember: Int(truncatingIfNeeded: entry & ~tagMask) - 1, inObjectAt: index), position)
                    {
                        return ordinal
                    }
                    slot = (slot + 1) & mask
                }
                ordinal += 1
                table[slot] = tag | UInt64(truncatingIfNeeded: ordinal)
                position = next(after: next(after: position))
            }
            return nil
        }
    }

    /// The tape position of the key of member `ordinal` of the object at `index`.
    private func keyPosition(ofMember ordinal: Int, inObjectAt index: Int) -> Int {
        var position = index + 2
        for _ in 0..<ordinal { position = next(after: next(after: position)) }
        return position
    }

    /// Whether the keys at two positions have the same bytes.
    private func equalKeys(_ lhs: Int, _ rhs: Int) -> Bool {
        let left = stringBytes(at: lhs)
        let right = stringBytes(at: rhs)
        return left.count == right.count && left.elementsEqual(right)
    }
}
