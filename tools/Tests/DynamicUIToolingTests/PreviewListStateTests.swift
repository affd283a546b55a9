import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// A list in the web preview keeps what the person did to it, as an iOS list kept on the
/// navigation stack does: back from a row shows the list with its search and the pages loaded,
/// and "Load more" goes on within the search and the list's own parameters.
@Suite("Web preview: a list keeps its search and its pages", .serialized)
struct PreviewListStateTests {
    /// The ids of the rows a page draws, in order.
    static func rows(in html: String) -> [String] {
        html.matches(of: /open-item\?item=([^"&]+)"/).map { String($0.1) }
    }

    /// The text of the page's search field.
    static func searchText(in html: String) -> String? {
        html.firstMatch(of: /<input type="search"[^>]* value="([^"]*)"/).map { String($0.1) }
    }

    /// The "Load more" link of the page.
    static func loadMore(in html: String, at path: String) -> String? {
        guard let href = html.firstMatch(of: /<p class="more"><a href="([^"]*)" rel="next">/) else { return nil }
        let relative = String(href.1).replacingOccurrences(of: "&amp;", with: "&")
        return String(path.prefix { $0 != "?" }) + relative
    }

    @Test func backFromARowShowsTheListWithItsSearchAndItsPages() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "docente@edugo.test")
        defer { stop() }
        let list = try await browser.open("/screen/materials-list")
        let searched = try await browser.open(try PreviewWalkTests.search("lectura", on: list))
        let first = Self.rows(in: searched.body)
        #expect(first.count == 20, "a search with more than a page of results: \(first.count)")
        #expect(first != Self.rows(in: list.body), "the search filters the list")
        // Load more, within the search.
        let more = try #require(Self.loadMore(in: searched.body, at: searched.path))
        let two = try await browser.open(more)
        #expect(Self.searchText(in: two.body) == "lectura", "load more dropped the search: \(two.path)")
        let loaded = Self.rows(in: two.body)
        #expect(loaded.count > 20 && Array(loaded.prefix(20)) == first, "\(loaded.count) rows")
        // A row of the second page, then back.
        let last = try #require(loaded.last)
        let open = try #require(link(containing: "open-item?item=\(last)", in: two.body))
        let detail = try await browser.open(open, form: [])
        #expect(detail.path.hasPrefix("/screen/material-detail"), "\(browser.hops.suffix(2))")
        let back = try await browser.open(try #require(PreviewWalkTests.backLink(in: detail.body)))
        #expect(back.path.hasPrefix("/screen/materials-list"), "\(back.path)")
        #expect(Self.searchText(in: back.body) == "lectura", "back dropped the search: \(back.path)")
        #expect(Self.rows(in: back.body) == loaded, "back showed \(Self.rows(in: back.body).count) rows, not the \(loaded.count)")
        #expect(PreviewWalkTests.backLink(in: back.body) == nil, "a tab's list has no back")
        // Reloaded, the address alone gives the same list.
        let reloaded = try await browser.open(back.path)
        #expect(Self.searchText(in: reloaded.body) == "lectura" && Self.rows(in: reloaded.body) == loaded, "\(back.path)")
    }

    @Test func loadMoreKeepsTheSearch() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "superadmin@edugo.test")
        defer { stop() }
        let users = try await browser.open("/screen/users-list")
        let searched = try await browser.open(try PreviewWalkTests.search("e", on: users))
        let more = try #require(Self.loadMore(in: searched.body, at: searched.path), "the search has more than a page")
        #expect(more.contains("search_field=e") || more.contains("q=e"), "the link drops the search: \(more)")
        let two = try await browser.open(more)
        #expect(Self.searchText(in: two.body) == "e")
        #expect(Self.rows(in: two.body).count > Self.rows(in: searched.body).count)
    }
}
