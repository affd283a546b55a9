public import DynamicUIModels
public import DynamicUIResolvers
import Foundation

/// Where and how the tree is drawn.
public struct RenderOptions: Sendable, Hashable {
    /// Compact (iPhone) or regular (iPad, Mac).
    public var sizeClass: SizeClass
    /// Whose `platform_overrides` apply.
    public var platform: RenderPlatform
    /// Draw a visible marker for unknown types (previews) instead of nothing (release).
    public var showUnknownMarkers: Bool

    /// Creates options.
    public init(sizeClass: SizeClass = .compact, platform: RenderPlatform = .ios, showUnknownMarkers: Bool = false) {
        self.sizeClass = sizeClass
        self.platform = platform
        self.showUnknownMarkers = showUnknownMarkers
    }
}

/// The form's values and errors at render time.
public struct FormSnapshot: Sendable, Hashable {
    /// Values by field name.
    public var values: [String: String]
    /// Errors by field name.
    public var errors: [String: String]

    /// Creates a snapshot.
    public init(values: [String: String] = [:], errors: [String: String] = [:]) {
        self.values = values
        self.errors = errors
    }
}

/// What a screen is drawn from.
public struct ScreenInputs: Sendable {
    /// The compiled screen.
    public var screen: CompiledScreen
    /// The screen's root context (user, data, slot data, params).
    public var context: DataContext
    /// The list items when the data endpoint returned a list; `nil` to use the data itself.
    /// Items held in a document are built one row at a time, as rows are drawn.
    public var items: ListItems?
    /// Form values and errors.
    public var form: FormSnapshot
    /// Pagination state of a list.
    public var pagination: PaginationState?
    /// The search query.
    public var searchText: String
    /// A confirmation the user must answer.
    public var confirmation: ConfirmationRequest?
    /// A message to show.
    public var banner: Banner?
    /// Whether the navigation stack has a screen below this one: back follows the stack, so a
    /// tab's root has none whatever its template says; `nil` (unknown) uses the template.
    public var canGoBack: Bool?
    /// Whether the screen is presented as a sheet (a create or edit form opened from a list):
    /// it always gets a way to close, Cancel or the SDK's Close.
    public var presentedAsSheet = false
    /// What the signed-in user may do (the session's permissions): actions that need another
    /// permission, and the buttons, menu items and toolbar items that fire them, are left out.
    /// `nil` offers everything (the server did not say; it decides anyway).
    public var permissions: Set<String>?
    /// What the last render of this screen built: given, a render lowers only the zones and rows
    /// whose inputs changed (a patched card, a patched record) and takes the rest from it.
    public var memo: RenderMemo?
    /// The deferred sections' data by zone id (zones with their own `data_endpoint`): a zone
    /// without an entry is loading.
    public var sections: [String: SectionState] = [:]

    /// Creates inputs.
    public init(
        screen: CompiledScreen, context: DataContext, items: ListItems? = nil, form: FormSnapshot = FormSnapshot(),
        pagination: PaginationState? = nil, searchText: String = "", confirmation: ConfirmationRequest? = nil,
        banner: Banner? = nil, canGoBack: Bool? = nil, presentedAsSheet: Bool = false, permissions: Set<String>? = nil,
        memo: RenderMemo? = nil, sections: [String: SectionState] = [:]
    ) {
        self.memo = memo
        self.sections = sections
        self.canGoBack = canGoBack
        self.presentedAsSheet = presentedAsSheet
        self.permissions = permissions
        self.confirmation = confirmation
        self.banner = banner
        self.screen = screen
        self.context = context
        self.items = items
        self.form = form
        self.pagination = pagination
        self.searchText = searchText
    }
}

/// Lowers a screen-dialect screen into the render tree: one
/// mapping per pattern — login, dashboard, list, detail, form and settings as iOS draws them,
/// and search, profile, modal, notification, onboarding and empty-state by analogy (documented on `lowerContent`).
public struct PatternRouter: Sendable {
    /// Where and how the tree is drawn.
    public var options: RenderOptions
    /// The app's native components: a slot of a registered `control_type` becomes a `.custom` node.
    public var components: NativeComponentRegistry

    /// Creates a router.
    public init(options: RenderOptions = RenderOptions(), components: NativeComponentRegistry = .empty) {
        self.options = options
        self.components = components
    }

    /// The render tree of `inputs`.
    public func render(_ inputs: ScreenInputs) -> RenderNode {
        var lowering = ScreenLowering(inputs: inputs, options: options, components: components)
        guard let memo = inputs.memo else { return lowering.render() }
        let pass = memo.begin(RenderBasis(inputs: inputs, options: options))
        lowering.pass = pass
        if let tree = lowering.splice() {
            memo.end(pass, tree: tree, spliced: true)
            return tree
        }
        let tree = lowering.render()
        memo.end(pass, tree: tree, spliced: false)
        return tree
    }
}

/// The lowering of one screen.
struct ScreenLowering {
    var inputs: ScreenInputs
    let options: RenderOptions
    let components: NativeComponentRegistry
    let definition: ScreenDefinition
    let platform: PlatformOverride?
    /// The evaluation context: on single-object screens (detail, profile, form, modal) the data
    /// is also the `item`, so `{item.title}` reads the record being shown; inside a deferred
    /// section, the section's data is the default object and `section`.
    var context: DataContext
    /// The SDK's words in the context's locale.
    let strings: DynamicUIStrings
    /// Slots whose action the user may not take: not drawn.
    let refusedSlots: Set<String>
    /// The render's use of the screen's memo, if it has one.
    var pass: RenderPass?

