/// The typed properties of a view node, one case per node type (seed 002 §4.2). Values that
/// may be bindings (`$.path | transform`) are kept as `JSONValue` and compiled by the resolvers.
public indirect enum NodeProps: Sendable, Hashable {
    /// `vstack`, `hstack`, `lazy_vstack`, `lazy_hstack`.
    case stack(spacing: Double?, alignment: String?)
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
    case text(content: JSONValue, lineLimit: Int?)
    /// `image`: a URL binding or `system:<symbol>`.
    case image(source: JSONValue, resizable: Bool?, aspectRatio: Double?, contentMode: String?, accessibilityLabel: String?)
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
    case component(name: String, parameters: [String: JSONValue])
    /// `divider`, or any type without props.
    case none
    /// The props of a node type the SDK does not know, kept as written.
    case unknown(JSONObject)

    /// Decodes the props of a node of type `type` from `object`.
    public init(type: NodeType, object o: JSONObject, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        switch type {
        case .vstack, .hstack, .lazyVStack, .lazyHStack:
            self = .stack(spacing: try context.optional("spacing", in: o), alignment: try context.optional("alignment", in: o))
        case .zstack:
            self = .zstack(alignment: try context.optional("alignment", in: o))
        case .scroll:
            self = .scroll(axis: try context.optional("axis", in: o))
        case .list:
            self = .list(
                items: try context.required("items", in: o), itemTemplate: try context.required("itemTemplate", in: o),
                separator: try context.optional("separator", in: o))
        case .spacer:
            self = .spacer(minLength: try context.optional("minLength", in: o))
        case .grid:
            self = .grid(columns: try context.optional("columns", in: o), spacing: try context.optional("spacing", in: o))
        case .text:
            self = .text(content: o["content"] ?? .null, lineLimit: try context.optional("lineLimit", in: o))
        case .image:
            self = .image(
                source: o["source"] ?? .null, resizable: try context.optional("resizable", in: o),
                aspectRatio: try context.optional("aspectRatio", in: o), contentMode: try context.optional("contentMode", in: o),
                accessibilityLabel: try context.optional("accessibilityLabel", in: o))
        case .divider:
            self = .none
        case .button:
            self = .button(label: try context.optional("label", in: o), action: try context.optional("action", in: o))
        case .navigationLink:
            self = .navigationLink(
                destination: try context.required("destination", in: o), label: try context.optional("label", in: o))
        case .textField:
            self = .textField(
                placeholder: try context.optional("placeholder", in: o), binding: try context.optional("binding", in: o))
        case .searchBar:
            self = .searchBar(
                placeholder: try context.optional("placeholder", in: o), binding: try context.optional("binding", in: o),
                onSubmit: try context.optional("onSubmit", in: o))
        case .tabView:
            self = .tabView(tabs: try context.required("tabs", in: o))
        case .navigationStack:
            self = .navigationStack(root: try context.optional("root", in: o))
        case .screen:
            self = .screen(
                title: o["title"].flatMap { $0.isNull ? nil : $0 }, body: try context.optional("body", in: o),
                toolbar: try context.optional("toolbar", in: o), onLoad: try context.optional("onLoad", in: o))
        case .sheet:
            self = .sheet(content: try context.optional("content", in: o))
        case .component:
            self = .component(
                name: try context.required("name", in: o), parameters: try context.optional("parameters", in: o) ?? [:])
        case .unknown:
            self = .unknown(o)
        }
    }

    /// The props as a JSON object (the wire form).
    public var object: JSONObject {
        var b = JSONObjectBuilder()
        switch self {
        case .stack(let spacing, let alignment):
            b.set("spacing", spacing)
            b.set("alignment", alignment)
        case .zstack(let alignment):
            b.set("alignment", alignment)
        case .scroll(let axis):
            b.set("axis", axis)
        case .list(let items, let itemTemplate, let separator):
            b.set("items", items)
            b.set("itemTemplate", itemTemplate)
            b.set("separator", separator)
        case .spacer(let minLength):
            b.set("minLength", minLength)
        case .grid(let columns, let spacing):
            b.set("columns", columns)
            b.set("spacing", spacing)
        case .text(let content, let lineLimit):
            b.set("content", content)
            b.set("lineLimit", lineLimit)
        case .image(let source, let resizable, let aspectRatio, let contentMode, let accessibilityLabel):
            b.set("source", source)
            b.set("resizable", resizable)
            b.set("aspectRatio", aspectRatio)
            b.set("contentMode", contentMode)
            b.set("accessibilityLabel", accessibilityLabel)
        case .button(let label, let action):
            b.set("label", label)
            b.set("action", action)
        case .navigationLink(let destination, let label):
            b.set("destination", destination)
            b.set("label", label)
        case .textField(let placeholder, let binding):
            b.set("placeholder", placeholder)
            b.set("binding", binding)
        case .searchBar(let placeholder, let binding, let onSubmit):
            b.set("placeholder", placeholder)
            b.set("binding", binding)
            b.set("onSubmit", onSubmit)
        case .tabView(let tabs):
            b.set("tabs", tabs)
        case .navigationStack(let root):
            b.set("root", root)
        case .screen(let title, let body, let toolbar, let onLoad):
            b.set("title", title)
            b.set("body", body)
            b.set("toolbar", toolbar)
            b.set("onLoad", onLoad)
        case .sheet(let content):
            b.set("content", content)
        case .component(let name, let parameters):
            b.set("name", name)
            if !parameters.isEmpty { b.set("parameters", parameters) }
        case .none:
            break
        case .unknown(let object):
            return object
        }
        return b.object
    }
}
