import DynamicUIModels
import DynamicUIRendering
import DynamicUIWeb
import Foundation
import Testing

/// What the page needs to change in place: elements with visibility actions name their node
/// and thresholds, and the live script cannot be broken out of by the URLs it is given.
@Suite("HTML for screens that change in place")
struct LiveHTMLTests {
    @Test func elementsWithVisibilityActionsCarryTheirIdAndThresholds() throws {
        var node = RenderNode(id: "zone:promo\"><script>", kind: .text("Hola", style: .body, lineLimit: nil), logId: "promo")
        node.visibility = RenderVisibility(
            appear: [VisibilityAction(logId: "seen", visibilityPercentage: 50)], disappear: [VisibilityAction(logId: "gone")])
        let html = HTMLRenderer().fragment(node)
        #expect(html.contains("data-log-id=\"promo\""))
        #expect(html.contains("data-visibility=\"zone:promo&quot;&gt;&lt;script&gt;\""), "\(html)")
        #expect(html.contains("data-thresholds=\"0 0.5\""), "\(html)")
        #expect(!html.contains("<script>"))
        let plain = HTMLRenderer().fragment(RenderNode(id: "x", kind: .text("Hola", style: .body, lineLimit: nil)))
        #expect(!plain.contains("data-visibility"))
    }

    @Test func aPostscriptEndsTheBody() {
        let page = HTMLRenderer().page(
            RenderNode(id: "x", kind: .text("Hola", style: .body, lineLimit: nil)), postscript: "<script>live()</script>")
        #expect(page.hasSuffix("</main><script>live()</script></body></html>\n"), "\(page.suffix(80))")
    }

    @Test func theLiveScriptQuotesItsURLs() {
        let script = HTMLRenderer.liveScript(events: "/_/live?page=1</script><b>]]>", visibility: nil, page: 3)
        #expect(script.hasPrefix("<script>//<![CDATA[") && script.hasSuffix("//]]></script>"))
        #expect(script.components(separatedBy: "</script>").count == 2, "only its own end tag")
        #expect(script.components(separatedBy: "]]>").count == 2, "only its own CDATA end")
        #expect(script.contains("const VISIBILITY = null;") && script.contains("const PAGE = 3;"))
    }
}
