import Foundation
import Testing

@testable import DynamicUIModels

/// The string-heavy benchmark inputs (`Benchmarks/DynamicUIBenchInputs/Resources`, written by
/// `generate-string-heavy.py`) are what they claim to be: valid for the reader and the models,
/// with the escapes and scripts they are meant to exercise, and read as Foundation reads them.
@Suite("String-heavy benchmark inputs")
struct StringHeavyInputTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Benchmarks/DynamicUIBenchInputs/Resources").standardized

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The iTunes lookup: 46 KB, every escape present, and each text decoded byte for byte as
    /// `JSONSerialization` decodes it (compared as UTF-8, so a decomposed mark is not excused
    /// by canonical equivalence).
    @Test func itunesLookupReadsAsFoundationReadsIt() throws {
        let bytes = try Self.bytes("itunes-lookup.json")
        #expect((45_000...47_000).contains(bytes.count))
        let text = String(decoding: bytes, as: UTF8.self)
        for escape in ["\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\uD83D\\uDE"] {
            #expect(text.contains(escape), "no \(escape)")
        }
        let json = try JSONReader().read(bytes)
        let results = try #require(json["results"]?.arrayValue)
        #expect(json["resultCount"]?.intValue == results.count)
        let foundation = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let references = try #require(foundation["results"] as? [[String: Any]])
        #expect(references.count == results.count)
        var scalars = Set<Unicode.Scalar>()
        for (result, reference) in zip(results, references) {
            for key in ["trackName", "collectionName", "description", "shortDescription", "trackViewUrl", "feedUrl"] {
                let ours = result[key]?.stringValue
                let theirs = reference[key] as? String
                #expect(ours.map { Array($0.utf8) } == theirs.map { Array($0.utf8) }, "\(key) differs")
                scalars.formUnion(ours?.unicodeScalars ?? "".unicodeScalars)
            }
        }
        // Japanese, Arabic, an emoji outside the BMP, a combining acute accent.
        for scalar: Unicode.Scalar in ["語", "ع", "😊", "\u{301}"] {
            #expect(scalars.contains(scalar), "no \(scalar)")
        }
    }

    /// The localized screen decodes as a `ScreenDefinition` with its strings in twelve languages.
    @Test func localizedScreenIsAScreenDefinition() throws {
        let bytes = try Self.bytes("localized-screen.json")
        #expect((20_000...50_000).contains(bytes.count))
        let screen = try DocumentDecoder().decode(ScreenDefinition.self, from: bytes)
        #expect(screen.screenKey == "help-center")
        let slotData = try #require(screen.slotData)
        let locales = Set(slotData.keys.compactMap { $0.split(separator: ".").count == 2 ? $0.split(separator: ".")[0] : nil })
        #expect(locales.count == 12)
        #expect(slotData["ja.title"]?.stringValue == "ヘルプセンター")
        #expect(slotData["ar.title"]?.stringValue == "مركز المساعدة")
        #expect(screen.template.zones.count == 14)
        #expect(screen.actions.count == 24)
    }

    /// The escaped timeline: ASCII only, every non-ASCII character written as `\uXXXX` (emoji
    /// as surrogate pairs) and every `/` as `\/`; each post's text read as Foundation reads it.
    @Test func escapedTimelineReadsAsFoundationReadsIt() throws {
        let bytes = try Self.bytes("escaped-timeline.json")
        #expect((60_000...70_000).contains(bytes.count))
        #expect(bytes.allSatisfy { $0 < 0x80 })
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\\/", with: "").contains("/"))
        for escape in ["\\u6771\\u4eac", "\\ud83d\\u", "\\\"", "\\/"] { #expect(text.contains(escape), "no \(escape)") }
        let statuses = try #require(try JSONReader().read(bytes)["statuses"]?.arrayValue)
        let foundation = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let references = try #require(foundation["statuses"] as? [[String: Any]])
        #expect(statuses.count == references.count && statuses.count > 50)
        for (status, reference) in zip(statuses, references) {
            #expect(status["text"]?.stringValue.map { Array($0.utf8) } == (reference["text"] as? String).map { Array($0.utf8) })
            #expect(status["id"]?.intValue == (reference["id"] as? NSNumber)?.intValue)
        }
    }

    /// The GeoJSON: most coordinates need more than 15 significant digits (past the exact fast
    /// path), and every number is read as the correctly rounded `Double` of its text (what
    /// `Double(_:)` gives; Foundation's `JSONSerialization` on Linux is off by an ulp or three on
    /// a fifth of these).
    @Test func geoJSONNumbersReadCorrectlyRounded() throws {
        let bytes = try Self.bytes("geojson.json")
        #expect((60_000...70_000).contains(bytes.count))
        // The numbers' texts in order (outside strings; the file has no escapes).
        var texts: [String] = []
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { inString.toggle() }
            if !inString, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var end = index
                while end < bytes.count, "-+.eE0123456789".utf8.contains(bytes[end]) { end += 1 }
                texts.append(String(decoding: bytes[index..<end], as: UTF8.self))
                index = end
                continue
            }
            index += 1
        }
        // The document's numbers in order, depth first.
        var numbers: [JSONNumber] = []
        func collect(_ node: JSONNode) {
            if let number = node.numberValue { numbers.append(number) }
            for element in node.elements { collect(element) }
            for member in node.members { collect(member.value) }
        }
        collect(try JSONReader().document(bytes).root)
        #expect(numbers.count == texts.count && numbers.count > 3_000)
        var long = 0
        for (number, text) in zip(numbers, texts) {
            #expect(number.doubleValue.bitPattern == Double(text)?.bitPattern, "\(text)")
            if text.filter(\.isNumber).drop(while: { $0 == "0" }).count > 15 { long += 1 }
        }
        #expect(long * 2 > texts.count)
    }
}
