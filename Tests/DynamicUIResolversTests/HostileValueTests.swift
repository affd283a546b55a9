import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUIResolvers

@Suite("Hostile values in transforms")
struct HostileTransformTests {
    /// Data as the reader builds it from a server's bytes.
    let context = screenContext(
        data: try! read(
            #"""
            {"huge": 1e22, "huger": 1e300, "negative": -1e300, "negativeZero": -0, "negativeZeroDouble": -0.0,
             "max": 9223372036854775807, "min": -9223372036854775808, "beyond": 9223372036854775808,
             "episode": {"trackTimeMillis": 1e22}, "hugeText": "1e300", "infText": "inf", "nanText": "nan"}
            """#))

    @Test func durationOfAnyNumberIsAValueOrNothing() throws {
        // 1e22 ms and other lengths no one reads as a duration are no value (`default` applies).
        #expect(try evaluate("$.episode.trackTimeMillis | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.episode.trackTimeMillis | duration:mm:ss | default:'—'", in: context) == "—")
        #expect(try evaluate("$.huge | duration:h:mm:ss", in: context) == nil)
        #expect(try evaluate("$.huger | duration:h:mm:ss", in: context) == nil)
        #expect(try evaluate("$.max | duration:h:mm:ss", in: context) == nil)
        #expect(try evaluate("$.beyond | duration:s", in: context) == nil)
        #expect(try evaluate("$.negative | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.min | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.negativeZero | duration:mm:ss", in: context) == "00:00")
        #expect(try evaluate("$.negativeZeroDouble | duration:mm:ss", in: context) == "00:00")
        #expect(try evaluate("$.hugeText | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.infText | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.nanText | duration:mm:ss | default:'—'", in: context) == "—")
        #expect(try evaluate("'-0' | duration:m:ss", in: context) == "0:00")
        // The longest one formatted, and one millisecond-second past it.
        #expect(try evaluate("36000000000 | duration:h:mm:ss", in: context) == "10000:00:00")
        #expect(try evaluate("36000001000 | duration:h:mm:ss", in: context) == nil)
        #expect(try evaluate("5333000 | duration:h:mm:ss", in: context) == "1:28:53")
    }

    @Test func datesBeyondAnyCalendarAreNoValue() throws {
        #expect(try evaluate("$.huger | date:yyyy | default:'?'", in: context) == "?")
        #expect(try evaluate("$.negative | date:yyyy | default:'?'", in: context) == "?")
        #expect(try evaluate("$.max | date:yyyy | default:'?'", in: context) == "?")
        #expect(try evaluate("$.min | date:yyyy | default:'?'", in: context) == "?")
        #expect(try evaluate("$.negativeZero | date:yyyy", in: context) == "1970")
        // Milliseconds of a real date still format.
        #expect(try evaluate("1746093600000 | date:yyyy", in: context) == "2025")
    }

    @Test func otherTransformsTakeExtremesAsText() throws {
        #expect(try evaluate("$.huger | uppercase", in: context) == "1E+300")
        #expect(try evaluate("$.max | truncate:5", in: context) == "92233…")
        #expect(try compile("$.huger > 5").isTrue(in: context))
        #expect(try compile("$.negative < $.min").isTrue(in: context))
        #expect(try compile("$.negativeZero == 0").isTrue(in: context))
    }
}

@Suite("Hostile expressions")
struct HostileExpressionTests {
    @Test func longOperatorChainsAreALimitErrorNotADeepTree() throws {
        let limits = ExpressionLimits()
        let fits = Array(repeating: "$.a", count: limits.maxDepth + 1).joined(separator: " || ")
        #expect(throws: Never.self) { try ExpressionCompiler().expression(fits) }
        for separator in [" || ", " && ", " && $.b || "] {
            let chain = Array(repeating: "$.a", count: 1_000).joined(separator: separator)
            do {
                _ = try ExpressionCompiler().expression(chain)
                Issue.record("a chain of 1,000 operators compiled")
            } catch {
                #expect(error.code == .limitExceeded)
            }
        }
        // A chain inside parentheses counts the parentheses too.
        let parenthesised = "(" + Array(repeating: "$.a", count: limits.maxDepth + 1).joined(separator: " && ") + ")"
        #expect(throws: ExpressionError.self) { try ExpressionCompiler().expression(parenthesised) }
    }
}
