#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// The raw values of an open enumeration's known cases, matched by their UTF-8 bytes: grouped by
/// length, so a value is compared only with the raw values as long as it is, and no `String` is
/// made for a known case.
public struct OpenEnumTable<Value: OpenEnum>: Sendable {
    private let cases: [Value]
    /// Every raw value's bytes, one after another, in the order of `entries`.
    private let bytes: [UInt8]
    /// Per raw value, sorted by length: where its bytes start and which case it is.
    private let entries: [(start: Int, caseIndex: Int)]
    /// `entries[firstOfLength[n]..<firstOfLength[n + 1]]` are the raw values `n` bytes long.
    private let firstOfLength: [Int]

    /// The table of `cases` (the first of two cases with the same raw value wins, as in a walk
    /// over them).
    public init(_ cases: [Value]) {
        self.cases = cases
        let raws = cases.enumerated().map { (index: $0.offset, bytes: Array($0.element.rawValue.utf8)) }
            .sorted { ($0.bytes.count, $0.index) < ($1.bytes.count, $1.index) }
        let longest = raws.last?.bytes.count ?? 0
        var bytes: [UInt8] = []
        var entries: [(start: Int, caseIndex: Int)] = []
        var firstOfLength = [Int](repeating: 0, count: longest + 2)
        for raw in raws {
            entries.append((bytes.count, raw.index))
            bytes += raw.bytes
            firstOfLength[raw.bytes.count + 1] = entries.count
        }
        // Lengths no raw value has start where the previous length ends.
        for length in firstOfLength.indices.dropFirst() where firstOfLength[length] < firstOfLength[length - 1] {
            firstOfLength[length] = firstOfLength[length - 1]
        }
        self.bytes = bytes
        self.entries = entries
        self.firstOfLength = firstOfLength
    }

    /// The known case whose raw value has exactly the bytes `raw`, or nil.
    public func match(_ raw: UnsafeBufferPointer<UInt8>) -> Value? {
        let length = raw.count
        guard length + 1 < firstOfLength.count else { return nil }
        let candidates = entries[firstOfLength[length]..<firstOfLength[length + 1]]
        guard let first = candidates.first else { return nil }
        guard length > 0, let wanted = raw.baseAddress else { return cases[first.caseIndex] }
        return bytes.withUnsafeBufferPointer { table -> Value? in
            guard let table = table.baseAddress else { return nil }
            for entry in candidates where memcmp(table + entry.start, wanted, length) == 0 {
                return cases[entry.caseIndex]
            }
            return nil
        }
    }
}
