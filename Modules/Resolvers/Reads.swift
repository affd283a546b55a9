import DynamicUIModels
import Foundation

// What compiled expressions read: the root names of the context their paths start from. A
// render memo uses it to keep a list's rows when only names they do not read changed.

extension DynamicExpression {
    /// Adds the context names the expression reads to `names`: the first key of each scoped
    /// path; a relative path reads the default object, written `""`.
    public func addReads(to names: inout Set<String>) {
        switch self {
        case .literal: break
        case .path(let path):
            names.insert(path.root == .relative ? "" : path.rootName ?? "")
        case .pipe(let base, _): base.addReads(to: &names)
        case .not(let operand): operand.addReads(to: &names)
        case .compare(_, let lhs, let rhs), .and(let lhs, let rhs), .or(let lhs, let rhs):
            lhs.addReads(to: &names)
            rhs.addReads(to: &names)
        }
    }
}

extension TextTemplate {
    /// Adds the context names the placeholders read to `names`.
    public func addReads(to names: inout Set<String>) {
        for case .expression(let expression) in segments { expression.addReads(to: &names) }
    }
}

extension ValueTemplate {
    /// Adds the context names the value reads to `names`.
    public func addReads(to names: inout Set<String>) {
        switch self {
        case .literal: break
        case .expression(let expression): expression.addReads(to: &names)
        case .text(let template): template.addReads(to: &names)
        case .array(let elements), .object(_, let elements): for element in elements { element.addReads(to: &names) }
        }
    }
}

extension CompiledSlot {
    /// The context names the slot's value, texts and props read (`slot` for a `bind`, `""` for
    /// the default object).
    public var reads: Set<String> {
        var names: Set<String> = []
        value.field?.addReads(to: &names)
        value.literal?.addReads(to: &names)
        if value.slotKey != nil { names.insert("slot") }
        for template in [label, placeholder, accessibilityLabel].compactMap(\.self) + optionLabels {
            template.addReads(to: &names)
        }
        for prop in props.values { prop.addReads(to: &names) }
        return names
    }
}

extension DataContext {
    /// The names of this root context whose values differ from `other`'s (`""` for the default
    /// object), or `nil` when the two cannot be compared name by name (other names, a parent, or
    /// another environment). Values held in common storage compare without being read.
    public func changedNames(since other: DataContext) -> Set<String>? {
        guard parent == nil, other.parent == nil, names == other.names, environment.isSame(as: other.environment) else {
            return nil
        }
        var changed: Set<String> = []
        for index in names.indices {
            if index == listSlot || index == other.listSlot {
                // A list bound lazily: lists of equal items (the same elements compare unread).
                guard index == listSlot, index == other.listSlot, let mine = list, let theirs = other.list, mine == theirs
                else {
                    changed.insert(names[index])
                    continue
                }
            } else if values[index] != other.values[index] {
                changed.insert(names[index])
            }
        }
        switch (defaultItems, other.defaultItems) {
        case (nil, nil): if storedDefault != other.storedDefault { changed.insert("") }
        case (let mine?, let theirs?): if mine != theirs { changed.insert("") }
        default: changed.insert("")
        }
        return changed
    }
}

extension EvaluationEnvironment {
    /// Whether expressions evaluate alike in both: the same time, locale, zone, calendar and limits.
    public func isSame(as other: EvaluationEnvironment) -> Bool {
        now == other.now && locale.identifier == other.locale.identifier && timeZone == other.timeZone
            && calendar == other.calendar && limits == other.limits
    }
}

