import DynamicUIModels
import DynamicUIWeb
import Foundation
import Testing

@testable import DynamicUIRendering

/// A pushed screen's inline title is centred on its bar, as iOS centres it, not pushed aside by
/// the back button; a labeled value sits at the row's end, also when it wraps.
@Suite("Web: an inline title is centred on its bar")
struct InlineTitleTests {
    let page = HTMLRenderer().page(
        RenderNode(
            id: "s",
            kind: .screen(ScreenChrome(pattern: "detail", title: "Detalle del material", largeTitle: false, showsBack: true))))

    @Test func theTitleSitsBetweenTwoSidesOfEqualShare() throws {
        let bar = try #require(page.firstMatch(of: /<header class="bar">(.*?)<\/header>/), "no inline bar")
        let parts = String(bar.1).replacing(/<a class="back"[^>]*>[^<]*<\/a>/, with: "BACK")
        let expected =
            "<span class=\"bar-side\">BACK</span><h1 class=\"inline\">Detalle del material</h1>"
            + "<span class=\"bar-side trailing\"></span>"
        #expect(parts == expected)
        let side = RowTextWrappingTests.declarations(of: ".bar-side", in: page)
        #expect(side.contains("flex:1 1 0"), "the two sides share the bar equally: \(side)")
        let title = RowTextWrappingTests.declarations(of: ".bar h1.inline", in: page)
        #expect(title.contains("flex:0 1 auto") && title.contains("text-overflow:ellipsis"), "\(title)")
    }

    @Test func aBarButtonKeepsItsTitleOnOneLine() {
        // "Enviar respuestas" beside "Cancelar" and a title: the title gives way, not the button.
        let button = RowTextWrappingTests.declarations(of: ".toolbar", in: page)
        #expect(button.contains("white-space:nowrap"), "\(button)")
    }

    @Test func aLabeledValueSitsAtTheEnd() {
        let value = RowTextWrappingTests.declarations(of: ".labeled .value", in: page)
        #expect(value.contains("text-align:end"), "\(value)")
    }
}