    init(inputs: ScreenInputs, options: RenderOptions, components: NativeComponentRegistry = .empty) {
        self.components = components
        self.inputs = inputs
        self.options = options
        var definition = inputs.screen.definition
        let data = inputs.context.defaultRecord
        let showsOneRecord = [.detail, .profile, .form, .modal].contains(definition.pattern) && data.objectValue != nil
        // Actions the user may not take are not offered, nor the slots that fire them: those his
        // role lacks, and on a screen of one record those the record does not grant him.
        let record = showsOneRecord ? data : nil
        let allowed = { (action: ActionDefinition) in
            action.isAllowed(by: inputs.permissions) && action.isGranted(on: record)
        }
        if definition.actions.contains(where: { !allowed($0) }) {
            let refused = definition.actions.filter { !allowed($0) }
            definition.actions.removeAll { !allowed($0) }
            self.refusedSlots = Set(refused.compactMap(\.triggerSlotId))
        } else {
            self.refusedSlots = []
        }
        self.definition = definition
        self.platform = definition.template.platformOverrides?[options.platform.rawValue]
        self.strings = inputs.context.environment.strings
        if showsOneRecord, inputs.context.lookup("item") == nil {
            context = inputs.context.item(data, index: 0)
        } else {
            context = inputs.context
        }
    }

    var pattern: ScreenPattern { definition.pattern }

    func render() -> RenderNode {
        let zones = visible(inputs.screen.zones)
        let chrome = chrome(zones)
        let root = RenderNode(
            id: "screen:\(definition.screenKey)", kind: .screen(chrome), children: [lowerContent(zones)],
            accessibility: AccessibilityInfo(label: text(inputs.screen.title)))
        // Without a text input (or search bar) there is no focus order to assign: the walks of
        // the whole tree are skipped (a patched dashboard draws only its changed card).
        guard zones.contains(where: \.containsTextInput) else {
            remember(zones, in: root, focus: nil)
            return root
        }
        // The form's primary action: the toolbar's confirmation, else the first primary button.
        let submit = chrome.toolbar.first { $0.placement == .confirmation }?.actionId ?? Self.primaryAction(in: root)
        let focus = FocusOrder(fields: FormFocus.order(in: root), submitActionId: submit, isSignIn: pattern == .login)
        // Fields of one name twice: a zone's place in the order would not be known.
        if Set(focus.fields).count == focus.fields.count { remember(zones, in: root, focus: focus) }
        return FormFocus.assign(root, order: focus)
    }

    /// Tells the memo where the top `zones` are in `root`, for a later splice (patterns that
    /// place each zone's node as it was lowered).
    private func remember(_ zones: [CompiledZone], in root: RenderNode, focus: FocusOrder?) {
        guard let pass, Self.placesZones.contains(pattern) else { return }
        pass.drawn = DrawnTree(
            tree: nil,
            zones: zones.map { TopZone(id: $0.zone.id, type: $0.zone.type, titled: $0.zone.title != nil, path: nil) },
            focus: focus)
    }

    /// The patterns that place each top zone's node in the tree as it was lowered (and skip
    /// only empty stacks): a zone drawn again can be put in place of its previous node.
    private static let placesZones: Set<ScreenPattern> = [
        .list, .search, .notification, .dashboard, .detail, .profile, .onboarding,
    ]

    /// A render that changes a few zones (a tick, a keystroke): those zones drawn again and put
    /// in place of their nodes in the previous tree, which keeps everything else, its chrome and
    /// its focus order. `nil` when the tree around them may change: another pattern, zones shown
    /// or hidden, a zone that now draws nothing or other fields, another primary button.
    func splice() -> RenderNode? {
        guard let pass, let previous = pass.previousTree, let tree = previous.tree, Self.placesZones.contains(pattern)
        else { return nil }
        let checkpoint = pass.checkpoint()
        guard let spliced = splice(into: tree, previous: previous, pass: pass) else {
            // What was drawn for the splice is not this render's: it draws the tree in full.
            pass.restore(checkpoint)
            return nil
        }
        return spliced
    }

    private func splice(into tree: RenderNode, previous: DrawnTree, pass: RenderPass) -> RenderNode? {
        var tree = tree
        var previous = previous
        if !previous.located {
            // Where each zone's node is, found once per tree drawn in full.
            let paths = tree.paths(to: Set(previous.zones.map { "zone:\($0.id)" }))
            for index in previous.zones.indices { previous.zones[index].path = paths["zone:\(previous.zones[index].id)"] }
            previous.located = true
        }
        let zones = visible(inputs.screen.zones)
        guard zones.count == previous.zones.count, zip(zones, previous.zones).allSatisfy({ $0.zone.id == $1.id })
        else { return nil }
        for (zone, before) in zip(zones, previous.zones) {
            let (lowered, reused) = lowerZoneTracked(zone)
            if reused { continue }
            var node = lowered
            // A patched zone of another type, or that gained or lost its title, may go elsewhere
            // (a dashboard's columns, a detail's hero); a search bar's zone draws the chrome's search.
            guard before.type == zone.zone.type, before.titled == (zone.zone.title != nil), !zone.containsSearchBar,
                let path = before.path
            else { return nil }
            if case .stack = node.kind, node.children.isEmpty, [.list, .search, .notification].contains(pattern) { return nil }
            let old = tree.node(at: path[...])
            // The last field submits the tree's first primary button, wherever it is.
            if previous.focus != nil, Self.primaryAction(in: node) != Self.primaryAction(in: old) { return nil }
            if zone.containsTextInput {
                let fields = FormFocus.order(in: node)
                guard let focus = previous.focus, fields == FormFocus.order(in: old) else { return nil }
                let start = fields.first.flatMap { focus.fields.firstIndex(of: $0) } ?? 0
                node = FormFocus.assign(node, order: focus, from: start)
            }
            tree.replace(at: path[...], with: node)
        }
        pass.drawn = DrawnTree(tree: nil, zones: previous.zones, focus: previous.focus, located: true)
        return tree
    }

