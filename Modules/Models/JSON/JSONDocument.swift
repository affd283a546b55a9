import Foundation

/// A parsed JSON document that builds nothing per value until it is read.
///
/// `JSONReader.document(_:)` checks a text exactly as `read(_:)` does (the same errors at the
/// same offsets, limits and duplicate-key rules) and keeps it as one tape of 64-bit words, a
/// word or two a value, and one buffer of its strings, unescaped and validated: two allocations
/// for any document. Read it through `root` (a `JSONNode`), which makes a `String` only for a
/// string it is asked for, or turn any part into a `JSONValue` with `JSONNode.value`.
public final class JSONDocument: @unchecked Sendable {
    // Sendable: the buffers are written once, before `init`, and only read afterwards.
    let tape: UnsafeMutablePointer<UInt64>
    let count: Int
    let strings: UnsafeMutablePointer<UInt8>
    let stringCount: Int

    init(tape: UnsafeMutablePointer<UInt64>, count: Int, strings: UnsafeMutablePointer<UInt8>, stringCount: Int) {
        self.tape = tape
        self.count = count
        self.strings = strings
        self.stringCount = stringCount
    }

    deinit {
        JSONTape.deallocate(tape)
        JSONTape.deallocate(strings)
    }

    /// The document's one top-level value.
    public var root: JSONNode { JSONNode(document: self, index: 0) }

    /// The whole document as a `JSONValue` (equal to what `JSONReader.read(_:)` returns).
    public var value: JSONValue { root.value }

    /// Whether `other` holds the same tape and strings (a text read again): then every value of
    /// one equals the value at the same place in the other.
    func hasSameContent(as other: JSONDocument) -> Bool {
        guard count == other.count, stringCount == other.stringCount else { return false }
        return memcmp(tape, other.tape, count * MemoryLayout<UInt64>.stride) == 0
            && (stringCount == 0 || memcmp(strings, other.strings, stringCount) == 0)
    }

    /// The bytes the document holds: its tape and its strings.
    public var storageBytes: Int { count * MemoryLayout<UInt64>.stride + stringCount }

    @inline(__always)
    var view: JSONTapeView { JSONTapeView(tape: tape, count: count, strings: strings, stringCount: stringCount) }
}

/// One value of a `JSONDocument`: a position on its tape, read in place.
///
/// Scalars are read from their words; `stringValue` makes a `String` of the bytes the reader
/// already validated; `subscript(key:)` compares key bytes without making strings. An array's
/// element by index is found by skipping its earlier elements (each skipped in one step), so
/// walking `elements` is the way through a long array.
public struct JSONNode: Sendable {
    /// What a value is.
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    /// The document the value belongs to (kept alive by the node).
    public let document: JSONDocument
    /// The value's first word on the tape (moved along an array by `forEachElement`).
    var index: Int

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    @inline(__always)
    private var word: UInt64 { document.tape[index] }

    /// Whether both are the same value of the same document (answered without reading it).
    public func isSame(as other: JSONNode) -> Bool { document === other.document && index == other.index }

    /// What the value is.
    public var kind: Kind {
        switch word & JSONTape.tagMask {
        case JSONTape.null: .null
        case JSONTape.false, JSONTape.true: .bool
        case JSONTape.smallInteger, JSONTape.integer, JSONTape.double: .number
        case JSONTape.string: .string
        case JSONTape.array: .array
        default: .object
        }
    }

    /// Whether the value is `null`.
    public var isNull: Bool { word & JSONTape.tagMask == JSONTape.null }

    /// Whether the value is an object.
    var isObject: Bool { word & JSONTape.tagMask == JSONTape.object }

    /// Whether the value is an array.
    var isArray: Bool { word & JSONTape.tagMask == JSONTape.array }

    /// Whether the value is an object that repeats a key.
    var hasRepeatedKeys: Bool { isObject && document.tape[index + 1] & JSONTape.repeatsKeys != 0 }

    /// The kind's name in errors, as `JSONValue.kindName` says it.
    var kindName: String { document.view.kindName(at: index) }

    /// The value when it is `true` or `false`.
    public var boolValue: Bool? { document.view.boolValue(at: index) }

    /// The value when it is a number.
    public var numberValue: JSONNumber? { document.view.numberValue(at: index) }

    /// The value when it is a string.
    public var stringValue: String? { document.view.stringValue(at: index) }

