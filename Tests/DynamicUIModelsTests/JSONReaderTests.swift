import DynamicUICatalog
import Foundation
import PropertyBased
import Testing

@testable import DynamicUIModels

/// Reads `text`, expecting failure, and returns the error.
private func readError(_ text: String, limits: JSONReader.Limits = .default) -> JSONReadError? {
    do {
        _ = try JSONReader(limits: limits).read(text)
        return nil
    } catch {
        return error
    }
}

private func readError(bytes: [UInt8], limits: JSONReader.Limits = .default) -> JSONReadError? {
    do {
        _ = try JSONReader(limits: limits).read(bytes)
        return nil
    } catch {
        return error
    }
}

@Suite("JSON reader: valid input")
struct JSONReaderValidTests {
    @Test func scalars() throws {
        let reader = JSONReader()
        #expect(try reader.read("null") == .null)
        #expect(try reader.read("true") == .bool(true))
        #expect(try reader.read(" false ") == .bool(false))
        #expect(try reader.read("\"hi\"") == .string("hi"))
        #expect(try reader.read("0") == .number(0))
        #expect(try reader.read("-0") == .number(0))
        #expect(try reader.read("42") == .number(42))
        #expect(try reader.read("-17") == .number(-17))
        #expect(try reader.read("3.25") == .number(3.25))
        #expect(try reader.read("1e3") == .number(1000))
        #expect(try reader.read("1E+2") == .number(100))
        #expect(try reader.read("-2.5e-3") == .number(-0.0025))
    }

    @Test func integersStayExact() throws {
        let reader = JSONReader()
        let max = try reader.read("9223372036854775807")
        #expect(max.numberValue?.int64Value == Int64.max)
        #expect(max.numberValue?.isInteger == true)
        let min = try reader.read("-9223372036854775808")
        #expect(min.numberValue?.int64Value == Int64.min)
        // 2^53 + 1 is not representable as a Double; it must stay exact.
        let big = try reader.read("9007199254740993")
        #expect(big.numberValue?.int64Value == 9_007_199_254_740_993)
    }

    @Test func hugeNumbersBecomeDoublesOrFail() throws {
        let reader = JSONReader()
        let beyondInt64 = try reader.read("123456789012345678901234567890")
        #expect(beyondInt64.numberValue?.isInteger == false)
        #expect(beyondInt64.doubleValue == 1.2345678901234568e29)
        #expect(try reader.read("1e308").doubleValue == 1e308)
        #expect(try reader.read("1e-400").doubleValue == 0)
        let error = readError("[1, 1e400]")
        #expect(error?.code == .numberOutOfRange)
        #expect(error?.offset == 4)
        #expect(readError("-1e999")?.code == .numberOutOfRange)
    }