    private static func primaryAction(in node: RenderNode) -> String? {
        if case .control(let control) = node.kind, control.role == .primary, let action = control.actionId { return action }
        for child in node.children {
            if let found = primaryAction(in: child) { return found }
        }
        return nil
    }

    // MARK: Chrome

    private func chrome(_ zones: [CompiledZone]) -> ScreenChrome {
        var toolbar: [RenderToolbarItem] = []
        if let fab = definition.action(for: .fabClick) {
            toolbar.append(
                RenderToolbarItem(
                    placement: .primaryAction, title: fab.config?["title"]?.stringValue ?? strings(.new), systemImage: "plus",
                    actionId: fab.id,
                    isDestructive: false))
        }
        if pattern == .form || pattern == .modal {
            for zone in allZones(zones) where zone.zone.type == .actionGroup {
                for slot in zone.slots where slot.slot.controlType.isButton {
                    guard let action = definition.action(forSlot: slot.slot.id) else { continue }
                    let cancels = action.type == .navigateBack || slot.slot.controlType == .textButton
                    toolbar.append(
                        RenderToolbarItem(
                            placement: cancels ? .cancellation : .confirmation, title: label(of: slot) ?? action.id,
                            systemImage: nil,
                            actionId: action.id, isDestructive: slot.slot.style == "destructive"))
                }
            }
        }
        var search: RenderSearchField?
        if let slot = searchBar(in: zones) {
            let prompt = (try? slot.value.resolve(in: context))?.text ?? slot.slot.placeholder ?? strings(.search)
            search = RenderSearchField(prompt: prompt, field: slot.slot.formFieldName, text: inputs.searchText)
        }
        let listLike: Set<ScreenPattern> = [.list, .search, .notification]
        var chrome = ScreenChrome(
            pattern: pattern.rawValue, title: text(inputs.screen.title) ?? definition.screenName,
            largeTitle: Self.largeTitlePatterns.contains(pattern),
            showsBack: inputs.canGoBack
                ?? definition.template.navigation?.topBar?.showBack ?? ![.dashboard, .login, .onboarding].contains(pattern),
            toolbar: toolbar, search: search, refreshActionId: definition.action(for: .pullRefresh)?.id,
            pagination: listLike.contains(pattern) && definition.dataConfig?.pagination != nil ? inputs.pagination : nil,
            presentation: pattern == .modal || inputs.presentedAsSheet ? .sheet : .push)
        if chrome.presentation == .sheet, !toolbar.contains(where: { $0.placement == .cancellation }) {
            // A sheet always has a way to close, whatever the server sent.
            toolbar.append(
                RenderToolbarItem(
                    placement: .cancellation, title: strings(.close), actionId: RenderToolbarItem.dismissActionId,
                    isDestructive: false)
            )
            chrome.toolbar = toolbar
        }
        chrome.confirmation = inputs.confirmation
        chrome.banner = inputs.banner
        chrome.strings = strings
        // A form with its own Cancel has no Back beside it (Cancel already leaves).
        if toolbar.contains(where: { $0.placement == .cancellation }) { chrome.showsBack = false }
        return chrome
    }

    // MARK: Patterns

    /// The content of each pattern:
    /// - login: a centred stack — brand zones, then one `Form` holding the fields and the
    ///   sign-in button;
    /// - dashboard: a scroll view of zones; KPIs in a 2-column grid (4 in regular), and in
    ///   regular width the other zones side by side;
    /// - list, search, notification: the search field goes to `.searchable`, list zones are lazy
    ///   `List`s, empty-state zones become `ContentUnavailableView`;
    /// - detail, profile: a scroll view of sections of `LabeledContent`, buttons in a row; in
    ///   regular width sections side by side;
    /// - form, modal: a `Form` with a `Section` per form-section; the buttons move to the
    ///   navigation bar (cancel and confirm); modal is presented as a sheet;
    /// - settings: a grouped `Form`; switches are toggles, navigation items rows, the
    ///   destructive button its own section;
    /// - onboarding: a horizontal pager of zones; empty-state: a `ContentUnavailableView`;
    /// - an unknown pattern: its zones stacked, with a marker in previews.
    private func lowerContent(_ zones: [CompiledZone]) -> RenderNode {
        let id = "content"
        switch pattern {
        case .login:
            var parts: [RenderNode] = []
            var formSections: [RenderNode] = []
            for zone in zones {
                switch zone.zone.type {
                case .formSection, .actionGroup:
                    formSections.append(
                        RenderNode(id: zoneId(zone), kind: .section(header: text(zone.title)), children: slots(zone)))
                default:
                    parts.append(lowerZone(zone))
                }
            }
            if !formSections.isEmpty { parts.append(RenderNode(id: "\(id).form", kind: .form, children: formSections)) }
            return RenderNode(
                id: id, kind: .stack(axis: .vertical, spacing: 24, alignment: .center, lazy: false), children: parts)
        case .dashboard:
            let regular =
                options.sizeClass == .regular || platform?.distribution == .sideBySide || platform?.distribution == .grid
            var children: [RenderNode] = []
            var side: [RenderNode] = []
            for zone in zones {
                let node = lowerZone(zone)
                if regular, zone.zone.type != .metricGrid, zone.zone.type != .container || zone.zone.title != nil {
                    side.append(node)
                } else {
                    if !side.isEmpty {
                        children.append(
                            RenderNode(id: "\(id).columns\(children.count)", kind: .grid(columns: 2, spacing: 16), children: side)
                        )
                        side = []
                    }
                    children.append(node)
                }
            }
            if !side.isEmpty {
                children.append(
                    RenderNode(id: "\(id).columns\(children.count)", kind: .grid(columns: 2, spacing: 16), children: side))
            }
            return scrollingSections(id, children)
        case .list, .search, .notification:
            let children = zones.compactMap { zone -> RenderNode? in
                let node = lowerZone(zone)
                if case .stack = node.kind, node.children.isEmpty { return nil }
                return node
            }
            return RenderNode(id: id, kind: .stack(axis: .vertical, spacing: 0, alignment: nil, lazy: false), children: children)
        case .detail, .profile:
            let sideBySide = options.sizeClass == .regular || platform?.distribution == .sideBySide
            var hero: [RenderNode] = []
            var sections: [RenderNode] = []
            for (index, zone) in zones.enumerated() {
                let node = lowerZone(zone)
                if index == 0 && zone.zone.title == nil && zone.zone.type == .container {
                    hero.append(node)
                } else {
                    sections.append(node)
                }
            }
            let body: [RenderNode] =
                sideBySide && sections.count > 1
                ? hero + [RenderNode(id: "\(id).columns", kind: .grid(columns: 2, spacing: 16), children: sections)]
                : hero + sections
            return scrollingSections(id, body)
        case .form, .modal, .settings:
            return RenderNode(id: id, kind: .form, children: formSections(zones))
        case .onboarding:
            return RenderNode(id: id, kind: .scroll(axis: .horizontal), children: zones.map(lowerZone))
        case .emptyState:
            return emptyState(zones.first, id: id)
                ?? RenderNode(id: id, kind: .emptyState(title: definition.screenName, message: nil, systemImage: nil))
        case .unknown(let name):
            var children = zones.map(lowerZone)
            if options.showUnknownMarkers {
                children.insert(RenderNode(id: "\(id).unknown", kind: .unknown("pattern \(name)")), at: 0)
            }
            return RenderNode(id: id, kind: .stack(axis: .vertical, spacing: 16, alignment: nil, lazy: false), children: children)
        }
    }

