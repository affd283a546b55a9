import Foundation

/// The items of a list screen: values, or the elements of an array in a `JSONDocument` read
/// in place, each built as a `JSONValue` only when it is asked for.
///
/// A page read as a document becomes items without building its rows: `items[index]` builds
/// that one item, and `member(_:at:)` reads one member of an item (a row's `id`) without
/// building the rest. Pages are joined with `+` and keep their own storage. Items compare by
/// their values: two lists holding the same elements of the same document are equal without
/// being read.
public struct ListItems: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Where a run of items is held.
    enum Segment: Sendable {
        /// Items built already.
        case values([JSONValue])
        /// Elements of an array in `document`, by their first word on its tape.
        case elements(JSONDocument, [Int])

        var count: Int {
            switch self {
            case .values(let values): values.count
            case .elements(_, let positions): positions.count
            }
        }

        /// Whether the item at `offset` equals `other`'s at `otherOffset` (the same element of
        /// one document without reading it).
        func item(at offset: Int, equals other: Segment, at otherOffset: Int) -> Bool {
            if case .elements(let document, let positions) = self, case .elements(let otherDocument, let otherPositions) = other,
                document === otherDocument, positions[offset] == otherPositions[otherOffset]
            {
                return true
            }
            return self[offset] == other[otherOffset]
        }

        /// The item at `offset` in the run, built when it is held in a document.
        subscript(offset: Int) -> JSONValue {
            switch self {
            case .values(let values): values[offset]
            case .elements(let document, let positions): JSONNode(document: document, index: positions[offset]).value
            }
        }
    }

    /// The items, while none is held in a document (read without going through the runs).
    private var built: [JSONValue]
    /// The runs, in order, once any item is held in a document; empty otherwise.
    private var segments: [Segment]
    /// The number of items up to the end of each run.
    private var ends: [Int]
    /// What these items keep once read: the items built whole (when they are held in a
    /// document) and their record ids (the copies of these items share it).
    private var whole: BuiltItems?

    /// Where items keep what was read from them whole.
    private final class BuiltItems: @unchecked Sendable {
        // Sendable: `values` and `recordIds` are written under the lock, each for the same items.
        let lock = NSLock()
        var values: [JSONValue]?
        /// The items' record ids, when every item is a record (a record patch reads them).
        var recordIds: [String]?
    }

    /// The members of a response object that hold its list, in the order they are looked for
    /// (`{"items": [...]}`, `{"data": [...]}`, `{"results": [...]}`).
    package static let responseListKeys = ["items", "data", "results"]

    /// The list a response value holds: the value itself when it is an array, else its first
    /// `responseListKeys` member that is one; nil when it holds none.
    package static func responseList(in value: JSONValue) -> [JSONValue]? {
        if let array = value.arrayValue { return array }
        for key in responseListKeys {
            if let array = value[key]?.arrayValue { return array }
        }
        return nil
    }

    /// Items already built.
    public init(_ values: [JSONValue]) {
        built = values
        segments = []
        ends = []
    }

    /// Creates items from an array literal.
    public init(arrayLiteral elements: JSONValue...) { self.init(elements) }

    /// The elements of an array node, each built when it is read; nil when the node is not an
    /// array. Finding the elements walks the array once (a step an element).
    public init?(array node: JSONNode) {
        guard node.kind == .array else { return nil }
        var positions: [Int] = []
        positions.reserveCapacity(node.count)
        node.forEachElement { element, _ in positions.append(element.index) }
        self.init(runs: [.elements(node.document, positions)])
    }

    /// The runs, the built items as one when none is held in a document.
    private var runs: (segments: [Segment], ends: [Int]) {
        if !segments.isEmpty { return (segments, ends) }
        return built.isEmpty ? ([], []) : ([.values(built)], [built.count])
    }

    /// The first position (always 0).
    public var startIndex: Int { 0 }

    /// One past the last position: the number of items.
    public var endIndex: Int { segments.isEmpty ? built.count : ends[ends.count - 1] }

    /// The item at `position`, built from the document when it is held there.
    public subscript(position: Int) -> JSONValue {
        if segments.isEmpty { return built[position] }
        let (segment, offset) = locate(position)
        return segments[segment][offset]
    }

    /// The item at `position` as a node of its document; nil when the item was given as a value.
    public func node(at position: Int) -> JSONNode? {
        if segments.isEmpty {
            precondition(built.indices.contains(position), "ListItems index \(position) out of range 0..<\(built.count)")
            return nil
        }
        let (segment, offset) = locate(position)
        guard case .elements(let document, let positions) = segments[segment] else { return nil }
        return JSONNode(document: document, index: positions[offset])
    }

    /// The member `key` of the item at `position` (nil when the item is not an object or has no
    /// such member), built alone when the item is held in a document.
    public func member(_ key: String, at position: Int) -> JSONValue? {
        if segments.isEmpty { return built[position][key] }
        let (segment, offset) = locate(position)
        switch segments[segment] {
        case .values(let values): return values[offset][key]
        case .elements(let document, let positions): return JSONNode(document: document, index: positions[offset])[key]?.value
        }
    }

    /// Whether every item is built: given as values, or built whole once already.
    package var isBuiltWhole: Bool {
        guard !segments.isEmpty, let whole else { return true }
        whole.lock.lock()
        defer { whole.lock.unlock() }
        return whole.values != nil
    }

    /// Every item built, in order (built once for items held in a document, and kept).
    public var values: [JSONValue] {
        if segments.isEmpty { return built }
        guard let whole else { return buildAll() }
        whole.lock.lock()
        defer { whole.lock.unlock() }
        if let values = whole.values { return values }
        let values = buildAll()
        whole.values = values
        return values
    }

    /// Every item, built now.
    private func buildAll() -> [JSONValue] {
        var all: [JSONValue] = []
        all.reserveCapacity(count)
        for segment in segments {
            switch segment {
            case .values(let values): all += values
            case .elements(let document, let positions):
                for position in positions { all.append(JSONNode(document: document, index: position).value) }
            }
        }
        return all
    }

    /// How many items are held in a document and not built until read.
    public var unbuiltCount: Int {
        segments.reduce(0) { total, segment in
            if case .elements(_, let positions) = segment { total + positions.count } else { total }
        }
    }

    /// The items of `lhs` followed by those of `rhs` (a page appended), each kept where it is held.
    public static func + (lhs: ListItems, rhs: ListItems) -> ListItems {
        ListItems(runs: lhs.runs.segments + rhs.runs.segments)
    }

    /// Whether both hold equal items in order (the same elements of the same document compare
    /// without being read).
    public static func == (lhs: ListItems, rhs: ListItems) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.segments.isEmpty, rhs.segments.isEmpty { return lhs.built == rhs.built }
        let (left, right) = (lhs.runs, rhs.runs)
        if left.ends == right.ends {
            // Runs of the same lengths compare run by run: values as arrays, the same elements
            // of one document without reading them.
            for (left, right) in zip(left.segments, right.segments) {
                switch (left, right) {
                case (.values(let leftValues), .values(let rightValues)):
                    if leftValues != rightValues { return false }
                case (.elements(let leftDocument, let leftPositions), .elements(let rightDocument, let rightPositions))
                where leftPositions == rightPositions
                    && (leftDocument === rightDocument || leftDocument.hasSameContent(as: rightDocument)):
                    // The same elements, or a page read again from the same text.
                    continue
                default:
                    if !(0..<left.count).allSatisfy({ left.item(at: $0, equals: right, at: $0) }) { return false }
                }
            }
            return true
        }
        // Runs that differ (a patched page): item by item, walking both runs in step.
        var (leftRun, leftOffset, rightRun, rightOffset) = (0, 0, 0, 0)
        for _ in 0..<lhs.count {
            while leftOffset == left.segments[leftRun].count { (leftRun, leftOffset) = (leftRun + 1, 0) }
            while rightOffset == right.segments[rightRun].count { (rightRun, rightOffset) = (rightRun + 1, 0) }
            guard left.segments[leftRun].item(at: leftOffset, equals: right.segments[rightRun], at: rightOffset) else {
                return false
            }
            leftOffset += 1
            rightOffset += 1
        }
        return true
    }

    /// These items with the one at `position` replaced by `items` (none removes it); the other
    /// items stay where they are held.
    public func replacing(at position: Int, with items: [JSONValue]) -> ListItems {
        precondition(position >= 0 && position < endIndex, "ListItems index \(position) out of range 0..<\(endIndex)")
        if segments.isEmpty {
            var values = built
            values.replaceSubrange(position...position, with: items)
            return ListItems(values)
        }
        let (segment, offset) = locate(position)
        var pieces: [Segment] = []
        switch segments[segment] {
        case .values(var values):
            values.replaceSubrange(offset...offset, with: items)
            pieces = [.values(values)]
        case .elements(let document, let positions):
            pieces = [
                .elements(document, Array(positions[..<offset])), .values(items),
                .elements(document, Array(positions[(offset + 1)...])),
            ]
        }
        return ListItems(runs: Array(segments[..<segment]) + pieces + segments[(segment + 1)...])
    }

    /// Items of `runs`, in order: empty runs left out, neighbouring built runs made one, and
    /// items that are all built held as built items.
    private init(runs: [Segment]) {
        self.init([])
        for run in runs where run.count > 0 {
            if case .values(let more) = run, case .values(let held)? = segments.last {
                segments[segments.count - 1] = .values(held + more)
                ends[ends.count - 1] += more.count
            } else {
                segments.append(run)
                ends.append((ends.last ?? 0) + run.count)
            }
        }
        if segments.count == 1, case .values(let values) = segments[0] {
            self = ListItems(values)
        } else if !segments.isEmpty {
            whole = BuiltItems()
        }
    }

    /// The record id of every item, in order (read in place, run by run), or nil when an item
    /// is not a record; kept with the items once read.
    var recordIds: [String]? {
        if let whole {
            whole.lock.lock()
            defer { whole.lock.unlock() }
            if let ids = whole.recordIds { return ids }
        }
        var ids: [String] = []
        ids.reserveCapacity(count)
        for run in runs.segments {
            switch run {
            case .values(let values):
                for value in values {
                    guard let id = value.recordId else { return nil }
                    ids.append(id)
                }
            case .elements(let document, let positions):
                for position in positions {
                    let node = JSONNode(document: document, index: position)
                    guard let id = JSONValue.recordId(of: node["id"]?.value) else { return nil }
                    ids.append(id)
                }
            }
        }
        keep(recordIds: ids)
        return ids
    }

    /// Keeps `ids` as these items' record ids (which they must be).
    mutating func remember(recordIds ids: [String]) {
        if whole == nil { whole = BuiltItems() }
        keep(recordIds: ids)
    }

    private func keep(recordIds ids: [String]) {
        guard let whole else { return }
        whole.lock.lock()
        whole.recordIds = ids
        whole.lock.unlock()
    }

    /// Hashes the number of items (equal lists have equal counts; hashing the items would build them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
    }

    /// The run holding `position` and the offset in it.
    private func locate(_ position: Int) -> (segment: Int, offset: Int) {
        precondition(position >= 0 && position < endIndex, "ListItems index \(position) out of range 0..<\(endIndex)")
        if ends.count == 1 { return (0, position) }
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return (low, position - (low == 0 ? 0 : ends[low - 1]))
    }
}

extension ListItems: CustomStringConvertible {
    /// How many items there are and how many of them are held in a document (never the items:
    /// a page can be long).
    public var description: String { "ListItems(\(count) items, \(unbuiltCount) held in a document)" }
}
