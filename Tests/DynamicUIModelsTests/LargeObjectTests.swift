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
}
