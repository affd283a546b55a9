import DynamicUIModels
import DynamicUIWeb
import Foundation
import Testing

@testable import DynamicUIRendering

/// On a wide window (an iPad) a form is a centred column, as iPadOS presents a form sheet; on
/// a phone, and for every other screen, the content keeps the whole width.
@Suite("Web: a form is a centred column on a wide window")
struct FormColumnTests {
    /// The rules of the page's stylesheet that apply from `width` up, by selector.
    static func wideRules(in html: String) -> [(width: Int, selector: String, declarations: String)] {
        html.matches(of: /@media \(min-width:(\d+)px\)\{([^{}]+)\{([^{}]*)\}/).map {
            (Int($0.1) ?? 0, String($0.2), String($0.3))
        }
    }

    func page(_ pattern: String) -> String {
        let chrome = ScreenChrome(pattern: pattern, title: "Editar", largeTitle: false, showsBack: true)
        return HTMLRenderer().page(RenderNode(id: "s", kind: .screen(chrome)))
    }

    @Test func aFormIsACentredColumnFromATabletsWidth() throws {
        let html = page("form")
        #expect(html.contains("<section class=\"screen form\""))
        let rule = try #require(Self.wideRules(in: html).first { $0.selector == "section.screen.form" }, "no rule")
        #expect((600...800).contains(rule.width), "a phone (390) keeps the whole width; an iPad (768 and up) does not")
        let width = try #require(rule.declarations.firstMatch(of: /max-width:(\d+)px/).flatMap { Int($0.1) })
        #expect((480...680).contains(width), "a form sheet's width: \(width)")
        #expect(rule.declarations.contains("margin:0 auto!important"), "centred over the section's own margin")
    }

    @Test func aListKeepsTheWholeWidth() {
        let html = page("list")
        #expect(html.contains("<section class=\"screen list\""))
        #expect(!Self.wideRules(in: html).contains { $0.selector.contains(".list") && $0.declarations.contains("max-width") })
    }
}
