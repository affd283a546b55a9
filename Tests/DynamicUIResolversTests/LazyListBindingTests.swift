import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUIResolvers

/// A page of `count` materials as a server sends it, and its items held in the document.
private func page(_ count: Int) throws -> (values: [JSONValue], items: ListItems) {
    let values: [JSONValue] = (0..<count).map { index in
        [
            "id": .string("mat-\(index)"), "title": .string("Álgebra \(index)"), "grade": .number(JSONNumber(index % 12)),
            "author": ["name": "Luis", "tags": ["a", "b"]], "published": .bool(index.isMultiple(of: 2)),
        ]
    }
    let bytes = JSONWriter().bytes(from: ["items": .array(values), "total": .number(JSONNumber(count))])
    let items = try #require(try JSONReader().document(bytes).root["items"].flatMap(ListItems.init(array:)))
    return (values, items)
}

/// What `text` evaluates to in `context`, or its error's description.
private func outcome(_ text: String, in context: DataContext) throws -> String {
    let expression = try ExpressionCompiler().expression(text)
    do {
        return JSONWriter().string(from: try expression.evaluate(in: context))
    } catch {
        return "error: \(error)"
    }
}

@Suite("Evaluation: a list screen's items bound without being built")
struct LazyListBindingTests {
    static let expressions = [
        "data", "data.isEmpty", "data.isNotEmpty", "data.count", "data | count", "data.0", "data.0.title", "data[1].author.name",
        "data[2].author.tags.1", "data.2.author.tags.count", "data.4.missing", "data.99", "data.title", "data.007", "$.1.id",
        "data.isEmpty.x", "data.count > 3", "!data.isEmpty && data.1.published", "data.3.grade >= 3", "isEmpty", "count",
        "$.isEmpty", "$.0.title", "user.firstName", "params.id", "slot.title", "unknown.root", "data.0.title | uppercase",
        "data | empty", "data | join",
    ]

    @Test(arguments: [0, 1, 5])
    func pathsReadWhatTheBuiltListReads(count: Int) throws {
        let (values, items) = try page(count)
        let environment = environment()
        let eager = DataContext.screen(
            user: ana, slotData: ["title": "T"], data: .array(values), params: ["id": "m-1"], environment: environment)
        let lazy = DataContext.screen(
            user: ana, slotData: ["title": "T"], items: items, params: ["id": "m-1"], environment: environment)
        for text in Self.expressions {
            #expect(try outcome(text, in: lazy) == outcome(text, in: eager), "\(text) of \(count) items")
            // The same through a row's context and a component's, which read the root through their parent.
            let row = values.first ?? .null
            #expect(
                try outcome(text, in: lazy.item(row, index: 0)) == outcome(text, in: eager.item(row, index: 0)), "\(text)")
            #expect(
                try outcome(text, in: lazy.component(parameters: [("p", 1)]))
                    == outcome(text, in: eager.component(parameters: [("p", 1)])), "\(text)")
            #expect(try outcome(text, in: lazy.child([("x", 2)])) == outcome(text, in: eager.child([("x", 2)])), "\(text)")
        }
        #expect(lazy.lookup("data") == .array(values))
        #expect(lazy.defaultObject == .array(values))
        #expect(lazy.defaultItems == items && eager.defaultItems == nil)
    }

    @Test func pathsBuildOnlyTheItemTheyReach() throws {
        let (_, items) = try page(1_000)
        let context = DataContext.screen(user: ana, items: items, environment: environment())
        let list = try #require(context.list)
        for text in ["data.isEmpty", "data.count", "data.999.title", "data[3].author.name", "$.999.title", "count", "data.x"] {
            _ = try outcome(text, in: context)
            _ = try outcome(text, in: context.item(["title": "x"], index: 0))
        }
        #expect(!list.isBuiltWhole)
        // Taking the list whole builds it, once.
        #expect(try outcome("data | count", in: context) == "1000")
        #expect(list.isBuiltWhole)
    }

    @Test func changedNamesCompareListsWithoutBuildingThem() throws {
        let (values, items) = try page(20)
        let (_, same) = try page(20)
        let (_, other) = try page(21)
        let environment = environment()
        let first = DataContext.screen(user: ana, items: items, environment: environment)
        #expect(first.changedNames(since: first) == [])
        #expect(DataContext.screen(user: ana, items: items, environment: environment).changedNames(since: first) == [])
        #expect(DataContext.screen(user: ana, items: same, environment: environment).changedNames(since: first) == [])
        #expect(
            DataContext.screen(user: ana, items: other, environment: environment).changedNames(since: first) == ["data", ""])
        #expect(
            DataContext.screen(user: ana, data: .array(values), environment: environment).changedNames(since: first)
                == ["data", ""])
        #expect(
            DataContext.screen(user: nil, items: items, environment: environment).changedNames(since: first) == ["user"])
        #expect(try #require(first.list).isBuiltWhole == false)
    }
}
