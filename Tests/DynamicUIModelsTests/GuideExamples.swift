// The code blocks of DynamicUIModels.docc that are Swift, compiled here and run by the test
// below: each region between snippet lines is one of the article's code blocks, imports
// included (GuideSnippetTests checks them).

// snippet: document
import DynamicUIModels
import Testing

/// The titles of a list page's first 20 items: one `String` made per title read.
func firstTitles(of bytes: [UInt8]) throws -> [String] {
    let document = try JSONReader().document(bytes)
    var titles: [String] = []
    if let items = document.root["items"] {
        for item in items.elements.prefix(20) { titles.append(item["title"]?.stringValue ?? "") }
    }
    return titles
}

/// A screen decoded from its bytes through a document, as `DocumentDecoder` does.
func decodedScreen(_ bytes: [UInt8]) throws -> ScreenDefinition {
    let document = try JSONReader().document(bytes)
    return try ScreenDefinition(node: document.root)
}
// snippet: end

@Suite("DynamicUIModels guide examples")
struct ModelsGuideExampleTests {
    @Test func firstTitlesReadsOnlyTheFirstTwenty() throws {
        let items = (0..<50).map { "{\"id\": \"m-\($0)\", \"title\": \"Álgebra \($0)\"}" }.joined(separator: ",")
        let titles = try firstTitles(of: Array("{\"items\": [\(items)], \"total\": 50}".utf8))
        #expect(titles.count == 20)
        #expect(titles.first == "Álgebra 0" && titles.last == "Álgebra 19")
        #expect(try firstTitles(of: Array("{\"total\": 0}".utf8)).isEmpty)
    }

    @Test func decodedScreenIsTheDocumentDecodersScreen() throws {
        let bytes = Array(
            #"{"screen_id": "s", "screen_key": "k", "screen_name": "n", "pattern": "list", "version": 1, "updated_at": "", "actions": [], "template": {"zones": []}}"#
                .utf8)
        #expect(try decodedScreen(bytes) == DocumentDecoder().decode(ScreenDefinition.self, from: bytes))
        #expect(throws: ModelDecodingError.self) { try decodedScreen(Array("{}".utf8)) }
    }
}
