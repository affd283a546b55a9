public import DynamicUIModels
internal import Foundation

/// Evaluation exceeded `ExpressionLimits.maxEvaluationSteps`. Missing data never throws (a
/// missing path is `null`); only a limit does.
public struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression whose evaluation stopped.
    public let expression: String
    /// The step limit in force.
    public let limit: Int

    public var description: String { "evaluation of \(expression.prefix(200).debugDescription) exceeded \(limit) steps" }
}

extension DynamicExpression {
    /// Evaluates in `context`. Missing paths are `null`; comparisons between different kinds are
    /// `false` (except `!=`); nothing is coerced.
    public func evaluate(in context: DataContext) throws(EvaluationError) -> JSONValue {
        // A path's cost is bounded by its length, so it needs no step budget (a path that takes
        // a list screen's items whole builds them once, as reading them costs anyway).
        if case .path(let path) = self { return path.resolve(in: context) }
        var budget = EvaluationBudget(limit: context.maxEvaluationSteps)
        return try evaluate(in: context, budget: &budget)
    }

    /// Evaluates as a condition: the truthiness of the result (see `JSONValue.isTruthy`).
    public func isTrue(in context: DataContext) throws(EvaluationError) -> Bool {
        try evaluate(in: context).isTruthy
    }
    func evaluate(in context: DataContext, budget: inout EvaluationBudget) throws(EvaluationError) -> JSONValue {
        try budget.spend(1, on: self)
        switch self {
        case .literal(let value):
            return value
        case .path(let path):
            return path.resolve(in: context)
        case .pipe(let base, let transforms):
            var value = try base.evaluate(in: context, budget: &budget)
            for transform in transforms {
                value = try transform.apply(to: value, environment: context.environment, budget: &budget, expression: self)
            }
            return value
        case .not(let operand):
            return .bool(!(try operand.evaluate(in: context, budget: &budget).isTruthy))
        case .compare(let op, let lhs, let rhs):
            let left = try lhs.evaluate(in: context, budget: &budget)
            let right = try rhs.evaluate(in: context, budget: &budget)
            return .bool(op.compare(left, right))
        case .and(let lhs, let rhs):
            guard try lhs.evaluate(in: context, budget: &budget).isTruthy else { return .bool(false) }
            return .bool(try rhs.evaluate(in: context, budget: &budget).isTruthy)
        case .or(let lhs, let rhs):
            if try lhs.evaluate(in: context, budget: &budget).isTruthy { return .bool(true) }
            return .bool(try rhs.evaluate(in: context, budget: &budget).isTruthy)
        }
    }

    /// Every path the expression reads.
    public var paths: [PathExpression] {
        switch self {
        case .literal: []
        case .path(let path): [path]
        case .pipe(let base, _): base.paths
        case .not(let operand): operand.paths
        case .compare(_, let lhs, let rhs), .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.paths + rhs.paths
        }
    }
}

/// Counts evaluation steps against the limit.
struct EvaluationBudget {
    var remaining: Int
    let limit: Int
    init(limit: Int) {
        self.limit = limit
        self.remaining = limit
    }
    mutating func spend(_ steps: Int, on expression: @autoclosure () -> DynamicExpression) throws(EvaluationError) {
        remaining -= steps
        if remaining < 0 { throw EvaluationError(expression: expression().description, limit: limit) }
    }
}

extension PathExpression {
    /// The value at this path in `context`, or `null`.
    public func resolve(in context: DataContext) -> JSONValue {
        // Through the buffer, each step is borrowed in place (an array element read by
        // subscript is copied, and destroyed after its use).
        components.withUnsafeBufferPointer { steps in
            var current: JSONValue
            var next = 0
            var list: ListItems?
            switch root {
            case .relative:
                list = context.defaultItems
                current = context.storedDefault
            case .scoped:
                if !steps.isEmpty, case .key(let name) = steps[0], let scoped = context.scoped(name) {
                    next = 1
                    switch scoped {
                    case .value(let value): current = value
                    case .list(let bound): (list, current) = (bound, .null)
                    }
                } else {
                    list = context.defaultItems
                    current = context.storedDefault
                }
            }
            if let list {
                // A list bound without being built: its first step builds only what it reaches.
                guard let reached = list.pathStep(next < steps.count ? steps[next] : nil) else { return .null }
                current = reached
                next += 1
            }
            while next < steps.count {
                guard let value = current.member(steps[next]) else { return .null }
                current = value
                next += 1
            }
            return current
        }
    }
}

