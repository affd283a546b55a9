import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// What the last render of one screen built, so the next render builds only what changed. A
/// zone whose compiled definition and inputs are unchanged is taken as it was (a patch that
/// replaced one card lowers that card), and a list row whose record is unchanged is taken as it
/// was while the context names its row template reads are unchanged (a record patch lowers that
/// row). When only some zones' inputs changed (a tick, a keystroke) and the screen's frame did
/// not, those zones are put in place of their nodes in the previous tree, which keeps its
/// chrome and focus order. Give each shown screen its own memo (`ScreenInputs.memo`); a render
/// with other inputs or options only misses, it never draws what is outdated.
public final class RenderMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var basis: RenderBasis?
    /// The zones the last render drew, in the order it asked for them.
    private var zones: [RenderPass.Entry] = []
    private var rows: [String: RowTable] = [:]
    private var epochs = 0
    /// What each zone drawn so far depends on, by zone id (worked out once per version of a zone).
    private var dependencies: [String: ZoneDependencies] = [:]
    private var reusedZones = 0
    private var reusedRows = 0
    /// The tree the last render returned, with what a splice needs to put a zone in it.
    private var drawn: DrawnTree?
    /// How many renders put their changed zones into the previous tree instead of building it.
    private(set) var splices = 0

    /// An empty memo: the first render builds everything.
    public init() {}

    /// How many zones and rows renders took from the memo instead of lowering them again.
    public var reused: (zones: Int, rows: Int) { lock.withLock { (reusedZones, reusedRows) } }

    /// The most rows kept of one list: those nearest the row drawn last (scrolling a long list
    /// keeps what is near the screen, not every row ever drawn).
    public static let rowLimit = 200

    /// How many drawn rows the memo holds now, over all lists.
    public var keptRows: Int { lock.withLock { rows.values.reduce(0) { $0 + $1.rows.count } } }

    /// Starts a render with `basis`: what the previous render built stays usable only as far as
    /// the two renders' inputs agree.
    func begin(_ basis: RenderBasis) -> RenderPass {
        lock.withLock {
            let previous = self.basis
            self.basis = basis
            let changed = previous.flatMap { basis.changedNames(since: $0) }
            if changed == nil { rows = [:] }
            // Each zone is kept unless something it depends on changed (a tick of a timer
            // redraws the zones that show its variable, not the list beside them).
            // Every zone reads the default object: when it changed, no zone is kept (and the
            // other inputs need no comparing).
            let changes = changed.flatMap { names in
                names.contains("") ? nil : previous.map { basis.changes(since: $0, names: names) }
            }
            // The pass takes the dependencies worked out so far (unshared, so it adds to them in
            // place) and hands them back when it ends.
            let known = dependencies
            dependencies = [:]
            let pass = RenderPass(
                previous: changes == nil ? [] : zones, changes: changes, changedNames: changed, dependencies: known)
            // A splice keeps the tree around the zones: only when what the screen's frame shows
            // (its title, chrome and search) is as it was.
            // A patch (nothing changed but zones) draws in full: it changes few zones of many,
            // which a full render takes from the memo at about a splice's cost.
            if let changes, !changes.isEmpty, let drawn, let previous, let changed,
                basis.keepsFrame(of: previous, changedNames: changed),
                !changes.items || basis.inputs.searchText == previous.inputs.searchText
            {
                pass.previousTree = drawn
            }
            return pass
        }
    }

    /// Ends a render: the zones it drew are what the next one may take, and only the lists it
    /// drew keep their rows (a list hidden meanwhile did not see what changed while hidden).
    func end(_ pass: RenderPass, tree: RenderNode, spliced: Bool) {
        lock.withLock {
            if spliced { splices += 1 }
            drawn = pass.drawn.map { DrawnTree(tree: tree, zones: $0.zones, focus: $0.focus, located: $0.located) }
            zones = pass.entries
            dependencies = pass.dependencies
            reusedZones += pass.reusedZones
            rows = rows.filter { pass.lists.contains($0.key) }
        }
    }

    /// The rows of the list zone `id` drawn from `template` may be kept while the changed names
    /// are not among those its slots read, and the rest of what a row is drawn from (the
    /// actions it offers, a deferred section's data) is the same; returns the epoch the rows of
    /// this render belong to.
    func rowEpoch(for id: String, template: RowTemplate, in pass: RenderPass) -> Int {
        pass.lists.insert(id)
        var reads: Set<String> = []
        for slot in template.slots { reads.formUnion(slot.reads) }
        reads.remove("")  // in a row, the default object is the row's own record
        let keep = pass.changedNames.map { reads.isDisjoint(with: $0) } ?? false
        return lock.withLock {
            if keep, let table = rows[id], table.template == template { return table.epoch }
            epochs += 1
            rows[id] = RowTable(template: template, epoch: epochs)
            return epochs
        }
    }

    /// The row `index` of the list `id` as drawn before for the same record, if still valid. A
    /// record `held` in a document is the same when it is the same element of the same document;
    /// otherwise `item` is built and compared.
    func row(_ index: Int, of id: String, held: JSONNode?, item: () -> JSONValue, epoch: Int) -> RenderNode? {
        lock.withLock {
            guard let table = rows[id], table.epoch == epoch, let kept = table.rows[index] else { return nil }
            if let held, let keptHeld = kept.held, held.isSame(as: keptHeld) {
                reusedRows += 1
                return kept.node
            }
            let current = item()
            guard (kept.item ?? kept.held?.value) == current else { return nil }
            if kept.held != nil || held != nil {
                // Another document (a page read again) or a value in place of a document's
                // element (a patch): keep the record as it is now, so the next render compares
                // it without building it.
                rows[id]?.rows[index] = KeptRow(item: held == nil ? current : nil, held: held, node: kept.node)
            }
            reusedRows += 1
            return kept.node
        }
    }

    /// Keeps a row just drawn (ignored when its list was drawn again since): its record as a
    /// value, or as the document element it is `held` in.
    func keep(row node: RenderNode, _ index: Int, of id: String, item: JSONValue, held: JSONNode?, epoch: Int) {
        lock.withLock {
            guard rows[id]?.epoch == epoch else { return }
            rows[id]?.rows[index] = KeptRow(item: held == nil ? item : nil, held: held, node: node)
            // Trimmed now and then, to the rows nearest this one.
            guard let table = rows[id], table.rows.count > 2 * Self.rowLimit else { return }
            let nearest = Set(table.rows.keys.sorted { abs($0 - index) < abs($1 - index) }.prefix(Self.rowLimit))
            rows[id]?.rows = table.rows.filter { nearest.contains($0.key) }
        }
    }
}

