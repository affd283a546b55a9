import DynamicUIModels
public import Foundation

/// When and how long to wait before retrying: retryable statuses,
/// exponential backoff with jitter, and the server's `Retry-After` honoured up to a cap.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (3 means up to 4 attempts).
    public var maxRetries: Int
    /// Statuses worth retrying.
    public var retryableStatuses: Set<Int>
    /// Delay of the first retry, in seconds.
    public var baseDelay: Double
    /// Factor between consecutive delays.
    public var multiplier: Double
    /// Fraction of random spread around each delay (0.2 = ±20%).
    public var jitter: Double
    /// Longest computed delay.
    public var maxDelay: Double
    /// Longest `Retry-After` honoured; a longer one is not waited for (the error is returned).
    public var maxRetryAfter: Double
    /// Source of randomness in `0..<1` for the jitter (injectable for deterministic tests).
    public var random: @Sendable () -> Double

    /// Creates a policy.
    public init(
        maxRetries: Int = 3, retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504], baseDelay: Double = 1,
        multiplier: Double = 2, jitter: Double = 0.2, maxDelay: Double = 30, maxRetryAfter: Double = 60,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxRetries = maxRetries
        self.retryableStatuses = retryableStatuses
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.random = random
    }

    /// 3 retries of 408/429/500/502/503/504 after 1, 2, 4 s (±20%).
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// No retries.
    public static var none: RetryPolicy { RetryPolicy(maxRetries: 0) }

    /// The delay before retry number `retry` (0 for the first retry): `baseDelay × multiplier^retry`
    /// spread by the jitter and capped at `maxDelay`.
    public func delay(forRetry retry: Int) -> Double {
        let raw = baseDelay * pow(multiplier, Double(retry))
        let spread = 1 + jitter * (2 * random() - 1)
        return min(maxDelay, max(0, raw * spread))
    }

    /// Seconds to wait from a `Retry-After` value: delta-seconds or an HTTP date.
    public static func retryAfter(_ value: String?, now: Date) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return WireNumber.seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return WireNumber.seconds(max(0, date.timeIntervalSince(now)))
    }
}

/// What `Cache-Control` allows for a response.
struct CacheDirectives {
    var maxAge: Double?
    var noStore = false
    var noCache = false

    init(_ header: String?) {
        guard let header else { return }
        for part in header.split(separator: ",") {
            let directive = part.trimmingCharacters(in: .whitespaces).lowercased()
            if directive == "no-store" {
                noStore = true
            } else if directive == "no-cache" {
                noCache = true
            } else if directive.hasPrefix("max-age="), let seconds = Double(directive.dropFirst(8)) {
                maxAge = WireNumber.seconds(seconds)
            }
        }
    }
}
