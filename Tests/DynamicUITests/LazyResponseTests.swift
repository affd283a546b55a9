import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUI

/// A list screen's response, held in its document, takes the record patches the screen gets:
/// read later, it is the response with every patch that applied, in order.
@Suite("A response patched when it is read")
struct LazyResponseTests {
    static func response(_ count: Int) throws -> JSONNode {
        let items: [JSONValue] = (0..<count).map { ["id": .string("r-\($0)"), "title": .string("Fila \($0)")] }
        return try JSONReader().document(JSONWriter().bytes(from: ["items": .array(items), "total": 3])).root
    }

    static func patch(_ index: Int) -> DocumentPatch {
        // Every fifth patch names a record that is not there, and applies to nothing.
        let id = index.isMultiple(of: 5) ? "missing" : "r-\(index % 7)"
        return DocumentPatch(changes: [PatchChange(id: id, items: [["id": .string(id), "title": .string("v\(index)")]])])
    }

    @Test(arguments: [1, 31, 32, 33, 100])
    func patchesWaitingForTheFirstReadApplyInOrder(count: Int) throws {
        let root = try Self.response(7)
        var expected = root.value
        var response = LazyJSON(node: root)
        for index in 0..<count {
            response = LazyJSON(patching: response, with: Self.patch(index))
            expected = (try? expected.applying(Self.patch(index))) ?? expected
        }
        #expect(!response.isNull)
        #expect(response.value == expected)
        // Read once, later patches apply to the built value at once.
        response = LazyJSON(patching: response, with: Self.patch(3))
        #expect(response.value == (try expected.applying(Self.patch(3))))
    }

    @Test func aListsItemsPatchedLikeTheBuiltArray() throws {
        let items = try #require(try Self.response(7)["items"].flatMap(ListItems.init(array:)))
        let patched = LazyJSON(patching: LazyJSON(items: items), with: Self.patch(2))
        #expect(patched.value == (try JSONValue.array(items.values).applying(Self.patch(2))))
    }
}
