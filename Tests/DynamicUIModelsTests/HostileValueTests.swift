import DynamicUIModels
import Foundation
import Testing

/// The numbers a hostile or buggy server can send, as `Double`s.
let extremeDoubles: [Double] = [
    1e300, -1e300, 1e22, -1e22, 1e19, -1e19, 0, -0.0, .nan, .infinity, -.infinity,
    Double(Int64.max), Double(Int64.min), Double(Int64.max).nextDown, -9_223_372_036_854_775_808,
    Double(UInt64.max), 2e10, 1.5, -1.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
]

@Suite("Hostile values: numbers never trap, keys are exact bytes, limits are typed errors")
struct HostileValueTests {
    @Test(arguments: extremeDoubles)
    func integerConversionClamps(value: Double) {
        let converted = WireNumber.int(value)
        if value.isNaN {
            #expect(converted == 0)
        } else if value >= 9_223_372_036_854_775_808 {
            #expect(converted == .max)
        } else if value < -9_223_372_036_854_775_808 {
            #expect(converted == .min)
        } else {
            #expect(converted == Int(value))
        }
        let stars = WireNumber.int(rounding: value, in: 0...5)
        #expect((0...5).contains(stars))
        let clamped = WireNumber.clamp(value, to: 0...5)
        #expect((0...5).contains(clamped))
    }

    @Test func boundariesAroundTwoToThe63() {
        #expect(WireNumber.int(9_223_372_036_854_774_784) == 9_223_372_036_854_774_784)  // largest Double below 2^63
        #expect(WireNumber.int(-9_223_372_036_854_775_808) == .min)
        #expect(WireNumber.int(.nan, nanValue: 7) == 7)
        #expect(WireNumber.int(-0.0) == 0)
        #expect(WireNumber.int(rounding: .nan, in: 2...4) == 2)
        #expect(WireNumber.int(rounding: 4.5, in: 0...5) == 5)
    }

    @Test(arguments: extremeDoubles)
    func sleepDurationsAreBounded(seconds: Double) {
        let nanoseconds = WireNumber.sleepNanoseconds(seconds: seconds)
        #expect(nanoseconds <= WireNumber.maxSleepNanoseconds)
        if !(seconds > 0) { #expect(nanoseconds == 0) }
        if seconds == 1.5 { #expect(nanoseconds == 1_500_000_000) }
        if seconds >= 2e10 { #expect(nanoseconds == WireNumber.maxSleepNanoseconds) }
    }

    @Test(arguments: extremeDoubles)
    func headerSecondsAreFiniteAndNonNegative(value: Double) {
        guard let seconds = WireNumber.seconds(value) else {
            #expect(value.isNaN || value < 0)
            return
        }
        #expect(seconds.isFinite && seconds >= 0 && seconds <= 315_576_000)
    }

    @Test func numbersAtTheEdgesReadExactlyOrAsDoubles() throws {
        let json = try JSONReader().read(
            #"[9223372036854775807, -9223372036854775808, 9223372036854775808, -0, -0.0, 1e300, -1e300, 1e-400]"#)
        let numbers = try #require(json.arrayValue).compactMap(\.numberValue)
        #expect(numbers[0].int64Value == .max)
        #expect(numbers[1].int64Value == .min)
        #expect(numbers[2].int64Value == nil)  // 2^63 is a Double, and intValue does not trap
        #expect(numbers[2].intValue == nil)
        #expect(numbers[3].intValue == 0)
        #expect(numbers[4].intValue == 0)
        #expect(numbers[5].intValue == nil && numbers[6].intValue == nil)
        #expect(numbers[7].doubleValue == 0)
        #expect(throws: JSONReadError.self) { try JSONReader().read("1e400") }
    }

    @Test func objectKeysCompareByTheirExactBytes() throws {
        // "é" precomposed and "e" + combining acute: canonically equivalent, two distinct keys.
        let json = try JSONReader().read(#"{"\u00e9": 1, "e\u0301": 2}"#)
        let object = try #require(json.objectValue)
        #expect(object.count == 2)
        #expect(object["\u{e9}"] == 1)
        #expect(object["e\u{301}"] == 2)
        #expect(throws: Never.self) { try JSONReader(rejectDuplicateKeys: true).read(#"{"\u00e9": 1, "e\u0301": 2}"#) }
        // The same in an object large enough to be hashed.
        let many = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let large = try #require(try JSONReader().read("{\(many), \"\\u00e9\": 1, \"e\\u0301\": 2}").objectValue)
        #expect(large.count == 22)
        #expect(large["\u{e9}"] == 1 && large["e\u{301}"] == 2)
        // Objects differing only in the key's normal form are different objects.
        #expect(JSONValue.object(["\u{e9}": 1]) != JSONValue.object(["e\u{301}": 1]))
        // A real repeat is still a repeat: the last value wins, at the first position.
        let repeated = try #require(try JSONReader().read(#"{"a": 1, "b": 2, "a": 3}"#).objectValue)
        #expect(repeated.keys == ["a", "b"] && repeated["a"] == 3)
        #expect(throws: JSONReadError.self) { try JSONReader(rejectDuplicateKeys: true).read(#"{"a": 1, "a": 2}"#) }
    }

    @Test func exactKeysSurviveWritingAndSettingValues() throws {
        var object = JSONObject()
        for index in 0..<15 { object["k\(index)"] = .number(JSONNumber(index)) }
        object["\u{e9}"] = 1
        object["e\u{301}"] = 2
        #expect(object.count == 17)
        object["\u{e9}"] = nil
        #expect(object.count == 16 && object["e\u{301}"] == 2 && object["\u{e9}"] == nil)
        let written = JSONWriter().string(from: .object(["\u{e9}": 1, "e\u{301}": 2]))
        #expect(try JSONReader().read(written).objectValue?.count == 2)
    }

    @Test func tooManyValuesIsATypedErrorWithItsOffset() throws {
        let reader = JSONReader(limits: JSONReader.Limits(maxValues: 10))
        #expect(throws: Never.self) { try reader.read("[1,2,3,4,5,6,7,8,9]") }  // ten values with the array
        do {
            _ = try reader.read("[1,2,3,4,5,6,7,8,9,10]")
            Issue.record("an eleventh value was accepted")
        } catch {
            #expect(error.code == .valueLimit)
            #expect(error.offset == 19)
        }
    }
}

@Suite("Duplicate keys are found in linear time")
struct DuplicateKeyScaleTests {
    @Test func aLargeObjectIsCheckedOnceAndTheRepeatIsNamed() throws {
        let keys = (0..<200_000).map { "\"k\($0)\": 0" }.joined(separator: ",")
        let strict = JSONReader(rejectDuplicateKeys: true)
        #expect(try strict.read("{\(keys)}").objectValue?.count == 200_000)
        let text = "{\(keys), \"k17\": 1}"
        do {
            _ = try strict.read(text)
            Issue.record("a repeated key was accepted")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.offset == text.utf8.count - 9)  // the second "k17"
        }
        // Nested objects keep their own keys.
        #expect(throws: Never.self) { try strict.read(#"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}"#) }
    }
}
