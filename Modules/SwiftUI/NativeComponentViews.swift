#if canImport(SwiftUI)
    public import DynamicUIModels
    public import DynamicUIRendering
    public import SwiftUI

    /// What a native component's SwiftUI view may do: fire one of its actions, or change the
    /// value it edits (the slot's form field, the node's state key).
    public struct NativeComponentActions {
        private let performAction: @MainActor (String) -> Void
        private let updateValue: @MainActor (JSONValue) -> Void

        /// Actions over the two closures (the SDK builds these; tests may too).
        public init(perform: @escaping @MainActor (String) -> Void, setValue: @escaping @MainActor (JSONValue) -> Void) {
            performAction = perform
            updateValue = setValue
        }

        /// Fires the action `name` (one of the component's `actionNames`); an action the
        /// document did not give is ignored.
        @MainActor public func perform(_ name: String) { performAction(name) }

        /// Sets the form field or state key the component edits.
        @MainActor public func setValue(_ value: JSONValue) { updateValue(value) }
    }

    /// The SwiftUI face of a native component: its view of a `CustomNode`.
    public protocol SwiftUINativeComponent: NativeComponent {
        /// The view of `node`; `actions` fires its actions and sets its value.
        @MainActor func view(_ node: CustomNode, actions: NativeComponentActions) -> AnyView
    }

    /// The view of the theme the node app draws with, for colors named by the tree.
    struct NodeThemeKey: EnvironmentKey {
        static let defaultValue: DynamicUIModels.Theme? = nil
    }

    extension EnvironmentValues {
        /// The node app's theme (`nil` for screen-dialect apps, whose colors are system colors).
        var nodeTheme: DynamicUIModels.Theme? {
            get { self[NodeThemeKey.self] }
            set { self[NodeThemeKey.self] = newValue }
        }
    }

    /// A `.custom` node: the registered component's SwiftUI view, or its type as a marker when
    /// the component has no SwiftUI face.
    struct CustomNodeView: View {
        let node: CustomNode
        let registry: NativeComponentRegistry
        let actions: NativeComponentActions

        var body: some View {
            if let component = registry.component(for: node.type) as? any SwiftUINativeComponent {
                component.view(node, actions: actions)
            } else {
                Label(node.type, systemImage: "puzzlepiece.extension")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            }
        }
    }
#endif
