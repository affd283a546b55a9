import DynamicUIModels
import DynamicUIResolvers
import Foundation
import PropertyBased
import Testing

@testable import DynamicUIRendering

/// A node document drawn again with its memo: a change redraws the subtrees that read what
/// changed and takes the rest as drawn (a list keeps its rows and their ids), and whatever
/// changes, what is drawn and the actions offered are those of a render without the memo.
@Suite("Node render memo")
struct NodeRenderMemoTests {
    static let library = try! ComponentLibrary(
        json: try! JSONReader().read(
            #"""
            {"components": {"badge": {"parameters": ["label"], "body": {"type": "hstack", "children": [
              {"type": "text", "props": {"content": "$.label"}},
              {"type": "text", "props": {"content": "$.state.badge"}}]}}}}
            """#))

    /// A countdown a timer ticks, a form of two fields, a badge (a component reading state), a
    /// panel shown only while a flag holds, a deferred section and a 1,000-row list.
    static let document = try! NodeCompiler().compile(
        try! ViewNode(
            json: try! JSONReader().read(
                #"""
                {"type": "screen", "props": {"title": "$.title", "body": {"type": "vstack", "children": [
                  {"type": "text", "id": "countdown", "props": {"content": "$.state.remaining"}},
                  {"type": "text_field", "props": {"placeholder": "Nombre", "binding": "$.state.name"}},
                  {"type": "text_field", "props": {"placeholder": "Nota", "binding": "$.state.note"}},
                  {"type": "button", "id": "save", "props": {
                    "label": {"type": "text", "props": {"content": "Guardar"}},
                    "action": {"actionType": "setState", "key": "saved", "value": "$.state.note"}}},
                  {"type": "component", "props": {"name": "badge", "parameters": {"label": "$.title"}}},
                  {"type": "vstack", "id": "panel", "condition": "$.state.open == true", "children": [
                    {"type": "text", "props": {"content": "$.state.note"}}]},
                  {"type": "vstack", "id": "latest", "data_endpoint": "/v1/latest", "children": [
                    {"type": "text", "props": {"content": "$.section.episode"}}]},
                  {"type": "list", "id": "materials", "props": {"items": "$.materials", "itemTemplate":
                    {"type": "button", "props": {
                      "label": {"type": "text", "props": {"content": "$.item.title"}},
                      "action": {"actionType": "setState", "key": "picked", "value": "$.item.id"}}}}}
                ]}}}
                """#)))

    static let materials: JSONValue = .array(
        (0..<1000).map { ["id": .string("m\($0)"), "title": .string("Material \($0)")] })

    static func renderer() -> NodeRenderer {
        NodeRenderer(theme: Theme(), library: library, components: try! NodeCompiler().compile(library))
    }

    static func context(state: JSONObject, materials: JSONValue = Self.materials, title: String = "Tarea") -> DataContext {
        let data: JSONObject = ["title": .string(title), "materials": materials]
        return DataContext(
            [("env", .object(state)), ("state", .object(state))] + data.map { ($0.key, $0.value) },
            defaultObject: .object(data), environment: environment)
    }

    static func text(_ id: String, in node: RenderNode) -> String? {
        if node.id.hasSuffix(id), case .text(let text, _, _) = node.kind { return text }
        return node.children.lazy.compactMap { text(id, in: $0) }.first
    }

    /// What a `setState` action would set, evaluated in `context`.
    static func evaluated(_ action: CompiledNodeAction, in context: DataContext) -> JSONValue? {
        guard case .setState(_, let value) = action else { return nil }
        return try? value.evaluate(in: context)
    }

    @Test func aTickRedrawsTheCountdownAndKeepsTheList() throws {
        let memo = NodeRenderMemo()
        let renderer = Self.renderer()
        let first = renderer.render(
            Self.document, context: Self.context(state: ["remaining": 600]), name: "doc", memo: memo)
        let rows = try #require(firstList(in: first.root))
        let second = renderer.render(
            Self.document, context: Self.context(state: ["remaining": 599]), name: "doc", memo: memo)
        #expect(Self.text("#countdown", in: second.root) == "599")
        #expect(firstList(in: second.root) === rows, "the list keeps its rows and their ids")
        #expect(memo.reused > 0)
        let fresh = renderer.render(Self.document, context: Self.context(state: ["remaining": 599]), name: "doc")
        #expect(describeTree(second.root) == describeTree(fresh.root))
    }

    @Test func aKeystrokeReachesTheFieldAndTheActionThatReadsIt() throws {
        let memo = NodeRenderMemo()
        let renderer = Self.renderer()
        _ = renderer.render(Self.document, context: Self.context(state: ["note": ""]), name: "doc", memo: memo)
        let typed = renderer.render(Self.document, context: Self.context(state: ["note": "a"]), name: "doc", memo: memo)
        let key = try #require(typed.actions.keys.first { $0.hasSuffix("#save.action") })
        let save = try #require(typed.actions.action(for: key))
        #expect(Self.evaluated(save.action, in: save.context) == "a", "the button's action reads the note as typed")
        let fields = flatten(typed.root).compactMap { node -> String? in
            if case .textField(_, _, let text) = node.kind { return text }
            return nil
        }
        #expect(fields == ["", "a"])
    }

    @Test func aRowDrawnFromAKeptListKeepsItsAction() throws {
        let memo = NodeRenderMemo()
        let renderer = Self.renderer()
        let first = renderer.render(Self.document, context: Self.context(state: ["remaining": 600]), name: "doc", memo: memo)
        let second = renderer.render(
            Self.document, context: Self.context(state: ["remaining": 599]), name: "doc", memo: memo)
        // SwiftUI asks the kept list for a row after the second render.
        let rows = try #require(firstList(in: first.root))
        let row = rows.row(at: 7)
        let key = try #require(
            flatten(row).compactMap { node -> String? in
                if case .button(let key) = node.kind { return key }
                return nil
            }.first)
        let found = try #require(second.actions.action(for: key))
        #expect(found.context.lookup("item")?["id"] == "m7")
        #expect(second.actions.keys.contains(key))
    }

    @Test func aRowOfAListInAComponentKeepsItsAction() throws {
        let library = try ComponentLibrary(
            json: try JSONReader().read(
                #"""
                {"components": {"shelf": {"parameters": [], "body": {"type": "list", "props": {"items": "$.materials",
                  "itemTemplate": {"type": "button", "props": {"label": {"type": "text", "props": {"content": "$.item.title"}},
                    "action": {"actionType": "setState", "key": "picked", "value": "$.item.id"}}}}}}}}
                """#))
        let renderer = NodeRenderer(theme: Theme(), library: library, components: try NodeCompiler().compile(library))
        let document = try NodeCompiler().compile(
            try ViewNode(
                json: [
                    "type": "vstack",
                    "children": [
                        ["type": "text", "props": ["content": "$.state.remaining"]],
                        ["type": "component", "props": ["name": "shelf"]],
                    ],
                ]))
        let memo = NodeRenderMemo()
        let first = renderer.render(document, context: Self.context(state: ["remaining": 2]), name: "doc", memo: memo)
        let second = renderer.render(document, context: Self.context(state: ["remaining": 1]), name: "doc", memo: memo)
        let rows = try #require(firstList(in: second.root))
        #expect(firstList(in: first.root) === rows, "the component's list is kept")
        let key = try #require(
            flatten(rows.row(at: 4)).compactMap { node -> String? in
                if case .button(let key) = node.kind { return key }
                return nil
            }.first)
        #expect(try #require(second.actions.action(for: key)).context.lookup("item")?["id"] == "m4")
    }

    @Test func aHiddenPanelShowsWhatChangedWhileItWasHidden() throws {
        let memo = NodeRenderMemo()
        let renderer = Self.renderer()
        _ = renderer.render(
            Self.document, context: Self.context(state: ["open": true, "note": "uno"]), name: "doc", memo: memo)
        _ = renderer.render(
            Self.document, context: Self.context(state: ["open": false, "note": "dos"]), name: "doc", memo: memo)
        _ = renderer.render(
            Self.document, context: Self.context(state: ["open": false, "note": "dos", "remaining": 1]), name: "doc",
            memo: memo)
        let shown = renderer.render(
            Self.document, context: Self.context(state: ["open": true, "note": "dos", "remaining": 1]), name: "doc",
            memo: memo)
        let panel = try #require(flatten(shown.root).first { $0.id.hasSuffix("#panel") })
        #expect(flatten(panel).contains { $0.kind == .text("dos", style: .body, lineLimit: nil) })
    }

    /// Random changes to state keys, data and the section, each drawn with the memo and without:
    /// the trees and the actions are the same.
    @Test func whatTheMemoKeepsIsWhatAFullRenderDraws() throws {
        var generator = Xoshiro(seed: (0x5EED, 7, 1, 9))
        let memo = NodeRenderMemo()
        var renderer = Self.renderer()
        var state: JSONObject = ["remaining": 600, "note": "", "open": false, "badge": "nuevo"]
        var title = "Tarea"
        var materials = Self.materials
        var kept = 0
        for step in 0..<160 {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1: state["remaining"] = .number(JSONNumber(600 - step))
            case 2: state["note"] = .string(String(repeating: "a", count: Int.random(in: 0..<4, using: &generator)))
            case 3: state["open"] = .bool(Bool.random(using: &generator))
            case 4: state["badge"] = .string(["nuevo", "visto", "leído"].randomElement(using: &generator)!)
            case 5: title = ["Tarea", "Examen"].randomElement(using: &generator)!
            case 6:
                materials = .array((0..<Int.random(in: 998...1000, using: &generator)).map { ["id": .string("m\($0)")] })
            default:
                renderer.sections["latest"] = [
                    .loading, .loaded(["episode": .string("E\(step)")]), .failed(message: "sin red"),
                ].randomElement(using: &generator)!
            }
            let context = Self.context(state: state, materials: materials, title: title)
            let drawn = renderer.render(Self.document, context: context, name: "doc", memo: memo)
            let fresh = renderer.render(Self.document, context: context, name: "doc")
            #expect(describeTree(drawn.root) == describeTree(fresh.root), "step \(step)")
            #expect(drawn.actions.keys == fresh.actions.keys, "step \(step)")
            for key in fresh.actions.keys {
                let (action, scope) = try #require(drawn.actions.action(for: key))
                let expected = try #require(fresh.actions.action(for: key))
                #expect(action == expected.action, "step \(step), \(key)")
                // A kept action's context may be older in what the action does not read.
                #expect(
                    Self.evaluated(action, in: scope) == Self.evaluated(expected.action, in: expected.context),
                    "step \(step), \(key)")
            }
            kept = memo.reused
        }
        #expect(kept > 100, "subtrees kept over the walk: \(kept)")
    }

    /// `count`, `isEmpty` and `isNotEmpty` of an object are computed from all its keys; a name
    /// no binding holds is read from the default object.
    @Test func computedMembersAndTheDefaultObjectAreRead() throws {
        let document = try NodeCompiler().compile(
            try ViewNode(
                json: [
                    "type": "vstack",
                    "children": [
                        ["type": "text", "id": "count", "props": ["content": "$.state.count"]],
                        ["type": "text", "id": "title", "props": ["content": "$.title"]],
                    ],
                ]))
        let renderer = Self.renderer()
        let memo = NodeRenderMemo()
        func render(_ state: JSONObject, title: String) -> RenderNode {
            let context = DataContext(
                [("state", .object(state))], defaultObject: ["title": .string(title)], environment: environment)
            let drawn = renderer.render(document, context: context, name: "doc", memo: memo).root
            #expect(describeTree(drawn) == describeTree(renderer.render(document, context: context, name: "doc").root))
            return drawn
        }
        _ = render(["a": 1], title: "Uno")
        let added = render(["a": 1, "b": 2], title: "Uno")
        #expect(Self.text("#count", in: added) == "2")
        let retitled = render(["a": 1, "b": 2], title: "Dos")
        #expect(Self.text("#title", in: retitled) == "Dos")
    }

    @Test func anotherEnvironmentOrDocumentKeepsNothing() throws {
        let memo = NodeRenderMemo()
        let renderer = Self.renderer()
        _ = renderer.render(Self.document, context: Self.context(state: [:]), name: "doc", memo: memo)
        let english = DataContext(
            [("env", .object([:])), ("state", .object([:])), ("title", "Tarea"), ("materials", Self.materials)],
            defaultObject: .null, environment: EvaluationEnvironment(now: environment.now, locale: Locale(identifier: "en_US")))
        _ = renderer.render(Self.document, context: english, name: "doc", memo: memo)
        #expect(memo.reused == 0)
        let other = try NodeCompiler().compile(Self.document.node)
        _ = renderer.render(other, context: english, name: "doc", memo: memo)
        #expect(memo.reused == 0)
    }
}
