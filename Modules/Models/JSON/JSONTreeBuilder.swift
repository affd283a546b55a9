/// Builds the `JSONValue` tree of a document as `JSONParser` reports it.
///
/// The values of open containers sit on a manually managed stack and keys on another, moved
/// (never copied) into the array or object that closes over them.
struct JSONTreeBuilder: JSONBuilder, ~Copyable {
    /// An object key and its intern slot (plus one; zero for a key that was not interned).
    struct Key {
        var string: String
        var slot: UInt8
    }

    private let base: UnsafePointer<UInt8>
    /// Values of every open container, flattened; a container moves its slice out when it closes.
    private var values = Stack<JSONValue>()
    /// Keys of every open object, flattened, parallel to their values.
    private var keys = Stack<Key>()

    init(base: UnsafePointer<UInt8>) {
        self.base = base
    }

    func internedKey(offset: Int, length: Int) -> String {
        String(validatedUTF8: UnsafeBufferPointer(start: base + offset, count: length))
    }

    @inline(__always)
    mutating func open(isObject: Bool) -> (values: Int, keys: Int) { (values.count, keys.count) }

    @inline(__always)
    mutating func key(_ key: consuming String, slot: UInt8, at offset: Int, length: Int) {
        keys.push(Key(string: key, slot: slot))
    }

    mutating func key(at offset: Int, length: Int) {
        keys.push(Key(string: internedKey(offset: offset, length: length), slot: 0))
    }

    mutating func key(unescaped bytes: UnsafeBufferPointer<UInt8>) {
        keys.push(Key(string: String(validatedUTF8: bytes), slot: 0))
    }

    @inline(__always)
    mutating func string(at offset: Int, length: Int) {
        values.push(.string(String(validatedUTF8: UnsafeBufferPointer(start: base + offset, count: length))))
    }

    mutating func string(unescaped bytes: UnsafeBufferPointer<UInt8>) {
        values.push(.string(String(validatedUTF8: bytes)))
    }

    @inline(__always)
    mutating func number(_ number: JSONNumber) { values.push(.number(number)) }

    @inline(__always)
    mutating func bool(_ value: Bool) { values.push(.bool(value)) }

    @inline(__always)
    mutating func null() { values.push(.null) }

    mutating func closeArray(_ frame: JSONFrame) {
        let array = values.moveOut(from: frame.valueStart)
        values.push(.array(array))
    }

    mutating func closeObject(_ frame: JSONFrame, rejectingDuplicates: Bool) -> Int? {
        // Distinct intern slots mean distinct keys (equal keys always share a slot); only when
        // two keys share a slot, or one was not interned, are the keys compared.
        let keyCount = keys.count - frame.keyStart
        let unique =
            !frame.mayRepeat
            || keyCount <= JSONObject.indexThreshold && !Self.hasEqualKeys(keys.pointer + frame.keyStart, count: keyCount)
        let entries = Self.entries(keys: &keys, values: &values, keyStart: frame.keyStart, valueStart: frame.valueStart)
        guard !unique else {
            values.push(.object(JSONObject(uniqueStorage: entries)))
            return nil
        }
        // A large object's index is built by the check for a repeated key, so its keys are hashed once.
        if keyCount > JSONObject.indexThreshold, let index = Self.index(of: entries) {
            values.push(.object(JSONObject(uniqueStorage: entries, index: index)))
            return nil
        }
        // A key repeats: found again by hashing, for its position in the error.
        if rejectingDuplicates, let repeated = Self.firstRepeatedKey(entries.lazy.map(\.key)) { return repeated }
        // The last value wins, at the position of the first occurrence.
        values.push(.object(JSONObject(entries.map { ($0.key, $0.value) })))
        return nil
    }

    mutating func finish() -> JSONValue { values.pop() }

    /// Moves the top keys and values (from `keyStart` and `valueStart`, equally many) into an
    /// object's entries (also for `JSONMaterializer`, which builds objects from a tape).
    static func entries(
        keys: inout Stack<Key>, values: inout Stack<JSONValue>, keyStart: Int, valueStart: Int
    ) -> [JSONObject.Entry] {
        let count = values.count - valueStart
        let keyBase = keys.pointer + keyStart
        let valueBase = values.pointer + valueStart
        // `reserveCapacity` allocates through code specialized for `Entry`; the
        // `unsafeUninitializedCapacity` initializer calls the standard library's unspecialized
        // allocation, which looks up the storage class's metadata on every call (~360 instructions).
        var entries: [JSONObject.Entry] = []
        entries.reserveCapacity(count)
        for offset in 0..<count {
            entries.append(JSONObject.Entry(key: (keyBase + offset).move().string, value: (valueBase + offset).move()))
        }
        keys.forgetTop(from: keyStart)
        values.forgetTop(from: valueStart)
        return entries
    }

    /// The index of the first key that repeats an earlier one (by its exact bytes).
    static func firstRepeatedKey<Keys: Sequence<String>>(_ keys: Keys) -> Int? {
        var seen = Set<JSONKey>()
        for (index, key) in keys.enumerated() where !seen.insert(JSONKey(key)).inserted { return index }
        return nil
    }

    /// Whether two of the `count` keys at `keys` are equal. Equal keys always have the same
    /// intern slot (a key's set is chosen by its bytes, and only a set's last way is ever given
    /// to another key, so a key returns to the way it had), so a key is compared only with the
    /// keys that share its slot and with those that were not interned (escaped, or longer than
    /// the intern table takes): an object whose interned keys collided costs a comparison or
    /// two, one whose keys are all escaped or long a comparison for each pair.
    static func hasEqualKeys(_ keys: UnsafePointer<Key>, count: Int) -> Bool {
        guard count > 1 else { return false }
        for later in 1..<count {
            let slot = keys[later].slot
            for earlier in 0..<later {
                let other = keys[earlier].slot
                if slot == other || slot == 0 || other == 0, JSONKey.bytesEqual(keys[earlier].string, keys[later].string) {
                    return true
                }
            }
        }
        return false
    }

    /// The hash index of a large object's keys, or nil when a key repeats: the index the object
    /// keeps, built by the same pass that checks its keys are distinct.
    static func index(of entries: [JSONObject.Entry]) -> [JSONKey: Int]? {
        var index = [JSONKey: Int](minimumCapacity: entries.count)
        for (offset, entry) in entries.enumerated() where index.updateValue(offset, forKey: JSONKey(entry.key)) != nil {
            return nil
        }
        return index
    }
}
