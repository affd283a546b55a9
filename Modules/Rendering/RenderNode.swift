public import DynamicUIModels
public import Foundation

/// A layout axis.
public enum RenderAxis: String, Sendable, Hashable {
    /// Top to bottom, or leading to trailing.
    case vertical, horizontal
}

/// The navigation-bar and container decisions of a screen. The pattern
/// lowering builds it; renderers read it.
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
    public var toolbar: [RenderToolbarItem] = []
    /// `.searchable`: prompt and the form field holding the query.
    public var search: RenderSearchField?
    /// `.refreshable`: the action pull-to-refresh fires.
    public var refreshActionId: String?
    /// Infinite scrolling: whether another page exists and is loading.
    public var pagination: PaginationState?
    /// Push or sheet.
    public var presentation: Presentation = .push
    /// A pending `.confirmationDialog`.
    public var confirmation: ConfirmationRequest?
    /// A message shown as an alert or toast (success, error, pending offline).
    public var banner: Banner?
    /// The SDK's words for the chrome (back, load more, more actions) and the layout
    /// direction of the locale (right-to-left mirrors the screen).
    public var strings: DynamicUIStrings = .current
}

/// A transient message: `.alert` for errors, a toast otherwise .
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

    /// How long the banner stays once shown before it goes by itself: errors stay until closed,
    /// and nothing goes by itself while VoiceOver is on (a person may not have heard it yet).
    public func lifetime(voiceOver: Bool) -> Double? {
        kind == .error || voiceOver ? nil : 6
    }
}

/// The search field of a screen (built by the pattern lowering).
public struct RenderSearchField: Sendable, Hashable {
    /// The action of the "clear search" button a search without results offers: the screen's
    /// model clears the query and shows the whole list again.
    public static let clearActionId = "dynamicui.clearSearch"

    /// Prompt text.
    public var prompt: String
    /// The form field that holds the query.
    public var field: String
    /// The current query.
    public var text: String
}

/// Pagination state of a list screen.
public struct PaginationState: Sendable, Hashable {
    /// Another page can be requested.
    public var hasMore: Bool
    /// A page is loading.
    public var loadingMore: Bool
    /// The last page request failed: the list says so and offers to try again (paging does
    /// not go on by itself, nor stop silently).
    public var failed: Bool

    /// Creates a pagination state.
    public init(hasMore: Bool, loadingMore: Bool, failed: Bool = false) {
        self.hasMore = hasMore
        self.loadingMore = loadingMore
        self.failed = failed
    }
}

/// A list row (icon, title, subtitle, status capsule, disclosure), built by the
/// pattern lowering.
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
    public var menuActions: [RowAction] = []
    /// Leading avatar (a person's picture, or their initials).
    public var avatar: AvatarImage?
}

/// A person's picture: an `http(s)` image, with their initials while it loads or when there is none.
public struct AvatarImage: Sendable, Hashable {
    /// The image URL, when the value was one.
    public var source: String?
    /// One or two letters of the person's name.
    public var initials: String

    /// Creates a value with every property.
    public init(source: String?, initials: String) {
        self.source = source
        self.initials = initials
    }

    /// The avatar of a slot value: a URL is the picture, never a name; the name (and so the
    /// initials) comes from `name` or, failing that, a value that is not a URL.
    public init(value: String?, name: String?) {
        let value = value?.trimmingCharacters(in: .whitespaces) ?? ""
        let isURL = value.contains("://") || value.hasPrefix("/")
        source = value.hasPrefix("https://") || value.hasPrefix("http://") ? value : nil
        initials = Self.initials(of: name ?? (isURL ? "" : value))
    }

    /// The first letters of the first two words of `name`, upper-cased (`"Ana María"` → `"AM"`).
    public static func initials(of name: String) -> String {
        name.split(whereSeparator: { $0.isWhitespace }).prefix(2).compactMap(\.first).map(String.init).joined().uppercased()
    }

