/// A JSON number that keeps integers exact: integers that fit in `Int64` are stored as such,
/// every other number as a finite `Double`.
///
/// Two numbers are equal when they denote the same value, so `1` equals `1.0`.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Storage: Sendable {
        case integer(Int64)
        case floating(Double)
    }

    @usableFromInline
    let storage: Storage

    /// An exact integer.
    @inlinable
    public init(_ value: Int64) { storage = .integer(value) }

    /// An exact integer.
    @inlinable
    public init(_ value: Int) { storage = .integer(Int64(value)) }

    /// A floating-point number. A non-finite value is written as `null` by `JSONWriter`.
    @inlinable
    public init(_ value: Double) { storage = .floating(value) }

    /// Whether the number was written (or created) as an integer that fits in `Int64`.
    public var isInteger: Bool {
        if case .integer = storage { return true }
        return false
    }

    /// The value as `Int64` when it is a whole number in range; `nil` otherwise.
    public var int64Value: Int64? {
        switch storage {
        case .integer(let value): value
        case .floating(let value): Int64(exactly: value)
        }
    }

    /// The value as `Int` when it is a whole number in range; `nil` otherwise.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value as `Double` (integers beyond 2^53 are rounded).
    public var doubleValue: Double {
        switch storage {
        case .integer(let value): Double(value)
        case .floating(let value): value
        }
    }

    /// The shortest text that reads back as the same number.
    public var description: String {
        switch storage {
        case .integer(let value):
            return String(value)
        case .floating(let value):
            // Zero's sign is kept: `-0.0`, not `0` (which reads back as the integer zero).
            if value == 0, value.sign == .minus { return "-0.0" }
            if let exact = Int64(exactly: value), abs(value) < 1e15 { return String(exact) }
            return value.description
        }
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.integer(let a), .integer(let b)): a == b
        case (.floating(let a), .floating(let b)): a == b
        case (.integer(let a), .floating(let b)), (.floating(let b), .integer(let a)): Int64(exactly: b) == a
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let exact = int64Value {
            hasher.combine(exact)
        } else {
            hasher.combine(doubleValue)
        }
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int64) { self.init(value) }
    public init(floatLiteral value: Double) { self.init(value) }
}

extension JSONNumber: Comparable {
    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .integer(let a) = lhs.storage, case .integer(let b) = rhs.storage { return a < b }
        return lhs.doubleValue < rhs.doubleValue
    }
}
