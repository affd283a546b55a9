import DynamicUICatalog
import Foundation
import PropertyBased
import Testing

@testable import DynamicUIModels

/// `value` with every object's members in another order: reversed, or shuffled by `generator`.
private func reordered(_ value: JSONValue, using generator: inout Xoshiro, reverse: Bool) -> JSONValue {
    switch value {
    case .object(let object):
        var entries = object.map { ($0.key, reordered($0.value, using: &generator, reverse: reverse)) }
        if reverse { entries.reverse() } else { entries.shuffle(using: &generator) }
        return .object(JSONObject(entries))
    case .array(let elements):
        return .array(elements.map { reordered($0, using: &generator, reverse: reverse) })
    default:
        return value
    }
}

/// Decodes a screen from `bytes` through the tree and through the document, and records an
/// issue unless both give the same screen or the same error.
private func expectSameScreen(_ bytes: [UInt8], _ note: String) {
    let tree = Result { () throws(ModelDecodingError) -> ScreenDefinition in
        try ScreenDefinition(json: try! JSONReader().read(bytes))
    }
    let node = Result { () throws(ModelDecodingError) -> ScreenDefinition in
        try ScreenDefinition(node: try! JSONReader().document(bytes).root)
    }
    switch (tree, node) {
    case (.success(let expected), .success(let decoded)): #expect(decoded == expected, "\(note)")
    case (.failure(let expected), .failure(let error)): #expect(error == expected, "\(note)")
    default: Issue.record("\(note): the tree gave \(tree), the node \(node)")
    }
}

@Suite("Member lookup by a cursor, and open enumerations by their bytes")
struct MemberLookupTests {
    @Test func keysFoundInOrderOutOfOrderAndNotAtAll() throws {
        let document = try JSONReader().document(#"{"id": "a", "control_type": "label", "label": "L", "style": "s"}"#)
        var cursor = try #require(document.root.memberCursor)
        #expect(cursor.count == 4)
        // In the written order: each at the first comparison.
        #expect(cursor.take("id")?.stringValue == "a")
        #expect(cursor.take("control_type")?.stringValue == "label")
        // Missed predictions: "style" is past "label"; "label" is then behind the cursor.
        #expect(cursor.take("style")?.stringValue == "s")
        #expect(cursor.take("bind") == nil)
        #expect(!cursor.isExhausted)
        #expect(cursor.take("label")?.stringValue == "L")
        #expect(cursor.found == 4)
        #expect(cursor.isExhausted)
        // A key found again is found again (the cursor does not consume members).
        #expect(cursor.take("id")?.stringValue == "a")
        #expect(try JSONReader().document("[1]").root.memberCursor == nil)
    }

    @Test func keysThatShareASummaryBitAreComparedByTheirBytes() throws {
        // Same length, first and last bytes: the same bit, so only the bytes tell them apart.
        let document = try JSONReader().document(#"{"axb": 1, "a-long-key-of-18-b": 2, "": 3}"#)
        var cursor = try #require(document.root.memberCursor)
        #expect(cursor.take("ayb") == nil)
        #expect(cursor.take("a-long-key-of-18-c") == nil)
        #expect(cursor.take("a-long-key-OF-18-b") == nil)
        #expect(cursor.take("a-long-key-of-18-b")?.numberValue == 2)
        #expect(cursor.take("")?.numberValue == 3)
        #expect(cursor.take("axb")?.numberValue == 1)
        #expect(cursor.found == 3)
    }

    @Test func everyKindOfKeyIsFoundAndNoOtherKey() throws {
        // Keys the reader writes every way: interned (first seen, then predicted in later
        // objects), longer than the intern table keeps, escaped, empty, non-ASCII, and more
        // distinct keys than the table has slots; nested objects between them.
        var generator = Xoshiro(seed: (0x5EED, 3, 1, 4))
        var pool =
            (0..<150).map { "k\($0)" } + ["", "é", "名前", String(repeating: "x", count: 65), String(repeating: "y", count: 300)]
        pool += ["axb", "ayb", "a-b", "name", "nam", "names"]
        /// The key as written: plainly, or (a third of the time) with its first character escaped.
        func spelled(_ key: String) -> String {
            guard let first = key.unicodeScalars.first, generator.next() % 3 == 0 else { return key }
            let escape = String(format: "\\u%04X", first.value < 0x10000 ? first.value : 0x41)
            return first.value < 0x10000 ? escape + String(key.unicodeScalars.dropFirst()) : key
        }
        for round in 0..<40 {
            var objects: [[String]] = []
            var text = "["
            for index in 0..<12 {
                let size = Int(generator.next() % 40)
                var keys: [String] = []
                while keys.count < size {
                    let key = pool[Int(generator.next() % UInt64(pool.count))]
                    if !keys.contains(key) { keys.append(key) }
                }
                // Every third object repeats the previous one's keys, so they are predicted.
                if index % 3 == 2, let previous = objects.last { keys = previous }
                objects.append(keys)
                let members = keys.enumerated().map { offset, key in
                    "\"\(spelled(key))\": " + (offset % 5 == 4 ? #"{"inner-\#(offset)": 1, "k0": [2]}"# : "\(offset)")
                }
                text += (index == 0 ? "" : ",") + "{" + members.joined(separator: ",") + "}"
            }
            let document = try JSONReader().document(text + "]")
            for (index, keys) in objects.enumerated() {
                let object = try #require(document.root[index])
                #expect(object.count == keys.count)
                var cursor = try #require(object.memberCursor)
                for key in pool.shuffled(using: &generator) {
                    let found = cursor.take(key)
                    #expect(found?.index == object[key]?.index, "round \(round), object \(index), key \(key.prefix(12))")
                    #expect((found != nil) == keys.contains(key), "round \(round), object \(index), key \(key.prefix(12))")
                }
                #expect(cursor.found == keys.count)
            }
        }
    }

    @Test func keysOfEveryLengthDifferingInOneByteAreTold() throws {
        // Key bytes are compared in words, the last one overlapping: a difference at any
        // position of a key of any length up to 40 is seen, by the subscript and by a cursor.
        for length in 0...40 {
            let key = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + ($0 * 7) % 26))) })
            let other = "q" + String(repeating: "z", count: length)
            let document = try JSONReader().document("{\"\(other)\": 0, \"\(key)\": 1}")
            #expect(document.root[key]?.numberValue == 1, "length \(length)")
            var cursor = try #require(document.root.memberCursor)
            #expect(cursor.take(key)?.numberValue == 1, "length \(length)")
            for position in 0..<length {
                var bytes = Array(key.utf8)
                bytes[position] = bytes[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                let changed = String(decoding: bytes, as: UTF8.self)
                #expect(document.root[changed] == nil, "length \(length), byte \(position)")
                #expect(cursor.take(changed) == nil, "length \(length), byte \(position)")
            }
            #expect(document.root[key + "a"] == nil)
            if length > 0 { #expect(document.root[String(key.dropLast())] == nil) }
        }
    }

