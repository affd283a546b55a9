import DynamicUICatalog
import Foundation
import PropertyBased
import Testing

@testable import DynamicUIModels

/// Items held in a document, read from `text`'s top-level array.
private func documentItems(_ text: String) throws -> ListItems {
    try #require(ListItems(array: try JSONReader().document(text).root))
}

/// A random JSON value a few levels deep (strings with escapes and non-ASCII text, numbers at
/// the edges of exact conversion, nested arrays and objects).
private func randomValue(_ generator: inout Xoshiro, depth: Int = 0) -> JSONValue {
    switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2:
        let numbers: [JSONNumber] = [0, -1, 9_007_199_254_740_993, 1.5, 1e300, JSONNumber(Int.random(in: -999...999))]
        return .number(numbers[Int.random(in: 0..<numbers.count, using: &generator)])
    case 3:
        let strings = ["", "a\"b\\c", "Álgebra lineal", "tab\there", "😀 emoji", String(repeating: "x", count: 40)]
        return .string(strings[Int.random(in: 0..<strings.count, using: &generator)])
    case 4: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
    default:
        let keys = ["id", "title", "author", "ñ", ""]
        return .object(
            JSONObject(
                keys.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator)).map {
                    ($0, randomValue(&generator, depth: depth + 1))
                }))
    }
}

