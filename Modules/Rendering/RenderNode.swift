public import DynamicUIActions
public import DynamicUIModels
import Foundation

/// A layout axis.
public enum Axis: String, Sendable, Hashable {
    /// Top to bottom, or leading to trailing.
    case vertical, horizontal
}

/// The navigation-bar and container decisions of a screen (seed 003 §10.2).
public struct ScreenChrome: Sendable, Hashable {
    /// The pattern that lowered it.
    public var pattern: String
    /// Navigation title.
    public var title: String
    /// Large title (lists, dashboards, settings) or inline (details, forms).
    public var largeTitle: Bool
    /// Whether a back button is shown.
    public var showsBack: Bool
    /// Navigation-bar buttons.
    public var toolbar: [ToolbarItem]
    /// `.searchable`: prompt and the form field holding the query.
    public var search: SearchField?
    /// `.refreshable`: the action pull-to-refresh fires.
    public var refreshActionId: String?
    /// Infinite scrolling: whether another page exists and is loading.
    public var pagination: PaginationState?
    /// Push or sheet.
    public var presentation: Presentation
    /// A pending `.confirmationDialog` (seed 003 §10.4).
    public var confirmation: ConfirmationRequest?
    /// A message shown as an alert or toast (success, error, pending offline).
    public var banner: Banner?

    /// Creates chrome.
    public init(
        pattern: String, title: String, largeTitle: Bool, showsBack: Bool, toolbar: [ToolbarItem] = [],
        search: SearchField? = nil,
        refreshActionId: String? = nil, pagination: PaginationState? = nil, presentation: Presentation = .push
    ) {
        self.pattern = pattern
        self.title = title
        self.largeTitle = largeTitle
        self.showsBack = showsBack
        self.toolbar = toolbar
        self.search = search
        self.refreshActionId = refreshActionId
        self.pagination = pagination
        self.presentation = presentation
    }
}

/// A transient message: `.alert` for errors, a toast otherwise (seed 003 §10.4 snackbar).
public struct Banner: Sendable, Hashable {
    /// What kind of message.
    public enum Kind: String, Sendable, Hashable {
        /// Something succeeded.
        case success
        /// Something failed.
        case error
        /// Stored offline, to be sent later.
        case pending
    }

    /// What kind of message.
    public var kind: Kind
    /// The text.
    public var message: String

    /// Creates a banner.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// The search field of a screen.
public struct SearchField: Sendable, Hashable {
    /// Prompt text.
    public var prompt: String
    /// The form field that holds the query.
    public var field: String
    /// The current query.
    public var text: String

    /// Creates a search field.
    public init(prompt: String, field: String, text: String) {
        self.prompt = prompt
        self.field = field
        self.text = text
    }
}

/// Pagination state of a list screen.
public struct PaginationState: Sendable, Hashable {
    /// Another page can be requested.
    public var hasMore: Bool
    /// A page is loading.
    public var loadingMore: Bool

    /// Creates a pagination state.
    public init(hasMore: Bool, loadingMore: Bool) {
        self.hasMore = hasMore
        self.loadingMore = loadingMore
    }
}

/// A list row (seed 003 LIST: icon, title, subtitle, status capsule, disclosure).
public struct RowNode: Sendable, Hashable {
    /// Title (headline).
    public var title: String
    /// Secondary lines.
    public var subtitles: [String]
    /// Trailing status capsule.
    public var badge: String?
    /// Leading SF Symbol.
    public var icon: String?
    /// Disclosure chevron (navigates).
    public var showsChevron: Bool
    /// What tapping the row fires.
    public var actionId: String?
    /// `.swipeActions` (the SWIPE actions).
    public var swipeActionIds: [String]
    /// `.contextMenu` (the LONG_PRESS actions).
    public var contextActionIds: [String]
    /// Every secondary action of the row (swipe, then long press) with its title, symbol and
    /// role: a pointer-only platform and the web preview offer them in the row's menu.
    public var menuActions: [RowAction]

    /// Creates a value with every property.
    public init(
        title: String, subtitles: [String], badge: String? = nil, icon: String? = nil, showsChevron: Bool,
        actionId: String? = nil, swipeActionIds: [String], contextActionIds: [String], menuActions: [RowAction] = []
    ) {
        self.menuActions = menuActions
        self.title = title
        self.subtitles = subtitles
        self.badge = badge
        self.icon = icon
        self.showsChevron = showsChevron
        self.actionId = actionId
        self.swipeActionIds = swipeActionIds
        self.contextActionIds = contextActionIds
    }
}

/// List presentation.
public enum ListStyle: String, Sendable, Hashable {
    /// `List` plain.
    case plain
    /// `List` inset grouped (settings, grouped lists).
    case insetGrouped
    /// Cards in a scroll view.
    case cards
}

/// One node of the platform-neutral render tree. Every decision a backend needs is here, so
/// SwiftUI, HTML and text only map it.
public struct RenderNode: Sendable, Hashable, Identifiable {
    /// Stable identity: the zone/slot path, plus the item id inside lists.
    public var id: String
    /// What to draw.
    public var kind: RenderKind
    /// Children, in order.
    public var children: [RenderNode]
    /// Accessibility.
    public var accessibility: AccessibilityInfo?
    /// Resolved style (node dialect presets and inline styles; zone heights).
    public var style: NodeStyle?
    /// The document's `log_id`: backends report an impression when the node becomes visible.
    public var logId: String?