/// A row drawn, with the record it was drawn from (a value, or an element of a document).
private struct KeptRow {
    let item: JSONValue?
    let held: JSONNode?
    let node: RenderNode
}

/// Everything a list's rows are drawn from besides their records and the context.
struct RowTemplate: Equatable {
    /// The row's slots.
    let slots: [CompiledSlot]
    /// The actions a row offers (tap, swipe, long press, menu) and those a record's grants decide.
    let actions: [String]
    /// A deferred section's data (rows may read `section`); `nil` outside a section.
    let scope: JSONValue?
}

/// The rows of one list drawn so far, with the row template they were drawn from.
private struct RowTable {
    let template: RowTemplate
    let epoch: Int
    var rows: [Int: KeptRow] = [:]
}

/// One render's use of a memo: the zones the previous render drew (when they may be taken),
/// which context names changed, and the zones drawn, in the order they were asked for.
final class RenderPass {
    /// A zone and what was drawn for it.
    struct Entry {
        let zone: CompiledZone
        let node: DrawnNode
    }

    /// A drawn node, held by reference: a zone taken from one render to the next is not copied
    /// on the way.
    final class DrawnNode {
        let node: RenderNode
        init(_ node: RenderNode) { self.node = node }
    }

    /// The previous render's zones and nodes, in the order it asked for them (apart: a zone is
    /// compared without copying its node).
    private let previousZones: [CompiledZone]
    private let previousNodes: [DrawnNode]
    /// The previous zones by id, made on the first zone not found at its place.
    private var previousById: [String: Int]?
    /// The context names that changed since the last render; `nil` when nothing may be kept.
    let changedNames: Set<String>?
    /// Everything a zone may depend on that changed since the last render.
    private let changes: ZoneInputChanges?
    /// The zones of this render, in the order asked for, and what was drawn for each.
    private var zones: [CompiledZone] = []
    private var nodes: [DrawnNode?] = []
    private(set) var reusedZones = 0
    /// The list zones this render drew.
    var lists: Set<String> = []
    /// The tree the previous render returned, when this render may splice zones into it.
    var previousTree: DrawnTree?
    /// What this render drew around its zones (its top zones and focus order), when a later
    /// render may splice into its tree: set by the patterns that place each zone's node as it is.
    var drawn: DrawnTree?

