import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// What the last render of one node document built, so the next render builds only what
/// changed: a node whose subtree reads nothing that changed (no state key it shows, no section
/// it holds) is taken as it was, with its actions and, for a list, its rows and their ids. A
/// tick of a timer redraws the text that shows it, not the list beside it. Give each open
/// document its own memo; a render with another document, renderer or options only misses, it
/// never draws what is outdated.
public final class NodeRenderMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var basis: NodeRenderBasis?
    private var entries: [ObjectIdentifier: NodeMemoEntry] = [:]
    private var componentReads = NodeReads()
    private var reusedNodes = 0

    /// An empty memo: the first render builds everything.
    public init() {}

    /// How many subtrees renders took from the memo instead of lowering them again.
    public var reused: Int { lock.withLock { reusedNodes } }

    /// Starts a render with `basis`; what the previous render built is offered as far as the two
    /// renders' inputs agree.
    func begin(_ basis: NodeRenderBasis) -> NodeMemoPass {
        lock.withLock {
            let previous = self.basis
            self.basis = basis
            let changes = previous.flatMap { basis.changes(since: $0) }
            if changes == nil {
                // Another renderer, perhaps: what the component bodies read is worked out again.
                componentReads = NodeReads()
                for body in basis.components.values { componentReads.formUnion(body.reads) }
            }
            return NodeMemoPass(previous: changes == nil ? [:] : entries, changes: changes, componentReads: componentReads)
        }
    }

    /// Ends a render: what it drew (and took) is what the next may take.
    func end(_ pass: NodeMemoPass) {
        lock.withLock {
            entries = pass.entries
            reusedNodes += pass.reused
        }
    }
}

/// A subtree drawn at one path: the node it was drawn from, what was drawn (`nil`: its
/// condition or permission left it out), the actions it registered, the nodes it spent of the
/// budget, and the entries drawn below it (kept with it).
final class NodeMemoEntry {
    let path: String
    let compiled: CompiledNode
    let node: RenderNode?
    let registrations: [NodeActionTable.Registration]
    let spent: Int
    let descendants: [NodeMemoEntry]

    init(
        path: String, compiled: CompiledNode, node: RenderNode?, registrations: [NodeActionTable.Registration], spent: Int,
        descendants: [NodeMemoEntry]
    ) {
        self.path = path
        self.compiled = compiled
        self.node = node
        self.registrations = registrations
        self.spent = spent
        self.descendants = descendants
    }
}

/// One render's use of a memo: the previous render's entries when they may be taken, what
/// changed since, and the entries of this render in the order they were drawn. Entries are
/// found by their compiled node: in the document's own context each node is drawn at one path
/// (a component's body and a list's rows, drawn more than once, are never kept).
final class NodeMemoPass {
    private let previous: [ObjectIdentifier: NodeMemoEntry]
    private let changes: NodeChanges?
    /// The reads of the components' bodies (a component's subtree reads what its body reads).
    private let componentReads: NodeReads
    private(set) var entries: [ObjectIdentifier: NodeMemoEntry] = [:]
    private var order: [NodeMemoEntry] = []
    private(set) var reused = 0

    init(previous: [ObjectIdentifier: NodeMemoEntry], changes: NodeChanges?, componentReads: NodeReads) {
        self.previous = previous
        entries.reserveCapacity(previous.count)
        order.reserveCapacity(previous.count)
        self.changes = changes
        self.componentReads = componentReads
    }

    /// The entry drawn at `path` from `compiled` last time, when nothing it reads changed.
    func kept(at path: String, _ compiled: CompiledNode) -> NodeMemoEntry? {
        guard let changes, let entry = previous[ObjectIdentifier(compiled)], entry.path == path else { return nil }
        guard !changes.affect(compiled.reads) else { return nil }
        if compiled.reads.usesComponents, changes.affect(componentReads) { return nil }
        reused += 1
        record(entry)
        for descendant in entry.descendants { record(descendant) }
        return entry
    }

    /// Where this render stands: the entries made after it belong to the subtree drawn next.
    var mark: Int { order.count }

    /// Records a subtree drawn anew at `path`; the entries made since `mark` are its own.
    func drew(
        at path: String, _ compiled: CompiledNode, node: RenderNode?, registrations: [NodeActionTable.Registration],
        spent: Int, since mark: Int
    ) {
        record(
            NodeMemoEntry(
                path: path, compiled: compiled, node: node, registrations: registrations, spent: spent,
                descendants: Array(order[mark...])))
    }

    private func record(_ entry: NodeMemoEntry) {
        entries[ObjectIdentifier(entry.compiled)] = entry
        order.append(entry)
    }
}

