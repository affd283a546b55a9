import PropertyBased
import Testing

@testable import DynamicUIModels

/// Objects with more keys than the reader interns (a string catalog's thousands): their keys
/// are read without interning and compared when the object closes, so a repeated key is still
/// found exactly, by its bytes, wherever it is.
@Suite("JSON reader: objects of thousands of keys")
struct LargeObjectTests {
    /// Distinct keys shaped like a string catalog's, some escaped, some longer than an interned
    /// key, some canonically equivalent to another (distinct bytes, so distinct keys).
    static func keys(_ count: Int, using generator: inout Xoshiro) -> [(written: String, decoded: String)] {
        let areas = ["settings", "profile", "courses", "grades", "auth"]
        let elements = ["title", "button.save", "placeholder", "hint"]
        var keys: [(String, String)] = []
        var seen: Set<[UInt8]> = []
        while keys.count < count {
            let ordinal = keys.count
            var decoded = "\(areas[Int(generator.next() % 5)]).\(elements[Int(generator.next() % 4)]).\(ordinal)"
            var written = decoded
            switch generator.next() % 10 {
            case 0:
                written = escapingFirstLetter(decoded)
            case 1:
                decoded += String(repeating: "-long", count: 14)
                written = decoded
            case 2:
                decoded += "é"
                written = decoded
            case 3:
                decoded += "e\u{301}"
                written = decoded
            default: break
            }
            if seen.insert(Array(decoded.utf8)).inserted { keys.append((written, decoded)) }
        }
        return keys
    }

    /// `key` (ASCII letters first) with its first letter written as a `\u00XX` escape.
    static func escapingFirstLetter(_ key: String) -> String {
        "\\u00" + String(key.utf8.first!, radix: 16) + key.dropFirst()
    }

    static func text(_ members: [(key: String, value: Int)]) -> String {
        "{\n" + members.map { "  \"\($0.key)\": \($0.value)" }.joined(separator: ",\n") + "\n}"
    }

    @Test(arguments: [1, 127, 128, 129, 130, 255, 256, 1000, 10_000])
    func distinctKeysReadAsWritten(count: Int) throws {
        var generator = Xoshiro(seed: (0xCA7A, UInt64(count), 3, 7))
        let keys = Self.keys(count, using: &generator)
        let text = Self.text(keys.enumerated().map { ($0.element.written, $0.offset) })
        for strict in [false, true] {
            let reader = JSONReader(rejectDuplicateKeys: strict)
            let tree = try #require(try reader.read(text).objectValue)
            #expect(tree.keys.map { Array($0.utf8) } == keys.map { Array($0.decoded.utf8) })
            let document = try reader.document(text)
            #expect(document.root.members.map { Array($0.key.utf8) } == keys.map { Array($0.decoded.utf8) })
            for (offset, key) in keys.enumerated() where offset % 7 == 0 || offset >= count - 3 {
                #expect(tree[key.decoded] == .number(JSONNumber(offset)), "\(key.decoded)")
                #expect(document.root[key.decoded]?.numberValue == JSONNumber(offset), "\(key.decoded)")
            }
        }
    }

    /// A key written again, before and after the point where keys stop being interned: the
    /// strict reader fails at the second occurrence both ways; the lenient one keeps the last
    /// value at the first one's place.
    @Test func aRepeatedKeyIsFoundWhereverItIs() throws {
        var generator = Xoshiro(seed: (0xD0B1E, 5, 8, 13))
        for round in 0..<60 {
            let count = [130, 200, 1000, 3000][round % 4]
            let keys = Self.keys(count, using: &generator)
            var members = keys.enumerated().map { (key: $0.element.written, value: $0.offset) }
            let original = Int(generator.next() % UInt64(count))
            let copy = original + 1 + Int(generator.next() % UInt64(count - original))
            // The repeat is written as the original was, or escaped where the original was not.
            var repeated = keys[original].written
            if round % 3 == 0, !repeated.hasPrefix("\\") { repeated = Self.escapingFirstLetter(repeated) }
            members.insert((repeated, -1), at: copy)
            let text = Self.text(members)
            let offsetOfRepeat = Array(text.utf8).count - Array(Self.text(Array(members[copy...])).utf8).count + 4
            for asDocument in [false, true] {
                do throws(JSONReadError) {
                    let strict = JSONReader(rejectDuplicateKeys: true)
                    if asDocument { _ = try strict.document(text) } else { _ = try strict.read(text) }
                    Issue.record("a repeat of key \(original) at \(copy) of \(count) was accepted")
                } catch {
                    #expect(error.code == .duplicateKey)
                    #expect(error.offset == offsetOfRepeat, "key \(original) repeated at \(copy) of \(count)")
                }
            }
            let decoded = keys[original].decoded
            let tree = try #require(try JSONReader().read(text).objectValue)
            #expect(tree.count == count)
            #expect(tree.position(of: decoded) == original)
            #expect(tree[decoded] == .number(-1))
            let document = try JSONReader().document(text)
            #expect(document.root[decoded]?.numberValue == JSONNumber(-1))
            #expect(document.value == .object(tree))
        }
    }