    /// What each zone depends on, by zone id, as far as worked out (kept by the memo).
    private(set) var dependencies: [String: ZoneDependencies]

    init(
        previous: [Entry], changes: ZoneInputChanges?, changedNames: Set<String>?, dependencies: [String: ZoneDependencies]
    ) {
        previousZones = previous.map(\.zone)
        previousNodes = previous.map(\.node)
        self.changes = changes
        self.changedNames = changedNames
        self.dependencies = dependencies
    }

    /// What drawing `zone` depends on: worked out the first time a version of it is drawn.
    func dependencies(of zone: CompiledZone) -> ZoneDependencies {
        if let known = dependencies[zone.zone.id], known.zone == zone { return known }
        let worked = ZoneDependencies(zone, nested: zone.zones.map(dependencies(of:)))
        dependencies[zone.zone.id] = worked
        return worked
    }

    /// The place of `zone` in this render, and its node as the previous render drew it when the
    /// zone is unchanged (looked for at the same place first, then by id).
    func lookup(_ zone: CompiledZone) -> (place: Int, kept: DrawnNode?) {
        let place = zones.count
        zones.append(zone)
        nodes.append(nil)
        guard !previousZones.isEmpty, let changes else { return (place, nil) }
        // Nothing changed but zones (a patch): only what the zones are is compared below.
        if !changes.isEmpty, changes.affect(dependencies(of: zone)) { return (place, nil) }
        if place < previousZones.count {
            if previousZones[place] == zone { return (place, previousNodes[place]) }
            // The same zone, changed (a patched card): not drawn before as it is now.
            if previousZones[place].zone.id == zone.zone.id { return (place, nil) }
        }
        if previousById == nil {
            var byId: [String: Int] = [:]
            for (index, zone) in previousZones.enumerated() { byId[zone.zone.id] = index }
            previousById = byId
        }
        guard let index = previousById?[zone.zone.id], previousZones[index] == zone else { return (place, nil) }
        return (place, previousNodes[index])
    }

    /// Where this render stands, to go back to when a splice gives up.
    func checkpoint() -> (zones: Int, reused: Int, lists: Set<String>) { (zones.count, reusedZones, lists) }

    /// Forgets the zones drawn since `checkpoint`.
    func restore(_ checkpoint: (zones: Int, reused: Int, lists: Set<String>)) {
        zones.removeSubrange(checkpoint.zones...)
        nodes.removeSubrange(checkpoint.zones...)
        reusedZones = checkpoint.reused
        lists = checkpoint.lists
    }

    /// Records what was drawn for the zone at `place` (`reused` when taken from the memo: the
    /// rows of its lists stay in the memo, as its node still draws them).
    func drew(_ node: DrawnNode, at place: Int, reused: Bool) {
        nodes[place] = node
        guard reused else { return }
        reusedZones += 1
        keepLists(of: zones[place])
    }

    private func keepLists(of zone: CompiledZone) {
        if zone.itemSlots != nil { lists.insert("zone:\(zone.zone.id)") }
        for nested in zone.zones { keepLists(of: nested) }
    }

