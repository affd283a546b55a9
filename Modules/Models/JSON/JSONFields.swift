/// The keys a model declares, numbered in declaration order, for finding an object's members by
/// one walk over them (`JSONFields`): each key of the object is matched to its number through a
/// small table by its length and end bytes, then compared byte for byte. Built once per model
/// (a generated decoder keeps its set in a `static let`).
package struct JSONKeySet: Sendable {
    /// The most keys a set holds: `JSONFields` keeps one position per key.
    package static let capacity = 32

    /// The keys, in declaration order.
    package let keys: [String]
    private let table: Table

    /// The lookup table and the keys' bytes, in memory of their own: a member's lookup reads
    /// them without retaining an array.
    private final class Table: @unchecked Sendable {
        // Unchecked: written only by `init`, read-only after; freed with the table.
        /// For each slot: zero when empty, else the key's number plus one (bits 0–7), its length
        /// (bits 8–31) and its first byte's offset in `bytes` (bits 32–63).
        let slots: UnsafeMutablePointer<UInt64>
        let mask: Int
        /// The keys' bytes, one after another (and one more, so that the address is valid).
        let bytes: UnsafeMutablePointer<UInt8>

        init(_ keys: [String]) {
            var count = 16
            while count < keys.count * 4 { count <<= 1 }
            mask = count - 1
            slots = .allocate(capacity: count)
            slots.initialize(repeating: 0, count: count)
            let length = keys.reduce(0) { $0 + $1.utf8.count }
            precondition(length < 1 << 32, "the keys of a key set are at most 4 GiB in all")
            bytes = .allocate(capacity: length + 1)
            bytes.initialize(repeating: 0, count: length + 1)
            var offset = 0
            for (number, key) in keys.enumerated() {
                let length = key.utf8.count
                precondition(length < 1 << 24, "a key of a key set is shorter than 16 MiB")
                _ = UnsafeMutableBufferPointer(start: bytes + offset, count: length).initialize(from: key.utf8)
                var slot = JSONKeySet.slot(of: UnsafeBufferPointer(start: bytes + offset, count: length), mask: mask)
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = UInt64(number + 1) | UInt64(length) << 8 | UInt64(offset) << 32
                offset += length
            }
        }

        deinit {
            slots.deallocate()
            bytes.deallocate()
        }
    }

    /// A set of `keys`: at most `capacity`, each shorter than 16 MiB, and different in their
    /// bytes (as JSON keys are compared: `"é"` and `"e\u{301}"` are two keys).
    package init(_ keys: [String]) {
        precondition(keys.count <= Self.capacity, "a key set holds at most \(Self.capacity) keys")
        precondition(Set(keys.map { Array($0.utf8) }).count == keys.count, "the keys of a key set must be different")
        self.keys = keys
        table = Table(keys)
    }

    /// The table slot a key starts its search at, from its length and its first and last bytes.
    @inline(__always)
    fileprivate static func slot(of key: UnsafeBufferPointer<UInt8>, mask: Int) -> Int {
        guard let base = key.baseAddress, !key.isEmpty else { return 0 }
        let count = key.count
        let mixed = count &* 31 &+ Int(base[0]) &* 7 &+ Int(base[count &- 1]) &* 3
        return mixed & mask
    }

    /// The number of `key` (its place in `keys`), or -1 when the set does not have it.
    @inline(__always)
    func number(of key: UnsafeBufferPointer<UInt8>) -> Int {
        let table = self.table
        var slot = Self.slot(of: key, mask: table.mask)
        while true {
            let entry = table.slots[slot]
            if entry == 0 { return -1 }
            let length = Int(truncatingIfNeeded: (entry >> 8) & 0xFF_FFFF)
            if length == key.count,
                length == 0
                    || KeyBytes.equal(table.bytes + Int(truncatingIfNeeded: entry >> 32), key.baseAddress!, length)
            {
                return Int(truncatingIfNeeded: entry & 0xFF) &- 1
            }
            slot = (slot &+ 1) & table.mask
        }
    }
}

/// An object's members found by the keys of a `JSONKeySet` in one walk over them: the position
/// of each declared key's value, read by its number (`ModelDecodingContext.required(_:field:in:as:)`
/// and the others taking fields). Members the set does not have are passed over; of a repeated
/// key, the last is kept, as `JSONNode.subscript(key:)` finds it.
@usableFromInline package struct JSONFields {
    /// The object whose members were found.
    package let object: JSONNode
    /// The object's document, read in place (kept alive by `object`).
    let view: JSONTapeView
    /// The tape position of each key's value, by its number; -1 when the object lacks the key.
    /// A tuple read and written through its bytes: a vector's element, at an index not known
    /// when compiled, was moved whole to change or read it.
    private var positions: Positions = (
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    )

    /// One position for each key a set may hold.
    typealias Positions = (
        Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
        Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int
    )

    init(object: JSONNode, keys: JSONKeySet) {
        self.object = object
        let view = object.document.view
        self.view = view
        let end = Int(truncatingIfNeeded: view.tape[object.index] & JSONTape.payloadMask)
        var position = object.index &+ 2
        while position < end {
            let value = view.next(after: position)
            let number = keys.number(of: view.stringBytes(at: position))
            if number >= 0 {
                withUnsafeMutableBytes(of: &positions) {
                    $0.storeBytes(of: value, toByteOffset: number &* MemoryLayout<Int>.stride, as: Int.self)
                }
            }
            position = view.next(after: value)
        }
    }

    /// The tape position of the value of the key numbered `field`, or -1 when it is absent.
    /// (Mutating only so that the positions are read where they are, not copied first.)
    @inline(__always)
    mutating func position(_ field: Int) -> Int {
        precondition(UInt(bitPattern: field) < UInt(JSONKeySet.capacity), "a field is numbered below JSONKeySet.capacity")
        return withUnsafeMutableBytes(of: &positions) {
            $0.load(fromByteOffset: field &* MemoryLayout<Int>.stride, as: Int.self)
        }
    }

    /// The value of the key numbered `field` in the set the members were found by, or nil when
    /// the object lacks it (as for a number the set does not use; one past the capacity traps).
    @usableFromInline package mutating func node(_ field: Int) -> JSONNode? {
        let position = position(field)
        return position < 0 ? nil : JSONNode(document: object.document, index: position)
    }
}

extension JSONNode {
    /// The object's members found by the keys of `keys`, or nil when this is not an object.
    package func fields(_ keys: JSONKeySet) -> JSONFields? {
        isObject ? JSONFields(object: self, keys: keys) : nil
    }
}
