/// The type of a view node.
public enum NodeType: OpenEnum {  // wire: snake_case, except=lazyVStack:lazy_vstack+lazyHStack:lazy_hstack
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
}
