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
        built = []
        segments = positions.isEmpty ? [] : [.elements(node.document, positions)]
        ends = positions.isEmpty ? [] : [positions.count]
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

    /// Every item built, in order.
    public var values: [JSONValue] {
        if segments.isEmpty { return built }
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
        if lhs.segments.isEmpty, rhs.segments.isEmpty { return ListItems(lhs.built + rhs.built) }
        var joined = lhs
        (joined.segments, joined.ends) = lhs.runs
        joined.built = []
        for segment in rhs.runs.segments {
            if case .values(let more) = segment, case .values(let held)? = joined.segments.last {
                joined.segments[joined.segments.count - 1] = .values(held + more)
                joined.ends[joined.ends.count - 1] += more.count
            } else {
                joined.segments.append(segment)
                joined.ends.append(joined.endIndex + segment.count)
            }
        }
        return joined
    }

    /// Whether both hold equal items in order (the same elements of the same document compare
    /// without being read).
    public static func == (lhs: ListItems, rhs: ListItems) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.segments.isEmpty, rhs.segments.isEmpty { return lhs.built == rhs.built }
        let (left, right) = (lhs.runs, rhs.runs)
        guard left.ends == right.ends else { return lhs.indices.allSatisfy { lhs[$0] == rhs[$0] } }
        // Runs of the same lengths compare run by run: values as arrays, the same elements of
        // one document without reading them.
        for (left, right) in zip(left.segments, right.segments) {
            switch (left, right) {
            case (.values(let leftValues), .values(let rightValues)):
                if leftValues != rightValues { return false }
            case (.elements(let leftDocument, let leftPositions), .elements(let rightDocument, let rightPositions))
            where leftDocument === rightDocument && leftPositions == rightPositions:
                continue
            default:
                if !(0..<left.count).allSatisfy({ left[$0] == right[$0] }) { return false }
            }
        }
        return true
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
