import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// Flows a person takes in the preview: a confirmation's Cancel closes the dialog and changes
/// nothing (the page keeps its `?id=`); "Load more" goes on to the end of a list.
@Suite("Preview: Cancel changes nothing, Load more goes on to the end", .serialized)
struct PreviewFlowTests {
    @Test func cancellingADeleteKeepsThePageAndItsRecord() async throws {
        try await withPreview(signedInAs: "docente@edugo.test") { backend, browser in
            let detail = try await browser.open("/screen/material-detail?id=mat-092")
            let delete = try #require(link(containing: "/delete", in: detail.body), "the teacher may delete own material")
            let asked = try await browser.open(delete, form: [])
            #expect(asked.body.contains("<dialog open"), "the confirmation shows")
            let cancel = try #require(link(containing: "/_cancel-confirmation", in: asked.body))
            let back = try await browser.open(cancel, form: [])
            #expect(back.path == "/screen/material-detail?id=mat-092", "the page keeps its parameters: \(back.path)")
            #expect(!back.body.contains("<dialog open"), "the dialog is closed")
            #expect(!back.body.contains("No encontrado"))
            #expect(!backend.log.contains { $0.hasPrefix("DELETE") }, "nothing was deleted")
        }
    }

    /// "Load more" goes on to the end of the list, a page at a time.
    @Test func loadMoreGoesOnToTheEnd() async throws {
        try await withPreview(signedInAs: "superadmin@edugo.test") { _, browser in
            var page = try await browser.open("/screen/materials-list")
            var counts = [Self.rows(in: page.body)]
            for _ in 0..<4 {
                // A relative link, as a browser resolves it against the page's path.
                guard let more = link(containing: "page=next", in: page.body) else { break }
                page = try await browser.open(String(page.path.prefix { $0 != "?" }) + more)
                counts.append(Self.rows(in: page.body))
            }
            #expect(counts.count >= 4, "more than three pages: \(counts)")
            #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "each Load more adds rows: \(counts)")
        }
    }

    /// The number of material rows a page draws.
    static func rows(in html: String) -> Int {
        html.components(separatedBy: "open-item?item=").count - 1
    }
}
