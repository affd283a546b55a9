public import DynamicUIModels
public import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIWeb
import Foundation

/// Tests a native component the way the SDK draws it: a node-dialect node or a screen-dialect
/// slot is lowered with the component registered, giving the `CustomNode` it receives (props
/// evaluated, actions, binding), and that node is drawn as the web preview draws it.
public struct NativeComponentHarness: Sendable {
    /// The registry the components were registered in (duplicates are an error, as at start).
    public let registry: NativeComponentRegistry

    /// A harness for `components`.
    public init(_ components: [any NativeComponent]) throws(ComponentRegistrationError) {
        registry = try NativeComponentRegistry(components)
    }

    /// The custom node that node-dialect `node` lowers to with `data` as `$` (`nil` when its type
    /// is not registered or its condition is false). Throws on a node that does not decode or
    /// compile.
    public func node(_ node: JSONValue, data: JSONObject = [:]) throws -> CustomNode? {
        let compiled = try NodeCompiler().compile(try ViewNode(json: node))
        let renderer = NodeRenderer(
            theme: Theme(), library: ComponentLibrary(), components: [:], nativeComponents: registry)
        let context = DataContext(
            [("env", .object([:]))] + data.map { ($0.key, $0.value) }, defaultObject: .object(data),
            environment: EvaluationEnvironment(now: Date()))
        let root = renderer.render(compiled, context: context, name: "test").root
        return Self.firstCustom(in: root)
    }

    /// The custom node that screen-dialect `slot` lowers to in a detail screen showing `data`,
    /// with `actions` (an action whose `trigger_slot_id` is the slot becomes its `tap`).
    public func slot(_ slot: JSONValue, data: JSONValue = .null, actions: [JSONValue] = []) throws -> CustomNode? {
        let screen = try ScreenDefinition(
            json: [
                "screen_id": "harness", "screen_key": "harness", "screen_name": "Harness", "pattern": "detail", "version": 1,
                "updated_at": "2026-01-01T00:00:00Z",
                "template": ["zones": [["id": "main", "type": "container", "slots": [slot]]]],
                "actions": .array(actions),
            ])
        let compiled = try ScreenCompiler().compile(screen)
        let context = try compiled.context(
            user: AuthUserInfo(id: "u", firstName: "Test", lastName: "User", email: "test@example.com"),
            userContext: UserContext(role: "student", roleName: "Student"), data: data,
            environment: EvaluationEnvironment(now: Date()))
        let root = PatternRouter(components: registry).render(ScreenInputs(screen: compiled, context: context))
        return Self.firstCustom(in: root)
    }

    /// The HTML the web preview draws for `node` (escaped, with only safe tags, attributes
    /// and URLs), its actions posting to `/action/<key>`.
    public func html(_ node: CustomNode) -> String {
        var renderer = HTMLRenderer()
        renderer.components = registry
        return renderer.fragment(RenderNode(id: "component", kind: .custom(node)))
    }

    private static func firstCustom(in node: RenderNode) -> CustomNode? {
        if case .custom(let custom) = node.kind { return custom }
        for child in node.children {
            if let found = firstCustom(in: child) { return found }
        }
        return nil
    }
}