    /// One `Section` per zone that holds fields (nested zones flattened); in
    /// forms the action group is not a section, its buttons are in the navigation bar.
    private func formSections(_ zones: [CompiledZone]) -> [RenderNode] {
        var sections: [RenderNode] = []
        for zone in zones {
            if pattern != .settings, zone.zone.type == .actionGroup { continue }
            if [.simpleList, .groupedList, .cardList].contains(zone.zone.type), zone.itemSlots != nil {
                // A list inside a form keeps its rows: a section of its own.
                let list = lowerZone(zone)
                if case .section = list.kind {
                    sections.append(list)
                } else {
                    sections.append(RenderNode(id: "\(zoneId(zone)).section", kind: .section(header: nil), children: [list]))
                }
                continue
            }
            let fields = slots(zone)
            if !fields.isEmpty {
                sections.append(RenderNode(id: zoneId(zone), kind: .section(header: text(zone.title)), children: fields))
            }
            sections += formSections(visible(zone.zones))
        }
        return sections
    }

    /// Sections one under another, leading-aligned and drawn as they scroll into view.
    private func scrollingSections(_ id: String, _ sections: [RenderNode]) -> RenderNode {
        let stack = RenderNode(
            id: "\(id).stack", kind: .stack(axis: .vertical, spacing: 16, alignment: .leading, lazy: true), children: sections)
        return RenderNode(id: id, kind: .scroll(axis: .vertical), children: [stack])
    }

    // MARK: Zones

    /// Zones whose condition holds and that no platform override hides.
    private func visible(_ zones: [CompiledZone]) -> [CompiledZone] {
        zones.filter { zone in
            if platform?.zones?[zone.zone.id]?.visible == false { return false }
            guard let condition = zone.condition else { return true }
            return (try? condition.isTrue(in: context)) ?? false
        }
    }

    /// The first search bar in `zones` and the visible zones they nest, in document order (only
    /// zones that hold one are looked into).
    private func searchBar(in zones: [CompiledZone]) -> CompiledSlot? {
        for zone in zones where zone.containsSearchBar {
            let slots = zone.slots
            for slot in slots.indices where slots[slot].slot.controlType == .searchBar { return slots[slot] }
            let nested = zone.zones
            if !nested.isEmpty, let found = searchBar(in: visible(nested)) { return found }
        }
        return nil
    }

    private func allZones(_ zones: [CompiledZone]) -> [CompiledZone] {
        zones.flatMap { [$0] + allZones(visible($0.zones)) }
    }

    private func zoneId(_ zone: CompiledZone) -> String { "zone:\(zone.zone.id)" }

    private func distribution(of zone: CompiledZone) -> Distribution {
        if let override = platform?.zones?[zone.zone.id]?.distribution { return override }
        if let distribution = zone.zone.distribution { return distribution }
        return zone.zone.type == .metricGrid ? .grid : .stacked
    }

    /// A zone's node, carrying its `log_id`.
    private func lowerZone(_ zone: CompiledZone) -> RenderNode { lowerZoneTracked(zone).node }

    /// A zone's node, and whether it was taken from the memo as it was drawn before.
    private func lowerZoneTracked(_ zone: CompiledZone) -> (node: RenderNode, reused: Bool) {
        let place = pass?.lookup(zone)
        if let place, let kept = place.kept {
            pass?.drew(kept, at: place.place, reused: true)
            return (kept.node, true)
        }
        var node = zone.zone.dataEndpoint == nil ? lowerZoneContent(zone) : lowerSection(zone)
        node.logId = zone.zone.logId
        node.transition = zone.zone.transition.flatMap(RenderTransition.init)
        if zone.zone.visibilityActions != nil || zone.zone.disappearActions != nil {
            node.visibility = RenderVisibility(appear: zone.zone.visibilityActions, disappear: zone.zone.disappearActions)
        }
        if let place { pass?.drew(RenderPass.DrawnNode(node), at: place.place, reused: false) }
        return (node, false)
    }