    /// Sixteen-byte keys whose hashes under `seed` are all equal: the state after the second word
    /// is the same for all (the second word undoes what the first did), as an attacker who knew
    /// the seed would write them.
    static func collidingKeys(_ count: Int, seed: UInt64) -> [[UInt8]] {
        func mix(_ value: UInt64) -> UInt64 {
            let product = value &* 0xBF58_476D_1CE4_E5B9
            return product ^ (product >> 31)
        }
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C }
        var generator = Xoshiro(seed: (0xF100D, 1, 2, 3))
        var keys: [[UInt8]] = []
        let start = 0x9E37_79B9_7F4A_7C15 ^ seed ^ 16
        while keys.count < count {
            let first = (0..<8).map { _ in UInt8(0x41 + generator.next() % 26) }
            let word = first.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let second = withUnsafeBytes(of: (mix(start ^ word) ^ 0x4141_4141_4141_4141).littleEndian) { Array($0) }
            if second.allSatisfy(plain) { keys.append(first + second) }
        }
        return keys
    }

    @Test func keysWrittenToCollideDoNotCollideUnderTheProcesssSeed() throws {
        let keys = Self.collidingKeys(300, seed: 0)
        func hashes(_ seed: UInt64) -> Set<UInt64> {
            Set(
                keys.map { key in
                    key.withUnsafeBufferPointer { KeyTable<UInt64>.hash($0.baseAddress!, 16, available: 16, seed: seed) }
                })
        }
        #expect(hashes(0).count == 1, "the keys all collide under the seed they were written for")
        #expect(keyHashSeed != 0)
        #expect(hashes(keyHashSeed).count == keys.count, "and under the process's seed none does")
        func checked(_ key: [UInt8], seed: UInt64 = keyHashSeed) -> UInt64 {
            key.withUnsafeBufferPointer {
                KeyTable<UInt64>.seededHash($0.baseAddress!, key.count, available: key.count, seed: seed)
            }
        }
        #expect(Set(keys.map { checked($0) }).count == keys.count, "nor under the check's own hash")
        // Seven-byte keys that differ in their last byte alone: the plain hash leaves that byte out
        // of its low bits (which pick a slot), the check's hash does not.
        let short = (0x21...0x7E).filter { $0 != 0x22 && $0 != 0x5C }.map { Array("catalog".utf8.dropLast()) + [UInt8($0)] }
        let lowBits = Set(
            short.map { key in key.withUnsafeBufferPointer { KeyTable<UInt64>.hash($0.baseAddress!, 7, available: 7) & 0x3FFFF } }
        )
        #expect(lowBits.count == 1)
        #expect(Set(short.map { checked($0) & 0xFFFF_FFFF }).count == short.count)
        // The document of them reads, and a real repeat among them is still found at its offset.
        let members = keys.enumerated().map { "\"\(String(decoding: $0.element, as: UTF8.self))\":\($0.offset)" }
        let document = try JSONReader().document("{" + members.joined(separator: ",") + "}")
        #expect(document.root.count == keys.count && !document.root.hasRepeatedKeys)
        let repeated = "{" + members.joined(separator: ",") + ",\"\(String(decoding: keys[123], as: UTF8.self))\":0}"
        let error = #expect(throws: JSONReadError.self) { try JSONReader(rejectDuplicateKeys: true).document(repeated) }
        #expect(error?.code == .duplicateKey && error?.offset == repeated.utf8.count - 21)
    }
}