    /// The person's name in a record: `full_name`, `name`, `display_name`, `user_name`,
    /// `first_name` + `last_name`, or `title`.
    public static func name(in record: JSONValue) -> String? {
        for key in ["full_name", "name", "display_name", "user_name", "student_name"] {
            if let name = record[key]?.stringValue, !name.isEmpty { return name }
        }
        let parts = [record["first_name"]?.stringValue, record["last_name"]?.stringValue].compactMap { $0 }
        if !parts.isEmpty { return parts.joined(separator: " ") }
        return record["title"]?.stringValue
    }
}

/// How a node sizes itself among its siblings, and how an image or a list is drawn: a slot's
/// `width` and `weight`, an image's `resizable` and `aspectRatio`, a list's `separator`.
/// Every number from the wire is clamped to a sane range; NaN is no value.
public struct LayoutHints: Sendable, Hashable {
    /// A slot's width.
    public enum Width: Sendable, Hashable {
        /// A fixed width in points (0…10,000).
        case points(Double)
        /// A share of the row (0…1): `"50%"`, `"half"`.
        case fraction(Double)
        /// All the room left (`"fill"`, `"full"`, `"infinity"`).
        case fill
    }

    /// The slot's width.
    public var width: Width?
    /// Its share of a row's free width relative to its siblings' weights (0.01…1,000).
    public var weight: Double?
    /// An image's width ÷ height (0.01…100).
    public var aspectRatio: Double?
    /// Whether an image scales to its frame (`false` keeps its natural size).
    public var resizable: Bool?
    /// Whether a list draws lines between rows (`nil`: the platform's default).
    public var showsSeparators: Bool?

    /// Creates hints; numbers are clamped.
    public init(
        width: Width? = nil, weight: Double? = nil, aspectRatio: Double? = nil, resizable: Bool? = nil,
        showsSeparators: Bool? = nil
    ) {
        switch width {
        case .points(let value)?: self.width = value.isNaN ? nil : .points(WireNumber.clamp(value, to: 0...10_000))
        case .fraction(let value)?: self.width = value.isNaN ? nil : .fraction(WireNumber.clamp(value, to: 0...1))
        default: self.width = width
        }
        self.weight = weight.flatMap { $0.isNaN ? nil : WireNumber.clamp($0, to: 0.01...1_000) }
        self.aspectRatio = aspectRatio.flatMap { $0.isNaN ? nil : WireNumber.clamp($0, to: 0.01...100) }
        self.resizable = resizable
        self.showsSeparators = showsSeparators
    }

    /// Hints from a slot's `width` text and `weight`; `nil` when neither says anything.
    public init?(width text: String?, weight: Double?) {
        let width = text.flatMap(Self.width(_:))
        guard width != nil || weight != nil else { return nil }
        self.init(width: width, weight: weight)
    }

    /// A slot's `width`: `"fill"`/`"full"`/`"infinity"`/`"max"`; `"half"`, `"third"`,
    /// `"quarter"` or `"40%"`; `"120"`, `"120pt"` or `"120px"`. Anything else is no width.
    public static func width(_ text: String) -> Width? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch text {
        case "fill", "full", "infinity", "max": return .fill
        case "half": return .fraction(0.5)
        case "third": return .fraction(1.0 / 3)
        case "quarter": return .fraction(0.25)
        default: break
        }
        if text.hasSuffix("%"), let percent = Double(text.dropLast()), percent.isFinite { return .fraction(percent / 100) }
        let number = text.hasSuffix("pt") || text.hasSuffix("px") ? String(text.dropLast(2)) : text
        if let points = Double(number), points.isFinite { return .points(points) }
        return nil
    }
}

