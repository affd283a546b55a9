import Foundation
import PropertyBased
import Testing

@testable import DynamicUIModels

/// The reader's fast paths (word-at-a-time string scanning, key interning and prediction,
/// moved value stacks, exact decimal conversion) checked against slow, obvious references.
@Suite("JSON reader: fast paths agree with the obvious answer")
struct JSONReaderFastPathTests {
    /// A special byte at every offset of strings of every length around the 8-byte word size.
    @Test func specialBytesAtEveryOffsetOfAWord() throws {
        let specials: [(inserted: String, decoded: String)] = [
            ("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("é", "é"), ("€", "€"), ("𝄞", "𝄞"), ("\\u00e9", "é"),
        ]
        for length in 0...20 {
            for offset in 0...length {
                for (inserted, decoded) in specials {
                    let prefix = String(repeating: "a", count: offset)
                    let suffix = String(repeating: "b", count: length - offset)
                    let value = try JSONReader().read(
                        "[\"\(prefix)\(inserted)\(suffix)\", {\"\(prefix)\(inserted)\(suffix)\": 1}]")
                    #expect(value[0]?.stringValue == prefix + decoded + suffix)
                    #expect(value[1]?.objectValue?.keys == [prefix + decoded + suffix])
                }
                // A raw control character or an invalid byte at the same offset is an error at its offset.
                var bytes = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length + 1) + Array("\"]".utf8)
                for bad: UInt8 in [0x01, 0x1F, 0xFF, 0xC0] {
                    bytes[2 + offset] = bad
                    do {
                        _ = try JSONReader().read(bytes)
                        Issue.record("byte \(bad) at \(offset) was accepted")
                    } catch {
                        #expect(error.offset == 2 + offset, "byte \(bad) at \(offset)")
                    }
                }
            }
        }
    }