@Suite("List items")
struct ListItemsTests {
    @Test func documentItemsAreTheTreesItems() throws {
        var generator = Xoshiro(seed: (0x11, 0x57, 0x1E, 0x45))
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...30, using: &generator)).map { _ in randomValue(&generator) }
            let bytes = JSONWriter().bytes(from: .array(values))
            let tree = try JSONReader().read(bytes).arrayValue ?? []
            let items = try #require(ListItems(array: try JSONReader().document(bytes).root))
            #expect(items.count == tree.count && items.unbuiltCount == tree.count)
            #expect(items.values == tree)
            #expect(Array(items) == tree)
            for index in items.indices {
                #expect(items[index] == tree[index])
                #expect(items.node(at: index)?.value == tree[index])
                for key in ["id", "title", "missing"] { #expect(items.member(key, at: index) == tree[index][key]) }
            }
            #expect(items == ListItems(tree))
            #expect(ListItems(tree) == items)
        }
    }

    @Test func theCatalogsListsReadInPlace() throws {
        let catalog = try EduGoCatalog()
        for name in try catalog.dataFiles() {
            let value = try catalog.data(name)
            guard let tree = value.arrayValue else { continue }
            let items = try #require(ListItems(array: try JSONReader().document(JSONWriter().bytes(from: value)).root))
            #expect(items.values == tree, "\(name)")
            #expect(items.indices.map { items.member("id", at: $0) } == tree.map { $0["id"] }, "\(name)")
        }
    }

    @Test func onlyArraysAreItems() throws {
        for text in ["{}", "{\"items\": []}", "null", "1", "\"[]\"", "true"] {
            #expect(ListItems(array: try JSONReader().document(text).root) == nil, "\(text)")
        }
        let empty = try documentItems("[]")
        #expect(empty.isEmpty && empty == [] && empty.values == [] && empty.unbuiltCount == 0)
        let scalars = try documentItems(#"[1, "a", null, [2], {"id": 3}]"#)
        #expect(scalars.member("id", at: 0) == nil && scalars.member("id", at: 3) == nil)
        #expect(scalars.member("id", at: 4) == 3)
        #expect(scalars.node(at: 1)?.stringValue == "a")
        #expect(ListItems(["x"]).node(at: 0) == nil)
    }

    @Test func pagesJoinAndKeepWhereTheyAreHeld() throws {
        let first = try documentItems(#"[{"id": 0}, {"id": 1}, {"id": 2}]"#)
        let second: ListItems = [["id": 3], ["id": 4]]
        let third = try documentItems(#"[{"id": 5}]"#)
        let fourth = ListItems([["id": 6]])
        let joined = first + second + third + fourth + [] + ListItems([["id": 7]])
        #expect(joined.count == 8)
        #expect(joined.unbuiltCount == 4)
        #expect(joined.values == (0..<8).map { ["id": .number(JSONNumber($0))] })
        for index in joined.indices {
            #expect(joined[index]["id"] == .number(JSONNumber(index)))
            #expect(joined.member("id", at: index) == .number(JSONNumber(index)))
            #expect((joined.node(at: index) != nil) == [0, 1, 2, 5].contains(index))
        }
        // Equal items compare equal however they are held, and hash alike.
        let built = ListItems(joined.values)
        #expect(joined == built && built == joined)
        #expect(joined.hashValue == built.hashValue)
        #expect(joined != ListItems(Array(joined.values.dropLast())))
        var changed = joined.values
        changed[5] = ["id": 50]
        #expect(joined != ListItems(changed))
        // Slices and reversed walks use the collection's indices.
        #expect(joined[2..<6].map { $0["id"] } == [2, 3, 4, 5])
        #expect(joined.reversed().first?["id"] == 7)
    }

    @Test func emptyItemsJoinAnything() throws {
        let held = try documentItems(#"[{"id": 1}, {"id": 2}]"#)
        let empty = try documentItems("[]")
        for joined in [ListItems([]) + held, empty + held, held + [], held + empty, [] + held + [] + held] {
            #expect(joined.values.count.isMultiple(of: 2) && joined.values.first == ["id": 1] && joined.last == ["id": 2])
            #expect(joined.unbuiltCount == joined.count)
        }
        #expect(([] + held).member("id", at: 1) == 2 && (empty + empty).isEmpty)
    }

    @Test func itemsBuiltWholeAreBuiltOnce() throws {
        let items = try documentItems(#"[{"id": 1}, {"id": 2}, "x"]"#)
        let copy = items
        let first = items.values
        let again = copy.values
        #expect(first == again)
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress })
        // Other items (a page appended) are built anew.
        #expect((items + ["y"]).values == first + ["y"])
    }

    @Test func theSameElementsCompareWithoutBeingRead() throws {
        let document = try JSONReader().document(#"[{"id": 1}, {"id": 2}]"#)
        let one = try #require(ListItems(array: document.root))
        let two = try #require(ListItems(array: document.root))
        #expect(one == two)
        // Another document with the same text holds other elements that are equal by value.
        let other = try documentItems(#"[{"id": 1}, {"id": 2}]"#)
        #expect(one == other)
        #expect(one != (try documentItems(#"[{"id": 1}, {"id": 3}]"#)))
    }

    @Test func itemsKeepTheirDocumentAlive() throws {
        func page() throws -> ListItems {
            let bytes = Array(#"{"items": [{"title": "Fracciones \u00e1", "id": "m-1"}], "total": 1}"#.utf8)
            return try #require(try JSONReader().document(bytes).root["items"].flatMap(ListItems.init(array:)))
        }
        let items = try page()
        #expect(items[0] == ["title": "Fracciones á", "id": "m-1"])
        #expect(items.member("title", at: 0) == "Fracciones á")
    }
}

@Suite("List items: record patches")
struct ListItemsPatchTests {
    /// A page of records as a document's items, and as built values.
    static func page(_ ids: [JSONValue]) throws -> ListItems {
        let values: [JSONValue] = ids.enumerated().map { ["id": $0.element, "title": .string("Título \($0.offset)")] }
        return try #require(ListItems(array: try JSONReader().document(JSONWriter().bytes(from: .array(values))).root))
    }

    /// `patch` applied to `items` in place and to their built values: the same items, or the same
    /// error.
    @discardableResult
    static func expectSame(_ items: ListItems, _ patch: DocumentPatch, _ note: String) -> Bool {
        let inPlace = Result { () throws(PatchError) -> ListItems in try items.applying(patch) }
        let built = Result { () throws(PatchError) -> [JSONValue] in
            try JSONValue.array(items.values).applying(patch).arrayValue ?? []
        }
        switch (inPlace, built) {
        case (.success(let patched), .success(let expected)):
            #expect(patched.values == expected, "\(note)")
            #expect(patched == ListItems(expected) && ListItems(expected) == patched, "\(note)")
            return true
        case (.failure(let error), .failure(let expected)):
            #expect(error == expected, "\(note)")
        default:
            Issue.record("\(note): in place \(inPlace), built \(built)")
        }
        return false
    }

    @Test func randomPatchesAgreeWithTheBuiltPage() throws {
        var generator = Xoshiro(seed: (0xBA7C, 0x4, 0x11, 0x5))
        let choices: [JSONValue] = ["r-0", "r-1", "r-2", "r-7", 3, 4, 5.5, "", "r-99", -1]
        var applied = 0
        let targets = ["r-0", "r-1", "r-2", "r-7", "3", "4", "5.5", "", "r-99", "-1"]
        for round in 0..<400 {
            let count = Int.random(in: 0...12, using: &generator)
            let ids: [JSONValue] = (0..<count).map { index in
                Int.random(in: 0..<10, using: &generator) == 0
                    ? choices[Int.random(in: 0..<choices.count, using: &generator)]
                    : .string("r-\(index)")
            }
            // Items held in a document, built, or a page of each joined.
            var items = try Self.page(ids)
            switch round % 3 {
            case 1: items = ListItems(items.values)
            case 2: items = items + [["id": "r-50", "title": "x"]] + (try Self.page(["r-60", "r-61"]))
            default: break
            }
            if round % 17 == 0 { items = items + [["title": "sin id", "rows": [["id": "r-70"]]]] }
            let changes: [PatchChange] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                let target =
                    Int.random(in: 0..<4, using: &generator) == 0
                    ? targets[Int.random(in: 0..<targets.count, using: &generator)]
                    : "r-\(Int.random(in: 0..<max(1, count), using: &generator))"
                let brought: [JSONValue] = (0..<Int.random(in: 0...2, using: &generator)).map { index in
                    switch Int.random(in: 0..<8, using: &generator) {
                    case 0: return "not an object"
                    case 1: return ["title": "sin id"]
                    case 2: return ["id": "r-1", "title": "duplicado"]
                    default: return ["id": .string("new-\(round)-\(index)"), "title": "nuevo"]
                    }
                }
                return PatchChange(id: target, items: brought)
            }
            if Self.expectSame(items, DocumentPatch(changes: changes), "round \(round): \(ids) \(changes)") {
                applied += 1
                // Patched again: the ids kept from the first patch find the records.
                let once = try items.applying(DocumentPatch(changes: changes))
                Self.expectSame(once, DocumentPatch(changes: changes.reversed()), "round \(round), again")
                Self.expectSame(
                    once, DocumentPatch(changes: [PatchChange(id: "r-1"), PatchChange(id: "new-\(round)-0")]),
                    "round \(round), a third")
            }
        }
        // Both outcomes are exercised: patches that apply and patches refused.
        #expect(applied > 60 && applied < 340, "\(applied) of 400 applied")
    }

    @Test func aPatchedPageKeepsItsOtherRecordsInTheDocument() throws {
        let items = try Self.page((0..<1_000).map { .string("r-\($0)") })
        let patched = try items.applying(
            DocumentPatch(changes: [
                PatchChange(id: "r-5", items: [["id": "r-5", "title": "Nuevo"]]), PatchChange(id: "r-999"),
                PatchChange(id: "r-0", items: [["id": "a"], ["id": "b"]]),
            ]))
        #expect(patched.count == 1_000 && patched.unbuiltCount == 997)
        #expect(patched[0] == ["id": "a"] && patched[1] == ["id": "b"] && patched[6] == ["id": "r-5", "title": "Nuevo"])
        #expect(patched.member("id", at: 998) == "r-997" && patched.member("id", at: 7) == "r-6")
        #expect((0..<1_000).filter { patched.node(at: $0) == nil } == [0, 1, 6])
        // Patched again, and compared with the items it came from without building them.
        let again = try patched.applying(DocumentPatch(changes: [PatchChange(id: "r-500", items: [["id": "r-500"]])]))
        #expect(again != patched && again.unbuiltCount == 996)
        #expect(try patched.applying(DocumentPatch(changes: [])) == patched)
        // An error changes nothing.
        #expect(throws: PatchError.self) {
            try patched.applying(DocumentPatch(changes: [PatchChange(id: "r-7", items: [["id": "r-8"]])]))
        }
    }

    /// Ids are compared by their bytes: two canonically equivalent spellings are two records,
    /// on the page and among the items a change brings (few or many).
    @Test func idsAreTheirBytes() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        for items in [
            try Self.page([.string(composed), .string(decomposed)]),
            ListItems(try Self.page([.string(composed), .string(decomposed)]).values),
        ] {
            let patched = try items.applying(DocumentPatch(changes: [PatchChange(id: decomposed, items: [["id": "x"]])]))
            #expect(patched.values.map { $0["id"] } == [.string(composed), "x"])
            #expect(
                JSONValue.array(patched.values)
                    == (try JSONValue.array(items.values).applying(
                        DocumentPatch(changes: [PatchChange(id: decomposed, items: [["id": "x"]])]))))
            for count in [1, 20] {
                let brought: [JSONValue] = [["id": .string(composed)]] + (0..<count - 1).map { ["id": .string("n-\($0)")] }
                let swapped = try items.applying(DocumentPatch(changes: [PatchChange(id: composed, items: brought)]))
                #expect(swapped.count == count + 1, "a record of the other spelling is not a duplicate (\(count) items)")
            }
        }
    }

    /// Ids of any length (inline strings up to 15 bytes, stored ones beyond) find their record.
    @Test func idsOfEveryLength() throws {
        for length in [1, 7, 15, 16, 17, 40] {
            let ids = (0..<5).map { String(repeating: "x", count: length - 1) + String($0) }
            let items = try Self.page(ids.map { .string($0) })
            let patched = try items.applying(DocumentPatch(changes: [PatchChange(id: ids[3], items: [["id": "n"]])]))
            #expect(patched.values.map { $0["id"] } == ids.prefix(3).map { .string($0) } + ["n", .string(ids[4])], "\(length)")
            // A stored copy of an inline id (made from its bytes) is the same id.
            let rebuilt = String(decoding: Array(ids[2].utf8), as: UTF8.self)
            #expect(try items.applying(DocumentPatch(changes: [PatchChange(id: rebuilt)])).count == 4, "\(length)")
        }
    }

    @Test func itemsReplacedInPlace() throws {
        let items = try Self.page(["a", "b", "c"])
        #expect(items.replacing(at: 0, with: []).values.map { $0["id"] } == ["b", "c"])
        #expect(items.replacing(at: 2, with: [["id": "z"], ["id": "y"]]).values.map { $0["id"] } == ["a", "b", "z", "y"])
        let middle = items.replacing(at: 1, with: [["id": "m"]])
        #expect(middle.values.map { $0["id"] } == ["a", "m", "c"] && middle.unbuiltCount == 2)
        // Built items stay one run: no run is left empty, neighbouring built runs join.
        let built = middle.replacing(at: 0, with: [["id": "n"]]).replacing(at: 2, with: [["id": "o"]])
        #expect(built.values.map { $0["id"] } == ["n", "m", "o"] && built.unbuiltCount == 0)
        #expect(ListItems([1, 2]).replacing(at: 1, with: [3, 4]) == [1, 3, 4])
    }
}

@Test func listItemsDescribeThemselvesWithoutTheirItems() throws {
    let items = try #require(ListItems(array: try JSONReader().document(#"[1, 2]"#).root)) + [3]
    #expect(items.description == "ListItems(3 items, 2 held in a document)")
    #expect("\(ListItems([]))" == "ListItems(0 items, 0 held in a document)")
}