    /// A deferred section: a skeleton while it loads, its own error with a retry when it
    /// failed, and its content, read from its own data, when it arrived.
    private func lowerSection(_ zone: CompiledZone) -> RenderNode {
        let id = zoneId(zone)
        switch inputs.sections[zone.zone.id] {
        case .loaded(let data)?:
            var section = self
            section.context = context.child([("section", data)], defaultObject: data)
            section.inputs.items = nil  // its rows are its own data's, not the screen's list
            return section.lowerZoneContent(zone)
        case .failed(let message)?:
            let retry = ControlNode(
                type: .textButton, label: strings(.retry), value: .null, isRequired: false, isReadOnly: false, options: [],
                icon: "arrow.clockwise", role: .plain, actionId: SectionState.retryActionId(zone.zone.id))
            return RenderNode(
                id: id,
                kind: .emptyState(
                    title: text(zone.title) ?? strings(.dataLoadFailed), message: message, systemImage: "wifi.slash"),
                children: [
                    RenderNode(
                        id: "\(id)/retry", kind: .control(retry),
                        accessibility: AccessibilityInfo(label: strings(.retry), traits: ["button"]))
                ])
        case .loading?, nil:
            let lines = max(1, min(zone.slots.count + (zone.itemSlots == nil ? 0 : 3), 6))
            return RenderNode(
                id: id, kind: .skeleton(lines: lines), accessibility: AccessibilityInfo(label: strings(.loading), traits: []))
        }
    }

    private func lowerZoneContent(_ zone: CompiledZone) -> RenderNode {
        let id = zoneId(zone)
        var style: NodeStyle?
        if let height = platform?.zones?[zone.zone.id]?.height { style = NodeStyle(height: .points(Double(height))) }
        switch zone.zone.type {
        case .simpleList, .groupedList, .cardList:
            guard zone.itemSlots != nil else { break }
            let listStyle: RenderListStyle =
                zone.zone.type == .groupedList ? .insetGrouped : zone.zone.type == .cardList ? .cards : .plain
            let list = RenderNode(id: "\(id).list", kind: .list(style: listStyle, rows: rows(for: zone)))
            guard let title = text(zone.title) else { return RenderNode(id: id, kind: list.kind, children: [], style: style) }
            return RenderNode(id: id, kind: .section(header: title), children: [list], style: style)
        case .container where isEmptyState(zone):
            return emptyState(zone, id: id) ?? RenderNode(id: id, kind: .emptyState(title: "", message: nil, systemImage: nil))
        default:
            break
        }
        let children = slots(zone) + visible(zone.zones).map(lowerZone)
        let kind: RenderKind
        switch distribution(of: zone) {
        case .stacked: kind = .stack(axis: .vertical, spacing: 8, alignment: .leading, lazy: false)
        case .sideBySide: kind = .stack(axis: .horizontal, spacing: 12, alignment: .center, lazy: false)
        case .grid:
            let columns =
                zone.zone.type == .metricGrid ? (options.sizeClass == .regular ? 4 : 2) : (options.sizeClass == .regular ? 3 : 2)
            kind = .grid(columns: columns, spacing: 12)
        case .flowRow: kind = .flow
        case .unknown: kind = .stack(axis: .vertical, spacing: 8, alignment: .leading, lazy: false)
        }
        let content = RenderNode(id: text(zone.title) == nil ? id : "\(id).content", kind: kind, children: children, style: style)
        if let header = text(zone.title) {
            return RenderNode(
                id: id, kind: .section(header: header), children: [content],
                accessibility: AccessibilityInfo(label: header, traits: ["header"]))
        }
        return content
    }

    /// A container whose condition tests emptiness is the list's empty state.
    private func isEmptyState(_ zone: CompiledZone) -> Bool {
        zone.zone.condition?.replacingOccurrences(of: " ", with: "").contains("isEmpty") == true
            && zone.slots.contains { $0.slot.controlType == .label }
    }

    private func emptyState(_ zone: CompiledZone?, id: String) -> RenderNode? {
        guard let zone else { return nil }
        let term = inputs.searchText.trimmingCharacters(in: .whitespaces)
        if !term.isEmpty {
            // Nothing matches the search: say so, with a way back to the whole list (the
            // collection's own empty state would claim there is nothing at all).
            let clear = ControlNode(
                type: .textButton, label: strings(.clearSearch), value: .null, isRequired: false, isReadOnly: false,
                options: [], icon: "xmark.circle", role: .plain, actionId: RenderSearchField.clearActionId)
            return RenderNode(
                id: id,
                kind: .emptyState(
                    title: strings(.noResults), message: strings(.noResultsFor, term), systemImage: "magnifyingglass"),
                children: [
                    RenderNode(
                        id: "\(id)/clear-search", kind: .control(clear),
                        accessibility: AccessibilityInfo(label: strings(.clearSearch), traits: ["button"]))
                ])
        }
        let labels = zone.slots.filter { $0.slot.controlType == .label }.compactMap { value(of: $0)?.text }
        let icon = zone.slots.first { $0.slot.controlType == .icon }.flatMap { value(of: $0)?.text ?? $0.slot.icon }
        let buttons = zone.slots.filter { $0.slot.controlType.isButton }.compactMap {
            lowerSlot($0, context: context, prefix: id)
        }
        return RenderNode(
            id: id,
            kind: .emptyState(title: labels.first ?? definition.screenName, message: labels.dropFirst().first, systemImage: icon),
            children: buttons)
    }