    /// Keys that look like the predicted one but are not: longer, shorter, one byte different,
    /// escaped, or a different key that hashes to the same slot.
    @Test func predictedKeysThatDifferAreReadAsWritten() throws {
        let items = [
            #"{"title": 1, "subject": 2}"#, #"{"title": 1, "subjects": 2}"#, #"{"title": 1, "subjec": 2}"#,
            #"{"title": 1, "subjecT": 2}"#, #"{"title": 1, "sub\u006aect": 2}"#, #"{"titles": 1, "subject": 2}"#,
            #"{"title": 1}"#, #"{"title": 1, "subject": 2, "extra": 3}"#, #"{"title": 1, "subject": 2}"#,
        ]
        let value = try JSONReader().read("[" + items.joined(separator: ",") + "]")
        let keys = value.arrayValue?.map { $0.objectValue?.keys ?? [] }
        #expect(
            keys == [
                ["title", "subject"], ["title", "subjects"], ["title", "subjec"], ["title", "subjecT"], ["title", "subject"],
                ["titles", "subject"], ["title"], ["title", "subject", "extra"], ["title", "subject"],
            ])
        // The key at the end of the input, with fewer than eight bytes left to read.
        #expect(try JSONReader().read(#"[{"a":1},{"a":2}]"#)[1]?["a"] == 2)
        #expect(throws: JSONReadError.self) { try JSONReader().read(#"[{"ab":1},{"ab"#) }
    }

    /// A key follows another with one of several keys (a screen's nodes): each of the last four
    /// that followed is tried before the key is scanned. Keys that look like one of those but
    /// are not (longer, shorter, one byte different, escaped), more successors than are kept,
    /// and keys enough to evict the slots the kept ones point at: every object reads as
    /// written, in the tree and the document, and a repeat is still rejected.
    @Test func keysThatFollowedAKeyBeforeAreReadAsWritten() throws {
        var generator = Xoshiro(seed: (0x5CC, 4, 5, 6))
        var successors: [(written: String, decoded: String)] = [
            ("label", "label"), ("labels", "labels"), ("labe", "labe"), ("labeL", "labeL"), (#"lab\u0065l"#, "label"),
            ("icon", "icon"), ("style", "style"), ("bind", "bind"), ("placeholder", "placeholder"),
            ("a-key-longer-than-eight-bytes", "a-key-longer-than-eight-bytes"), ("", ""), ("ícono", "ícono"),
        ]
        // Keys enough to evict slots: each appears once or twice.
        successors += (0..<300).map { ("rare-\($0)", "rare-\($0)") }
        for round in 0..<60 {
            var written: [String] = []
            var expected: [[(String, Int)]] = []
            for _ in 0..<Int(generator.next() % 80 + 1) {
                // Mostly the first twelve (more than four after "kind"), sometimes a rare one.
                let pick = { () -> (written: String, decoded: String) in
                    let common = generator.next() % 8 != 0
                    return successors[Int(generator.next() % UInt64(common ? 12 : successors.count))]
                }
                var members: [(written: String, decoded: String)] = [("kind", "kind"), pick()]
                if generator.next() % 2 == 0 { members.append(pick()) }
                members.append(("value", "value"))
                let numbers = members.map { _ in Int(generator.next() % 1000) }
                written.append("{" + zip(members, numbers).map { "\"\($0.written)\": \($1)" }.joined(separator: ", ") + "}")
                expected.append(zip(members, numbers).map { ($0.decoded, $1) })
            }
            let text = "[" + written.joined(separator: ",\n  ") + "]"
            let tree = try JSONReader().read(text)
            let document = try JSONReader().document(text)
            #expect(document.value == tree, "round \(round)")
            let objects = try #require(tree.arrayValue)
            #expect(objects.count == expected.count)
            var anyRepeat = false
            for (object, members) in zip(objects, expected) {
                var model = JSONObject()
                for (key, number) in members { model[key] = .number(JSONNumber(number)) }
                #expect(object.objectValue?.keys == model.keys, "round \(round)")
                #expect(object.objectValue == model)
                if Set(members.map(\.0)).count != members.count { anyRepeat = true }
            }
            for (node, members) in zip(document.root.elements, expected) where Set(members.map(\.0)).count == members.count {
                #expect(node.members.map(\.key) == members.map(\.0), "round \(round)")
            }
            expectRepeatedKeysRejected(in: text, exactlyWhen: anyRepeat)
        }
        // Cut anywhere, the keys guessed from earlier ones included: the input ends where it ends.
        let shapes = ["label", "icon", "style", "labels", "label", "icon", "labe", "style", "label"]
        let text = "[" + shapes.map { "{\"kind\": 1, \"\($0)\": 2}" }.joined(separator: ", ") + "]"
        let bytes = Array(text.utf8)
        for length in 1..<bytes.count {
            let prefix = Array(bytes[..<length])
            for document in [false, true] {
                do {
                    if document { _ = try JSONReader().document(prefix) } else { _ = try JSONReader().read(prefix) }
                    Issue.record("\(length) bytes accepted")
                } catch {
                    #expect(error.code == .unexpectedEnd && error.offset == length, "\(length) bytes: \(error)")
                }
            }
        }
    }

    /// Far more distinct keys than the intern table has slots, repeated and duplicated.
    @Test func manyKeysAndDuplicatesBeyondTheInternTable() throws {
        let names = (0..<600).map { "key-\($0)-\(String(repeating: "x", count: $0 % 70))" }
        let object = "{" + names.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",") + "}"
        let value = try JSONReader().read("[\(object),\(object)]")
        for copy in 0..<2 {
            let read = try #require(value[copy]?.objectValue)
            #expect(read.keys == names)
            #expect(read[names[599]] == 599)
        }
        // Every pair of positions holding the same key is caught, wherever the two keys sit.
        for (first, second) in [(0, 1), (3, 400), (127, 128), (598, 599)] {
            var duplicated = names
            duplicated[second] = names[first]
            let text = "{" + duplicated.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",") + "}"
            do {
                _ = try JSONReader(rejectDuplicateKeys: true).read(text)
                Issue.record("duplicate \(first)/\(second) accepted")
            } catch {
                #expect(error.code == .duplicateKey)
            }
            do {
                _ = try JSONReader(rejectDuplicateKeys: true).document(text)
                Issue.record("duplicate \(first)/\(second) accepted by the document")
            } catch {
                #expect(error.code == .duplicateKey)
            }
            #expect(try JSONReader().read(text)[names[first]] == .number(JSONNumber(second)))
            #expect(try JSONReader().document(text).root[names[first]]?.numberValue == JSONNumber(second))
        }
    }

    /// More keys of one intern set than it has ways: they take turns in its last way. A key
    /// repeated in an object after the others evicted it is still found a repeat (by both
    /// readers), objects of any mix of them read as written, and the last value wins.
    @Test func keysOfOneInternSetBeyondItsWaysAreToldApart() throws {
        func set(of key: String) -> UInt64 {
            let bytes = Array(key.utf8) + [UInt8(ascii: "\"")]
            let hash = bytes.withUnsafeBufferPointer {
                KeyTable<UInt64>.hash($0.baseAddress!, bytes.count - 1, available: bytes.count)
            }
            return hash >> UInt64(64 - KeyTable<UInt64>.setBits)
        }
        let target = set(of: "k0")
        let keys = (0..<20_000).lazy.map { "k\($0)" }.filter { set(of: $0) == target }.prefix(KeyTable<UInt64>.ways + 3)
        let sameSet = Array(keys)
        #expect(sameSet.count == KeyTable<UInt64>.ways + 3)
        var generator = Xoshiro(seed: (0x5E7, 7, 8, 9))
        for round in 0..<300 {
            let members = (0..<Int(generator.next() % 12 + 1)).map { _ in sameSet[Int(generator.next() % UInt64(sameSet.count))] }
            let objects = (0..<3).map { copy in
                "{" + members.enumerated().map { "\"\($1)\": \($0 * 10 + copy)" }.joined(separator: ", ") + "}"
            }
            let text = "[" + objects.joined(separator: ", ") + "]"
            let repeats = Set(members).count != members.count
            for copy in 0..<3 {
                var model = JSONObject()
                for (index, key) in members.enumerated() { model[key] = .number(JSONNumber(index * 10 + copy)) }
                #expect(try JSONReader().read(text)[copy]?.objectValue == model, "round \(round)")
                #expect(try JSONReader().document(text).root[copy]?.value.objectValue == model, "round \(round)")
            }
            // Objects of the set's keys as the values of keys of the set: an inner key may take
            // the way an outer one had, and the outer one comes back to it. The inner keys are
            // distinct, so a repeat is the outer object's (what the document's check must see).
            let outer = (0..<Int(generator.next() % 5 + 1)).map { _ in sameSet[Int(generator.next() % UInt64(sameSet.count))] }
            var nestedModel = JSONObject()
            let nestedRepeats = Set(outer).count != outer.count
            let parts = outer.map { key -> String in
                let inner = sameSet.shuffled(using: &generator).prefix(Int(generator.next() % UInt64(sameSet.count)) + 1)
                var innerModel = JSONObject()
                for (index, innerKey) in inner.enumerated() { innerModel[innerKey] = .number(JSONNumber(index)) }
                nestedModel[key] = .object(innerModel)
                return "\"\(key)\": {" + inner.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
            }
            let nested = "{" + parts.joined(separator: ", ") + "}"
            #expect(try JSONReader().read(nested).objectValue == nestedModel, "\(nested)")
            #expect(try JSONReader().document(nested).value.objectValue == nestedModel, "\(nested)")
            expectRepeatedKeysRejected(in: nested, exactlyWhen: nestedRepeats)
            expectRepeatedKeysRejected(in: text, exactlyWhen: repeats)
        }
    }

    /// Lists of objects whose keys come from a pool larger than half the intern table, sometimes
    /// repeated within an object: each object reads as the model built key by key (the last
    /// value wins, at the first key's position), and a repeat is rejected when asked. Objects
    /// of up to 40 keys: compared pairwise, and hashed (with the index built by that check)
    /// above `JSONObject.indexThreshold`.
    @Test func repeatedKeysAcrossAndWithinObjectsMatchTheModel() throws {
        var generator = Xoshiro(seed: (0x5EED, 1, 2, 3))
        let pool = (0..<150).map { "field\($0)" }
        for _ in 0..<200 {
            var objects: [[(String, Int)]] = []
            for _ in 0..<Int(generator.next() % 6 + 1) {
                let template = (0..<Int(generator.next() % 40 + 1)).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
                // Several objects with the same keys in the same order (the predicted path), then a new shape.
                for _ in 0..<Int(generator.next() % 4 + 1) {
                    objects.append(template.map { ($0, Int(generator.next() % 1000)) })
                }
            }
            let text =
                "["
                + objects.map { "{" + $0.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}" }
                .joined(separator: ",") + "]"
            let read = try #require(try JSONReader().read(text).arrayValue)
            #expect(read.count == objects.count)
            var anyRepeat = false
            for (object, value) in zip(objects, read) {
                var model = JSONObject()
                for (key, number) in object { model[key] = .number(JSONNumber(number)) }
                let readObject = try #require(value.objectValue)
                #expect(readObject.keys == model.keys)
                #expect(readObject == model)
                if Set(object.map(\.0)).count != object.count { anyRepeat = true }
            }
            do {
                _ = try JSONReader(rejectDuplicateKeys: true).read(text)
                #expect(!anyRepeat, "a repeated key was accepted in \(text)")
            } catch {
                #expect(anyRepeat, "rejected without a repeated key: \(error)")
                #expect(error.code == .duplicateKey)
            }
        }
    }

    /// Strings mixing plain text, raw UTF-8 and every form of escape (`\uXXXX` of one-, two- and
    /// three-byte characters, surrogate pairs, the short escapes), from empty to several times
    /// the reader's first escape buffer (1 KB, so it grows while each kind of piece is added):
    /// the tree and the document read what was written.
    @Test func escapesOfEveryFormReadAsWrittenInBothReaders() throws {
        var generator = Xoshiro(seed: (0xE5C, 1, 2, 3))
        let pieces: [(written: String, decoded: String)] = [
            ("a", "a"), ("plain text ", "plain text "), ("é", "é"), ("€", "€"), ("𝄞", "𝄞"), (#"\u0041"#, "A"),
            (#"\u00e9"#, "é"), (#"\u00F1"#, "ñ"), (#"\u20ac"#, "€"), (#"\uFFFD"#, "\u{FFFD}"), (#"\u0000"#, "\u{0}"),
            (#"\ud834\udd1e"#, "𝄞"), (#"\/"#, "/"), (#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\t"#, "\t"),
            (#"\u007f"#, "\u{7F}"), (#"\u0080"#, "\u{80}"), (#"\u07FF"#, "\u{7FF}"), (#"\u0800"#, "\u{800}"),
            (#"\uD7FF"#, "\u{D7FF}"), (#"\uE000"#, "\u{E000}"), (#"\u09aF"#, "\u{9AF}"), (#"\uAbCd"#, "\u{ABCD}"),
        ]
        for round in 0..<320 {
            var written = ""
            var decoded = ""
            // Up to 300 pieces at random, then 20 strings of 250 to 5,000 (up to ~15 KB decoded).
            let pieceCount = round < 300 ? Int(generator.next() % UInt64(1 + round)) : 250 * (round - 299)
            for _ in 0..<pieceCount {
                let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
                written += piece.written
                decoded += piece.decoded
            }
            let text = "[\"\(written)\", {\"\(written)\": 1}]"
            let tree = try JSONReader().read(text)
            #expect(tree[0]?.stringValue == decoded)
            #expect(tree[1]?.objectValue?.keys == [decoded])
            let document = try JSONReader().document(text)
            #expect(document.root[0]?.stringValue == decoded)
            #expect(document.root.value == tree)
        }
    }

    /// A broken `\u` escape fails where it breaks, with the error the digit-by-digit path gives:
    /// a bad digit at its offset, the end of the input where it is, a surrogate without its pair
    /// at its escape.
    @Test func brokenUnicodeEscapesFailWhereTheyBreak() {
        let cases: [(text: String, code: JSONReadError.Code, offset: Int)] = [
            (#"["\uG234"]"#, .invalidEscape, 4), (#"["\u1G34"]"#, .invalidEscape, 5), (#"["\u12G4"]"#, .invalidEscape, 6),
            (#"["\u123G"]"#, .invalidEscape, 7), (#"["\u12"#, .unexpectedEnd, 6), (#"["\u"#, .unexpectedEnd, 4),
            (#"["\uD800"]"#, .loneSurrogate, 2), (#"["\uDC00"]"#, .loneSurrogate, 2), (#"["ab\uDFFF"]"#, .loneSurrogate, 4),
            (#"["\uD800\u0041"]"#, .loneSurrogate, 8), (#"["\uD800\uD800"]"#, .loneSurrogate, 8),
            (#"["\uD800\n"]"#, .loneSurrogate, 2), (#"["\x"]"#, .invalidEscape, 2),
            // The low surrogate's own digits, bad or cut short.
            (#"["\uD800\uDZ00"]"#, .invalidEscape, 11), (#"["\uD800\uDC"#, .unexpectedEnd, 12),
            // The bytes either side of the digits' ranges are not digits.
            (#"["\u/000"]"#, .invalidEscape, 4), (#"["\u:000"]"#, .invalidEscape, 4), (#"["\u@000"]"#, .invalidEscape, 4),
            (#"["\u000G"]"#, .invalidEscape, 7), (#"["\u000`"]"#, .invalidEscape, 7), (#"["\u00g0"]"#, .invalidEscape, 6),
            // A whole escape that ends the input, the string left open.
            (#""\u00e9"#, .unexpectedEnd, 7), (#""ab\u20AC"#, .unexpectedEnd, 9),
        ]
        for (text, code, offset) in cases {
            for read in [{ try JSONReader().read(text) }, { try JSONReader().document(text).root.value }]
                as [() throws -> JSONValue]
            {
                do {
                    _ = try read()
                    Issue.record("\(text) was accepted")
                } catch let error as JSONReadError {
                    #expect(error.code == code, "\(text)")
                    #expect(error.offset == offset, "\(text)")
                } catch {
                    Issue.record("\(text): \(error)")
                }
            }
        }
    }

    /// Every byte at every digit of a `\u` escape, alone and as a pair's low surrogate: the four
    /// digits are read at once, so each byte must be told a digit (with its value) or not (the
    /// error at its offset) exactly as one digit at a time does.
    @Test func everyByteAtEveryDigitOfAnEscape() throws {
        for place in 0..<4 {
            for byte in UInt8.min...UInt8.max {
                let value =
                    UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte
                    ? byte - 48
                    : UInt8(ascii: "a")...UInt8(ascii: "f") ~= byte
                        ? byte - 87
                        : UInt8(ascii: "A")...UInt8(ascii: "F") ~= byte ? byte - 55 : nil
                // An escape of one character (`\u1111` with one digit changed) and a pair's low half.
                var single = Array(#"["\u1111"]"#.utf8)
                single[4 + place] = byte
                var pair = Array(#"["\uD83D\uDE00"]"#.utf8)
                pair[10 + place] = byte
                let cases: [(bytes: [UInt8], digit: Int, expected: String?)] = [
                    (
                        single, 4 + place,
                        value.flatMap { digit in
                            var unit: UInt32 = 0x1111
                            unit = unit & ~(0xF << (4 * (3 - UInt32(place)))) | UInt32(digit) << (4 * (3 - UInt32(place)))
                            // `\uD…` alone is a surrogate without its pair: an error.
                            return UnicodeScalar(unit).map { String($0) }
                        }
                    ),
                    (
                        pair, 10 + place,
                        value.flatMap { digit in
                            var low: UInt32 = 0xDE00
                            low = low & ~(0xF << (4 * (3 - UInt32(place)))) | UInt32(digit) << (4 * (3 - UInt32(place)))
                            guard (0xDC00...0xDFFF).contains(low) else { return nil }
                            return String(UnicodeScalar(0x10000 + ((0xD83D - 0xD800) << 10) + (low - 0xDC00))!)
                        }
                    ),
                ]
                for (bytes, digit, expected) in cases {
                    for read in [{ try JSONReader().read(bytes) }, { try JSONReader().document(bytes).root.value }]
                        as [() throws -> JSONValue]
                    {
                        do {
                            let read = try read()
                            #expect(read[0]?.stringValue == expected, "byte \(byte) at digit \(place)")
                        } catch let error as JSONReadError {
                            if value == nil {
                                #expect(error.code == .invalidEscape && error.offset == digit, "byte \(byte) at digit \(place)")
                            } else {
                                // A digit that makes a surrogate alone, or the low half no low surrogate.
                                #expect(error.code == .loneSurrogate && expected == nil, "byte \(byte) at digit \(place)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// A run of escapes is read without the scan between them, and the decoded length is
    /// checked after each: a string that passes the limit inside a run fails for its length even
    /// when a later escape is broken, and one that ends at the limit is read.
    @Test func theLengthLimitIsCheckedWithinARunOfEscapes() throws {
        let limits = JSONReader.Limits(maxStringBytes: 8)
        let cases: [(text: String, code: JSONReadError.Code?)] = [
            (#""\u0041\u0042\u0043\u0044\u0045\u0046\u0047\u0048""#, nil),
            (#""\u0041\u0042\u0043\u0044\u0045\u0046\u0047\u0048\u0049""#, .stringLimit),
            (#""\u0041\u0042\u0043\u0044\u0045\u0046\u0047\u0048\u0049\x""#, .stringLimit),
            (#""\u0041\u0042\u0043\u0044\u0045\u0046\u0047\u0048\x""#, .invalidEscape),
            (#""\u00e9\u00e9\u00e9\u00e9""#, nil), (#""\u00e9\u00e9\u00e9\u00e9\n""#, .stringLimit),
            (#""\ud83d\ude00\ud83d\ude00""#, nil), (#""\ud83d\ude00\ud83d\ude00a""#, .stringLimit),
            (#""abcde\ud83d\ude00\ud83d""#, .stringLimit), (#""abcd\ud83d\ude00\ud83d""#, .loneSurrogate),
            (#""\n\t\/\"\\\b\f\r""#, nil), (#""\n\t\/\"\\\b\f\r\n""#, .stringLimit),
        ]
        for (text, code) in cases {
            for read in [
                { try JSONReader(limits: limits).read(text) }, { try JSONReader(limits: limits).document(text).root.value },
            ] as [() throws -> JSONValue] {
                do {
                    let value = try read()
                    #expect(code == nil && value.stringValue?.utf8.count ?? 0 <= 8, "\(text)")
                } catch let error as JSONReadError {
                    #expect(error.code == code, "\(text)")
                    if code == .stringLimit { #expect(error.offset == 1, "\(text)") }
                }
            }
        }
    }

    /// Objects on both sides of `JSONObject.indexThreshold` (scanned below it, hashed above)
    /// find every key, miss the rest, and stay so as keys are added and removed across it.
    @Test func objectsAroundTheIndexThresholdFindEveryKey() throws {
        let threshold = JSONObject.indexThreshold
        for count in [0, 1, 2, threshold - 1, threshold, threshold + 1, threshold + 2, 2 * threshold + 7] {
            let keys = (0..<count).map { "k\($0)" + String(repeating: "é", count: $0 % 3) }
            let text = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",") + "}"
            var object = try #require(try JSONReader().read(text).objectValue)
            #expect(object.keys == keys)
            for (offset, key) in keys.enumerated() { #expect(object[key] == .number(JSONNumber(offset))) }
            #expect(object["absent"] == nil)
            // Composed and decomposed "é" are two keys (exact bytes), on both sides of the threshold.
            #expect(object["k1e\u{301}"] == nil)
            object["added"] = "yes"
            #expect(object["added"] == "yes")
            #expect(object.count == count + 1)
            if let first = keys.first {
                object[first] = nil
                #expect(object[first] == nil)
                #expect(object["added"] == "yes")
                for (offset, key) in keys.enumerated().dropFirst() { #expect(object[key] == .number(JSONNumber(offset))) }
            }
            let reversed = JSONObject(object.reversed().map { ($0.key, $0.value) })
            #expect(reversed == object)
        }
    }

    /// A key written once plainly (interned) and once with an escape (not interned) is one key
    /// repeated, in small and large objects, whatever keys sit between the two.
    @Test func escapedAndPlainSpellingsOfAKeyAreOneKey() throws {
        for filler in [0, 5, 40] {
            let others = (0..<filler).map { #""other\#($0)": 0"# }
            let members = [#""name": 1"#] + others + [#""n\u0061me": 2"#]
            let text = "{" + members.joined(separator: ",") + "}"
            let object = try #require(try JSONReader().read(text).objectValue)
            #expect(object.count == filler + 1)
            #expect(object.keys.first == "name")
            #expect(object["name"] == 2)
            #expect(throws: JSONReadError.self) { try JSONReader(rejectDuplicateKeys: true).read(text) }
            let unique = "{" + ([#""name": 1"#] + others + [#""n\u0061mes": 2"#]).joined(separator: ",") + "}"
            #expect(try JSONReader(rejectDuplicateKeys: true).read(unique).objectValue?.count == filler + 2)
        }
    }

    /// Decimals converted on the fast path equal what `Double(String)` (correctly rounded) gives.
    /// Decimals past the exact fast path (more than 15 digits, or a large power of ten) are
    /// converted without `strtod` when their digits fit in 64 bits: bit for bit what the
    /// correctly rounded conversion gives, over the whole range, its edges and its halfway cases.
    @Test func longDecimalsAnywhereInRangeMatchCorrectlyRoundedConversion() throws {
        var texts = [
            // Coordinates as GeoJSON writes them (17 digits), and 2^53 + 1 as a decimal.
            "-65.613616999999977", "43.420273000000009", "9007199254740993.0", "9007199254740993e0",
            // The smallest subnormal, below and above half of it, the largest subnormal and the smallest normal.
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
            "2.2250738585072009e-308", "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
            // The largest double, and the decimals that round down to it.
            "1.7976931348623157e308", "1.7976931348623158e308", "1.79769313486231580793e308",
            // Halfway between two doubles, exactly (ties to even) and a digit either side.
            "9007199254740995.0", "9007199254740997.0", "18014398509481989.0", "18014398509481990.0",
            "9223372036854775807.5", "1152921504606846977e-3", "7.3177701707893310e15", "8.4e-323",
            "1e-342", "1e-343", "18446744073709551615e-342", "18446744073709551615e-360", "1e308", "0.1e309",
            "12345678901234567890e-20", "0.000000000000000000000000000001", "-0e400", "0e-999999",
        ]
        var generator = Xoshiro(seed: (0xE15E1, 7, 8, 9))
        for round in 0..<40_000 {
            // 16 to 19 (and now and then fewer) significant digits, a point anywhere, any exponent.
            let digitCount = round % 10 == 0 ? 1 + Int(generator.next() % 15) : 16 + Int(generator.next() % 4)
            var digits = String(1 + generator.next() % 9)
            for _ in 1..<digitCount { digits += String(generator.next() % 10) }
            let point = Int(generator.next() % UInt64(digits.count + 1))
            let exponent = Int(generator.next() % 700) - 360
            let mantissa =
                point == 0
                ? digits : String(digits.prefix(point)) + "." + (point == digits.count ? "0" : String(digits.dropFirst(point)))
            texts.append((generator.next() % 2 == 0 ? "-" : "") + "\(mantissa)e\(exponent)")
        }
        var converted = 0
        for text in texts {
            guard let expected = Double(text) else { continue }
            let read = Result { () throws(JSONReadError) -> (tree: JSONValue, document: JSONNumber?) in
                (try JSONReader().read(text), try JSONReader().document(text).root.numberValue)
            }
            switch read {
            case .success(let read):
                if let number = read.tree.numberValue, number.isInteger { continue }
                #expect(read.tree.doubleValue?.bitPattern == expected.bitPattern, "\(text)")
                #expect(read.document?.doubleValue.bitPattern == expected.bitPattern, "\(text)")
                converted += 1
            case .failure(let error):
                // Only what is out of Double's range is refused, at the number's first byte.
                #expect(expected.isInfinite && error.code == .numberOutOfRange && error.offset == 0, "\(text)")
            }
        }
        #expect(converted > 30_000)
    }

    /// A long run of leading zeros after the point and a large exponent that makes up for it:
    /// the exponent is not cut short before it meets the count of fraction digits.
    @Test func aLargeExponentMeetsAsManyLeadingZeros() throws {
        let zeros = String(repeating: "0", count: 999_999)
        let cases: [(text: String, expected: Double)] = [
            ("0.\(zeros)1e1000000", 1), ("-0.\(zeros)1e999999", -0.1),
            ("0.\(zeros)12345678901234567e1000000", 0.12345678901234567 * 10),
            ("0.\(zeros)1e1000308", 1e308), ("0.\(zeros)1e999677", Double(bitPattern: 2)), ("0.\(zeros)1e100000", 0),
            ("1e-99999999999999999999", 0), ("-1e-99999999999999999999", -0.0),
        ]
        for (text, expected) in cases {
            let tree = try JSONReader().read(text)
            #expect(tree.doubleValue?.bitPattern == expected.bitPattern, "\(text.prefix(12))…\(text.suffix(12))")
            #expect(try JSONReader().document(text).root.value == tree)
            #expect(Double(text)?.bitPattern == expected.bitPattern)
        }
        for text in ["0.\(zeros)1e1000310", "1e99999999999999999999", "-1e99999999999999999999"] {
            #expect(throws: JSONReadError.self) { try JSONReader().read(text) }
            #expect(throws: JSONReadError.self) { try JSONReader().document(text) }
        }
    }

    /// Digits are read eight at a time where eight are there: runs of every length up to 40, in
    /// the integer part and the fraction, with leading zeros, ending at and around a word's end,
    /// read as the integer or the correctly rounded double they spell, in both readers.
    @Test func digitRunsOfEveryLengthReadAsTheySpell() throws {
        var generator = Xoshiro(seed: (0xD161, 7, 3, 1))
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(UnicodeScalar(UInt8(48 + generator.next() % 10))) })
        }
        var texts = [
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
            "18446744073709551615", "18446744073709551616", "99999999999999999999", "1000000000000000000000",
            "0.0000000000000000000000123456789012345678", "0.00000000", "10000000000000000000.5",
            "12345678", "-12345678", "1234567812345678", "0.12345678", "12345678.87654321e-3",
        ]
        for length in 1...40 {
            let integer = "1" + digits(length - 1)
            texts += [integer, "-" + integer, "0." + digits(length), integer + "." + digits(length % 9 + 1)]
            texts += [
                integer + "e-5", "0." + String(repeating: "0", count: length) + "7", integer + "." + digits(length) + "E+2",
            ]
        }
        for text in texts {
            for wrapped in [text, "[\(text)]", "[\(text),1]", "{\"n\":\(text)}"] {
                let tree = try JSONReader().read(wrapped)
                let document = try JSONReader().document(wrapped).root.value
                #expect(document == tree, "\(wrapped)")
                let value: JSONValue =
                    if case .array(let elements) = tree { elements[0] } else if case .object(let object) = tree {
                        object["n"] ?? .null
                    } else { tree }
                let number = try #require(value.numberValue, "\(wrapped)")
                if let integer = Int64(text) {
                    #expect(number.isInteger && number.int64Value == integer, "\(wrapped)")
                } else {
                    #expect(number.doubleValue.bitPattern == Double(text)?.bitPattern, "\(wrapped)")
                }
            }
        }
        // A byte that is not a digit (either side of the digits' range too), at every place of
        // the first two words of digits.
        for other in [UInt8(ascii: "x"), UInt8(ascii: ":"), UInt8(ascii: "/"), 0xB0] {
            for place in 0..<17 {
                var bytes = Array(("[1" + digits(20) + "]").utf8)
                bytes[2 + place] = other
                let error = Result { () throws(JSONReadError) in try JSONReader().read(bytes) }
                let documentError = Result { () throws(JSONReadError) in try JSONReader().document(bytes).root.value }
                guard case .failure(let failure) = error, case .failure(let documentFailure) = documentError else {
                    Issue.record("a digit run broken by \(other) at \(place) was accepted")
                    continue
                }
                #expect(failure.offset == 2 + place && documentFailure == failure, "\(other) at \(place)")
            }
        }
    }

    @Test func decimalsMatchCorrectlyRoundedConversion() throws {
        var generator = Xoshiro(seed: (0xD1CE, 1, 2, 3))
        var texts = [
            "0.1", "0.3", "-0.0", "1e22", "1e23", "9007199254740993.0", "123456789012345678.5", "4.9e-324",
            "1.7976931348623157e308",
        ]
        for _ in 0..<5_000 {
            let digits = String(generator.next() % 10_000_000_000_000_000)
            let point = Int(generator.next() % UInt64(digits.count + 1))
            let exponent = Int(generator.next() % 61) - 30
            let mantissa =
                point == 0
                ? digits
                : String(digits.prefix(point)) + "." + (digits.dropFirst(point).isEmpty ? "0" : String(digits.dropFirst(point)))
            texts.append(generator.next() % 2 == 0 ? mantissa : "\(mantissa)e\(exponent)")
        }
        for text in texts where !text.hasPrefix(".") {
            guard let expected = Double(text) else { continue }
            let read = try JSONReader().read(text)
            if let integer = read.numberValue, integer.isInteger { continue }
            #expect(read.doubleValue?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    /// The word-at-a-time UTF-8 checks against their definition, byte by byte: every lead and
    /// second byte of a three-byte character, each byte of a word of two-byte characters set to
    /// the values around its class's bounds, and random words near the classes.
    @Test func utf8WordChecksMatchTheirDefinition() {
        func isContinuation(_ byte: UInt8) -> Bool { byte >= 0x80 && byte <= 0xBF }
        func threeByteSecondRange(_ lead: UInt8) -> ClosedRange<UInt8> {
            lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
        }
        func word(_ bytes: [UInt8]) -> UInt64 {
            bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        func fourTwoByte(_ bytes: [UInt8]) -> Bool {
            (0..<4).allSatisfy { bytes[2 * $0] >= 0xC2 && bytes[2 * $0] <= 0xDF && isContinuation(bytes[2 * $0 + 1]) }
        }
        func twoThreeByte(_ bytes: [UInt8]) -> Bool {
            [0, 3].allSatisfy {
                bytes[$0] & 0xF0 == 0xE0 && threeByteSecondRange(bytes[$0]).contains(bytes[$0 + 1])
                    && isContinuation(bytes[$0 + 2])
            }
        }
        for lead in UInt8(0xE0)...0xEF {
            for second in UInt8(0x80)...0xBF {
                let valid = String(bytes: [lead, second, 0x80], encoding: .utf8) != nil
                #expect(UTF8Words.isValidSecond(second, afterThreeByteLead: lead) == valid, "\(lead) \(second)")
            }
        }
        // Every lead and second byte in either character of a word, the rest valid.
        let validThree: [UInt8] = [0xE8, 0xA8, 0x80, 0xE3, 0x81, 0x82, 0x22, 0x7D]
        for index in 0..<6 {
            for value in UInt8(0)...0xFF {
                var bytes = validThree
                bytes[index] = value
                if index == 0 || index == 3 { bytes[index + 1] = 0xA0 }
                #expect(UTF8Words.isTwoThreeByteCharacters(word(bytes)) == twoThreeByte(bytes), "\(bytes)")
                if index == 0 || index == 3 {
                    for second: UInt8 in [0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0] {
                        bytes[index + 1] = second
                        #expect(UTF8Words.isTwoThreeByteCharacters(word(bytes)) == twoThreeByte(bytes), "\(bytes)")
                    }
                }
            }
        }
        let validTwo: [UInt8] = [0xD0, 0xB6, 0xC3, 0xA9, 0xD8, 0xB9, 0xDF, 0xBF]
        for index in 0..<8 {
            for value in UInt8(0)...0xFF {
                var bytes = validTwo
                bytes[index] = value
                #expect(UTF8Words.isFourTwoByteCharacters(word(bytes)) == fourTwoByte(bytes), "\(bytes)")
            }
        }
        // Random words of bytes near the bounds of the classes.
        let near: [UInt8] = [
            0x00, 0x22, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0,
        ]
        var generator = Xoshiro(seed: (0x07F8, 2, 3, 4))
        for _ in 0..<50_000 {
            let bytes = (0..<8).map { _ in near[Int(generator.next() % UInt64(near.count))] }
            #expect(UTF8Words.isFourTwoByteCharacters(word(bytes)) == fourTwoByte(bytes), "\(bytes)")
            #expect(UTF8Words.isTwoThreeByteCharacters(word(bytes)) == twoThreeByte(bytes), "\(bytes)")
        }
    }

    /// Runs of two-, three- and four-byte characters at every alignment to the word, each byte
    /// of the run replaced by bytes that break it: both readers accept exactly what Foundation
    /// accepts, fail at the offset and with the code a byte-by-byte reading of RFC 3629 gives,
    /// and fail on the string's length first when the characters before the break exceed it.
    @Test func runsOfMultiByteCharactersBrokenAtEveryByte() throws {
        let characters: [String] = [
            "é", "ж", "ع", "\u{80}", "\u{7FF}", "अ", "\u{800}", "\u{FFF}", "言", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "𝄞",
            "\u{10FFFF}",
        ]
        let breaking: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF4, 0xF5, 0xFF, 0x41, 0x9F, 0xA0]
        var generator = Xoshiro(seed: (0x0_7F8, 5, 6, 7))
        var runs: [[String]] = [
            Array(repeating: "ж", count: 9), Array(repeating: "अ", count: 7), Array(repeating: "言", count: 5),
            ["é", "ж", "ع", "é", "ж"], ["अ", "言", "\u{D7FF}", "\u{E000}"],
        ]
        for _ in 0..<40 {
            runs.append(
                (0..<Int(1 + generator.next() % 10)).map { _ in characters[Int(generator.next() % UInt64(characters.count))] })
        }
        for run in runs {
            let text = run.joined()
            for prefixLength in 0...8 {
                // After an escape the scan goes on from the slow path, its length counted from
                // another base: one byte less than written.
                let escaped = prefixLength % 3 == 2
                let prefix = Array((escaped ? "\\n" : "").utf8) + Array(repeating: UInt8(ascii: "a"), count: prefixLength)
                let saved = escaped ? 1 : 0
                let head = Array("[\"".utf8) + prefix
                let valid = head + Array(text.utf8) + Array("z\"]".utf8)
                let decodedPrefix = (escaped ? "\n" : "") + String(repeating: "a", count: prefixLength)
                for document in [false, true] {
                    let value = try document ? JSONReader().document(valid).root.value : JSONReader().read(valid)
                    #expect(value[0]?.stringValue == decodedPrefix + text + "z")
                }
                for index in 0..<text.utf8.count {
                    for bad in breaking {
                        var bytes = valid
                        bytes[head.count + index] = bad
                        let expected = firstUTF8Error(in: bytes, from: head.count)
                        #expect((expected == nil) == (String(bytes: bytes[2..<(bytes.count - 2)], encoding: .utf8) != nil))
                        // The same string as an object's key: `{"` is as long as `["`.
                        let key = [UInt8(ascii: "{")] + bytes[1..<(bytes.count - 1)] + Array(": 0}".utf8)
                        for (input, document) in [(bytes, false), (bytes, true), (key, false), (key, true)] {
                            let error = readError(input, document: document)
                            #expect(error?.code == expected?.code && error?.offset == expected?.offset, "\(input)")
                            // A limit one byte short of the characters before the break fails on the
                            // length first; a limit of exactly those bytes fails at the break.
                            guard let expected else { continue }
                            let before = expected.characterStart - 2 - saved
                            guard before >= 1 else { continue }
                            let limited = readError(input, document: document, limit: before - 1)
                            #expect(limited?.code == .stringLimit && limited?.offset == 2, "\(input)")
                            let atLimit = readError(input, document: document, limit: before)
                            #expect(atLimit?.code == expected.code && atLimit?.offset == expected.offset, "\(input)")
                        }
                    }
                }
                // Every cut inside the run ends where it ends.
                for cut in head.count..<(head.count + text.utf8.count) {
                    for document in [false, true] {
                        let error = readError(Array(valid[..<cut]), document: document)
                        #expect(error?.code == .unexpectedEnd && error?.offset == cut, "\(cut)")
                    }
                }
            }
        }
    }

    /// Deep and wide documents built and torn down many times (values moved, never leaked twice).
    @Test func nestedContainersRoundTrip() throws {
        var generator = Xoshiro(seed: (42, 1, 2, 3))
        for _ in 0..<300 {
            let value = Self.randomValue(depth: 0, using: &generator)
            let written = JSONWriter().bytes(from: value)
            #expect(try JSONReader().read(written) == value)
            #expect(try JSONReader().read(JSONWriter(prettyPrinted: true).bytes(from: value)) == value)
        }
    }

    static func randomValue(depth: Int, using generator: inout Xoshiro) -> JSONValue {
        switch generator.next() % (depth > 5 ? 4 : 7) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .number(JSONNumber(Int(generator.next() % 2_000_000) - 1_000_000))
        case 3:
            let length = Int(generator.next() % 24)
            let characters = Array("aé\"\\\n€𝄞z \u{1}")
            return .string(String((0..<length).map { _ in characters[Int(generator.next() % UInt64(characters.count))] }))
        case 4, 5:
            let count = Int(generator.next() % 6)
            var object = JSONObject()
            for index in 0..<count {
                object["k\(generator.next() % 5)\(index % 2 == 0 ? "" : "-longer-key-name")"] = randomValue(
                    depth: depth + 1, using: &generator)
            }
            return .object(object)
        default:
            return .array((0..<Int(generator.next() % 6)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        }
    }
}

/// Reads `text` with repeated keys rejected, as a tree and as a document: both fail with
/// `duplicateKey` when `repeats`, and both succeed otherwise.
private func expectRepeatedKeysRejected(
    in text: String, exactlyWhen repeats: Bool, sourceLocation: SourceLocation = #_sourceLocation
) {
    for document in [false, true] {
        do {
            let reader = JSONReader(rejectDuplicateKeys: true)
            if document { _ = try reader.document(text) } else { _ = try reader.read(text) }
            #expect(!repeats, "a repeated key was accepted: \(text)", sourceLocation: sourceLocation)
        } catch {
            #expect(repeats, "rejected without a repeated key: \(error)", sourceLocation: sourceLocation)
            #expect(error.code == .duplicateKey, sourceLocation: sourceLocation)
        }
    }
}

/// The first UTF-8 error in the string starting at `start` of `bytes`, which ends at the next
/// plain quote, read byte by byte by RFC 3629's table of well-formed sequences: where it is, its
/// code, and where the character it breaks begins; nil when the string is well formed.
private func firstUTF8Error(
    in bytes: [UInt8], from start: Int
) -> (offset: Int, code: JSONReadError.Code, characterStart: Int)? {
    var index = start
    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        let lead = bytes[index]
        if lead < 0x80 {
            index += 1
            continue
        }
        let ranges: [ClosedRange<UInt8>]
        switch lead {
        case 0xC2...0xDF: ranges = [0x80...0xBF]
        case 0xE0: ranges = [0xA0...0xBF, 0x80...0xBF]
        case 0xE1...0xEC, 0xEE...0xEF: ranges = [0x80...0xBF, 0x80...0xBF]
        case 0xED: ranges = [0x80...0x9F, 0x80...0xBF]
        case 0xF0: ranges = [0x90...0xBF, 0x80...0xBF, 0x80...0xBF]
        case 0xF1...0xF3: ranges = [0x80...0xBF, 0x80...0xBF, 0x80...0xBF]
        case 0xF4: ranges = [0x80...0x8F, 0x80...0xBF, 0x80...0xBF]
        default: return (index, .invalidUTF8, index)
        }
        for (offset, range) in ranges.enumerated() {
            let at = index + 1 + offset
            guard at < bytes.count else { return (at, .unexpectedEnd, index) }
            guard range.contains(bytes[at]) else { return (at, .invalidUTF8, index) }
        }
        index += 1 + ranges.count
    }
    return nil
}

/// The error reading `bytes` (as a tree, or as a document) with strings limited to `limit`
/// bytes; nil when they read.
private func readError(_ bytes: [UInt8], document: Bool, limit: Int = Int.max) -> JSONReadError? {
    let reader = JSONReader(limits: JSONReader.Limits(maxStringBytes: limit))
    do {
        _ = try document ? reader.document(bytes).root.value : reader.read(bytes)
        return nil
    } catch {
        return error
    }
}
