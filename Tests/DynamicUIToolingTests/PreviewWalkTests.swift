import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// What a person walking the preview meets, over loopback against the real preview: each
/// podcast visitor has a state of its own, search filters in place, refusals and unknown pages
/// say so in the app's words.
@Suite("Web preview: the walk's findings", .serialized)
struct PreviewWalkTests {
    func started() async throws -> (DemoBackend, WebPreview) {
        let backend = try DemoBackend()
        try await backend.start()
        let preview = WebPreview(backend: backend)
        try await preview.start()
        return (backend, preview)
    }

    /// The `href` of the page's back link, unescaped, if it has one.
    static func backLink(in html: String) -> String? {
        html.firstMatch(of: /<a class="back" href="([^"]*)"/).map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") }
    }

    @Test func eachPodcastVisitorHasItsOwnState() async throws {
        let (backend, preview) = try await started()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
        let first = TestBrowser(base: preview.url)
        let second = TestBrowser(base: preview.url)
        let answer = try await first.send("GET", "/podcasts/search?q=murder")
        #expect(answer.body.contains("Murder"), "the search found the show")
        let cookie = try #require(answer.headers["set-cookie"], "a visitor gets a cookie of its own")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/podcasts"))

        // A new browser sees an empty search, not the last visitor's.
        let fresh = try await second.open("/podcasts/search")
        #expect(fresh.status == 200)
        #expect(!fresh.body.contains("Murder") && !fresh.body.contains("murder"), "another visitor's search shows")
        #expect(second.cookie != nil && second.cookie != first.cookie)

        // Back leads to the visitor's own screen below, never to another visitor's.
        _ = try await first.open("/podcasts/genre?genreId=1303&title=Comedy")
        let news = try await second.open("/podcasts/genre?genreId=1489&title=News")
        let back = try #require(Self.backLink(in: news.body))
        #expect(!back.contains("1303"), "back goes to the other visitor's genre: \(back)")

        // One visitor's Dark is not everyone's.
        _ = try await first.open("/podcasts/browse")
        let dark = try await first.submit("/podcasts/appearance", form: [("mode", "dark"), ("back", "/podcasts/browse")])
        #expect(dark.status == 303)
        #expect(try await first.open("/podcasts/browse").body.contains("data-theme=\"dark\""))
        #expect(!(try await second.open("/podcasts/browse").body.contains("data-theme=\"dark\"")))
        let third = TestBrowser(base: preview.url)
        #expect(!(try await third.open("/podcasts/browse").body.contains("data-theme=\"dark\"")))

        // A visitor's form token is its own: another visitor's page cannot post for it.
        let foreign = try await second.send(
            "POST", "/podcasts/appearance", form: [("mode", "dark"), ("_csrf", try #require(first.formToken))])
        #expect(foreign.status == 403)
    }

    @Test func podcastVisitorsAreBounded() async throws {
        let (backend, preview) = try await started()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
        let kept = TestBrowser(base: preview.url)
        _ = try await kept.open("/podcasts/search?q=murder")
        let cookie = try #require(kept.cookie)
        #expect(try await kept.open("/podcasts/search").body.contains("Murder"), "the visitor's search is kept")
        // A crawler without cookies: each request is a new visitor; the oldest go.
        let crawler = TestBrowser(base: preview.url)
        for _ in 0..<WebPreview.podcastVisitorCapacity {
            crawler.cookie = nil
            #expect(try await crawler.send("GET", "/podcasts").status == 303)
        }
        let again = try await kept.send("GET", "/podcasts/search")
        #expect(again.headers["set-cookie"] != nil, "the oldest visitor was not ended")
        #expect(kept.cookie != cookie)
        #expect(!again.body.contains("Murder"))
    }
}
