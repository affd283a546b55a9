/// Type-specific properties of a view node, one case per node type; which
/// members a node has depends on its type. Values that may be bindings (`$.path | transform`)
/// are kept as `JSONValue` and compiled by the resolvers.
public indirect enum NodeProps: Sendable, Hashable {  // wire: tagged by NodeType, suffix=Props, open=NativeNode
    /// The props of vstack, hstack, lazy_vstack and lazy_hstack nodes.
    /// - Parameter alignment: leading, center, trailing, top or bottom.
    case stack(spacing: Double?, alignment: String?)  // wire: tags=vstack+hstack+lazyVStack+lazyHStack
    /// The props of zstack nodes.
    case zstack(alignment: String?)  // wire: name=ZStackProps
    /// The props of scroll nodes.
    /// - Parameter axis: vertical (the default) or horizontal.
    case scroll(axis: String?)
    /// The props of list nodes: a binding to an array and the template drawn per item.
    /// - Parameter items: A binding to an array.
    case list(items: String, itemTemplate: ViewNode, separator: Bool?)
    /// The props of spacer nodes.
    case spacer(minLength: Double?)
    /// The props of grid nodes.
    case grid(columns: Int?, spacing: Double?)
    /// The props of text nodes.
    /// - Parameter content: Text with placeholders, or a binding.
    case text(content: JSONValue = .null, lineLimit: Int?)
    /// The props of image nodes.
    /// - Parameter source: A URL binding, or `system:<symbol>`.
    /// - Parameter contentMode: fit or fill.
    /// - Parameter accessibilityLabel: VoiceOver label; needed when the image is a button's only content.
    case image(
        source: JSONValue = .null, resizable: Bool?, aspectRatio: Double?, contentMode: String?, accessibilityLabel: String?
    )
    /// The props of button nodes.
    case button(label: ViewNode?, action: NodeAction?)
    /// The props of navigation_link nodes.
    case navigationLink(destination: ScreenReference, label: ViewNode?)
    /// The props of text_field nodes: a two-way binding into state.
    /// - Parameter binding: A state path (`$.env.<key>`).
    case textField(placeholder: String?, binding: String?)
    /// The props of search_bar nodes.
    /// - Parameter binding: A state path (`$.env.<key>`).
    case searchBar(placeholder: String?, binding: String?, onSubmit: NodeAction?)
    /// The props of tab_view nodes.
    case tabView(tabs: [TabItem])
    /// The props of navigation_stack nodes.
    case navigationStack(root: ViewNode?)
    /// The props of screen nodes.
    /// - Parameter title: Text with placeholders, or a binding.
    /// - Parameter actions: The document's named actions: a timer's `tick_actions` and
    ///   `end_actions` run them by name.
    case screen(
        title: JSONValue?, body: ViewNode?, toolbar: ViewNode?, onLoad: NodeAction?, actions: [String: NodeAction] = [:])
    /// The props of sheet nodes.
    case sheet(content: ViewNode?)
    /// The props of component nodes: a reusable component and its arguments.
    /// - Parameter name: The component's name in the library.
    /// - Parameter parameters: Parameter name to binding or literal.
    case component(name: String, parameters: [String: JSONValue] = [:])
    /// `divider`, a type without props.
    case none  // wire: tags=divider
    /// The props of a node type the SDK does not know, kept as written.
    case unknown(JSONObject)
}