    /// Calls `body` with the UTF-8 bytes of the value when it is a string (without making a
    /// `String`); nil for any other value.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        guard word & JSONTape.tagMask == JSONTape.string else { return nil }
        return try withExtendedLifetime(document) { try body(document.view.stringBytes(at: index)) }
    }

    /// How many elements an array, or members an object, has as written (a repeated key counts
    /// each time, as in `members`); zero for any other value.
    public var count: Int {
        switch word & JSONTape.tagMask {
        case JSONTape.array, JSONTape.object: Int(truncatingIfNeeded: document.tape[index + 1] & ~JSONTape.repeatsKeys)
        default: 0
        }
    }

    /// The value of an object's member `key` (compared by its exact bytes; when the document
    /// repeats the key, the last one, as `JSONReader` reads it); nil for a missing key or when
    /// the value is not an object.
    public subscript(key: String) -> JSONNode? {
        guard isObject else { return nil }
        return key.withBorrowedUTF8 { member(named: $0) }
    }

    /// The value of the object's member whose key has the bytes `wanted` (the last one when the
    /// object repeats keys).
    fileprivate func member(named wanted: UnsafeBufferPointer<UInt8>) -> JSONNode? {
        let view = document.view
        let end = Int(truncatingIfNeeded: word & JSONTape.payloadMask)
        var found = view.valuePosition(ofKey: wanted, from: index + 2, to: end)
        if found >= 0, document.tape[index + 1] & JSONTape.repeatsKeys != 0 {
            // The last one: search again past each one found.
            var later = view.valuePosition(ofKey: wanted, from: view.next(after: found), to: end)
            while later >= 0 {
                found = later
                later = view.valuePosition(ofKey: wanted, from: view.next(after: found), to: end)
            }
        }
        return found < 0 ? nil : JSONNode(document: document, index: found)
    }

    /// The object's members for a decoder that asks for them one key at a time (see
    /// `JSONMemberCursor`); nil when the value is not an object.
    public var memberCursor: JSONMemberCursor? { isObject ? JSONMemberCursor(object: self) : nil }

    /// An array's element at `offset` (found by skipping the ones before it); nil when out of
    /// range or when the value is not an array.
    public subscript(offset: Int) -> JSONNode? {
        guard word & JSONTape.tagMask == JSONTape.array, offset >= 0, offset < count else { return nil }
        let view = document.view
        var position = index + 2
        for _ in 0..<offset { position = view.next(after: position) }
        return JSONNode(document: document, index: position)
    }

    /// An array's elements in order (none for any other value).
    public var elements: Elements { Elements(node: self) }

    /// Calls `body` with each element of an array and its offset, through one node moved along
    /// the tape (no reference counting per element); nothing for any other value.
    @inline(__always)
    func forEachElement<Failure: Error>(_ body: (JSONNode, Int) throws(Failure) -> Void) throws(Failure) {
        guard isArray else { return }
        let view = document.view
        let end = self.end
        var element = self
        element.index = index + 2
        var offset = 0
        while element.index < end {
            try body(element, offset)
            element.index = view.next(after: element.index)
            offset += 1
        }
    }

    /// An object's members in order, each key made as a `String` (none for any other value).
    /// A repeated key appears each time it was written.
    public var members: Members { Members(node: self) }

    /// The index just past the value's words.
    var end: Int { document.view.next(after: index) }

    /// The elements of an array node.
    public struct Elements: Sequence, Sendable {
        let node: JSONNode

        /// Walks the elements.
        public func makeIterator() -> Iterator {
            let isArray = node.word & JSONTape.tagMask == JSONTape.array
            return Iterator(document: node.document, position: node.index + 2, end: isArray ? node.end : 0)
        }

        /// How many elements there are.
        public var underestimatedCount: Int { node.kind == .array ? node.count : 0 }

        /// Walks the elements of an array node.
        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var position: Int
            let end: Int

            /// The next element.
            public mutating func next() -> JSONNode? {
                guard position < end else { return nil }
                let node = JSONNode(document: document, index: position)
                position = document.view.next(after: position)
                return node
            }
        }
    }

    /// The members of an object node.
    public struct Members: Sequence, Sendable {
        let node: JSONNode

        /// Walks the members.
        public func makeIterator() -> Iterator {
            let isObject = node.word & JSONTape.tagMask == JSONTape.object
            return Iterator(document: node.document, position: node.index + 2, end: isObject ? node.end : 0)
        }

        /// How many members there are.
        public var underestimatedCount: Int { node.kind == .object ? node.count : 0 }

        /// Walks the members of an object node.
        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var position: Int
            let end: Int

            /// The next member.
            public mutating func next() -> (key: String, value: JSONNode)? {
                guard position < end else { return nil }
                let view = document.view
                let key = view.string(at: position)
                let valueIndex = view.next(after: position)
                position = view.next(after: valueIndex)
                return (key, JSONNode(document: document, index: valueIndex))
            }
        }
    }

    /// The value as a `JSONValue`, built now (without recursion, however deep it nests).
    public var value: JSONValue {
        let word = word
        switch word & JSONTape.tagMask {
        case JSONTape.null: return .null
        case JSONTape.true: return .bool(true)
        case JSONTape.false: return .bool(false)
        case JSONTape.string: return withExtendedLifetime(document) { .string(document.view.string(at: index)) }
        case JSONTape.array, JSONTape.object:
            return withExtendedLifetime(document) {
                var builder = JSONMaterializer(view: document.view)
                return builder.value(at: index)
            }
        default: return .number(numberValue!)
        }
    }
}

