import Foundation
import Testing

@testable import DynamicUIWeb

/// The component guide lists the tags and attributes a component's web face keeps; the lists
/// must be the renderer's.
@Suite("The component guide states the web face's rules as the renderer applies them")
struct ComponentHTMLRulesDocTests {
    static let guide = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md")

    /// The backticked names from `opening` to the end of its paragraph (patterns such as `aria-*` left out).
    static func names(after opening: String, in text: String) throws -> Set<String> {
        let start = try #require(text.range(of: opening))
        let rest = text[start.upperBound...]
        let paragraph = rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)]
        var names: Set<String> = []
        for (index, part) in paragraph.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
            if !part.contains("*") { names.insert(String(part)) }
        }
        return names
    }

    @Test func theTagsAndAttributesAreTheRenderers() throws {
        let text = try String(contentsOf: Self.guide, encoding: .utf8)
        #expect(try Self.names(after: "It keeps only these tags", in: text) == HTMLRenderer.componentTags)
        #expect(
            try Self.names(after: "It keeps only these attributes", in: text)
                == HTMLRenderer.componentAttributes)
    }
}