    private func slots(_ zone: CompiledZone) -> [RenderNode] {
        var nodes = zone.slots.compactMap { lowerSlot($0, context: context, prefix: zoneId(zone)) }
        // An avatar bound to a picture alone takes its initials and spoken name from the name
        // written after it (a card's title).
        for index in nodes.indices {
            guard case .avatar(let source, let initials) = nodes[index].kind, initials.isEmpty else { continue }
            let name = nodes[(index + 1)...].lazy.compactMap { node -> String? in
                if case .text(let text, _, _) = node.kind, !text.isEmpty { return text }
                return nil
            }.first
            guard let name else { continue }
            nodes[index].kind = .avatar(source: source, initials: AvatarImage.initials(of: name))
            if nodes[index].accessibility?.label?.isEmpty ?? true {
                nodes[index].accessibility = AccessibilityInfo(label: name, traits: ["image"])
            }
        }
        return nodes
    }

    // MARK: Lists

    private func items(for zone: CompiledZone) -> ListItems {
        if let path = zone.itemsPath, let array = (try? path.evaluate(in: context))?.arrayValue { return ListItems(array) }
        if let items = inputs.items { return items }
        if let items = context.defaultItems { return items }
        return ListItems(ListItems.responseList(in: context.defaultObject) ?? [])
    }

    private func rows(for zone: CompiledZone) -> LazyRows {
        let items = items(for: zone)
        let slots = zone.itemSlots ?? []
        let context = self.context
        let zoneId = zoneId(zone)
        let itemAction = definition.action(for: .itemClick)?.id
        let swipe = definition.actions.filter { $0.trigger == .swipe }.map(\.id)
        let press = definition.actions.filter { $0.trigger == .longPress }.map(\.id)
        let menu = RowAction.actions(swipe + press, of: definition, strings: strings)
        let guarded = definition.actions.filter { $0.permission != nil }
        let environment = context.environment
        let identity: @Sendable (Int) -> String = { index in
            guard let id = items.member("id", at: index), !id.isNull else { return "\(zoneId)[\(index)]" }
            return "\(zoneId)/\(id.text)"
        }
        let memo = inputs.memo
        // Only a render with a memo describes the rows' template (it costs a few allocations).
        let epoch = pass.map { pass in
            let template = RowTemplate(
                slots: slots,
                actions: [itemAction ?? ""] + swipe + ["|"] + press + ["|"] + menu.map(\.id) + ["|"] + guarded.map(\.id),
                scope: zone.zone.dataEndpoint == nil ? nil : context.lookup("section"))
            return memo?.rowEpoch(for: zoneId, template: template, in: pass) ?? 0
        }
        return LazyRows(count: items.count, id: identity) { index in
            // An item held in a document is built only when its row is lowered; the memo knows
            // it by its place in the document.
            let held = items.node(at: index)
            if let epoch, let kept = memo?.row(index, of: zoneId, held: held, item: { items[index] }, epoch: epoch) {
                return kept
            }
            let item = held?.value ?? items[index]
            let node = Self.buildRow(
                index, item: item, slots: slots, context: context, identity: identity, itemAction: itemAction,
                swipe: swipe, press: press, menu: menu, guarded: guarded, environment: environment)
            if let epoch { memo?.keep(row: node, index, of: zoneId, item: item, held: held, epoch: epoch) }
            return node
        }
    }

    /// The row of `item` (at `index`), offering the actions its record grants.
    private static func buildRow(
        _ index: Int, item: JSONValue, slots: [CompiledSlot], context: DataContext, identity: (Int) -> String,
        itemAction: String?, swipe: [String], press: [String], menu: [RowAction], guarded: [ActionDefinition],
        environment: EvaluationEnvironment
    ) -> RenderNode {
        let row = context.item(item, index: index)
        // A row offers only the actions its record grants the user (his own material, not a
        // colleague's); rows without grants offer them all, and cost nothing more.
        var refused: Set<String> = []
        if !guarded.isEmpty, item["permissions"]?.arrayValue != nil {
            for action in guarded where !action.isGranted(on: item) { refused.insert(action.id) }
        }
        let offered =
            refused.isEmpty
            ? (swipe, press, menu)
            : (
                swipe.filter { !refused.contains($0) }, press.filter { !refused.contains($0) },
                menu.filter { !refused.contains($0.id) }
            )
        return Self.lowerRow(
            slots, in: row, id: identity(index), itemAction: itemAction, swipe: offered.0, press: offered.1,
            menu: offered.2, environment: environment)
    }

    /// A row from an item layout: the list item (or first label) is the title, other labels
    /// are subtitles, a chip is the badge.
    static func lowerRow(
        _ slots: [CompiledSlot], in context: DataContext, id: String, itemAction: String?, swipe: [String], press: [String],
        menu: [RowAction] = [], environment: EvaluationEnvironment
    )
        -> RenderNode
    {
        var title: String?
        var subtitles: [String] = []
        var badge: String?
        var icon: String?
        var avatarValue: String??
        var chevron = itemAction != nil
        // A row is one node: its slots' visibility actions are the row's, watched under its id.
        var appear: [VisibilityAction]?
        var disappear: [VisibilityAction]?
        for slot in slots {
            if slot.slot.visibilityActions != nil || slot.slot.disappearActions != nil {
                appear = (appear ?? []) + (slot.slot.visibilityActions ?? [])
                disappear = (disappear ?? []) + (slot.slot.disappearActions ?? [])
            }
            let value = try? slot.value.resolve(in: context)
            let text = value.map { environment.displayText($0) } ?? slot.label.flatMap { try? $0.render(in: context) }
            switch slot.slot.controlType {
            case .listItem, .listItemNavigation:
                if title == nil { title = text } else if let text { subtitles.append(text) }
                icon = icon ?? slot.slot.icon
                if slot.slot.controlType == .listItemNavigation { chevron = true }
            case .label:
                if title == nil { title = text } else if let text, !text.isEmpty { subtitles.append(text) }
            case .chip:
                badge = text
            case .icon:
                icon = value?.text ?? slot.slot.icon
            case .avatar:
                // A picture, not text: never a subtitle nor part of the spoken label.
                avatarValue = .some(value.map(\.text))
            default:
                if let text, !text.isEmpty { subtitles.append(text) }
            }
        }
        let avatar = avatarValue.map {
            AvatarImage(value: $0, name: AvatarImage.name(in: context.defaultRecord) ?? title)
        }
        let row = RowNode(
            title: title ?? "", subtitles: subtitles, badge: badge, icon: icon, showsChevron: chevron, actionId: itemAction,
            swipeActionIds: swipe, contextActionIds: press, menuActions: menu, avatar: avatar)
        let label = ([title ?? ""] + subtitles + (badge.map { [$0] } ?? [])).filter { !$0.isEmpty }.joined(separator: ", ")
        return RenderNode(
            id: id, kind: .row(row), accessibility: AccessibilityInfo(label: label, traits: itemAction != nil ? ["button"] : []),
            visibility: appear.flatMap { RenderVisibility(appear: $0, disappear: disappear) })
    }