/// List presentation.
public enum RenderListStyle: String, Sendable, Hashable {
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
    /// Sizing among siblings and image and list presentation (`width`, `weight`,
    /// `aspectRatio`, `resizable`, `separator`).
    public var layout: LayoutHints?
    /// How the node animates when it appears, disappears or changes.
    public var transition: RenderTransition?
    /// What the node reports as it is seen and as it goes (visibility and disappear actions):
    /// views tell the model the node's visible share, the model times and fires them.
    public var visibility: RenderVisibility?
    /// What tapping the node opens outside the app: a `tel:`, `mailto:` or `http(s)` address
    /// (`ContactLink`), drawn as a link (a school's phone, e-mail and web site).
    public var link: URL?
    /// Keeps Swift's synthesized memberwise initializer, which builds the node in place, apart
    /// from the public one (`MemberwiseToken`).
    let memberwise: MemberwiseToken
}

extension RenderNode {
    /// Creates a node.
    public init(
        id: String, kind: RenderKind, children: [RenderNode] = [], accessibility: AccessibilityInfo? = nil,
        style: NodeStyle? = nil, logId: String? = nil, layout: LayoutHints? = nil, transition: RenderTransition? = nil,
        visibility: RenderVisibility? = nil, link: URL? = nil
    ) {
        self.init(
            id: id, kind: kind, children: children, accessibility: accessibility, style: style, logId: logId,
            layout: layout, transition: transition, visibility: visibility, link: link, memberwise: MemberwiseToken())
    }
}

/// Where a stack places its children across its axis (a vertical stack reads the horizontal
/// part, a horizontal one the vertical part), or where a layered stack places them; read once
/// from the wire's words (`RenderAlignment(wire:)`). The web preview keeps a vertical stack's
/// blocks at full width, as SwiftUI's greedy rows are, and aligns their text.
public enum RenderAlignment: String, Sendable, Hashable, CaseIterable {
    /// The middle (the default).
    case center
    /// The leading edge.
    case leading
    /// The trailing edge.
    case trailing
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom
    /// The top leading corner.
    case topLeading
    /// The top trailing corner.
    case topTrailing
    /// The bottom leading corner.
    case bottomLeading
    /// The bottom trailing corner.
    case bottomTrailing
    /// The first line of text's baseline (a horizontal stack).
    case firstTextBaseline

    /// The alignment a wire word names (`leading`, `left`, `start`, `top_leading`, …); `nil`
    /// for none or a word not known (drawn centred).
    public init?(wire: String?) {
        guard let wire else { return nil }
        switch wire {
        case "left", "start": self = .leading
        case "right", "end": self = .trailing
        case "baseline", "first_text_baseline": self = .firstTextBaseline
        case "top_leading": self = .topLeading
        case "top_trailing": self = .topTrailing
        case "bottom_leading": self = .bottomLeading
        case "bottom_trailing": self = .bottomTrailing
        default: self.init(rawValue: wire)
        }
    }
}

/// How an image fills a frame of another shape: whole inside it, or covering it (cropped).
public enum RenderContentMode: String, Sendable, Hashable, CaseIterable {
    /// Whole, inside the frame.
    case fit
    /// Covering the frame, cropped.
    case fill

    /// The mode a wire word names (`fit`, `fill`); `nil` for none or another word (fitted).
    public init?(wire: String?) {
        guard let wire else { return nil }
        self.init(rawValue: wire)
    }
}

/// The tint of a status capsule: what the status means, not a colour.
public enum RenderChipStyle: String, Sendable, Hashable, CaseIterable {
    /// No particular meaning (the secondary colour).
    case neutral
    /// Done, valid, active.
    case success
    /// Needs attention.
    case warning
    /// Failed or destructive.
    case danger
    /// Informational.
    case info

    /// The style a slot's wire word names: `success`, `warning`, `danger` (or `error`,
    /// `destructive`), `info` (or `primary`), or the colours `green`, `orange`, `red`, `blue`;
    /// anything else is neutral.
    public init(wire: String?) {
        switch wire {
        case "success", "green": self = .success
        case "warning", "orange": self = .warning
        case "danger", "error", "destructive", "red": self = .danger
        case "info", "primary", "blue": self = .info
        default: self = .neutral
        }
    }
}

