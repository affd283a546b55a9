import DynamicUIModels
import DynamicUIWeb
import Foundation
import Testing

@testable import DynamicUIRendering

/// A row's name wraps between words, as iOS wraps it, not in the middle of one beside a badge
/// ("Renata Cárdena / s Pérez"), and its facts take up to two lines before they are cut.
@Suite("Web: a row's text wraps between words")
struct RowTextWrappingTests {
    /// The declarations of the stylesheet rule whose selector is exactly `selector`.
    static func declarations(of selector: String, in html: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let start = rest.range(of: selector + "{") {
            let before = rest[..<start.lowerBound].last
            rest = rest[start.upperBound...]
            guard before == nil || "}\n\\ ".contains(before!), let end = rest.firstIndex(of: "}") else { continue }
            found += rest[..<end].split(separator: ";").map(String.init)
        }
        return found
    }

    let page = HTMLRenderer().page(
        RenderNode(
            id: "s", kind: .screen(ScreenChrome(pattern: "list", title: "Usuarios", largeTitle: true, showsBack: false))))

    @Test func aRowsTextBreaksOnlyAWordLongerThanTheLine() {
        let text = Self.declarations(of: ".row-text", in: page)
        #expect(!text.isEmpty)
        #expect(!text.contains("overflow-wrap:anywhere"), "a name breaks anywhere: \(text)")
        #expect(text.contains("overflow-wrap:break-word"), "a long e-mail still wraps: \(text)")
    }

    @Test func aRowsFactsTakeUpToTwoLines() {
        let subtitle = Self.declarations(of: ".row-subtitle", in: page)
        #expect(!subtitle.contains("white-space:nowrap"), "one line, cut: \(subtitle)")
        #expect(subtitle.contains("-webkit-line-clamp:2") && subtitle.contains("overflow:hidden"), "\(subtitle)")
    }
}
