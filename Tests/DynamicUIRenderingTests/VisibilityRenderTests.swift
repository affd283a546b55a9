import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

/// Visibility and disappear actions reach the render tree clamped, on zones, slots, list rows
/// (each under its own id) and node documents, with their transitions.
@Suite("Visibility actions in the render tree")
struct VisibilityRenderTests {
    @Test func listRowsAreWatchedEachUnderItsOwnIdAndZonesAreClamped() throws {
        let definition = try ScreenDefinition(json: [
            "screen_id": "s", "screen_key": "feed", "screen_name": "Feed", "pattern": "list", "version": 1,
            "updated_at": "2026-11-26T00:00:00Z", "actions": [],
            "template": [
                "zones": [
                    [
                        "id": "feed", "type": "simple-list",
                        "visibility_actions": [["log_id": "feed.seen", "visibility_percentage": 300]],
                        "disappear_actions": [["log_id": "feed.gone"]],
                        "item_layout": [
                            "slots": [
                                [
                                    "id": "title", "control_type": "label", "field": "title",
                                    "visibility_actions": [["log_id": "feed.row", "visibility_percentage": 75]],
                                ]
                            ]
                        ],
                    ]
                ]
            ],
        ])
        let compiled = try ScreenCompiler().compile(definition)
        let items: [JSONValue] = [["id": "a", "title": "Uno"], ["id": "b", "title": "Dos"]]
        let tree = PatternRouter().render(
            try RenderMemoTests.inputs(compiled, data: .array(items), items: items, memo: nil))
        let watched = tree.nodes(rowLimit: 100).filter { $0.visibility != nil }
        let zone = try #require(watched.first { $0.id == "zone:feed" })
        #expect(zone.visibility?.appear.first?.visibilityPercentage == 100, "300 % is clamped")
        #expect(zone.visibility?.disappear.first?.visibilityPercentage == 0)
        #expect(zone.visibility?.thresholds == [0, 1])
        let rows = watched.filter { $0.visibility?.appear.first?.logId == "feed.row" }
        #expect(rows.count == 2)
        #expect(Set(rows.map(\.id)).count == 2, "each row is watched under its own id")
        #expect(rows.first?.visibility?.appear.first?.visibilityPercentage == 75)
    }

    @Test func aSlotCarriesItsTransition() throws {
        let definition = try ScreenDefinition(json: [
            "screen_id": "s", "screen_key": "cards", "screen_name": "Panel", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-26T00:00:00Z", "actions": [],
            "template": [
                "zones": [
                    [
                        "id": "cards", "type": "container",
                        "slots": [
                            [
                                "id": "card", "control_type": "label", "value": "Publicado",
                                "transition": ["type": "scale", "duration_ms": 5000, "curve": "spring"],
                            ],
                            ["id": "plain", "control_type": "label", "value": "Sin animación"],
                        ],
                    ]
                ]
            ],
        ])
        let tree = PatternRouter().render(try RenderMemoTests.inputs(try ScreenCompiler().compile(definition), memo: nil))
        let card = try #require(tree.nodes(rowLimit: 100).first { $0.id.hasSuffix("/card") })
        #expect(card.transition == RenderTransition(kind: .scale, duration: 2, curve: .spring), "clamped to 2 s")
        #expect(tree.nodes(rowLimit: 100).first { $0.id.hasSuffix("/plain") }?.transition == nil)
    }

    @Test func nodeDocumentsCarryTransitionsAndVisibilityActions() throws {
        let document = try ViewNode(json: [
            "type": "vstack", "id": "root",
            "children": [
                [
                    "type": "text", "id": "row", "props": ["content": "Episodio"],
                    "transition": ["type": "fade", "duration_ms": 400],
                    "visibility_actions": [["log_id": "episode.seen"]],
                ]
            ],
        ])
        let compiled = try NodeCompiler().compile(document)
        let renderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])
        let rendered = renderer.render(compiled, context: DataContext([], environment: environment), name: "doc")
        let row = try #require(rendered.root.nodes(rowLimit: 100).first { $0.id.hasSuffix("#row") })
        #expect(row.transition == RenderTransition(kind: .fade, duration: 0.4))
        #expect(row.visibility?.appear.map(\.logId) == ["episode.seen"])
    }

    @Test func aTreesNodesComeInOrderWithTheRowsAskedFor() {
        let rows = LazyRows(count: 3, id: { "row\($0)" }) {
            RenderNode(id: "row\($0)", kind: .text("\($0)", style: .body, lineLimit: nil))
        }
        let leaf = { (id: String) in RenderNode(id: id, kind: .text(id, style: .body, lineLimit: nil)) }
        let tree = RenderNode(
            id: "root", kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false),
            children: [leaf("a"), RenderNode(id: "list", kind: .list(style: .plain, rows: rows)), leaf("b")])
        #expect(tree.nodes().map(\.id) == ["root", "a", "list", "b"], "depth first, no rows unless asked")
        #expect(tree.nodes(rowLimit: 2).map(\.id) == ["root", "a", "list", "row0", "row1", "b"])
    }
}
