/// Conversions of numbers that come from a server into the fixed-width integers the platform
/// needs. Swift traps on `Int(1e300)`, `Int(Double.nan)` and `UInt64(-1.0)`; these never do.
public enum WireNumber {
    /// 2^63 as a `Double`: the first value above `Int64.max`.
    private static let twoTo63 = 9_223_372_036_854_775_808.0
    /// 2^64 as a `Double`: the first value above `UInt64.max`.
    private static let twoTo64 = 18_446_744_073_709_551_616.0
    /// The longest sleep the SDK asks for: 100 years in nanoseconds (a deadline of `now +` this
    /// still fits the 63 bits the schedulers use).
    public static let maxSleepNanoseconds: UInt64 = 3_155_760_000_000_000_000

    /// `value` rounded toward zero and clamped to `Int`'s range; NaN gives `nanValue`.
    public static func int(_ value: Double, nanValue: Int = 0) -> Int {
        if value.isNaN { return nanValue }
        if value >= twoTo63 { return .max }
        if value < -twoTo63 { return .min }
        return Int(value)
    }

    /// `value` rounded to the nearest whole number, clamped to `range`; NaN gives the lower bound.
    public static func int(rounding value: Double, in range: ClosedRange<Int>) -> Int {
        let whole = int(value.rounded(), nanValue: range.lowerBound)
        return min(max(whole, range.lowerBound), range.upperBound)
    }

    /// `value` clamped to `range`; NaN gives the lower bound.
    public static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        if value.isNaN { return range.lowerBound }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// Nanoseconds of a sleep of `seconds`: 0 for a negative, zero or NaN value, at most
    /// `maxSleepNanoseconds` (so an absurd interval waits a century instead of trapping or
    /// wrapping to an immediate wake-up).
    public static func sleepNanoseconds(seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let nanoseconds = seconds * 1_000_000_000
        guard nanoseconds < twoTo64 else { return maxSleepNanoseconds }
        return min(UInt64(nanoseconds), maxSleepNanoseconds)
    }

    /// A finite, non-negative number of seconds no larger than `limit`, for durations from
    /// headers (`max-age`, `Retry-After`, `expires_in`); `nil` for NaN or a negative value.
    public static func seconds(_ value: Double, limit: Double = 315_576_000) -> Double? {
        guard value >= 0 else { return nil }
        return min(value, limit)
    }
}