extension JSONNode {
    /// The members of an object whose keys are all different, as a dictionary of built values:
    /// no `JSONNode` (nor its reference counting) for each member, one materializer for those
    /// that are arrays or objects.
    func uniqueMembersDictionary() -> [String: JSONValue] {
        withExtendedLifetime(document) {
            let view = document.view
            var result = [String: JSONValue](minimumCapacity: count)
            var builder: JSONMaterializer?
            var position = index + 2
            let end = self.end
            while position < end {
                let valueIndex = view.next(after: position)
                let value: JSONValue
                if let string = view.stringValue(at: valueIndex) {
                    value = .string(string)
                } else {
                    if builder == nil { builder = JSONMaterializer(view: view) }
                    value = builder!.value(at: valueIndex)
                }
                result[view.string(at: position)] = value
                position = view.next(after: valueIndex)
            }
            return result
        }
    }
}

/// Builds a `JSONValue` from a stretch of a tape, with the reader's own stacks (no recursion).
struct JSONMaterializer: ~Copyable {
    private struct Open {
        var end: Int
        var valueStart: Int
        var keyStart: Int
        var isObject: Bool
        var repeatsKeys: Bool
    }

    private let view: JSONTapeView
    private var values = Stack<JSONValue>()
    private var keys = Stack<JSONTreeBuilder.Key>()
    private var open = Stack<Open>()
    /// Keys by their offset and length in the string buffer (their tape word's payload; -1 for
    /// an empty entry), allocated with the first key: an interned key's occurrences share one
    /// copy, so each distinct key is made into a `String` about once.
    private var keyOffsets: UnsafeMutablePointer<Int>?
    private var keyStrings: UnsafeMutablePointer<String>?
    private static var cacheSize: Int { 64 }

    init(view: JSONTapeView) {
        self.view = view
    }

    deinit {
        guard let keyOffsets, let keyStrings else { return }
        for slot in 0..<Self.cacheSize where keyOffsets[slot] >= 0 { (keyStrings + slot).deinitialize(count: 1) }
        keyOffsets.deallocate()
        keyStrings.deallocate()
    }

    private mutating func key(at index: Int) -> String {
        // A key is known by its offset and length together: an empty key takes no bytes, so the
        // next key starts at the same offset.
        let word = view.tape[index]
        guard (word >> 40) & JSONTape.longLength != JSONTape.longLength else { return view.string(at: index) }
        let offset = Int(truncatingIfNeeded: word & JSONTape.payloadMask)
        if keyOffsets == nil {
            keyOffsets = UnsafeMutablePointer<Int>.allocate(capacity: Self.cacheSize)
            keyOffsets.unsafelyUnwrapped.initialize(repeating: -1, count: Self.cacheSize)
            keyStrings = UnsafeMutablePointer<String>.allocate(capacity: Self.cacheSize)
        }
        let offsets = keyOffsets.unsafelyUnwrapped
        let strings = keyStrings.unsafelyUnwrapped
        let slot = (offset &* 0x9E37_79B9) >> 7 & (Self.cacheSize - 1)
        if offsets[slot] == offset { return strings[slot] }
        let key = view.string(at: index)
        if offsets[slot] >= 0 { strings[slot] = key } else { (strings + slot).initialize(to: key) }
        offsets[slot] = offset
        return key
    }