/// What a render node draws.
public indirect enum RenderKind: Sendable, Hashable {
    /// A whole screen; its single child is the content.
    case screen(ScreenChrome)
    /// `VStack`/`HStack` (lazy when `lazy`).
    case stack(axis: RenderAxis, spacing: Double?, alignment: RenderAlignment?, lazy: Bool)
    /// `ZStack`.
    case zstack(alignment: RenderAlignment?)
    /// `LazyVGrid` with a column count decided by the size class.
    case grid(columns: Int, spacing: Double?)
    /// A wrapping row (chips).
    case flow
    /// `ScrollView`.
    case scroll(axis: RenderAxis)
    /// `Form`.
    case form
    /// `Section` with an optional header.
    case section(header: String?)
    /// A list whose rows are built on demand.
    case list(style: RenderListStyle, rows: LazyRows)
    /// `Text`.
    case text(String, style: RenderTextStyle, lineLimit: Int?)
    /// An input, toggle, picker or button.
    case control(ControlNode)
    /// A KPI card.
    case metric(label: String, value: String, icon: String?)
    /// `LabeledContent`.
    case labeledContent(label: String, value: String)
    /// A list row.
    case row(RowNode)
    /// An image: a URL or an SF Symbol.
    case image(source: String, isSymbol: Bool, contentMode: RenderContentMode?)
    /// A circular avatar with initials fallback.
    case avatar(source: String?, initials: String)
    /// A status capsule.
    case chip(String, style: RenderChipStyle)
    /// Stars out of five (`RenderKind.ratingStars` rounds any value into `0...5`).
    case rating(Double)
    /// `Divider`.
    case divider
    /// `Spacer`.
    case spacer(minLength: Double?)
    /// `ContentUnavailableView`.
    case emptyState(title: String, message: String?, systemImage: String?)
    /// A placeholder of `lines` grey bars (a redacted skeleton) while a deferred section loads.
    case skeleton(lines: Int)
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
    package var rowsBuilt: Int { counter.value }

    /// The stable, unique id of the row at `index` (the first request makes every id once).
    public func id(at index: Int) -> String { uniqueIds.ids(count: count, makeId)[index] }

    /// Every row's stable, unique id, in order (made once; the rows are not built).
    public var ids: [String] { uniqueIds.ids(count: count, makeId) }

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
            let ids = Self.unique(count: count, makeId)
            made = ids
            return ids
        }
    }

    /// `count` ids from `makeId`, a repeat made unique by its index (`#index`).
    static func unique(count: Int, _ makeId: (Int) -> String) -> [String] {
        var seen = Set<String>(minimumCapacity: max(0, count))
        var ids: [String] = []
        ids.reserveCapacity(max(0, count))
        for index in 0..<max(0, count) {
            var id = makeId(index)
            if !seen.insert(id).inserted {
                id += "#\(index)"
                while !seen.insert(id).inserted { id += "'" }
            }
            ids.append(id)
        }
        return ids
    }
}

/// An element of a list with an id unique in that list, made from its key (a repeated key gets
/// `#index`): what a SwiftUI `ForEach` identifies toolbar items, tabs and rows by, so an element
/// keeps its identity, and its state, when others are inserted or removed.
public struct Keyed<Element>: Identifiable {
    /// The unique id.
    public let id: String
    /// The element's place in the list.
    public let index: Int
    /// The element.
    public let element: Element

    /// The elements of `list`, identified by `key` (a repeat is made unique).
    public static func list(_ list: [Element], key: (Element) -> String) -> [Keyed] {
        let ids = UniqueIds.unique(count: list.count) { key(list[$0]) }
        return list.indices.map { Keyed(id: ids[$0], index: $0, element: list[$0]) }
    }
}