    // MARK: Slots

    private func value(of slot: CompiledSlot) -> JSONValue? {
        try? slot.value.resolve(in: context)
    }

    private func label(of slot: CompiledSlot) -> String? {
        text(slot.label) ?? value(of: slot).map(\.text)
    }

    private func text(_ template: TextTemplate?) -> String? {
        guard let template, let text = try? template.render(in: context) else { return nil }
        return text
    }

    /// A slot of a registered native component: its value, label, placeholder, icon, style, its
    /// own `props` (evaluated) and the config of its `tap` action as props; each action whose
    /// `trigger_slot_id` is the slot under its `event` (`tap` without one); and its form field.
    private func customSlot(
        _ slot: CompiledSlot, type: String, id: String, value: JSONValue?, label: String?, accessibility: String?,
        context: DataContext
    ) -> RenderNode {
        var props = JSONObject()
        props["value"] = value
        props["label"] = label.map(JSONValue.string)
        props["placeholder"] = slot.slot.placeholder.map(JSONValue.string)
        props["icon"] = slot.slot.icon.map(JSONValue.string)
        props["style"] = slot.slot.style.map(JSONValue.string)
        for name in slot.props.keys.sorted() {
            props[name] = (try? slot.props[name]?.evaluate(in: context)) ?? .null
        }
        var actions: [String: String] = [:]
        for action in definition.actions where action.triggerSlotId == slot.slot.id {
            let event = action.event ?? "tap"
            guard actions[event] == nil else { continue }
            actions[event] = action.id
            if event == "tap", let config = action.config {
                props["config"] = .object(JSONObject(config.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
            }
        }
        let field = slot.slot.formFieldName
        let current = inputs.form.values[field].map(JSONValue.string) ?? value ?? .null
        var custom = CustomNode(type: type, props: props, actions: actions, binding: field, value: current)
        custom.strings = strings
        return RenderNode(
            id: id, kind: .custom(custom),
            accessibility: AccessibilityInfo(label: accessibility ?? label))
    }

    /// A slot's node, carrying its `log_id`.
    func lowerSlot(_ slot: CompiledSlot, context: DataContext, prefix: String) -> RenderNode? {
        guard !refusedSlots.contains(slot.slot.id), var node = lowerSlotContent(slot, context: context, prefix: prefix)
        else { return nil }
        node.logId = slot.slot.logId
        if slot.slot.visibilityActions != nil || slot.slot.disappearActions != nil {
            node.visibility = RenderVisibility(appear: slot.slot.visibilityActions, disappear: slot.slot.disappearActions)
        }
        if let transition = slot.slot.transition { node.transition = RenderTransition(transition) }
        node.layout = LayoutHints(width: slot.slot.width, weight: slot.slot.weight)
        return node
    }

    private func lowerSlotContent(_ slot: CompiledSlot, context: DataContext, prefix: String) -> RenderNode? {
        let id = "\(prefix)/\(slot.slot.id)"
        let value = try? slot.value.resolve(in: context)
        let label = slot.label.flatMap { try? $0.render(in: context) }
        let accessibility = slot.accessibilityLabel.flatMap { try? $0.render(in: context) }
        let type = slot.slot.controlType
        switch type {
        case .label:
            let text = value.map { context.environment.displayText($0) } ?? ""
            if let label, !label.isEmpty, value != nil {
                // A phone, e-mail or web site is a row that opens it, when the value is one.
                let link = ContactLink.url(for: text, style: slot.slot.style)
                return RenderNode(
                    id: id, kind: .labeledContent(label: label, value: text),
                    accessibility: AccessibilityInfo(label: "\(label): \(text)", traits: link == nil ? [] : ["link"]),
                    link: link)
            }
            // A screen with a large navigation title has one: a large heading in its content
            // (a dashboard's greeting) is a title below it, not a second large title.
            var style = Self.textStyle(slot.slot.style)
            if style == .largeTitle, Self.largeTitlePatterns.contains(pattern) { style = .title2 }
            return RenderNode(
                id: id, kind: .text(value != nil ? text : (label ?? ""), style: style, lineLimit: nil),
                accessibility: slot.slot.style?.hasPrefix("headline") == true ? AccessibilityInfo(traits: ["header"]) : nil)
        case .icon:
            return RenderNode(
                id: id, kind: .image(source: value?.text ?? slot.slot.icon ?? "questionmark", isSymbol: true, contentMode: nil),
                accessibility: AccessibilityInfo(label: accessibility ?? label, traits: ["image"]))
        case .image:
            return RenderNode(
                id: id, kind: .image(source: value?.text ?? "", isSymbol: false, contentMode: .fit),
                accessibility: AccessibilityInfo(label: accessibility ?? label, traits: ["image"]))
        case .avatar:
            let avatar = AvatarImage(value: value?.text, name: label ?? AvatarImage.name(in: context.defaultRecord))
            let name = label ?? AvatarImage.name(in: context.defaultRecord) ?? (avatar.source == nil ? value?.text : nil)
            return RenderNode(
                id: id, kind: .avatar(source: avatar.source, initials: avatar.initials),
                accessibility: AccessibilityInfo(label: accessibility ?? name, traits: ["image"]))
        case .divider:
            return RenderNode(id: id, kind: .divider)
        case .chip:
            return RenderNode(id: id, kind: .chip(value?.text ?? label ?? "", style: RenderChipStyle(wire: slot.slot.style)))
        case .rating:
            let rating = WireNumber.clamp(value?.doubleValue ?? 0, to: 0...5)
            return RenderNode(
                id: id, kind: .rating(rating),
                accessibility: AccessibilityInfo(label: strings(.ratingOutOfFive, JSONNumber(rating).description)))
        case .metricCard:
            let text = value.map { context.environment.displayText($0) } ?? "—"
            return RenderNode(
                id: id, kind: .metric(label: label ?? "", value: text, icon: slot.slot.icon),
                accessibility: AccessibilityInfo(label: "\(label ?? ""): \(text)"))
        case .listItem, .listItemNavigation:
            let action = definition.action(forSlot: slot.slot.id)?.id
            let row = RowNode(
                title: label ?? value.map { context.environment.displayText($0) } ?? "",
                subtitles: label != nil && value != nil && value?.text != label
                    ? [context.environment.displayText(value!)] : [],
                badge: nil, icon: slot.slot.icon, showsChevron: type == .listItemNavigation && action != nil, actionId: action,
                swipeActionIds: [],
                contextActionIds: [])
            return RenderNode(
                id: id, kind: .row(row),
                accessibility: AccessibilityInfo(label: accessibility ?? label, traits: action != nil ? ["button"] : []))
        case .searchBar:
            return nil
        case .unknown(let name) where components.contains(name):
            return customSlot(
                slot, type: name, id: id, value: value, label: label, accessibility: accessibility, context: context)
        case .unknown(let name):
            return options.showUnknownMarkers ? RenderNode(id: id, kind: .unknown("control \(name)")) : nil
        default:
            break
        }
        // Inputs and buttons.
        let field = slot.slot.formFieldName
        let current = inputs.form.values[field].map(JSONValue.string) ?? (type.isInput ? value ?? .null : value ?? .null)
        let role: RenderButtonRole? =
            type.isButton
            ? (slot.slot.style == "destructive"
                ? .destructive : type == .filledButton ? .primary : type == .textButton ? .plain : .secondary)
            : nil
        let inputKind: InputKind? =
            switch type {
            case .textInput: .text
            case .emailInput: .email
            case .passwordInput: .password
            case .numberInput: .number
            default: nil
            }
        let control = ControlNode(
            type: type, field: type.isInput ? field : nil, label: label ?? (type.isButton ? value?.text : nil), value: current,
            placeholder: slot.placeholder.flatMap { try? $0.render(in: context) }, isRequired: slot.slot.required ?? false,
            isReadOnly: slot.slot.readOnly ?? false, error: type.isInput ? inputs.form.errors[field] : nil, inputKind: inputKind,
            options: zip(slot.slot.options ?? [], slot.optionLabels).map { option, template in
                SlotOption(value: option.value, label: (try? template.render(in: context)) ?? option.label)
            }, icon: slot.slot.icon, role: role,
            actionId: definition.action(forSlot: slot.slot.id)?.id,
            styleName: slot.slot.style)
        var traits: [String] = type.isButton ? ["button"] : []
        if slot.slot.required == true { traits.append("required") }
        // An icon-only button still says what it does: its action's title, else the symbol's meaning.
        let spoken =
            accessibility ?? control.label
            ?? (type.isButton
                ? definition.action(forSlot: slot.slot.id)?.config?["title"]?.stringValue
                    ?? Self.symbolMeaning(slot.slot.icon, strings: strings) : nil)
        return RenderNode(
            id: id, kind: .control(control),
            accessibility: AccessibilityInfo(label: spoken, hint: control.error, traits: traits))
    }

    /// The patterns whose navigation title is large (iOS's top-level screens).
    static let largeTitlePatterns: Set<ScreenPattern> = [.list, .dashboard, .settings, .search, .notification]

    /// What a common SF Symbol on an icon-only button means, in the user's language.
    static func symbolMeaning(_ symbol: String?, strings: DynamicUIStrings) -> String? {
        guard let symbol else { return nil }
        let base = symbol.replacingOccurrences(of: ".fill", with: "").replacingOccurrences(of: ".circle", with: "")
        let key: DynamicUIStrings.Key? =
            switch base {
            case "plus": .new
            case "trash": .delete
            case "gear", "gearshape": .settings
            case "magnifyingglass": .search
            case "xmark": .close
            case "arrow.clockwise": .refresh
            case "ellipsis": .moreActions
            case "chevron.left", "arrow.left": .back
            case "play": .play
            case "house": .home
            case "paperplane": .send
            case "checkmark": .confirm
            default: nil
            }
        return key.map { strings($0) }
    }

    /// The text style of a seed style name.
    static func textStyle(_ name: String?) -> RenderTextStyle {
        switch name {
        case "headline-large": .largeTitle
        case "headline-medium": .title
        case "headline-small", "title-large": .title2
        case "title-medium": .headline
        case "title-small", "subtitle": .subheadline
        case "body-small": .callout
        case "caption": .caption
        case "overline": .caption2
        default: .body
        }
    }
}

extension DataContext {
    /// The default object, or `null` when it is a list screen's items bound without being built
    /// (a list has no members to read, and building it would build every row's item).
    var defaultRecord: JSONValue { defaultItems == nil ? defaultObject : .null }
}
