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
        let document = try JSONReader().document(#"{"axb": 1, "a-long-key-of-17-b": 2, "": 3}"#)
        var cursor = try #require(document.root.memberCursor)
        #expect(cursor.take("ayb") == nil)
        #expect(cursor.take("a-long-key-of-17-c") == nil)
        #expect(cursor.take("a-long-key-OF-17-b") == nil)
        #expect(cursor.take("a-long-key-of-17-b")?.numberValue == 2)
        #expect(cursor.take("")?.numberValue == 3)
        #expect(cursor.take("axb")?.numberValue == 1)
        #expect(cursor.found == 3)
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
        let text = String(decoding: JSONWriter().bytes(from: try EduGoCatalog().screenJSON("materials-list")), as: UTF8.self)
        // Every member's key, written again with a value of another kind just after the member.
        let keys = text.ranges(of: /"([a-z_]+)":/).map { text[$0] }
        let values = ["null", "7", "2.5", "\"text\"", "true", "[]", "{}", "\"filled-button\""]
        for round in 0..<300 {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            let value = values[round % values.count]
            var candidates = text.ranges(of: key)
            candidates.shuffle(using: &generator)
            guard let at = candidates.first else { continue }
            let mutated = text.replacingCharacters(in: at, with: "\(key) \(value), \(key)")
            expectSameScreen(Array(mutated.utf8), "\(key) \(value)")
        }
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
}
