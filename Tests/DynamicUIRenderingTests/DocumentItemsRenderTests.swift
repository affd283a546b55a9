import DynamicUICatalog
import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUIRendering
@testable import DynamicUIResolvers

/// `values` as a list page read the way the screen model reads one: a document whose items are
/// built as rows are drawn.
private func documentItems(_ values: [JSONValue]) throws -> ListItems {
    let bytes = JSONWriter().bytes(from: ["items": .array(values), "total": .number(JSONNumber(values.count))])
    return try #require(try JSONReader().document(bytes).root["items"].flatMap(ListItems.init(array:)))
}

@Suite("Rendering: list items read in place")
struct DocumentItemsRenderTests {
    /// Every list screen of the catalog, drawn from its demo items built and read in place:
    /// the same text, every row included, at every size class.
    @Test func everyListScreenDrawsTheSameFromADocument() throws {
        var drawn = 0
        for key in edugo.screenKeys {
            let screen = try edugo.screen(key)
            guard [.list, .search, .notification].contains(screen.pattern),
                case (_, let values?) = try demoData(for: screen, params: ["id": "mat-001"]), !values.isEmpty
            else { continue }
            let compiled = try ScreenCompiler().compile(screen)
            let items = try documentItems(values)
            for sizeClass in SizeClass.allCases {
                let options = RenderOptions(sizeClass: sizeClass)
                let eager = try compiled.context(
                    user: teacher, userContext: teacherContext, data: .array(values), environment: environment)
                let lazy = try compiled.context(
                    user: teacher, userContext: teacherContext, data: .null, items: items, environment: environment)
                let built = PatternRouter(options: options).render(
                    ScreenInputs(screen: compiled, context: eager, items: ListItems(values), permissions: ["materials:read"]))
                let read = PatternRouter(options: options).render(
                    ScreenInputs(screen: compiled, context: lazy, items: items, permissions: ["materials:read"]))
                let text = TextRenderer(rowLimit: values.count + 1)
                #expect(text.render(read) == text.render(built), "\(key) at \(sizeClass)")
                // Drawing the rows built their items one at a time, never the list whole.
                #expect(try #require(lazy.list).isBuiltWhole == false, "\(key)")
            }
            drawn += 1
        }
        #expect(drawn >= 4)
    }

    @Test func rowIdentitiesAreReadWithoutBuildingRows() throws {
        let values: [JSONValue] =
            (0..<500).map { ["id": .string("mat-\($0)"), "title": .string("Título \($0)")] } + [["title": "sin id"]]
        let items = try documentItems(values)
        let screen = try ScreenCompiler().compile(try edugo.screen("materials-list"))
        let context = try screen.context(
            user: teacher, userContext: teacherContext, data: .null, items: items, environment: environment)
        let tree = PatternRouter().render(ScreenInputs(screen: screen, context: context, items: items))
        let rows = try #require(firstList(in: tree))
        #expect(rows.count == 501)
        #expect(rows.id(at: 0).hasSuffix("/mat-0") && rows.id(at: 499).hasSuffix("/mat-499"))
        #expect(rows.id(at: 500).hasSuffix("[500]"))
        #expect(rows.rows(limit: 3).count == 3)
    }

    @Test func theMemoKeepsWhatWasDrawnFromTheSameItems() throws {
        let values: [JSONValue] = (0..<50).map { ["id": .string("mat-\($0)"), "title": .string("Título \($0)")] }
        let screen = try ScreenCompiler().compile(try edugo.screen("materials-list"))
        let memo = RenderMemo()
        var reused: [Int] = []
        // The same items, the same page read again (equal items of another document), and a page
        // whose last item changed.
        var changed = values
        changed[49] = ["id": "mat-49", "title": "Otro título"]
        for items in [try documentItems(values), try documentItems(values), try documentItems(changed)] {
            let context = try screen.context(
                user: teacher, userContext: teacherContext, data: .null, items: items, environment: environment)
            let tree = PatternRouter().render(ScreenInputs(screen: screen, context: context, items: items, memo: memo))
            _ = try #require(firstList(in: tree)).rows(limit: 50)
            reused.append(memo.reused.zones)
        }
        // Equal items draw nothing again; changed items draw the list again.
        #expect(reused[1] > reused[0])
        #expect(reused[2] - reused[1] < reused[1] - reused[0], "\(reused)")
    }

    /// Rows drawn from a document are kept by their place: drawn again with other zone inputs
    /// (a search text), the same items give back every row; a patched page (some items now
    /// values) gives back the rows whose records did not change.
    @Test func theMemoKeepsRowsByTheirPlaceInTheDocument() throws {
        let values: [JSONValue] = (0..<40).map { ["id": .string("mat-\($0)"), "title": .string("Título \($0)")] }
        let items = try documentItems(values)
        let screen = try ScreenCompiler().compile(try edugo.screen("materials-list"))
        let memo = RenderMemo()
        func draw(_ items: ListItems, search: String) throws -> [String] {
            let context = try screen.context(
                user: teacher, userContext: teacherContext, data: .null, items: items, environment: environment)
            let tree = PatternRouter().render(
                ScreenInputs(screen: screen, context: context, items: items, searchText: search, memo: memo))
            return try #require(firstList(in: tree)).rows(limit: 20).map { TextRenderer().render($0) }
        }
        let first = try draw(items, search: "")
        #expect(memo.reused.rows == 0)
        #expect(try draw(items, search: "a") == first)
        #expect(memo.reused.rows == 20)
        let patched = try items.applying(
            DocumentPatch(changes: [PatchChange(id: "mat-3", items: [["id": "mat-3", "title": "Nuevo"]])]))
        let drawn = try draw(patched, search: "a")
        #expect(memo.reused.rows == 39)
        #expect(drawn[3].contains("Nuevo") && drawn.enumerated().allSatisfy { $0.offset == 3 || $0.element == first[$0.offset] })
        #expect(try draw(patched, search: "b") == drawn)
        #expect(memo.reused.rows == 59)
    }

    private func firstList(in node: RenderNode) -> LazyRows? {
        if case .list(_, let rows) = node.kind { return rows }
        for child in node.children { if let rows = firstList(in: child) { return rows } }
        return nil
    }
}