    @Test func containersKeepOrder() throws {
        let value = try JSONReader().read(#"{"b": 1, "a": [true, null, {"c": "d"}], "e": {}}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "e"])
        #expect(value["a"]?[2]?["c"] == .string("d"))
        #expect(value["e"] == .object([:]))
        #expect(try JSONReader().read("[]") == .array([]))
        #expect(try JSONReader().read("[[[]]]") == .array([.array([.array([])])]))
    }

    @Test func escapesAndUnicode() throws {
        let reader = JSONReader()
        #expect(try reader.read(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        #expect(try reader.read(#""\u00e9\u00F1""#) == .string("éñ"))
        #expect(try reader.read(#""\u20AC""#) == .string("€"))
        // A surrogate pair decodes to one scalar.
        #expect(try reader.read(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try reader.read(#""x\uD834\uDD1Ey""#) == .string("x𝄞y"))
        #expect(try reader.read(#""\u0000""#) == .string("\u{0}"))
        // Raw UTF-8 of every length.
        #expect(try reader.read("\"ñ€😀中文\"") == .string("ñ€😀中文"))
        #expect(try reader.read("\"mezcla \\n y ñ\"") == .string("mezcla \n y ñ"))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
        #expect(try JSONReader().read(bytes) == .array([1]))
    }

    @Test func duplicateKeysLastWinsOrReject() throws {
        let value = try JSONReader().read(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == .number(3))
        let strict = JSONReader(rejectDuplicateKeys: true)
        do {
            _ = try strict.read(#"{"a": 1, "b": 2, "a": 3}"#)
            Issue.record("duplicate key accepted")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.offset == 17)
        }
        // Large objects use a set to find duplicates.
        let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let large = try JSONReader().read("{\(many), \"k5\": -1}")
        #expect(large.objectValue?.count == 40)
        #expect(large["k5"] == .number(-1))
        #expect(large["k39"] == .number(39))
    }

    @Test func dataAndStringEntryPointsAgree() throws {
        let text = #"{"x": [1, 2.5, "ü"]}"#
        let a = try JSONReader().read(text)
        let b = try JSONReader().read(Data(text.utf8))
        let c = try JSONReader().read(Array(text.utf8))
        #expect(a == b)
        #expect(b == c)
    }
}

@Suite("JSON reader: RFC 8259 violations give typed, positioned errors")
struct JSONReaderInvalidTests {
    @Test(arguments: [
        ("[1,]", JSONReadError.Code.unexpectedByte, 3),
        ("{\"a\":1,}", .unexpectedByte, 7),
        ("[,1]", .unexpectedByte, 1),
        ("01", .invalidNumber, 1),
        ("-01", .invalidNumber, 2),
        ("1.", .unexpectedEnd, 2),
        ("1.e5", .invalidNumber, 2),
        ("1e", .unexpectedEnd, 2),
        ("1e+", .unexpectedEnd, 3),
        ("-", .unexpectedEnd, 1),
        ("-a", .invalidNumber, 1),
        ("+1", .unexpectedByte, 0),
        (".5", .unexpectedByte, 0),
        ("\"\\x\"", .invalidEscape, 1),
        ("\"\\u12G4\"", .invalidEscape, 5),
        ("\"\\uD800\"", .loneSurrogate, 1),
        ("\"\\uDC00\"", .loneSurrogate, 1),
        ("\"\\uD800\\u0041\"", .loneSurrogate, 7),
        ("\"a\tb\"", .controlCharacter, 2),
        ("\"a\nb\"", .controlCharacter, 2),
        ("[1] x", .trailingData, 4),
        ("{} {}", .trailingData, 3),
        ("tru", .unexpectedEnd, 3),
        ("nul", .unexpectedEnd, 3),
        ("True", .unexpectedByte, 0),
        ("nulL", .unexpectedByte, 3),
        ("{a:1}", .unexpectedByte, 1),
        ("{'a':1}", .unexpectedByte, 1),
        ("{\"a\" 1}", .unexpectedByte, 5),
        ("[1 2]", .unexpectedByte, 3),
        ("", .unexpectedEnd, 0),
        ("   ", .unexpectedEnd, 3),
        ("[", .unexpectedEnd, 1),
        ("{\"a\":", .unexpectedEnd, 5),
        ("\"abc", .unexpectedEnd, 4),
        ("NaN", .unexpectedByte, 0),
        ("Infinity", .unexpectedByte, 0),
        ("// c\n1", .unexpectedByte, 0),
    ])
    func rejected(text: String, code: JSONReadError.Code, offset: Int) throws {
        let error = try #require(readError(text), "accepted \(text.debugDescription)")
        #expect(error.code == code, "\(text.debugDescription): \(error)")
        #expect(error.offset == offset, "\(text.debugDescription): \(error)")
        #expect(!error.expected.isEmpty)
    }

    @Test func lineAndColumn() throws {
        let text = "{\n  \"a\": [1, 2,],\n  \"b\": 3\n}"
        let error = try #require(readError(text))
        #expect(error.line == 2)
        #expect(error.offset == 15)
        #expect(error.column == 14)
        #expect(error.expected == "a value")
        #expect(error.description == "unexpected byte at line 2, column 14 (byte 15): expected a value")
        // Columns count scalars, not bytes.
        let unicode = try #require(readError("[\"ñé\", x]"))
        #expect(unicode.offset == 9)
        #expect(unicode.column == 8)
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // invalid lead byte
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xC3, 0x22],  // truncated sequence
            [0x22, 0x80, 0x22],  // lone continuation byte
            [0x22, 0xE2, 0x82, 0x41, 0x22],  // bad continuation
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(readError(bytes: bytes))
        #expect(error.code == .invalidUTF8)
        #expect(error.offset >= 1 && error.offset < bytes.count)
    }

    @Test func bytesOutsideStringsAreUnexpected() throws {
        #expect(readError(bytes: [0xC3, 0xB1])?.code == .unexpectedByte)
        #expect(readError(bytes: [0x5B, 0x00, 0x5D])?.code == .unexpectedByte)
    }
}

