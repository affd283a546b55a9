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
}