extension JSONValue {
    /// One path step. A numeric key also indexes an array; `isEmpty`, `isNotEmpty` and `count`
    /// are computed for values that have no member of that name.
    func member(_ component: JSONLocation.Component) -> JSONValue? {
        switch component {
        case .index(let index):
            return self[index]
        case .key(let key):
            switch self {
            case .object(let object):
                if let value = object[key] { return value }
            case .array(let array):
                if let index = Self.arrayIndex(key) { return array.indices.contains(index) ? array[index] : nil }
            default:
                break
            }
            return Self.computedMember(key, isEmpty: isEmptyValue, count: countValue)
        }
    }

    /// A numeric key read as an array index (`items.0`); nil for a name.
    static func arrayIndex(_ key: String) -> Int? {
        guard let first = key.utf8.first, first >= 0x30, first <= 0x39 else { return nil }
        return Int(key)
    }

    /// The members computed for a value that has none of that name: `isEmpty`, `isNotEmpty`
    /// and `count`.
    @inline(__always)
    static func computedMember(
        _ key: String, isEmpty: @autoclosure () -> Bool, count: @autoclosure () -> JSONValue
    ) -> JSONValue? {
        switch key {
        case "isEmpty": .bool(isEmpty())
        case "isNotEmpty": .bool(!isEmpty())
        case "count": count()
        default: nil
        }
    }

    /// Whether the value is `null`, `""`, `[]` or `{}`.
    public var isEmptyValue: Bool {
        switch self {
        case .null: true
        case .string(let string): string.isEmpty
        case .array(let array): array.isEmpty
        case .object(let object): object.isEmpty
        case .bool, .number: false
        }
    }

    /// Elements of an array, members of an object, characters of a string, 0 for `null`;
    /// `null` for numbers and booleans.
    public var countValue: JSONValue {
        switch self {
        case .null: .number(0)
        case .string(let string): .number(JSONNumber(string.count))
        case .array(let array): .number(JSONNumber(array.count))
        case .object(let object): .number(JSONNumber(object.count))
        case .bool, .number: .null
        }
    }

    /// Condition truthiness: `null`, `false`, `0`, `""`, `[]` and `{}` are false; everything
    /// else is true.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let flag): flag
        case .number(let number): number.doubleValue != 0
        case .string(let string): !string.isEmpty
        case .array(let array): !array.isEmpty
        case .object(let object): !object.isEmpty
        }
    }

    /// The value as display text: strings as they are, numbers in shortest form, booleans as
    /// `true`/`false`, `null` as empty, arrays joined with `, `, objects as compact JSON.
    public var text: String {
        switch self {
        case .null: ""
        case .string(let string): string
        case .number(let number): number.description
        case .bool(let flag): flag ? "true" : "false"
        case .array(let array): array.map(\.text).joined(separator: ", ")
        case .object: description
        }
    }
}

extension ComparisonOperator {
    /// `==`/`!=` compare kind and value (`1 == 1.0`; `'1' != 1`). Ordering compares two numbers
    /// or two strings; any other pair is `false`.
    func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        default: break
        }
        let order: Int
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let a), .string(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
        default: return false
        }
        switch self {
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case .equal, .notEqual: return false
        }
    }
}

extension Transform {
    /// Applies the transform. Inputs a transform does not handle pass through (documented per
    /// case in the module documentation); nothing throws except the step limit.
    func apply(
        to value: JSONValue, environment: EvaluationEnvironment, budget: inout EvaluationBudget, expression: DynamicExpression
    ) throws(EvaluationError) -> JSONValue {
        switch self {
        case .date(let pattern):
            guard let (date, dateOnly) = DateParsing.date(from: value) else { return .null }
            let zone = dateOnly ? TimeZone(identifier: "UTC")! : environment.timeZone
            return .string(
                environment.formatters.format(
                    date, pattern: pattern, locale: environment.locale, timeZone: zone, calendar: environment.calendar))
        case .duration(let pattern):
            let milliseconds: Double
            switch value {
            case .number(let number): milliseconds = number.doubleValue
            case .string(let string):
                guard let parsed = Double(string) else { return .null }
                milliseconds = parsed
            default: return .null
            }
            // A length no one reads as a duration (negative, or past `maxDurationMilliseconds`)
            // is no value, so `| default:` applies, as for a date beyond any calendar.
            guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= Self.maxDurationMilliseconds else { return .null }
            return .string(Self.formatDuration(milliseconds: milliseconds, pattern: pattern))
        case .uppercase:
            switch value {
            case .string(let string): return .string(string.uppercased())
            case .number, .bool: return .string(value.text.uppercased())
            default: return value
            }
        case .lowercase:
            switch value {
            case .string(let string): return .string(string.lowercased())
            case .number, .bool: return .string(value.text.lowercased())
            default: return value
            }
        case .join(let separator):
            guard case .array(let elements) = value else { return value }
            try budget.spend(elements.count, on: expression)
            return .string(elements.map(\.text).joined(separator: separator))
        case .defaultValue(let fallback):
            switch value {
            case .null: return fallback
            case .string(let string) where string.isEmpty: return fallback
            default: return value
            }
        case .truncate(let length):
            let text: String
            switch value {
            case .string(let string): text = string
            case .number, .bool: text = value.text
            default: return value
            }
            guard let cut = text.index(text.startIndex, offsetBy: length, limitedBy: text.endIndex), cut < text.endIndex else {
                return .string(text)
            }
            return .string(String(text[..<cut]) + "…")
        case .count:
            return value.countValue
        case .exists:
            return .bool(!value.isNull)
        case .empty:
            return .bool(value.isEmptyValue)
        case .notEmpty:
            return .bool(!value.isEmptyValue)
        }
    }