    /// Creates a node.
    public init(
        id: String, kind: RenderKind, children: [RenderNode] = [], accessibility: AccessibilityInfo? = nil,
        style: NodeStyle? = nil, logId: String? = nil
    ) {
        self.logId = logId
        self.id = id
        self.kind = kind
        self.children = children
        self.accessibility = accessibility
        self.style = style
    }
}

/// What a render node draws.
public indirect enum RenderKind: Sendable, Hashable {
    /// A whole screen; its single child is the content.
    case screen(ScreenChrome)
    /// `VStack`/`HStack` (lazy when `lazy`).
    case stack(axis: Axis, spacing: Double?, alignment: String?, lazy: Bool)
    /// `ZStack`.
    case zstack(alignment: String?)
    /// `LazyVGrid` with a column count decided by the size class.
    case grid(columns: Int, spacing: Double?)
    /// A wrapping row (chips).
    case flow
    /// `ScrollView`.
    case scroll(axis: Axis)
    /// `Form`.
    case form
    /// `Section` with an optional header.
    case section(header: String?)
    /// A list whose rows are built on demand.
    case list(style: ListStyle, rows: LazyRows)
    /// `Text`.
    case text(String, style: TextStyle, lineLimit: Int?)
    /// An input, toggle, picker or button.
    case control(ControlNode)
    /// A KPI card.
    case metric(label: String, value: String, icon: String?)
    /// `LabeledContent`.
    case labeledContent(label: String, value: String)
    /// A list row.
    case row(RowNode)
    /// An image: a URL or an SF Symbol.
    case image(source: String, isSymbol: Bool, contentMode: String?)
    /// A circular avatar with initials fallback.
    case avatar(source: String?, initials: String)
    /// A status capsule.
    case chip(String, style: String?)
    /// Stars out of five (`RenderKind.ratingStars` rounds any value into `0...5`).
    case rating(Double)
    /// `Divider`.
    case divider
    /// `Spacer`.
    case spacer(minLength: Double?)
    /// `ContentUnavailableView`.
    case emptyState(title: String, message: String?, systemImage: String?)
    /// Node dialect: `TabView`.
    case tabView([TabItem])
    /// Node dialect: a navigation link to a screen document with evaluated params.
    case navigationLink(screen: String, params: JSONObject)
    /// Node dialect: a button whose label is the children; `actionKey` finds its action.
    case button(actionKey: String)
    /// Node dialect: a text field bound to a state key.
    case textField(placeholder: String?, binding: String?, text: String)
    /// Node dialect: a search field bound to a state key.
    case searchField(placeholder: String?, binding: String?, text: String, actionKey: String?)
    /// Node dialect: a navigation container.
    case navigationStack
    /// Node dialect: a sheet, shown when the node is present.
    case sheet
    /// A host-registered native component (`NativeComponentRegistry`).
    case custom(CustomNode)
    /// A type this SDK does not know: nothing in release, a visible marker in previews.
    case unknown(String)
}

/// The rows of a list, built on demand: a 10,000-item list costs what its visible rows cost
/// (neither rows nor their ids are made until asked for). Ids are unique even when the data
/// repeats one (`[{"id": 1}, {"id": "1"}]`): a repeat gets `#index` appended.
public final class LazyRows: Sendable, Hashable {
    /// Number of rows.
    public let count: Int
    private let makeId: @Sendable (Int) -> String
    private let build: @Sendable (Int) -> RenderNode
    private let counter = RowCounter()
    private let uniqueIds = UniqueIds()

    /// Rows over `count` items; `id` gives a row's stable id, `build` the row.
    public init(count: Int, id: @escaping @Sendable (Int) -> String, build: @escaping @Sendable (Int) -> RenderNode) {
        self.count = count
        self.makeId = id
        self.build = build
    }

    /// The row at `index` (built now).
    public func row(at index: Int) -> RenderNode {
        counter.increment()
        return build(index)
    }

    /// The first `limit` rows.
    public func rows(limit: Int) -> [RenderNode] { (0..<max(0, min(limit, count))).map(row(at:)) }

    /// How many rows have been built so far (for tests of laziness).
    public var rowsBuilt: Int { counter.value }

    /// The stable, unique id of the row at `index` (the first request makes every id once).
    public func id(at index: Int) -> String { uniqueIds.ids(count: count, makeId)[index] }

    /// Lists are equal only to themselves: comparing rows would build them all.
    public static func == (lhs: LazyRows, rhs: LazyRows) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The ids of a list made unique, computed once on first use.
final class UniqueIds: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [String]?

    func ids(count: Int, _ makeId: (Int) -> String) -> [String] {
        lock.withLock {
            if let made { return made }
            var seen = Set<String>(minimumCapacity: count)
            var ids: [String] = []
            ids.reserveCapacity(count)
            for index in 0..<max(0, count) {
                var id = makeId(index)
                if !seen.insert(id).inserted {
                    id += "#\(index)"
                    while !seen.insert(id).inserted { id += "'" }
                }
                ids.append(id)
            }
            made = ids
            return ids
        }
    }
}

/// A thread-safe counter.
final class RowCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

extension RenderNode {
    /// The nodes of the tree built so far (list rows are built on demand and not counted).
    public var nodeCount: Int { children.reduce(1) { $0 + $1.nodeCount } }
}

extension RenderKind {
    /// The most columns a grid draws, whatever a document asks for.
    public static let maxGridColumns = 12

    /// A grid column count a backend can draw: `1...maxGridColumns`.
    public static func gridColumns(_ requested: Int) -> Int { min(max(1, requested), maxGridColumns) }

    /// Whole stars out of five for a rating value of any size (NaN is none).
    public static func ratingStars(_ value: Double) -> Int { WireNumber.int(rounding: value, in: 0...5) }

    /// A line limit a backend can draw: `nil` (unlimited) stays, anything else is `1...10_000`.
    public static func lineLimit(_ requested: Int?) -> Int? { requested.map { min(max(1, $0), 10_000) } }
}
