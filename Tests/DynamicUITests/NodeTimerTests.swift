import DynamicUIActions
import DynamicUICatalog
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

@testable import DynamicUI

/// Node documents' timers: the Podcasts episode's now-playing bar counts the time played in
/// state on the injectable clock, and `timer` actions command it.
@Suite("Node document timers")
@MainActor
struct NodeTimerTests {
    static let episode: JSONValue = [
        "results": [
            ["wrapperType": "track", "collectionName": "Swift Talk", "artistName": "objc.io", "trackId": 7],
            [
                "wrapperType": "podcastEpisode", "trackId": 42, "trackName": "Episodio 42", "collectionName": "Swift Talk",
                "episodeUrl": "https://media.example/42.mp3", "trackTimeMillis": 600_000,
                "releaseDate": "2026-11-01T00:00:00Z", "description": "Sobre relojes",
            ],
        ]
    ]

    func shownEpisode() async throws -> (ManualClock, NodeScreenModel, NodeAppRuntime) {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let transport = ScriptedTransport()
        await transport.on(.get, "/lookup", .json(200, Self.episode))
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://itunes.apple.com")!, documents: .folder(PodcastsCatalog().folder),
                retryPolicy: .none, clock: clock),
            transport: transport, components: [MediaPlayerComponent()])
        await app.start()
        app.push(NodeRoute(document: "episode_detail", params: ["podcastId": "7", "episodeId": "42"]))
        let model = app.model(for: try #require(app.current))
        await model.load()
        return (clock, model, app)
    }

    @Test func playingStartsTheTimerAndTheBarCountsTheTimePlayed() async throws {
        let (clock, model, app) = try await shownEpisode()
        var tree = model.render(options: RenderOptions()).root
        #expect(!tree.nodes().contains { $0.id.hasSuffix("#now_playing") }, "no bar before playing")
        let player = try #require(
            tree.nodes().compactMap { node -> CustomNode? in
                if case .custom(let custom) = node.kind { custom } else { nil }
            }.first)
        let onPlay = try #require(player.actions["onPlay"])
        model.fire(onPlay)
        await model.firedActionsFinished()
        #expect(model.state["nowPlaying"] == "Episodio 42")
        #expect(model.state["played"] == 0)
        #expect(await clock.waitForSleepers(1, timeout: 5))
        #expect(clock.sleeps.last == 1)
        clock.advance(by: 1)
        for _ in 0..<100 where model.state["played"] != 1000 { await Task.yield() }
        #expect(model.state["played"] == 1000)
        #expect(await clock.waitForSleepers(1, timeout: 5), "it ticks on")
        clock.advance(by: 2)
        for _ in 0..<100 where model.state["played"] != 3000 { await Task.yield() }
        #expect(model.state["played"] == 3000, "a late tick catches up from the clock")
        tree = model.render(options: RenderOptions()).root
        let bar = try #require(tree.nodes().first { $0.id.hasSuffix("#now_playing") })
        #expect(bar.transition?.kind == .slide, "the bar slides in")
        let texts = bar.nodes().compactMap { node -> String? in
            if case .text(let text, _, _) = node.kind { text } else { nil }
        }
        #expect(texts.contains("Now playing") && texts.contains { $0.contains("0:03") }, "\(texts)")
        model.stopTimers()
        let stopped = await clock.waitForSleepers(0, timeout: 1)
        #expect(stopped, "a stopped timer does not sleep")
        #expect(app.phase == .ready)
    }

    @Test func aDocumentsBannerLivesAsAScreensDoes() async throws {
        let (clock, model, app) = try await shownEpisode()
        model.stopTimers()
        await model.apply(.error(message: "No se pudo"))
        let error = try #require(model.banner)
        await model.bannerShown(error, voiceOver: false)
        #expect(model.banner == error, "an error stays until it is closed")
        model.dismissBanner()
        #expect(model.banner == nil)
        await model.apply(.success(message: nil))
        #expect(model.banner == nil, "a success that says nothing shows nothing")
        await model.apply(.pendingOffline(message: "Se enviará al volver la conexión"))
        #expect(model.banner?.kind == .pending)
        await model.apply(.success(message: "Guardado"))
        let success = try #require(model.banner)
        var spoken: [String] = []
        await model.bannerShown(success, voiceOver: true) { spoken.append($0) }
        #expect(spoken == ["Guardado"] && model.banner == success, "with VoiceOver it is read and stays")
        let shown = Task { await model.bannerShown(success, voiceOver: false) }
        #expect(await clock.waitForSleepers(1, timeout: 5))
        clock.advance(by: 6)
        await shown.value
        #expect(model.banner == nil, "a success goes after its lifetime")
        #expect(app.phase == .ready)
    }

    @Test func aTimerActionForAnUnknownTimerIsAnErrorAndChangesNothing() async throws {
        let (_, model, app) = try await shownEpisode()
        await model.apply(.timer("nope", .start))
        #expect(model.banner == Banner(kind: .error, message: "no timer 'nope'"))
        #expect(model.state["played"] == nil)
        await model.apply(.timer("playback", .pause))
        #expect(model.state["played"] == 0, "pausing a timer that never ran writes its zero")
        #expect(app.phase == .ready)
    }
}