    mutating func value(at start: Int) -> JSONValue {
        let end = view.next(after: start)
        var position = start
        while true {
            while let top = open.last, top.end == position {
                open.removeLast()
                close(top)
            }
            if position == end { break }
            if let top = open.last, top.isObject {
                keys.push(JSONTreeBuilder.Key(string: key(at: position), slot: 0))
                position = view.next(after: position)
            }
            let word = view.tape[position]
            switch word & JSONTape.tagMask {
            case JSONTape.array, JSONTape.object:
                let isObject = word & JSONTape.tagMask == JSONTape.object
                open.push(
                    Open(
                        end: Int(truncatingIfNeeded: word & JSONTape.payloadMask), valueStart: values.count,
                        keyStart: keys.count, isObject: isObject,
                        repeatsKeys: view.tape[position + 1] & JSONTape.repeatsKeys != 0))
                position += 2
                continue
            case JSONTape.string: values.push(.string(view.string(at: position)))
            case JSONTape.null: values.push(.null)
            case JSONTape.true: values.push(.bool(true))
            case JSONTape.false: values.push(.bool(false))
            case JSONTape.smallInteger: values.push(.number(JSONNumber(Int64(bitPattern: word << 8) >> 8)))
            case JSONTape.integer: values.push(.number(JSONNumber(Int64(bitPattern: view.tape[position + 1]))))
            default: values.push(.number(JSONNumber(Double(bitPattern: view.tape[position + 1]))))
            }
            position = view.next(after: position)
        }
        return values.pop()
    }

    private mutating func close(_ container: Open) {
        guard container.isObject else {
            let array = values.moveOut(from: container.valueStart)
            values.push(.array(array))
            return
        }
        let entries = JSONTreeBuilder.entries(
            keys: &keys, values: &values, keyStart: container.keyStart, valueStart: container.valueStart)
        if container.repeatsKeys {
            // The last value wins, at the position of the first occurrence, as the reader does.
            values.push(.object(JSONObject(entries.map { ($0.key, $0.value) })))
        } else {
            values.push(.object(JSONObject(uniqueStorage: entries)))
        }
    }
}

extension JSONReader {
    /// Reads one JSON text from UTF-8 bytes into a `JSONDocument`, with the same checks, errors
    /// and limits as `read(_:)`.
    public func document(_ bytes: UnsafeRawBufferPointer) throws(JSONReadError) -> JSONDocument {
        let buffer = bytes.bindMemory(to: UInt8.self)
        let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        // Past `maxBytes` the parser reports the size; below it, a tape addresses 2^40 bytes.
        if buffer.count <= limits.maxBytes, buffer.count >= JSONTape.maxStringBytes {
            throw JSONReadError(
                .sizeLimit, offset: JSONTape.maxStringBytes, expected: "at most \(JSONTape.maxStringBytes - 1) bytes",
                in: buffer)
        }
        var parser = JSONParser(
            buffer: buffer, limits: limits, rejectDuplicateKeys: rejectDuplicateKeys,
            // An input over `maxBytes` is refused before anything is written: no buffers for it.
            builder: JSONTapeBuilder(base: base, count: buffer.count <= limits.maxBytes ? buffer.count : 0))
        return try parser.parseDocument()
    }

    /// Reads one JSON text from UTF-8 bytes into a `JSONDocument`.
    public func document(_ bytes: [UInt8]) throws(JSONReadError) -> JSONDocument {
        try Self.unwrap(bytes.withUnsafeBytes { raw in readDocument(raw) })
    }

    /// Reads one JSON text from a string into a `JSONDocument`.
    public func document(_ text: String) throws(JSONReadError) -> JSONDocument {
        var text = text
        return try Self.unwrap(text.withUTF8 { utf8 in readDocument(UnsafeRawBufferPointer(utf8)) })
    }

    /// `document(_:)` as a `Result`, for the closures of `withUnsafeBytes` and `withUTF8`
    /// (which rethrow untyped errors); `unwrap` throws its error typed again.
    func readDocument(_ bytes: UnsafeRawBufferPointer) -> Result<JSONDocument, JSONReadError> {
        do {
            return .success(try document(bytes))
        } catch {
            return .failure(error)
        }
    }