    /// The zones drawn, with their nodes.
    var entries: [Entry] {
        zip(zones, nodes).compactMap { zone, node in node.map { Entry(zone: zone, node: $0) } }
    }
}

/// A tree a render returned, with its top zones (in order) and its focus order (`nil`: the
/// tree has no text input).
struct DrawnTree {
    var tree: RenderNode?
    var zones: [TopZone]
    let focus: FocusOrder?
    /// Whether the zones' paths are known (found by the first splice into the tree).
    var located = false
}

/// A top zone of a drawn tree: what decides where a pattern puts it (its type, whether it has
/// a title) and the child indices from the root to its node (`nil`: not drawn, an empty stack).
struct TopZone {
    let id: String
    let type: ZoneType
    let titled: Bool
    var path: [Int]?
}

/// The focus order of a tree's text inputs: their fields, the action the last one submits, and
/// whether it signs in.
struct FocusOrder: Equatable {
    let fields: [String]
    let submitActionId: String?
    let isSignIn: Bool
}

/// What a render depends on besides the screen's zones.
struct RenderBasis {
    let inputs: ScreenInputs
    let options: RenderOptions

    /// The names of the context that changed since `previous`, or `nil` when anything else a
    /// row can read changed (the screen's actions, title or overrides, the options, the
    /// permissions, the environment): then nothing is kept.
    func changedNames(since previous: RenderBasis) -> Set<String>? {
        guard options == previous.options, inputs.permissions == previous.inputs.permissions,
            inputs.canGoBack == previous.inputs.canGoBack, inputs.presentedAsSheet == previous.inputs.presentedAsSheet,
            inputs.screen.title == previous.inputs.screen.title,
            Self.sameFrame(inputs.screen.definition, previous.inputs.screen.definition)
        else { return nil }
        return inputs.context.changedNames(since: previous.inputs.context)
    }

    /// Whether the screen's frame (its title, the chrome's banner, confirmation and pagination)
    /// is drawn as in `previous`, the context's changed `names` given.
    func keepsFrame(of previous: RenderBasis, changedNames names: Set<String>) -> Bool {
        guard inputs.banner == previous.inputs.banner, inputs.confirmation == previous.inputs.confirmation,
            inputs.pagination == previous.inputs.pagination
        else { return false }
        var reads: Set<String> = []
        inputs.screen.title.addReads(to: &reads)
        return reads.isDisjoint(with: names)
    }

    /// What a zone may depend on that changed since `previous`, the context's changed `names` given.
    func changes(since previous: RenderBasis, names: Set<String>) -> ZoneInputChanges {
        var sections: Set<String> = []
        if inputs.sections != previous.inputs.sections {
            for id in Set(inputs.sections.keys).union(previous.inputs.sections.keys)
            where inputs.sections[id] != previous.inputs.sections[id] {
                sections.insert(id)
            }
        }
        return ZoneInputChanges(
            names: names, form: inputs.form != previous.inputs.form,
            items: inputs.items != previous.inputs.items || inputs.searchText != previous.inputs.searchText,
            sections: sections)
    }

    /// Whether two definitions are the same but for their zones. The same zones (one storage:
    /// nothing was patched) make the whole definition compare at once, its parts sharing
    /// storage too; other zones are set aside first.
    private static func sameFrame(_ lhs: ScreenDefinition, _ rhs: ScreenDefinition) -> Bool {
        let zones = (lhs.template.zones, rhs.template.zones)
        if zones.0.count == zones.1.count,
            zones.0.withUnsafeBufferPointer({ $0.baseAddress }) == zones.1.withUnsafeBufferPointer({ $0.baseAddress })
        {
            return lhs == rhs
        }
        return frame(of: lhs) == frame(of: rhs)
    }

    /// The definition without its zones (what a patch does not change).
    private static func frame(of definition: ScreenDefinition) -> ScreenDefinition {
        var frame = definition
        frame.template.zones = []
        return frame
    }
}