/// What a node-dialect subtree reads from its document's context, finely enough that a change
/// to one state key redraws only what shows that key: whole names (`$.user`, a relative path's
/// default object `""`), single keys of a name (`$.state.query`), and the deferred sections and
/// components it holds.
public struct NodeReads: Sendable, Hashable {
    /// Names read whole.
    public private(set) var names: Set<String> = []
    /// Keys read of a name, by name (`state` → `query`), where the path names its second key.
    public private(set) var keys: [String: Set<String>] = [:]
    /// The node ids of the deferred sections (nodes with a `data_endpoint`) in the subtree.
    public private(set) var sections: Set<String> = []
    /// Whether the subtree expands a component (whose body reads what it reads).
    public private(set) var usesComponents = false
    /// One bit per name read whole, per name read by key and per name and key read (a bloom
    /// filter of 64 bits each): a change that sets none of them is not read, without hashing.
    public private(set) var wholeBits: UInt64 = 0
    /// See `wholeBits`: the names read by key.
    public private(set) var keyedNameBits: UInt64 = 0
    /// See `wholeBits`: the names and keys read.
    public private(set) var keyBits: UInt64 = 0

    /// The bit of a name, or of a name and one of its keys, in the filters above (FNV-1a).
    public static func bit(_ name: String, key: String? = nil) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if let key {
            hash = (hash ^ 0x2e) &* 0x100_0000_01b3
            for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return 1 << (hash >> 58)
    }

    /// Reads nothing.
    public init() {}

    /// Adds what `expression` reads.
    public mutating func add(_ expression: DynamicExpression) {
        switch expression {
        case .literal: break
        case .path(let path): add(path)
        case .pipe(let base, _): add(base)
        case .not(let operand): add(operand)
        case .compare(_, let lhs, let rhs), .and(let lhs, let rhs), .or(let lhs, let rhs):
            add(lhs)
            add(rhs)
        }
    }

    /// Adds what `path` reads: its first key, and its second when it is a key (`count`,
    /// `isEmpty` and `isNotEmpty` read the whole value: they are computed from every key when
    /// the value has no member of that name).
    public mutating func add(_ path: PathExpression) {
        guard path.root == .scoped, case .key(let name)? = path.components.first else {
            names.insert("")
            wholeBits |= Self.bit("")
            return
        }
        if path.components.count > 1, case .key(let key) = path.components[1], !Self.computedKeys.contains(key) {
            keys[name, default: []].insert(key)
            keyedNameBits |= Self.bit(name)
            keyBits |= Self.bit(name, key: key)
        } else {
            names.insert(name)
            wholeBits |= Self.bit(name)
        }
    }

    /// The members a value without one of that name computes from all its keys.
    private static let computedKeys: Set<String> = ["count", "isEmpty", "isNotEmpty"]

    /// Adds what `template` reads.
    public mutating func add(_ template: ValueTemplate) {
        switch template {
        case .literal: break
        case .expression(let expression): add(expression)
        case .text(let text): for case .expression(let expression) in text.segments { add(expression) }
        case .array(let elements), .object(_, let elements): for element in elements { add(element) }
        }
    }

    /// Adds what `action` reads when it runs (its params, values and selection).
    public mutating func add(_ action: CompiledNodeAction) {
        switch action {
        case .navigate(_, let params), .present(_, let params), .custom(_, let params): add(params)
        case .api(_, let params, _, let select):
            add(params)
            if let select { add(select.matching) }
        case .setState(_, let value): add(value)
        case .sequence(let steps): for step in steps { add(step) }
        case .dismiss, .patch, .timer, .unknown: break
        }
    }

    /// Adds a deferred section's node id.
    public mutating func addSection(_ id: String) { sections.insert(id) }

    /// Marks the subtree as expanding a component.
    public mutating func addComponent() { usesComponents = true }

    /// Adds everything `other` reads.
    public mutating func formUnion(_ other: NodeReads) {
        names.formUnion(other.names)
        for (name, keys) in other.keys { self.keys[name, default: []].formUnion(keys) }
        sections.formUnion(other.sections)
        usesComponents = usesComponents || other.usesComponents
        wholeBits |= other.wholeBits
        keyedNameBits |= other.keyedNameBits
        keyBits |= other.keyBits
    }
}
