public import DynamicUIModels

/// The frame a node's style asks for, made safe for the device: a server's fixed width never
/// makes a node wider than the space it is given (it is the ideal and the most, not a demand), a
/// fixed height around text becomes a minimum at the accessibility text sizes (text grows instead
/// of being cut), and every length is clamped to `0...NodeFrame.largestLength` (a negative or
/// non-finite length from the wire is dropped).
public struct NodeFrame: Sendable, Hashable {
    /// The longest length a style may ask for, in points.
    public static let largestLength = 10_000.0

    /// The exact height, when the node keeps the height it was given.
    public var height: Double?
    /// The ideal width (a fixed width from the style).
    public var idealWidth: Double?
    /// The smallest height (a fixed height around text at an accessibility size).
    public var minHeight: Double?
    /// The largest width: the style's maximum or its fixed width; `infinity` fills the space.
    public var maxWidth: Double?
    /// The largest height: the style's maximum; `infinity` fills the space.
    public var maxHeight: Double?

    /// The frame of `style` for a node that holds text or not, at a large (accessibility) text
    /// size or not.
    public init(style: NodeStyle?, holdsText: Bool, accessibilityTextSize: Bool) {
        let width = Self.length(style?.width)
        let height = Self.length(style?.height)
        idealWidth = width.flatMap { $0.isFinite ? $0 : nil }
        maxWidth = Self.length(style?.maxWidth) ?? width
        maxHeight = Self.length(style?.maxHeight)
        switch height {
        case let fixed? where fixed.isFinite && holdsText && accessibilityTextSize:
            minHeight = fixed
        case let fixed? where fixed.isFinite:
            self.height = fixed
        case .infinity?:
            maxHeight = maxHeight ?? .infinity
        default:
            break
        }
    }

    /// Whether the frame changes nothing.
    public var isEmpty: Bool { self == NodeFrame() }

    private init() {}

    /// A length of the wire, clamped (`infinity` stays: it fills the space); `nil` when absent,
    /// negative or not a number.
    static func length(_ dimension: FrameDimension?) -> Double? {
        switch dimension {
        case .infinity?: return .infinity
        case .points(let value)?:
            guard !value.isNaN, value >= 0 else { return nil }
            return min(value, largestLength)
        case nil: return nil
        }
    }
}

extension RenderNode {
    /// Whether the node or one of its built children draws text (its fixed height then yields to
    /// large text sizes). List rows are not built to answer.
    public var holdsText: Bool {
        switch kind {
        case .text, .control, .metric, .labeledContent, .row, .chip, .emptyState, .textField, .searchField, .avatar:
            return true
        default:
            return children.contains { $0.holdsText }
        }
    }
}
