import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

@Suite("Node documents: an element that needs a permission")
struct NodePermissionTests {
    let document: CompiledNode
    let context = DataContext([], environment: EvaluationEnvironment(now: Date(timeIntervalSince1970: 0)))

    init() throws {
        let node = try ViewNode(
            json: try JSONReader().read(
                #"""
                {"type": "vstack", "children": [
                  {"type": "text", "props": {"content": "Episodes"}},
                  {"type": "button", "id": "delete", "permission": "podcasts.manage",
                    "props": {"label": {"type": "text", "props": {"content": "Delete podcast"}},
                      "action": {"actionType": "setState", "key": "deleting", "value": true}}}
                ]}
                """#))
        #expect(node.children[1].permission == "podcasts.manage")
        #expect(node.json["children"]?[1]?["permission"] == "podcasts.manage", "written back as it was read")
        document = try NodeCompiler().compile(node)
    }

    func shown(_ permissions: Set<String>?) -> (texts: [String], actions: [String]) {
        let renderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:], permissions: permissions)
        let rendered = renderer.render(document, context: context, name: "doc")
        return (TextRenderer().render(rendered.root).components(separatedBy: "\n"), rendered.actions.keys)
    }

    @Test func itIsDrawnWithItsActionOnlyForAUserWhoHasThePermission() {
        let manager = shown(["podcasts.manage", "podcasts.read"])
        #expect(manager.texts.contains { $0.contains("Delete podcast") })
        #expect(manager.actions.count == 1)
        let listener = shown(["podcasts.read"])
        #expect(!listener.texts.contains { $0.contains("Delete podcast") }, "\(listener.texts)")
        #expect(listener.texts.contains { $0.contains("Episodes") }, "the rest of the document is drawn")
        #expect(listener.actions.isEmpty, "nor can its action be fired by its key")
    }

    @Test func anAppThatDoesNotSayWhatTheUserMayDoDrawsEverything() {
        #expect(shown(nil).texts.contains { $0.contains("Delete podcast") }, "the server decides")
        #expect(!shown([]).texts.contains { $0.contains("Delete podcast") }, "an empty set is a user who may do nothing")
    }
}
