import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

/// Numbers a server can put in a rating field, as JSON text.
let hostileRatings = ["1e19", "-1e19", "1e300", "-1e300", "9223372036854775807", "-9223372036854775808", "-0", "4.5", "\"NaN\""]

@Suite("Hostile values in the render tree")
struct HostileRenderTests {
    @Test(arguments: hostileRatings)
    func ratingsAreClampedIntoTheTree(raw: String) throws {
        let screen = try compiledScreen(
            zones: [Zone(id: "z", type: .container, slots: [Slot(id: "stars", controlType: .rating, field: "score")])],
            pattern: .detail)
        let tree = try render(screen, data: try JSONReader().read("{\"score\": \(raw)}"))
        let rating = try #require(flatten(tree).first { if case .rating = $0.kind { true } else { false } })
        guard case .rating(let value) = rating.kind else { return }
        #expect((0...5).contains(value))
        #expect((0...5).contains(RenderKind.ratingStars(value)))
        let label = try #require(rating.accessibility?.label)
        #expect(label.count < 12, "\(label)")
        #expect(TextRenderer().render(rating).hasPrefix("rating"))
    }

    @Test func ratingStarsOfAnyDouble() {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 1e19, -0.0, 2.5, 2.49] {
            #expect((0...5).contains(RenderKind.ratingStars(value)))
        }
        #expect(RenderKind.ratingStars(2.5) == 3 && RenderKind.ratingStars(2.49) == 2)
    }

    @Test func nodeGridColumnsAndLineLimitsAreBounded() throws {
        let document = try ViewNode(
            json: try JSONReader().read(
                #"""
                {"type": "vstack", "children": [
                  {"type": "grid", "props": {"columns": 9223372036854775807}, "children": [{"type": "text", "props": {"content": "a"}}]},
                  {"type": "grid", "props": {"columns": -9223372036854775808}},
                  {"type": "text", "props": {"content": "b", "lineLimit": 9223372036854775807}},
                  {"type": "text", "props": {"content": "c", "lineLimit": -3}}
                ]}
                """#))
        let renderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])
        let rendered = renderer.render(
            try NodeCompiler().compile(document), context: DataContext([], environment: environment), name: "doc")
        var columns: [Int] = []
        var limits: [Int?] = []
        for node in flatten(rendered.root) {
            if case .grid(let count, _) = node.kind { columns.append(count) }
            if case .text(_, _, let limit) = node.kind { limits.append(limit) }
        }
        #expect(columns == [RenderKind.maxGridColumns, 1])
        #expect(limits == [nil, 10_000, 1])
    }
}

@Suite("Hostile documents: multiplying components and nested lists stay bounded")
struct MultiplyingDocumentTests {
    /// A component whose body uses itself three times: 3^16 nodes if nothing stopped it.
    static let tripling = try! ComponentLibrary(
        json: try! JSONReader().read(
            #"""
            {"components": {"three": {"parameters": [], "body": {"type": "vstack", "children": [
              {"type": "component", "props": {"name": "three"}},
              {"type": "component", "props": {"name": "three"}},
              {"type": "component", "props": {"name": "three"}}]}}}}
            """#))

    /// A list whose rows each hold the same list again, three deep: 500^3 rows if drawn in full.
    static let nestedLists = try! ViewNode(
        json: try! JSONReader().read(
            #"""
            {"type": "list", "props": {"items": "$.rows", "itemTemplate":
              {"type": "list", "props": {"items": "$.rows", "itemTemplate":
                {"type": "list", "props": {"items": "$.rows", "itemTemplate":
                  {"type": "text", "props": {"content": "$.item.name"}}}}}}}}
            """#))

    @Test func selfMultiplyingComponentsStopAtTheNodeBudget() throws {
        let renderer = NodeRenderer(
            theme: Theme(), library: Self.tripling, components: try NodeCompiler().compile(Self.tripling),
            options: RenderOptions(showUnknownMarkers: true))
        let document = try ViewNode(json: ["type": "component", "props": ["name": "three"]])
        let rendered = renderer.render(
            try NodeCompiler().compile(document), context: DataContext([], environment: environment), name: "doc")
        let nodes = flatten(rendered.root)
        #expect(nodes.count <= renderer.maxNodes + renderer.maxNodes / 2, "\(nodes.count) nodes")
        #expect(nodes.contains { $0.kind == .unknown("node limit") || $0.kind == .unknown("component three") })
    }

    @Test func deepNestingStopsAtTheNestingLimit() throws {
        let renderer = NodeRenderer(
            theme: Theme(), library: ComponentLibrary(), components: [:], options: RenderOptions(showUnknownMarkers: true),
            maxNesting: 10)
        var json: JSONValue = ["type": "text", "props": ["content": "leaf"]]
        for _ in 0..<30 { json = ["type": "vstack", "children": [json]] }
        let rendered = renderer.render(
            try NodeCompiler().compile(try ViewNode(json: json)), context: DataContext([], environment: environment), name: "d")
        let nodes = flatten(rendered.root)
        #expect(nodes.count == 11)
        #expect(nodes.last?.kind == .unknown("node limit"))
    }

    @Test func nestedListsDrawABoundedText() throws {
        let renderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])
        let rows = JSONValue.array((0..<500).map { ["name": .string("row \($0)")] })
        let rendered = renderer.render(
            try NodeCompiler().compile(Self.nestedLists), context: DataContext([("rows", rows)], environment: environment),
            name: "doc")
        var text = TextRenderer(rowLimit: 500)
        text.maxLines = 5_000
        let lines = text.render(rendered.root).split(separator: "\n")
        #expect(lines.count < 6_000, "\(lines.count) lines")
        #expect(lines.contains { $0.contains("more rows") })
    }
}

@Suite("Hostile list data")
struct HostileListTests {
    @Test func repeatedRowIdsAreMadeUnique() {
        let ids = ["1", "1", "2", "1#1", "1"]
        let rows = LazyRows(count: ids.count, id: { "list/\(ids[$0])" }) { RenderNode(id: "\($0)", kind: .divider) }
        let made = (0..<ids.count).map(rows.id(at:))
        #expect(Set(made).count == ids.count)
        #expect(made[0] == "list/1" && made[1] == "list/1#1" && made[2] == "list/2")
        #expect(rows.rowsBuilt == 0)
    }
}
