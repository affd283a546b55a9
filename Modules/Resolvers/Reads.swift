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
    func isSame(as other: EvaluationEnvironment) -> Bool {
        now == other.now && locale.identifier == other.locale.identifier && timeZone == other.timeZone
            && calendar == other.calendar && limits == other.limits
    }
}
