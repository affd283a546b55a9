import DynamicUIModels
import DynamicUIRendering
import Foundation
import Testing

@testable import DynamicUIWeb

/// The web preview draws a labeled row with a link as a link, and only for the schemes a row
/// may open.
@Suite("Web: phone, e-mail and web site rows")
struct ContactLinkHTMLTests {
    func html(_ node: RenderNode) -> String {
        HTMLRenderer().fragment(node)
    }

    @Test(arguments: [
        ("tel:+5114712290", "<a class=\"labeled link\" id=\"n-t\" href=\"tel:+5114712290\">"),
        ("mailto:ana@edugo.test", "<a class=\"labeled link\" id=\"n-t\" href=\"mailto:ana@edugo.test\">"),
        (
            "https://edugo.test/?a=1&b=2",
            "<a class=\"labeled link\" id=\"n-t\" href=\"https://edugo.test/?a=1&amp;b=2\" target=\"_blank\" rel=\"noopener noreferrer\">"
        ),
    ])
    func aRowWithALinkIsALink(address: String, tag: String) {
        let node = RenderNode(
            id: "t", kind: .labeledContent(label: "Teléfono", value: "<b>1</b>"), link: URL(string: address))
        let drawn = html(node)
        #expect(
            drawn.contains(tag + "<span class=\"label\">Teléfono</span><span class=\"value\">&lt;b&gt;1&lt;/b&gt;</span></a>"),
            "\(drawn)")
    }

    @Test(arguments: ["javascript:alert(1)", "data:text/html,hola", "file:///etc/passwd", "edugo://materials"])
    func aRowWithAnotherSchemeIsText(address: String) {
        let node = RenderNode(
            id: "t", kind: .labeledContent(label: "Sitio web", value: "x"), link: URL(string: address))
        let drawn = html(node)
        #expect(!drawn.contains("<a") && drawn.contains("<div class=\"labeled\" id=\"n-t\">"), "\(drawn)")
    }
}
