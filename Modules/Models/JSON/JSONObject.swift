/// A JSON object that keeps its keys in the order they were written.
///
/// Lookup is a linear scan for small objects and hashed for larger ones. Keys compare by their
/// exact UTF-8 bytes, as RFC 8259 §8.3 says: `"\u00e9"` and `"e\u0301"` are two keys, though
/// Swift's `String ==` calls them equal. Equality ignores key order (two objects are equal when
/// they have the same keys with equal values).
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public typealias Element = (key: String, value: JSONValue)

    /// Objects with more keys than this get a hash index. Up to it, a scan that compares
    /// lengths first finds a key in fewer instructions than hashing it, and reading an object
    /// hashes none of its keys (an API response's records have 20 to 30).
    @usableFromInline static let indexThreshold = 32

    /// One stored key and value (a struct, not the `Element` tuple: arrays of tuples are
    /// destroyed through runtime metadata lookups, which the reader's hot path cannot afford).
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var key: String
        @usableFromInline var value: JSONValue

        @inlinable
        init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline var storage: [Entry]
    @usableFromInline var index: [JSONKey: Int]?

    /// An empty object.
    public init() {
        storage = []
        index = nil
    }

    /// An object from key–value pairs; for a repeated key the last value wins, at the position of
    /// the first occurrence.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        storage = []
        index = nil
        for (key, value) in pairs { self[key] = value }
    }

    /// Builds an object from pairs known to have distinct keys.
    @usableFromInline
    init(uniqueEntries: [Element]) {
        self.init(uniqueStorage: uniqueEntries.map { Entry(key: $0.key, value: $0.value) })
    }

    /// Builds an object from entries known to have distinct keys (used by the reader).
    @usableFromInline
    init(uniqueStorage: [Entry]) {
        storage = uniqueStorage
        index = nil
        if storage.count > Self.indexThreshold { rebuildIndex() }
    }

    /// Builds a large object from entries known to have distinct keys and the index
    /// `rebuildIndex()` would build (made while checking that the keys are distinct).
    init(uniqueStorage: [Entry], index: [JSONKey: Int]) {
        storage = uniqueStorage
        self.index = index
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    @usableFromInline
    mutating func rebuildIndex() {
        var map = [JSONKey: Int](minimumCapacity: storage.count)
        for (offset, entry) in storage.enumerated() { map[JSONKey(entry.key)] = offset }
        index = map
    }

    /// The position of `key`, if present.
    @inlinable
    public func position(of key: String) -> Int? {
        if let index { return index[JSONKey(key)] }
        for offset in storage.indices where JSONKey.bytesEqual(storage[offset].key, key) { return offset }
        return nil
    }

    /// The value for `key`; setting `nil` removes the key.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        get {
            guard let offset = position(of: key) else { return nil }
            return storage[offset].value
        }
        set {
            if let offset = position(of: key) {
                if let newValue {
                    storage[offset].value = newValue
                } else {
                    storage.remove(at: offset)
                    if index != nil { rebuildIndex() }
                }
            } else if let newValue {
                storage.append(Entry(key: key, value: newValue))
                if let _ = index {
                    index![JSONKey(key)] = storage.count - 1
                } else if storage.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// The keys in written order.
    public var keys: [String] { storage.map(\.key) }

    /// The values in written order.
    public var values: [JSONValue] { storage.map(\.value) }

    public var startIndex: Int { storage.startIndex }
    public var endIndex: Int { storage.endIndex }
    public subscript(position: Int) -> Element { (storage[position].key, storage[position].value) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        // The same storage (a copy of the object): equal without reading it.
        if lhs.storage.withUnsafeBufferPointer({ $0.baseAddress }) == rhs.storage.withUnsafeBufferPointer({ $0.baseAddress }) {
            return true
        }
        for entry in lhs.storage {
            let (key, value) = (entry.key, entry.value)
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: a commutative sum of each entry's own hash.
        var sum = 0
        for entry in storage {
            let (key, value) = (entry.key, entry.value)
            var entryHasher = Hasher()
            entryHasher.combine(key)
            entryHasher.combine(value)
            sum = sum &+ entryHasher.finalize()
        }
        hasher.combine(storage.count)
        hasher.combine(sum)
    }
}

/// An object key that compares and hashes by its exact UTF-8 bytes (no Unicode normalisation).
@usableFromInline
struct JSONKey: Hashable, Sendable {
    @usableFromInline let string: String

    @inlinable
    init(_ string: String) { self.string = string }

    @inlinable
    static func == (lhs: JSONKey, rhs: JSONKey) -> Bool { bytesEqual(lhs.string, rhs.string) }

    @inlinable
    func hash(into hasher: inout Hasher) {
        var contiguous = string
        contiguous.makeContiguousUTF8()
        _ = contiguous.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether two strings have the same UTF-8 bytes (Swift's `==` also equates canonically
    /// equivalent strings, which JSON keys must not). The UTF-8 length (stored, so free) rules
    /// out most unequal keys and `==` the rest at its usual speed. Equal strings are confirmed
    /// by their two words first (a key of up to 15 bytes is stored inline, so identical words
    /// are identical bytes), else byte by byte.
    @inlinable
    static func bytesEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        if MemoryLayout<String>.size == 16,
            unsafeBitCast(lhs, to: (UInt64, UInt64).self) == unsafeBitCast(rhs, to: (UInt64, UInt64).self)
        {
            return true
        }
        guard lhs == rhs else { return false }
        return left.elementsEqual(right)
    }
}
