import PropertyBased
import Testing

@testable import DynamicUIModels

/// Strings the reader has validated are made without a second validation
/// (`String(validatedUTF8:)`): they must be the strings `String(decoding:as:)` makes, byte for
/// byte, and behave as those do where Swift's `String` looks at its ASCII and NFC flags
/// (equality, hashing, dictionary lookups, characters).
@Suite("Strings from validated UTF-8")
struct ValidatedStringTests {
    /// Every length from 0 to 40 (inline and allocated strings, words and their tails), ASCII
    /// and with a multi-byte character at each place.
    static var samples: [String] {
        var samples: [String] = []
        let pieces = ["a", "é", "語", "😊", "e\u{301}", "ع", "\u{7F}", "\u{80}", "\u{0}"]
        for length in 0...40 {
            samples.append(String(repeating: "x", count: length))
            for piece in pieces where length > 0 {
                for place in [0, length / 2, length - 1] {
                    var characters = Array(repeating: "y", count: length)
                    characters[place] = piece
                    samples.append(characters.joined())
                }
            }
        }
        return samples
    }

    static func made(_ string: String) -> String {
        Array(string.utf8).withUnsafeBufferPointer { String(validatedUTF8: $0) }
    }

    @Test func sameBytesAndBehaviourAsDecoding() {
        for sample in Self.samples {
            let bytes = Array(sample.utf8)
            let reference = String(decoding: bytes, as: UTF8.self)
            let made = Self.made(sample)
            #expect(Array(made.utf8) == bytes)
            #expect(made == reference)
            #expect(made.hashValue == reference.hashValue)
            #expect(made.count == reference.count)
            #expect(Array(made.unicodeScalars) == Array(reference.unicodeScalars))
            #expect(made.utf16.count == reference.utf16.count)
            let isASCII = bytes.withUnsafeBufferPointer { ValidatedUTF8.isASCII($0) }
            #expect(isASCII == bytes.allSatisfy { $0 < 0x80 })
        }
    }

    /// A byte above 0x7F at every place of every length from 0 to 40 (the words, the
    /// overlapping last word, the four-byte and the byte-by-byte tails) is seen.
    @Test func aHighByteAnywhereIsNotASCII() {
        for length in 0...40 {
            var bytes = Array(repeating: UInt8(0x7F), count: length)
            #expect(bytes.withUnsafeBufferPointer { ValidatedUTF8.isASCII($0) }, "length \(length)")
            for place in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    bytes[place] = high
                    #expect(!bytes.withUnsafeBufferPointer { ValidatedUTF8.isASCII($0) }, "length \(length), place \(place)")
                }
                bytes[place] = 0x7F
            }
        }
    }

    /// Canonically equivalent spellings stay equal, as `String` has them: a string made without
    /// validation is not marked NFC when it is not ASCII, so comparisons normalize.
    @Test func canonicalEquivalenceStillHolds() {
        let composed = Self.made("caf\u{E9}")
        let decomposed = Self.made("cafe\u{301}")
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
        let table = [composed: 1]
        #expect(table[decomposed] == 1)
        #expect(Self.made("Ω") < Self.made("語"))
    }

    /// Keys and values the reader and the document make, in the tree, the document and decoded
    /// models, equal what `JSONSerialization`-free decoding of the same bytes gives.
    @Test func readerStringsMatchTheirText() throws {
        for sample in Self.samples {
            let escaped = sample.unicodeScalars.map { $0.value < 0x20 ? String(format: $0.value) : String($0) }.joined()
            let text = "{\"\(escaped)\": \"\(escaped)\", \"k\": [\"\(escaped)\"]}"
            let tree = try JSONReader().read(text)
            #expect(tree[sample]?.stringValue == sample)
            #expect(tree["k"]?[0]?.stringValue == sample)
            let document = try JSONReader().document(text)
            #expect(document.root[sample]?.stringValue == sample)
            #expect(document.root.value == tree)
            let decoded = try [String: JSONValue](node: document.root)
            #expect(decoded[sample] == .string(sample))
        }
    }
}

/// A dictionary of `JSONValue`s decoded from a node (built member by member, without a node
/// for each) is the dictionary decoded from the same object as a tree, for random objects, and
/// an object that repeats a key keeps its last value as the tree does.
@Suite("Dictionaries of values from a document")
struct ValueDictionaryTests {
    @Test func randomObjectsDecodeAsFromTheTree() throws {
        var generator = Xoshiro(seed: (0xD1C7, 3, 1, 4))
        var objects = 0
        for _ in 0..<400 {
            let value = JSONReaderFastPathTests.randomValue(depth: 0, using: &generator)
            let wrapped = JSONValue.object(JSONObject(uniqueEntries: [("slot_data", value), ("n", .number(JSONNumber(1)))]))
            let bytes = JSONWriter().bytes(from: wrapped)
            let document = try JSONReader().document(bytes)
            let node = try #require(document.root["slot_data"])
            let fromTree = Result { () throws(ModelDecodingError) in try [String: JSONValue](json: value) }
            let fromNode = Result { () throws(ModelDecodingError) in try [String: JSONValue](node: node) }
            switch (fromTree, fromNode) {
            case (.success(let tree), .success(let fromDocument)):
                #expect(tree == fromDocument)
                objects += 1
            case (.failure(let tree), .failure(let fromDocument)):
                #expect(tree == fromDocument)
            default:
                Issue.record("the tree gives \(fromTree), the document \(fromNode)")
            }
        }
        #expect(objects > 100)
    }

    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        let document = try JSONReader().document(#"{"a": "x", "b": [1, {"c": null}], "a": "y"}"#)
        let decoded = try [String: JSONValue](node: document.root)
        #expect(decoded == ["a": "y", "b": [1, ["c": nil]]])
    }
}

extension String {
    /// `\u00XX` for a control character's scalar value.
    fileprivate init(format value: UInt32) {
        let hex = String(value, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
