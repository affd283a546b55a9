import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// The Podcasts episode page over loopback: one player control and the episode's own title.
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

    @Test func theEpisodePageHasOnePlayerControlAndTheEpisodesTitle() async throws {
        let (backend, preview) = try await startedPreview()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
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
