/// The typed properties of a view node, one case per node type (seed 002 §4.2). Values that
/// may be bindings (`$.path | transform`) are kept as `JSONValue` and compiled by the resolvers.
public indirect enum NodeProps: Sendable, Hashable {  // wire: tagged by NodeType
    /// `vstack`, `hstack`, `lazy_vstack`, `lazy_hstack`.
    case stack(spacing: Double?, alignment: String?)  // wire: tags=vstack+hstack+lazyVStack+lazyHStack
    /// `zstack`.
    case zstack(alignment: String?)
    /// `scroll`: `horizontal` or `vertical`.
    case scroll(axis: String?)
    /// `list`: a binding to an array and the template drawn per item.
    case list(items: String, itemTemplate: ViewNode, separator: Bool?)
    /// `spacer`.
    case spacer(minLength: Double?)
    /// `grid`.
    case grid(columns: Int?, spacing: Double?)
    /// `text`.
    case text(content: JSONValue = .null, lineLimit: Int?)
    /// `image`: a URL binding or `system:<symbol>`.
    case image(
        source: JSONValue = .null, resizable: Bool?, aspectRatio: Double?, contentMode: String?, accessibilityLabel: String?
    )
    /// `button`.
    case button(label: ViewNode?, action: NodeAction?)
    /// `navigation_link`.
    case navigationLink(destination: ScreenReference, label: ViewNode?)
    /// `text_field`: a two-way binding into state.
    case textField(placeholder: String?, binding: String?)
    /// `search_bar`.
    case searchBar(placeholder: String?, binding: String?, onSubmit: NodeAction?)
    /// `tab_view`.
    case tabView(tabs: [TabItem])
    /// `navigation_stack`.
    case navigationStack(root: ViewNode?)
    /// `screen`.
    case screen(title: JSONValue?, body: ViewNode?, toolbar: ViewNode?, onLoad: NodeAction?)
    /// `sheet`.
    case sheet(content: ViewNode?)
    /// `component`: a reference to a reusable component with its arguments.
    case component(name: String, parameters: [String: JSONValue] = [:])
    /// `divider`, or any type without props.
    case none  // wire: tags=divider
    /// The props of a node type the SDK does not know, kept as written.
    case unknown(JSONObject)
}