    /// The document, or its error thrown as typed (`Result.get()` throws untyped errors in the
    /// standard library of the iOS 16.5 SDK).
    static func unwrap(_ result: Result<JSONDocument, JSONReadError>) throws(JSONReadError) -> JSONDocument {
        switch result {
        case .success(let document): return document
        case .failure(let error): throw error
        }
    }
}

/// An object's members looked up by key in the order a decoder asks for them: each search
/// starts just past the member found last and wraps around once, so keys written in the order
/// they are asked for are each found at the first comparison, and a key that misses the
/// prediction costs one walk over the members; a key none of the object's keys could be (by a
/// 64-bit summary of their lengths and end bytes) costs no walk. Finds what
/// `JSONNode.subscript(key:)` finds (for an object that repeats a key, the last one, by that
/// subscript's own walk).
public struct JSONMemberCursor {
    /// The object whose members are looked up.
    public let object: JSONNode
    /// How many lookups found a member so far.
    public internal(set) var found = 0
    /// How many members the object has as written.
    public let count: Int
    /// The object's document, read in place (kept alive by `object`).
    let view: JSONTapeView
    /// The tape positions of the first key and just past the last value.
    let first: Int
    let end: Int
    /// Where the next search starts: a key's position, or `end`.
    var next: Int
    let repeatsKeys: Bool
    /// A bit for each key the object has (by `Self.bit(of:)`): a key whose bit is clear is
    /// absent without a search, so the optional members a model declares and an object lacks
    /// cost a test each.
    let keyBits: UInt64

    init(object: JSONNode) {
        self.object = object
        let view = object.document.view
        self.view = view
        let sizes = view.tape[object.index + 1]
        count = Int(truncatingIfNeeded: sizes & ~JSONTape.repeatsKeys)
        repeatsKeys = sizes & JSONTape.repeatsKeys != 0
        first = object.index + 2
        end = Int(truncatingIfNeeded: view.tape[object.index] & JSONTape.payloadMask)
        next = first
        // An object that repeats a key is searched by the subscript's walk, without the summary.
        var keyBits: UInt64 = 0
        var position = repeatsKeys ? end : first
        while position < end {
            keyBits |= Self.bit(of: view.stringBytes(at: position))
            position = view.next(after: view.next(after: position))
        }
        self.keyBits = keyBits
    }

    /// One of 64 bits for a key, from its length and its first and last bytes.
    @inline(__always)
    static func bit(of key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = key.baseAddress, !key.isEmpty else { return 1 }
        let count = key.count
        let mixed = UInt64(truncatingIfNeeded: count) &* 31 &+ UInt64(base[0]) &* 7 &+ UInt64(base[count &- 1])
        return 1 &<< (mixed & 63)
    }

    /// Whether every member was found already (the keys are unique, so any later key is absent).
    public var isExhausted: Bool { found >= count && !repeatsKeys }

    /// The value of member `key`, counted in `found` when there is one.
    public mutating func take(_ key: String) -> JSONNode? {
        guard let position = position(of: key) else { return nil }
        return JSONNode(document: object.document, index: position)
    }

    /// The tape position of member `key`'s value, counted in `found` when there is one.
    mutating func position(of key: String) -> Int? {
        // `withBorrowedUTF8` written out: through the generic helper, the localized screen's
        // decode took 0.6 % more instructions.
        let value = key.utf8.withContiguousStorageIfAvailable { position(ofBytes: $0) } ?? slowPosition(of: key)
        return value < 0 ? nil : value
    }

    /// `position(of:)` for a bridged key without contiguous bytes.
    private mutating func slowPosition(of key: String) -> Int {
        var key = key
        return key.withUTF8 { position(ofBytes: $0) }
    }

    private mutating func position(ofBytes wanted: UnsafeBufferPointer<UInt8>) -> Int {
        if repeatsKeys {
            guard let value = object.member(named: wanted) else { return -1 }
            found += 1
            return value.index
        }
        guard keyBits & Self.bit(of: wanted) != 0 else { return -1 }
        var value = view.valuePosition(ofKey: wanted, from: next, to: end)
        if value < 0, next > first { value = view.valuePosition(ofKey: wanted, from: first, to: next) }
        guard value >= 0 else { return -1 }
        next = view.next(after: value)
        found += 1
        return value
    }
}