/// What a node document's render depends on besides the document's nodes.
struct NodeRenderBasis {
    let document: CompiledNode
    let context: DataContext
    let sections: [String: SectionState]
    let theme: Theme
    let components: [String: CompiledNode]
    let options: RenderOptions
    let permissions: Set<String>?

    /// What changed since `previous`, or `nil` when anything but the context's values and the
    /// sections changed (the document, the renderer, the options, the permissions, the
    /// environment, the context's names): then nothing is kept.
    func changes(since previous: NodeRenderBasis) -> NodeChanges? {
        guard document === previous.document, options == previous.options, permissions == previous.permissions,
            components.count == previous.components.count,
            components.allSatisfy({ previous.components[$0.key] === $0.value }), theme == previous.theme,
            var names = context.changedNames(since: previous.context)
        else { return nil }
        var keys: [String: Set<String>] = [:]
        keys.reserveCapacity(names.count)
        var last: (now: JSONObject, before: JSONObject, changed: Set<String>)?
        for name in names where !name.isEmpty {
            // An object that changed in some keys: only what reads those keys is drawn again.
            guard case .object(let now)? = context.lookup(name), case .object(let before)? = previous.context.lookup(name)
            else { continue }
            // `env` and `state` hold the same object: compared once (the same storage compares
            // without being read).
            if let last, last.now == now, last.before == before {
                keys[name] = last.changed
                continue
            }
            let changed = Self.changedKeys(now, before)
            keys[name] = changed
            last = (now, before, changed)
        }
        if names.contains(""), case .object(let now) = context.defaultObject,
            case .object(let before) = previous.context.defaultObject
        {
            // `$.title` reads the default object when no name is bound to `title`: a changed key
            // of it that no binding holds is a changed name.
            for key in Self.changedKeys(now, before) where context.lookup(key) == nil { names.insert(key) }
        } else if names.contains("") {
            return nil
        }
        var sectionIds: Set<String> = []
        if sections != previous.sections {
            for id in Set(sections.keys).union(previous.sections.keys) where sections[id] != previous.sections[id] {
                sectionIds.insert(id)
            }
        }
        return NodeChanges(names: names, keys: keys, sections: sectionIds)
    }

    /// The keys whose values differ between two objects: compared in place while their keys
    /// are in the same order (a state set key by key), else looked up.
    static func changedKeys(_ now: JSONObject, _ before: JSONObject) -> Set<String> {
        var changed: Set<String> = []
        if now.count == before.count {
            var index = now.startIndex
            while index < now.endIndex, now[index].key == before[index].key {
                if now[index].value != before[index].value { changed.insert(now[index].key) }
                index += 1
            }
            if index == now.endIndex { return changed }
            changed = []
        }
        for (key, value) in now where before[key] != value { changed.insert(key) }
        for (key, _) in before where now[key] == nil { changed.insert(key) }
        return changed
    }
}

/// What changed between two renders of a node document.
struct NodeChanges {
    /// The context names whose values changed (`""` the default object).
    let names: Set<String>
    /// For names holding an object in both renders, the keys that changed.
    let keys: [String: Set<String>]
    /// The deferred sections whose state changed.
    let sections: Set<String>
    /// The changes in the bits of `NodeReads`' filters: the changed names, those whose changed
    /// keys are not known, and the changed names and keys.
    private let nameBits: UInt64
    private let unrefinedBits: UInt64
    private let keyBits: UInt64

    init(names: Set<String>, keys: [String: Set<String>], sections: Set<String>) {
        self.names = names
        self.keys = keys
        self.sections = sections
        var (nameBits, unrefinedBits, keyBits): (UInt64, UInt64, UInt64) = (0, 0, 0)
        for name in names {
            nameBits |= NodeReads.bit(name)
            guard let changed = keys[name] else {
                unrefinedBits |= NodeReads.bit(name)
                continue
            }
            for key in changed { keyBits |= NodeReads.bit(name, key: key) }
        }
        (self.nameBits, self.unrefinedBits, self.keyBits) = (nameBits, unrefinedBits, keyBits)
    }

    /// Whether a subtree reading `reads` must be drawn again.
    func affect(_ reads: NodeReads) -> Bool {
        if !sections.isEmpty, !reads.sections.isDisjoint(with: sections) { return true }
        // Nothing it reads can have changed: decided by the filters, without hashing a name.
        guard
            reads.wholeBits & nameBits != 0 || reads.keyedNameBits & unrefinedBits != 0 || reads.keyBits & keyBits != 0
        else { return false }
        for name in names {
            if reads.names.contains(name) { return true }
            guard let read = reads.keys[name] else { continue }
            guard let changed = keys[name] else { return true }
            if !read.isDisjoint(with: changed) { return true }
        }
        return false
    }
}
