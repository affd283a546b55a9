import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// What the last render of one screen built, so the next render builds only what changed. A
/// zone whose compiled definition and inputs are unchanged is taken as it was (a patch that
/// replaced one card lowers that card), and a list row whose record is unchanged is taken as it
/// was while the context names its row template reads are unchanged (a record patch lowers that
/// row). Give each shown screen its own memo (`ScreenInputs.memo`); a render with other inputs
/// or options only misses, it never draws what is outdated.
public final class RenderMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var basis: RenderBasis?
    /// The zones the last render drew, in the order it asked for them.
    private var zones: [RenderPass.Entry] = []
    private var rows: [String: RowTable] = [:]
    private var epochs = 0
    private var reusedZones = 0
    private var reusedRows = 0

    /// An empty memo: the first render builds everything.
    public init() {}

    /// How many zones and rows renders took from the memo instead of lowering them again.
    public var reused: (zones: Int, rows: Int) { lock.withLock { (reusedZones, reusedRows) } }

    /// Starts a render with `basis`: what the previous render built stays usable only as far as
    /// the two renders' inputs agree.
    func begin(_ basis: RenderBasis) -> RenderPass {
        lock.withLock {
            let previous = self.basis
            self.basis = basis
            let changed = previous.flatMap { basis.changedNames(since: $0) }
            let zonesValid = changed?.isEmpty == true && previous.map(basis.hasSameZoneInputs) == true
            if changed == nil { rows = [:] }
            return RenderPass(previous: zonesValid ? zones : [], changedNames: changed)
        }
    }

    /// Ends a render: the zones it drew are what the next one may take, and only the lists it
    /// drew keep their rows (a list hidden meanwhile did not see what changed while hidden).
    func end(_ pass: RenderPass) {
        lock.withLock {
            zones = pass.entries
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
    /// The zones of this render, in the order asked for, and what was drawn for each.
    private var zones: [CompiledZone] = []
    private var nodes: [DrawnNode?] = []
    private(set) var reusedZones = 0
    /// The list zones this render drew.
    var lists: Set<String> = []

    init(previous: [Entry], changedNames: Set<String>?) {
        previousZones = previous.map(\.zone)
        previousNodes = previous.map(\.node)
        self.changedNames = changedNames
    }

    /// The place of `zone` in this render, and its node as the previous render drew it when the
    /// zone is unchanged (looked for at the same place first, then by id).
    func lookup(_ zone: CompiledZone) -> (place: Int, kept: DrawnNode?) {
        let place = zones.count
        zones.append(zone)
        nodes.append(nil)
        guard !previousZones.isEmpty else { return (place, nil) }
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

    /// Records what was drawn for the zone at `place` (`reused` when taken from the memo).
    func drew(_ node: DrawnNode, at place: Int, reused: Bool) {
        nodes[place] = node
        if reused { reusedZones += 1 }
    }

    /// The zones drawn, with their nodes.
    var entries: [Entry] {
        zip(zones, nodes).compactMap { zone, node in node.map { Entry(zone: zone, node: $0) } }
    }
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
            Self.frame(of: inputs.screen.definition) == Self.frame(of: previous.inputs.screen.definition)
        else { return nil }
        return inputs.context.changedNames(since: previous.inputs.context)
    }

    /// Whether the inputs a zone reads besides the context are unchanged.
    func hasSameZoneInputs(as previous: RenderBasis) -> Bool {
        inputs.items == previous.inputs.items && inputs.form == previous.inputs.form
            && inputs.sections == previous.inputs.sections
            && inputs.pagination == previous.inputs.pagination && inputs.searchText == previous.inputs.searchText
    }

    /// The definition without its zones (what a patch does not change).
    private static func frame(of definition: ScreenDefinition) -> ScreenDefinition {
        var frame = definition
        frame.template.zones = []
        return frame
    }
}