    @Test func aLargeObjectIsCountedAndSearchedBackwards() throws {
        // 3,000 members asked for last to first: each a miss of the prediction and a walk.
        let keys = (0..<3_000).map { "member-\($0)" }
        let text = "{" + keys.map { "\"\($0)\": [\($0.count)]" }.joined(separator: ",") + "}"
        let root = try JSONReader().document(text).root
        #expect(root.count == 3_000)
        var cursor = try #require(root.memberCursor)
        #expect(cursor.count == 3_000)
        for key in keys.reversed() { #expect(cursor.take(key)?[0]?.numberValue == JSONNumber(key.count)) }
        #expect(cursor.isExhausted)
        #expect(try JSONReader().document("[" + String(repeating: "0,", count: 5_000) + "0]").root.count == 5_001)
    }

    @Test func aLongKeyIsFoundPastTheInlineLength() throws {
        let long = String(repeating: "k", count: 70_000)
        let document = try JSONReader().document(Array("{\"a\": 1, \"\(long)\": 2, \"b\": 3}".utf8))
        var cursor = try #require(document.root.memberCursor)
        #expect(cursor.take("b")?.numberValue == 3)
        #expect(cursor.take(long)?.numberValue == 2)
        #expect(cursor.take(long + "k") == nil)
        #expect(cursor.take("a")?.numberValue == 1)
    }

    @Test func aRepeatedKeyGivesTheLastOneAsTheSubscriptDoes() throws {
        let document = try JSONReader().document(#"{"a": 1, "b": 2, "a": 3}"#)
        var cursor = try #require(document.root.memberCursor)
        #expect(cursor.take("b")?.numberValue == 2)
        #expect(cursor.take("a")?.numberValue == 3)
        #expect(cursor.take("a")?.numberValue == document.root["a"]?.numberValue)
        #expect(!cursor.isExhausted)
    }

    @Test func aKeySetNumbersEachOfItsKeysAndNoOther() throws {
        // Keys of one length and the same end bytes share a slot of the table; near misses of
        // each (one byte changed anywhere, one byte more or fewer) are not in the set.
        let keys = [
            "axb", "ayb", "azb", "", "é", "名前", "id", "control_type", String(repeating: "k", count: 70),
            String(repeating: "k", count: 69) + "j", "a-long-key-of-18-b", "a-long-key-of-18-c",
        ]
        let set = JSONKeySet(keys)
        #expect(set.keys == keys)
        func number(_ key: String) -> Int {
            var key = key
            return key.withUTF8 { set.number(of: $0) }
        }
        func number(bytes: [UInt8]) -> Int { bytes.withUnsafeBufferPointer { set.number(of: $0) } }
        for (index, key) in keys.enumerated() {
            let bytes = Array(key.utf8)
            #expect(number(key) == index, "\(key)")
            #expect(number(bytes: bytes + [UInt8(ascii: "a")]) == -1, "\(key)")
            if !bytes.isEmpty { #expect(number(bytes: bytes.dropLast()) == -1, "\(key)") }
            for position in 0..<bytes.count {
                var changed = bytes
                changed[position] ^= 0x01
                if !keys.contains(where: { Array($0.utf8) == changed }) {
                    #expect(number(bytes: changed) == -1, "\(key), byte \(position)")
                }
            }
        }
        // Keys told apart by their bytes, as JSON keys are: a composed and a decomposed é.
        let accents = JSONKeySet(["\u{E9}", "e\u{301}"])
        #expect(Array("e\u{301}".utf8).withUnsafeBufferPointer { accents.number(of: $0) } == 1)
        // A key longer than 65,535 bytes (the tape's inline length) in a set and in a document.
        let long = String(repeating: "k", count: 70_000)
        let longSet = JSONKeySet(["a", long])
        var longFields = try #require(
            JSONReader().document(Array("{\"\(long)\": 2, \"a\": 1}".utf8)).root.fields(longSet))
        #expect(longFields.node(1)?.numberValue == 2)
        #expect(longFields.node(0)?.numberValue == 1)
        // Thirty-two keys, the most a set holds, all of one length: each found.
        let full = (0..<JSONKeySet.capacity).map { String(format: "f%02d", $0) }
        let fullSet = JSONKeySet(full)
        for (index, key) in full.enumerated() {
            var key = key
            #expect(key.withUTF8 { fullSet.number(of: $0) } == index)
        }
        #expect(JSONKeySet([]).keys.isEmpty)
    }

    @Test func fieldsFindWhatTheSubscriptFinds() throws {
        // Objects with keys from a pool (some repeated, some not in the set, some escaped),
        // and key sets of up to 32 keys from the same pool: each field is the value the
        // subscript finds for its key (of a repeated key, the last), or absent as there.
        var generator = Xoshiro(seed: (0xF1E1D, 3, 5, 8))
        let pool = (0..<40).map { "k\($0)" } + ["", "é", "名前", String(repeating: "x", count: 65), "axb", "ayb"]
        for round in 0..<60 {
            let setKeys = Array(pool.shuffled(using: &generator).prefix(Int(generator.next() % 33)))
            let set = JSONKeySet(setKeys)
            let size = Int(generator.next() % 30)
            let members = (0..<size).map { index -> String in
                let key = pool[Int(generator.next() % UInt64(pool.count))]
                let written = key == "é" && index % 2 == 0 ? "\\u00e9" : key
                return "\"\(written)\": " + (index % 4 == 3 ? #"{"k1": [\#(index)]}"# : "\(index)")
            }
            let document = try JSONReader().document("{" + members.joined(separator: ",") + "}")
            var fields = try #require(document.root.fields(set))
            for (number, key) in setKeys.enumerated() {
                #expect(fields.node(number)?.index == document.root[key]?.index, "round \(round), \(key.prefix(8))")
            }
        }
        #expect(try JSONReader().document("[1]").root.fields(JSONKeySet(["a"])) == nil)
    }

    @Test func aModelReadThroughItsKeySetFailsAsThroughTheTree() throws {
        // Missing, null and mistyped members of a slot, found through its key set.
        let cases: [(text: String, code: ModelDecodingError.Code?)] = [
            (#"{"id": "a", "control_type": "label"}"#, nil),
            (#"{"control_type": "label"}"#, .missingField),
            (#"{"id": null, "control_type": "label"}"#, .missingField),
            (#"{"id": 7, "control_type": "label"}"#, .typeMismatch),
            (#"{"id": "a", "control_type": "label", "weight": "heavy"}"#, .typeMismatch),
            (#"{"id": "a", "control_type": "label", "weight": null, "label": "L", "label": 3}"#, .typeMismatch),
            (#"{"id": "a", "control_type": "label", "label": 3, "label": "L", "unknown": {}}"#, nil),
            (#"["id"]"#, .typeMismatch),
        ]
        // A member that may be null, read as written; and a missing one.
        var context = ModelDecodingContext()
        var fields = try context.fields(JSONReader().document(#"{"a": null}"#).root, JSONKeySet(["a", "b"]))
        #expect(try context.present("a", field: 0, in: &fields) == .null)
        #expect(throws: ModelDecodingError.self) { try context.present("b", field: 1, in: &fields) }
        for (text, code) in cases {
            let tree = Result { () throws(ModelDecodingError) -> Slot in try Slot(json: try! JSONReader().read(text)) }
            let node = Result { () throws(ModelDecodingError) -> Slot in try Slot(node: try! JSONReader().document(text).root) }
            switch (tree, node) {
            case (.success(let expected), .success(let decoded)):
                #expect(decoded == expected && code == nil, "\(text)")
            case (.failure(let expected), .failure(let error)):
                #expect(error == expected && error.code == code, "\(text)")
            default: Issue.record("\(text): the tree gave \(tree), the node \(node)")
            }
        }
    }

    @Test func screensWithTheirKeysInAnyOrderDecodeAsFromTheTree() throws {
        var generator = Xoshiro(seed: (0x0DE5, 2, 7, 1))
        let catalog = try EduGoCatalog()
        var screens = 0
        for id in catalog.screenKeys.prefix(12) {
            let screen = try catalog.screenJSON(id)
            for round in 0..<4 {
                let value = reordered(screen, using: &generator, reverse: round == 0)
                expectSameScreen(JSONWriter().bytes(from: value), "\(id), order \(round)")
            }
            screens += 1
        }
        #expect(screens == 12)
    }

    @Test func repeatedKeysAndWrongTypesAnywhereDecodeAsFromTheTree() throws {
        var generator = Xoshiro(seed: (0xBAD, 5, 8, 13))
        let text = Array(JSONWriter().bytes(from: try EduGoCatalog().screenJSON("materials-list")))
        // Where each member's key starts and its value ends, found by reading the text.
        let members = Self.members(in: text)
        let values = ["null", "7", "2.5", "\"text\"", "true", "[]", "{}", "\"filled-button\""]
        var failures = 0
        for round in 0..<400 {
            let member = members[Int(generator.next() % UInt64(members.count))]
            let key = Array(text[member.key])
            let other = Array((values[round % values.count] + ",").utf8)
            // The member written twice: another value first (the last one wins), or last.
            let mutated: [UInt8]
            if round % 2 == 0 {
                mutated =
                    Array(text[..<member.key.lowerBound]) + key + Array(":".utf8) + other + Array(text[member.key.lowerBound...])
            } else {
                mutated =
                    Array(text[..<member.end]) + Array(",".utf8) + key + Array(":".utf8) + other.dropLast()
                    + Array(text[member.end...])
            }
            let name = String(decoding: key, as: UTF8.self)
            if (try? ScreenDefinition(json: try JSONReader().read(mutated))) == nil { failures += 1 }
            expectSameScreen(mutated, "\(name) written again, round \(round)")
        }
        #expect(failures > 40)
    }

    /// Every object member of a compact JSON text: the range of its quoted key, and the offset
    /// just past its value.
    static func members(in text: [UInt8]) -> [(key: Range<Int>, end: Int)] {
        var found: [(key: Range<Int>, end: Int)] = []
        var stack: [(isObject: Bool, key: Int?)] = []
        var expectingKey = false
        var index = 0
        var keyEnd: [Int: Int] = [:]
        func closeValue(at end: Int) {
            if let last = stack.last, last.isObject, let keyStart = last.key {
                found.append((keyStart..<(keyEnd[keyStart] ?? keyStart), end))
                stack[stack.count - 1].key = nil
            }
        }
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while text[index] != UInt8(ascii: "\"") { index += text[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
                if expectingKey {
                    keyEnd[start] = index
                    stack[stack.count - 1].key = start
                    expectingKey = false
                } else {
                    closeValue(at: index)
                }
                continue
            case UInt8(ascii: "{"):
                stack.append((true, nil))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append((false, nil))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                stack.removeLast()
                expectingKey = false
                closeValue(at: index + 1)
            case UInt8(ascii: ","):
                expectingKey = stack.last?.isObject ?? false
            case UInt8(ascii: ":"):
                break
            default:
                // A number, true, false or null: up to the next delimiter.
                var end = index
                while end < text.count, !"],}".utf8.contains(text[end]) { end += 1 }
                index = end
                closeValue(at: end)
                continue
            }
            index += 1
        }
        return found
    }

    @Test func everyKnownCaseMatchesItsRawValueAndNothingElse() {
        func check<E: OpenEnum>(_ type: E.Type) {
            let table = E.rawValueTable
            for known in E.knownCases {
                var raw = known.rawValue
                #expect(raw.withUTF8 { table.match($0) } == known)
                #expect(E(parsing: raw) == known)
                var longer = raw + "x"
                #expect(longer.withUTF8 { table.match($0) } == nil)
                var changed = String(raw.dropLast()) + "#"
                #expect(changed.withUTF8 { table.match($0) } == nil)
                #expect(E(parsing: changed) == .unknown(changed))
            }
            var empty = ""
            #expect(empty.withUTF8 { table.match($0) } == nil)
        }
        check(ControlType.self)
        check(ActionType.self)
        check(ActionTrigger.self)
        check(ZoneType.self)
        check(ScreenPattern.self)
        check(Distribution.self)
        check(NodeType.self)
        check(TransitionType.self)
        check(VariableType.self)
        check(TimerCommand.self)
    }

    @Test func anOpenEnumFromANodeKeepsAnUnknownValueAndRefusesANonString() throws {
        let document = try JSONReader().document(#"["label", "télé-vision", "", 4]"#)
        #expect(try ControlType(node: #require(document.root[0])) == .label)
        #expect(try ControlType(node: #require(document.root[1])) == .unknown("télé-vision"))
        #expect(try ControlType(node: #require(document.root[2])) == .unknown(""))
        let error = #expect(throws: ModelDecodingError.self) { try ControlType(node: #require(document.root[3])) }
        #expect(error?.message == "expected a string, found integer")
    }

    @Test func aTableOfCasesSharingARawValueMatchesTheFirst() {
        let table = OpenEnumTable<ControlType>([.label, .unknown("label"), .icon])
        var raw = "label"
        #expect(raw.withUTF8 { table.match($0) } == .label)
        var icon = "icon"
        #expect(icon.withUTF8 { table.match($0) } == .icon)
    }

    @Test func aTableWithAnEmptyRawValueAndGapsInLengthsFindsEachByItsLength() {
        // Lengths 0, 4, 6 and 13: none of 1–3, 5 or 7–12.
        let table = OpenEnumTable<ControlType>([.avatar, .unknown(""), .icon, .filledButton])
        for (raw, expected) in [
            ("", ControlType.unknown("")), ("icon", .icon), ("avatar", .avatar), ("filled-button", .filledButton),
        ] {
            var raw = raw
            #expect(raw.withUTF8 { table.match($0) } == expected)
        }
        for miss in ["a", "ico", "image", "avatars", "filled-butto", "filled-buttons", "divider"] {
            var miss = miss
            #expect(miss.withUTF8 { table.match($0) } == nil, "\(miss)")
        }
        let empty = OpenEnumTable<ControlType>([])
        var label = "label"
        #expect(label.withUTF8 { empty.match($0) } == nil)
    }

    @Test func aRawValueIsMatchedByItsBytesNotByCanonicalEquivalence() throws {
        // A Kelvin sign (U+212A) is canonically equivalent to "K", and `String` says they are equal.
        let kelvin = "BUTTON_CLIC\u{212A}"
        #expect(kelvin == "BUTTON_CLICK")
        #expect(ActionTrigger(parsing: kelvin) == .unknown(kelvin))
        #expect(ActionTrigger(parsing: kelvin).rawValue.utf8.elementsEqual(kelvin.utf8))
        let bytes = Array("[\"BUTTON_CLIC\u{212A}\"]".utf8)
        let fromTree = try [ActionTrigger](json: JSONReader().read(bytes))
        let fromNode = try [ActionTrigger](node: JSONReader().document(bytes).root)
        #expect(fromTree == fromNode)
        #expect(JSONWriter().bytes(from: fromNode.json) == bytes)
    }
}