    /// The longest duration the `duration` transform formats: 10,000 hours (over a year; no
    /// episode, video or countdown is longer).
    static let maxDurationMilliseconds: Double = 10_000 * 3_600_000

    /// Formats milliseconds: `h`, `m` and `s` runs are hours, minutes and seconds, zero-padded to
    /// the run's length; the largest unit present carries the total (`mm:ss` of 75 minutes is
    /// `75:00`). Text in single quotes is copied as is; other characters are copied too.
    static func formatDuration(milliseconds: Double, pattern: String) -> String {
        let totalSeconds = WireNumber.int(milliseconds / 1000)
        if pattern.isEmpty {
            return formatDuration(milliseconds: milliseconds, pattern: totalSeconds >= 3600 ? "h:mm:ss" : "m:ss")
        }
        let hasHours = pattern.contains("h")
        let hasMinutes = pattern.contains("m")
        var result = ""
        var characters = pattern[...]
        while let character = characters.first {
            if character == "'" {
                // Quoted text is literal; '' is a quote.
                let quoted = characters.dropFirst().prefix { $0 != "'" }
                result += quoted.isEmpty ? "'" : quoted
                characters = characters.dropFirst(quoted.count + 2)
                continue
            }
            let run = characters.prefix { $0 == character }
            characters = characters.dropFirst(run.count)
            let value: Int
            switch character {
            case "h": value = totalSeconds / 3600
            case "m": value = hasHours ? (totalSeconds / 60) % 60 : totalSeconds / 60
            case "s": value = hasHours || hasMinutes ? totalSeconds % 60 : totalSeconds
            default:
                result += run
                continue
            }
            let digits = String(value)
            result += String(repeating: "0", count: max(0, run.count - digits.count)) + digits
        }
        return result
    }
}

/// ISO-8601 and Unix-time parsing for the `date` transform.
enum DateParsing {
    /// The date in `value`, and whether it was a date without a time. Strings are ISO 8601
    /// (`2025-05-01`, `2025-05-01T10:00:00Z`, fractions and `±hh:mm` offsets allowed; no zone
    /// means UTC); numbers are Unix seconds, or milliseconds when above 10^11.
    static func date(from value: JSONValue) -> (Date, Bool)? {
        switch value {
        case .number(let number):
            let raw = number.doubleValue
            let seconds = abs(raw) > 1e11 ? raw / 1000 : raw
            // Beyond ±10^13 s (about 300,000 years) no calendar formats the date: no value.
            guard abs(seconds) <= 1e13 else { return nil }
            return (Date(timeIntervalSince1970: seconds), false)
        case .string(let string):
            return parseISO8601(Array(string.utf8))
        default:
            return nil
        }
    }

    static func parseISO8601(_ bytes: [UInt8]) -> (Date, Bool)? {
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = bytes[position + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += digits
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if position == bytes.count { return (Date(timeIntervalSince1970: seconds), true) }
        guard expect(UInt8(ascii: "T")) || expect(UInt8(ascii: " ")), let hour = number(2), expect(UInt8(ascii: ":")),
            let minute = number(2), hour < 24, minute < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if expect(UInt8(ascii: ":")) {
            guard let second = number(2), second < 61 else { return nil }
            seconds += Double(second)
            if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                var scale = 0.1
                while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                    seconds += Double(bytes[position] - 0x30) * scale
                    scale /= 10
                    position += 1
                }
            }
        }
        if position == bytes.count || expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
            return position == bytes.count ? (Date(timeIntervalSince1970: seconds), false) : nil
        }
        let sign: Double
        if expect(UInt8(ascii: "+")) { sign = 1 } else if expect(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let offsetHours = number(2) else { return nil }
        _ = expect(UInt8(ascii: ":"))
        let offsetMinutes = number(2) ?? 0
        guard position == bytes.count else { return nil }
        seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
        return (Date(timeIntervalSince1970: seconds), false)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
