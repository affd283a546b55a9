import DynamicUI
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

/// A node document as SwiftUI drives it: the model keeps its tree, and a keystroke redraws what
/// shows the field while the list keeps its rows, their ids and their actions.
@Suite("Node documents keep what a keystroke does not change")
@MainActor
struct NodeKeptTreeTests {
    static let document: JSONValue = [
        "type": "screen",
        "props": [
            "body": [
                "type": "vstack",
                "children": [
                    ["type": "text_field", "props": ["placeholder": "Buscar", "binding": "$.state.query"]],
                    ["type": "text", "id": "echo", "props": ["content": "$.state.query"]],
                    [
                        "type": "list", "id": "episodes",
                        "props": [
                            "items": "$.episodes",
                            "itemTemplate": [
                                "type": "button",
                                "props": [
                                    "label": ["type": "text", "props": ["content": "$.item.title"]],
                                    "action": ["actionType": "setState", "key": "picked", "value": "$.item.id"],
                                ],
                            ],
                        ],
                    ],
                ],
            ]
        ],
    ]

    static func list(in node: RenderNode) -> LazyRows? {
        if case .list(_, let rows) = node.kind { return rows }
        return node.children.lazy.compactMap(list).first
    }

    static func echo(in node: RenderNode) -> String? {
        if node.id.hasSuffix("#echo"), case .text(let text, _, _) = node.kind { return text }
        return node.children.lazy.compactMap(echo).first
    }

    @Test func aKeystrokeKeepsTheListAndItsRowsActions() async throws {
        let app = try await NodeSectionTests.app(ScriptedTransport(), document: Self.document)
        let episodes = JSONValue.array((0..<500).map { ["id": .string("e\($0)"), "title": .string("Episodio \($0)")] })
        app.push(NodeRoute(document: "app", params: ["episodes": episodes]))
        let model = app.model(for: try #require(app.current))
        await model.load()
        model.renderOptions = RenderOptions()
        model.renderIfNeeded()
        let first = try #require(model.rendered)
        let rows = try #require(Self.list(in: first.root))
        _ = rows.ids

        model.setValue("rel", for: "$.state.query")
        await settle()
        model.renderIfNeeded()
        let typed = try #require(model.rendered)
        #expect(Self.echo(in: typed.root) == "rel")
        #expect(Self.list(in: typed.root) === rows, "the list keeps its rows and their ids")

        // A row SwiftUI draws now, from the kept list: its button runs with its own record.
        let key = try #require(
            flattenAll(rows.row(at: 42)).compactMap { node -> String? in
                if case .button(let key) = node.kind { return key }
                return nil
            }.first)
        await model.perform(key)
        #expect(model.state["picked"] == "e42")
    }
}