/// What drawing a zone depends on besides its own definition, over-approximated: the context
/// names its expressions read, and which of the screen's other inputs it reads.
struct ZoneDependencies {
    /// The version of the zone this describes.
    let zone: CompiledZone
    /// The context names read by its condition, title, item path, slots and rows, and those of
    /// the zones it nests; the default object (`""`) always (a slot may fall back to the record).
    let names: Set<String>
    /// Whether a slot may show a form field's value or error (inputs, buttons, components).
    let readsForm: Bool
    /// Whether it draws the screen's rows or an empty state (a list zone, or a condition).
    let readsItems: Bool
    /// The ids of the deferred sections it holds (its own, and its nested zones').
    let sections: [String]

    init(_ zone: CompiledZone, nested: [ZoneDependencies]) {
        self.zone = zone
        var names: Set<String> = [""]
        zone.condition?.addReads(to: &names)
        zone.title?.addReads(to: &names)
        zone.itemsPath?.addReads(to: &names)
        for slot in zone.slots + (zone.itemSlots ?? []) { names.formUnion(slot.reads) }
        var sections = zone.zone.dataEndpoint == nil ? [] : [zone.zone.id]
        var readsForm = zone.slots.contains { !Self.showsNoField($0.slot.controlType) }
        var readsItems = zone.itemSlots != nil || zone.condition != nil
        for inner in nested {
            names.formUnion(inner.names)
            sections += inner.sections
            readsForm = readsForm || inner.readsForm
            readsItems = readsItems || inner.readsItems
        }
        self.names = names
        self.readsForm = readsForm
        self.readsItems = readsItems
        self.sections = sections
    }

    /// Whether a slot of `type` is drawn from its value and texts alone, never from a form
    /// field (text, images, chips, ratings, metrics, rows, the search bar).
    static func showsNoField(_ type: ControlType) -> Bool {
        switch type {
        case .label, .icon, .image, .avatar, .divider, .chip, .rating, .metricCard, .listItem, .listItemNavigation, .searchBar:
            true
        default: false
        }
    }
}

/// What changed between two renders that a zone may depend on.
struct ZoneInputChanges {
    /// The context names whose values changed.
    let names: Set<String>
    /// Whether a form value or error changed.
    let form: Bool
    /// Whether the screen's rows or its search changed.
    let items: Bool
    /// The deferred sections whose state changed.
    let sections: Set<String>

    /// Whether nothing but the zones themselves changed.
    var isEmpty: Bool { names.isEmpty && !form && !items && sections.isEmpty }

    /// Whether a zone with `dependencies` must be drawn again.
    func affect(_ dependencies: ZoneDependencies) -> Bool {
        (form && dependencies.readsForm) || (items && dependencies.readsItems) || !names.isDisjoint(with: dependencies.names)
            || (!sections.isEmpty && dependencies.sections.contains(where: sections.contains))
    }
}

extension RenderNode {
    /// The child indices from this node down to the nodes with the `ids` wanted, by id (not
    /// looked for below a match).
    func paths(to ids: Set<String>) -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        var path: [Int] = []
        collectPaths(to: ids, path: &path, into: &found)
        return found
    }

    private func collectPaths(to ids: Set<String>, path: inout [Int], into found: inout [String: [Int]]) {
        if ids.contains(id) {
            found[id] = path
            return
        }
        for index in children.indices {
            path.append(index)
            children[index].collectPaths(to: ids, path: &path, into: &found)
            path.removeLast()
        }
    }

    /// The node at `path`.
    func node(at path: ArraySlice<Int>) -> RenderNode {
        guard let first = path.first else { return self }
        return children[first].node(at: path.dropFirst())
    }

    /// Puts `node` at `path`: only the nodes on the way are copied.
    mutating func replace(at path: ArraySlice<Int>, with node: RenderNode) {
        guard let first = path.first else {
            self = node
            return
        }
        children[first].replace(at: path.dropFirst(), with: node)
    }
}