@Suite("JSON reader: limits and hostile input")
struct JSONReaderLimitTests {
    @Test func depthLimit() throws {
        let limits = JSONReader.Limits(maxDepth: 10)
        let ok = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(try JSONReader(limits: limits).read(ok).arrayValue != nil)
        let deep = String(repeating: "[", count: 11) + String(repeating: "]", count: 11)
        let error = try #require(readError(deep, limits: limits))
        #expect(error.code == .depthLimit)
        #expect(error.offset == 10)
    }

    @Test func defaultDepthStopsHostileNestingWithoutCrashing() throws {
        // One million open brackets: must fail fast with a typed error, not overflow the stack.
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(readError(bytes: hostile))
        #expect(error.code == .depthLimit)
        let objects = String(repeating: "{\"a\":", count: 100_000)
        #expect(readError(objects)?.code == .depthLimit)
    }

    @Test func sizeAndStringLimits() throws {
        let limits = JSONReader.Limits(maxBytes: 16, maxStringBytes: 4)
        #expect(readError(String(repeating: " ", count: 17) + "1", limits: limits)?.code == .sizeLimit)
        #expect(readError("\"abcde\"", limits: limits)?.code == .stringLimit)
        #expect(readError("\"ab\\ncde\"", limits: limits)?.code == .stringLimit)
        #expect(readError("\"ñññ\"", limits: limits)?.code == .stringLimit)
        #expect(try JSONReader(limits: limits).read("\"abcd\"") == .string("abcd"))
    }

    @Test func oneMegabyteString() throws {
        let payload = String(repeating: "x", count: 1 << 20)
        let value = try JSONReader().read("\"\(payload)\"")
        #expect(value.stringValue?.utf8.count == 1 << 20)
    }

    @Test func truncatedAtEveryByteOfARealDocument() throws {
        let url = CatalogLocation.root.appendingPathComponent("podcasts/podcast_detail.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(try JSONReader().read(bytes).objectValue != nil)
        // Every prefix that ends before the closing brace is incomplete.
        let end = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        var failures = 0
        for length in 0...end {
            let prefix = Array(bytes[0..<length])
            do {
                _ = try JSONReader().read(prefix)
                Issue.record("truncated document of \(length) bytes was accepted")
            } catch {
                failures += 1
                #expect(error.offset <= length)
                #expect(error.code == .unexpectedEnd || error.code == .invalidUTF8 || error.code == .unexpectedByte)
            }
        }
        #expect(failures == end + 1)
    }

    @Test func randomMutationsNeverCrashAndAgreeWithFoundation() throws {
        let url = CatalogLocation.root.appendingPathComponent("podcasts/theme.json")
        let original = try [UInt8](Data(contentsOf: url))
        var generator = Xoshiro(seed: (0x5EED, 1, 2, 3))
        let interesting: [UInt8] = Array("{}[],:\"\\0123456789-+.eEtrufalsn \n\t".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var accepted = 0
        for _ in 0..<3000 {
            let bytes = mutated(original, using: &generator, from: interesting)
            let ours: JSONValue?
            do {
                ours = try JSONReader().read(bytes)
            } catch {
                #expect(error.offset <= bytes.count)
                ours = nil
            }
            if let ours {
                // Whatever we accept, Foundation accepts too, with the same value.
                accepted += 1
                let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
                #expect(ours == JSONValue(foundation: foundation))
            }
        }
        #expect(accepted > 0)
    }
}

/// `bytes` with one to four random edits (a byte replaced, removed or inserted, taken from
/// `interesting`), for tests that read mutated documents.
func mutated(_ bytes: [UInt8], using generator: inout Xoshiro, from interesting: [UInt8]) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int(generator.next() % 4 + 1) {
        let position = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0: bytes[position] = interesting[Int(generator.next() % UInt64(interesting.count))]
        case 1: bytes.remove(at: position)
        default: bytes.insert(interesting[Int(generator.next() % UInt64(interesting.count))], at: position)
        }
    }
    return bytes
}

extension JSONValue {
    /// Converts a `JSONSerialization` result for comparison.
    init(foundation value: Any) {
        switch value {
        case is NSNull: self = .null
        case let string as String: self = .string(string)
        case let array as [Any]: self = .array(array.map(JSONValue.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(JSONObject(dictionary.map { ($0.key, JSONValue(foundation: $0.value)) }))
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .number(JSONNumber(number.doubleValue))
            default: self = .number(JSONNumber(number.int64Value))
            }
        default: self = .string("unsupported \(type(of: value))")
        }
    }
}
