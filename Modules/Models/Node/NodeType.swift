/// The type of a view node (seed 002 §4.2).
public enum NodeType: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// Layout nodes.
    case vstack, hstack, zstack, scroll, list, lazyVStack, lazyHStack, spacer, grid
    /// Content nodes.
    case text, image, divider
    /// Interactive nodes.
    case button, navigationLink, textField, searchBar
    /// Container and navigation nodes.
    case tabView, navigationStack, screen, sheet
    /// A reference to a reusable component.
    case component
    /// A node type this SDK does not know; drawn as a fallback.
    case unknown(String)

    public static let knownCases: [NodeType] = [
        .vstack, .hstack, .zstack, .scroll, .list, .lazyVStack, .lazyHStack, .spacer, .grid, .text, .image, .divider,
        .button, .navigationLink, .textField, .searchBar, .tabView, .navigationStack, .screen, .sheet, .component,
    ]

    public var rawValue: String {
        switch self {
        case .vstack: "vstack"
        case .hstack: "hstack"
        case .zstack: "zstack"
        case .scroll: "scroll"
        case .list: "list"
        case .lazyVStack: "lazy_vstack"
        case .lazyHStack: "lazy_hstack"
        case .spacer: "spacer"
        case .grid: "grid"
        case .text: "text"
        case .image: "image"
        case .divider: "divider"
        case .button: "button"
        case .navigationLink: "navigation_link"
        case .textField: "text_field"
        case .searchBar: "search_bar"
        case .tabView: "tab_view"
        case .navigationStack: "navigation_stack"
        case .screen: "screen"
        case .sheet: "sheet"
        case .component: "component"
        case .unknown(let raw): raw
        }
    }
}
