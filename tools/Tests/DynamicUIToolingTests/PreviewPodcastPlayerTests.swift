import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// The Podcasts episode page over loopback: one player control and the episode's own title; what
/// a visitor plays stays as a now-playing bar on each of its pages until stopped, at the time
/// its page last reported, and no other visitor sees it.
@Suite("Web preview: the Podcasts player and its now-playing bar", .serialized)
struct PreviewPodcastPlayerTests {
    static let episode = "/podcasts/episode_detail?episodeId=1000741872141&podcastId=1055662569"

    /// The part of a page between `<main>` and `</main>`.
    static func main(_ html: String) -> String {
        guard let start = html.range(of: "<main>"), let end = html.range(of: "</main>") else { return "" }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// The text a person reads: tags removed, entities of the renderer decoded.
    static func visibleText(_ html: String) -> String {
        html.replacing(/<[^>]*>/, with: " ").replacingOccurrences(of: "&amp;", with: "&")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
    }

    /// The now-playing bar's opening tag, or `nil` when the page has none.
    static func bar(_ html: String) -> String? {
        html.firstMatch(of: /<aside class="now-playing"[^>]*>/).map { String($0.0) }
    }

    @Test func theEpisodePageHasOnePlayerControlAndTheEpisodesTitle() async throws {
        try await withStartedPreview { _, preview in
            let page = try await TestBrowser(base: preview.url).open(Self.episode)
            #expect(page.status == 200)
            let main = Self.main(page.body)
            let player = try #require(main.firstMatch(of: /<figure class="media-player[^"]*"[^>]*>.*?<\/figure>/), "\(main)")
            let title = try #require(main.firstMatch(of: /<h1 class="large">([^<]*)<\/h1>/)).1
            let name = try #require(String(player.0).firstMatch(of: /<audio [^>]*aria-label="([^"]*)"/)).1
            #expect(title == name, "the large title is the episode's, not \(title)")
            #expect(title != "Episode")
            let text = Self.visibleText(main)
            let episodeName = Self.visibleText(String(title))
            #expect(text.components(separatedBy: episodeName).count - 1 == 1, "the episode's title shows once: \(text)")
            #expect(main.components(separatedBy: "<audio").count - 1 == 1, "one audio element")
            #expect(!String(player.0).contains("controls"), "the browser's own audio bar is not drawn beside the button")
            #expect(String(player.0).components(separatedBy: "<button").count - 1 == 1, "one control: \(player.0)")
            #expect(!String(player.0).contains("<figcaption"))
            #expect(main.firstMatch(of: />\s*·\s*</) == nil, "no lone separator")
        }
    }

    @Test func whatAVisitorPlaysStaysOnItsPagesUntilStopped() async throws {
        try await withStartedPreview { _, preview in
            let listener = TestBrowser(base: preview.url)
            let episode = try await listener.open(Self.episode)
            let hidden = try #require(Self.bar(episode.body), "the episode page holds the bar its player starts")
            #expect(hidden.contains("hidden=\"hidden\""), "nothing plays yet: \(hidden)")
            #expect(try await listener.open("/podcasts/browse").body.contains("now-playing") == false, "nothing plays")

            let again = try await listener.open(Self.episode)
            let token = try #require(again.body.firstMatch(of: /data-page="(\d+)"/)).1
            let src = try #require(Self.main(again.body).firstMatch(of: /<audio src="([^"]*)"/)).1
                .replacingOccurrences(of: "&amp;", with: "&")
            func report(_ state: String, _ position: String, src: String = src) async throws -> Int {
                try await listener.send(
                    "POST", "/podcasts/_/player",
                    form: [("state", state), ("page", String(token)), ("src", src), ("position", position)]
                ).status
            }
            #expect(try await report("play", "42.5") == 204)

            // Another page of the same visitor: the bar, playing, at the reported time, linking back.
            var browse = try await listener.open("/podcasts/browse")
            var bar = try #require(Self.bar(browse.body), "the bar stays after leaving the episode")
            #expect(
                !bar.contains("hidden") && bar.contains("data-playing=\"true\"") && bar.contains("data-position=\"42.5\""),
                "\(bar)")
            #expect(browse.body.contains("<span class=\"media-time\">0:42</span>"))
            #expect(browse.body.contains("class=\"media-toggle\">❚❚ Pause</button>"))
            #expect(browse.body.contains("href=\"/podcasts/episode_detail?episodeId=1000741872141&amp;podcastId=1055662569\""))
            #expect(browse.body.contains("aria-label=\"Stop\""))
            let search = try await listener.open("/podcasts/search")
            #expect(Self.bar(search.body) != nil, "every Podcasts page has it")

            // Another visitor plays nothing.
            #expect(Self.bar(try await TestBrowser(base: preview.url).open("/podcasts/browse").body) == nil)

            // Paused: Play again, at the time it stopped.
            #expect(try await report("pause", "61.9") == 204)
            browse = try await listener.open("/podcasts/browse")
            bar = try #require(Self.bar(browse.body))
            #expect(bar.contains("data-playing=\"false\"") && browse.body.contains("<span class=\"media-time\">1:01</span>"))
            #expect(browse.body.contains("class=\"media-toggle\">▶ Play</button>"))

            // Numbers from the page are clamped; a file no page plays, or an unknown state, is refused.
            #expect(try await report("pause", "-30") == 204)
            #expect(Self.bar(try await listener.open("/podcasts/browse").body)?.contains("data-position=\"0.0\"") == true)
            #expect(try await report("pause", "1e300") == 204)
            #expect(Self.bar(try await listener.open("/podcasts/browse").body)?.contains("data-position=\"86400.0\"") == true)
            #expect(try await report("play", "5", src: "https://example.com/other.mp3") == 404)
            #expect(try await report("rewind", "5") == 400)
            let forged = try await listener.send(
                "POST", "/podcasts/_/player", form: [("state", "stop")], withToken: false)
            #expect(forged.status == 403, "a report needs the visitor's form token")
            #expect(Self.bar(try await listener.open("/podcasts/browse").body) != nil)

            // Stop ends it, and goes back to the page it was pressed on.
            let stop = try await listener.submit("/podcasts/_/player", form: [("state", "stop"), ("back", "/podcasts/search")])
            #expect(stop.status == 303 && stop.location == "/podcasts/search")
            #expect(Self.bar(try await listener.open("/podcasts/browse").body) == nil, "stopped, the bar is gone")
        }
    }
}