extension Keyed: Sendable where Element: Sendable {}

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

    /// Every node of the tree, this one first, with the first `rowLimit` rows of each list
    /// (built here, as a list shows them) and what they hold: for a test, an audit or a lookup.
    public func nodes(rowLimit: Int = 0) -> [RenderNode] {
        var found: [RenderNode] = []
        var pending = [self]
        while let node = pending.popLast() {
            found.append(node)
            pending += node.children.reversed()
            if rowLimit > 0, case .list(_, let rows) = node.kind { pending += rows.rows(limit: rowLimit).reversed() }
        }
        return found
    }
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

/// A node's visibility and disappear actions, clamped (`VisibilityAction.clamped(disappear:)`).
public struct RenderVisibility: Sendable, Hashable {
    /// Fired when the node has been visible enough for long enough.
    public var appear: [VisibilityAction]
    /// Fired when the node, once seen, has been hidden enough for long enough.
    public var disappear: [VisibilityAction]

    /// The actions of an element, clamped; `nil` when it has none.
    public init?(appear: [VisibilityAction]?, disappear: [VisibilityAction]?) {
        guard appear?.isEmpty == false || disappear?.isEmpty == false else { return nil }
        let appear = (appear ?? []).prefix(Self.maximumActions).map { $0.clamped(disappear: false) }
        let disappear = (disappear ?? []).prefix(Self.maximumActions).map { $0.clamped(disappear: true) }
        guard !appear.isEmpty || !disappear.isEmpty else { return nil }
        self.appear = appear
        self.disappear = disappear
    }

    /// The most actions of each kind one element keeps (more are ignored; the validator says so).
    public static let maximumActions = 8

    /// The visible shares (0…1) the node's actions watch for, ascending: a view need report
    /// only a change that crosses one of them.
    public var thresholds: [Double] {
        Array(Set((appear + disappear).map { Double($0.visibilityPercentage ?? 0) / 100 })).sorted()
    }
}

/// A node's transition, ready to draw: a known animation, a duration within bounds and a curve.
public struct RenderTransition: Sendable, Hashable {
    /// The animation.
    public enum Kind: String, Sendable, Hashable {
        /// Opacity; a move from the bottom edge; a growth from slightly smaller.
        case fade, slide, scale
    }

    /// The animation.
    public var kind: Kind
    /// Seconds (0…2).
    public var duration: Double
    /// How it accelerates (`ease-in-out` by default).
    public var curve: TransitionCurve

    /// Creates a transition; the duration is clamped to 0…2 seconds.
    public init(kind: Kind, duration: Double, curve: TransitionCurve = .easeInOut) {
        self.kind = kind
        self.duration = duration.isFinite ? min(max(duration, 0), Double(ElementTransition.maximumDuration) / 1000) : 0
        self.curve = curve
    }

    /// The transition a document declares, or `nil` for an animation this SDK does not know.
    public init?(_ transition: ElementTransition) {
        let kind: Kind
        switch transition.type {
        case .fade: kind = .fade
        case .slide: kind = .slide
        case .scale: kind = .scale
        case .unknown: return nil
        }
        let milliseconds = transition.durationMs ?? ElementTransition.defaultDuration
        let curve: TransitionCurve =
            if case .unknown = transition.curve ?? .easeInOut { .easeInOut } else { transition.curve ?? .easeInOut }
        self.init(kind: kind, duration: Double(min(max(milliseconds, 0), ElementTransition.maximumDuration)) / 1000, curve: curve)
    }

    /// The transition with Reduce Motion on: a slide or a scale becomes a cross-fade of the same
    /// duration; `nil` (none) when it takes no time.
    public var reducedMotion: RenderTransition? {
        guard duration > 0 else { return nil }
        return RenderTransition(kind: .fade, duration: duration, curve: kind == .fade ? curve : .easeInOut)
    }
}
