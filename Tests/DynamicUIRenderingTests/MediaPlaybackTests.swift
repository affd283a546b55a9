import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUIRendering
import Foundation
import Testing

/// The shared player as the service drives it, without AVFoundation: a command changes the
/// state the way `AVPlayer` would report it right after.
private struct SimulatedPlayer {
    var state = MediaPlaybackState()
    /// How many player items were made.
    var itemsMade = 0

    mutating func perform(_ command: MediaPlaybackCommand) {
        switch command {
        case .nothing:
            break
        case .pause:
            state.status = .paused
        case .play(let url, let loading, let fromStart):
            if loading {
                state.load(url)
                itemsMade += 1
            } else if fromStart {
                state.elapsed = 0
            }
            state.status = .waiting
        }
    }
}

private let episode1 = URL(string: "https://media.example/1.mp3")!
private let episode2 = URL(string: "https://media.example/2.mp3")!

@Suite("Media playback: taps, system controls, onPlay and onPause")
struct MediaPlaybackTests {
    // What a tap does.

    @Test func aTapOnANodeWithoutAURLDoesNothing() {
        #expect(MediaPlaybackState().tap(nil) == .nothing)
        #expect(MediaPlaybackState(url: episode1, status: .playing).tap(nil) == .nothing)
    }

    @Test func theFirstTapMakesTheItemAndPlays() {
        #expect(MediaPlaybackState().tap(episode1) == .play(episode1, loading: true, fromStart: false))
    }

    @Test func aTapPausesWhatPlaysOrWaitsAndResumesWhatIsPaused() {
        #expect(MediaPlaybackState(url: episode1, status: .playing).tap(episode1) == .pause)
        #expect(MediaPlaybackState(url: episode1, status: .waiting).tap(episode1) == .pause)
        #expect(
            MediaPlaybackState(url: episode1, status: .paused, elapsed: 30, duration: 600).tap(episode1)
                == .play(episode1, loading: false, fromStart: false))
    }

    @Test func aTapOnAnotherURLReplacesWhatPlays() {
        let state = MediaPlaybackState(url: episode1, status: .playing)
        #expect(state.tap(episode2) == .play(episode2, loading: true, fromStart: false))
        #expect(state.phase(of: episode2) == .idle)
    }

    @Test func aTapAfterTheEndStartsOver() {
        let ended = MediaPlaybackState(url: episode1, status: .paused, elapsed: 599.8, duration: 600)
        #expect(ended.isAtEnd)
        #expect(ended.tap(episode1) == .play(episode1, loading: false, fromStart: true))
        #expect(!MediaPlaybackState(url: episode1, elapsed: 599.8).isAtEnd, "no length known: not at the end")
    }

    @Test func aTapAfterAFailureLoadsTheURLAgain() {
        let failed = MediaPlaybackState(url: episode1, status: .paused, failed: true)
        #expect(failed.phase(of: episode1) == .failed)
        #expect(failed.tap(episode1) == .play(episode1, loading: true, fromStart: false))
    }

    // What the system controls do.

    @Test func remoteCommandsActOnTheLoadedItem() {
        #expect(MediaPlaybackState().remote(.play) == .nothing)
        #expect(MediaPlaybackState().remote(.togglePlayPause) == .nothing)
        let paused = MediaPlaybackState(url: episode1, status: .paused, elapsed: 10, duration: 600)
        #expect(paused.remote(.play) == .play(episode1, loading: false, fromStart: false))
        #expect(paused.remote(.pause) == .nothing)
        #expect(paused.remote(.togglePlayPause) == .play(episode1, loading: false, fromStart: false))
        let playing = MediaPlaybackState(url: episode1, status: .playing)
        #expect(playing.remote(.play) == .nothing)
        #expect(playing.remote(.pause) == .pause)
        #expect(playing.remote(.togglePlayPause) == .pause)
    }

    // When onPlay and onPause fire.

    @Test func playFiresOnPlayOnceWhenPlaybackStartsNotWhenItIsAskedFor() {
        var player = SimulatedPlayer()
        var node = MediaPlayerNode(url: episode1, state: player.state)
        #expect(node.observe(player.state) == nil)
        player.perform(player.state.tap(episode1))
        #expect(player.itemsMade == 1)
        #expect(player.state.phase(of: episode1) == .starting)
        #expect(node.observe(player.state) == nil, "waiting for data is not playing yet")
        player.state.status = .playing
        #expect(node.observe(player.state) == .play)
        #expect(node.observe(player.state) == nil)
        player.state.elapsed = 12
        #expect(node.observe(player.state) == nil, "time passing changes nothing")
    }

    @Test func pauseFiresOnPauseOnceWhicheverControlPaused() {
        let pauses: [(inout SimulatedPlayer) -> Void] = [
            { player in player.perform(player.state.tap(episode1)) },
            { player in player.perform(player.state.remote(.pause)) },
            { player in player.perform(player.state.remote(.togglePlayPause)) },
            // VideoPlayer's own controls, an interruption, a route change: only the status changes.
            { player in player.state.status = .paused },
        ]
        for pause in pauses {
            var player = SimulatedPlayer(state: MediaPlaybackState(url: episode1, status: .playing))
            var node = MediaPlayerNode(url: episode1, state: MediaPlaybackState())
            #expect(node.observe(player.state) == .play)
            pause(&player)
            #expect(node.observe(player.state) == .pause)
            #expect(node.observe(player.state) == nil)
        }
    }

    @Test func playbackStartedFromTheSystemControlsFiresOnPlay() {
        var player = SimulatedPlayer(state: MediaPlaybackState(url: episode1, status: .paused, elapsed: 40, duration: 600))
        var node = MediaPlayerNode(url: episode1, state: player.state)
        player.perform(player.state.remote(.play))
        #expect(player.itemsMade == 0, "the loaded item plays on")
        player.state.status = .playing
        #expect(node.observe(player.state) == .play)
    }

    @Test func aStallWhilePlayingFiresNothing() {
        var state = MediaPlaybackState(url: episode1, status: .playing)
        var node = MediaPlayerNode(url: episode1, state: MediaPlaybackState())
        #expect(node.observe(state) == .play)
        state.status = .waiting
        #expect(node.observe(state) == nil)
        state.status = .playing
        #expect(node.observe(state) == nil)
    }

    @Test func askedForAndPausedBeforeItPlayedFiresNothing() {
        var state = MediaPlaybackState(url: episode1, status: .waiting)
        var node = MediaPlayerNode(url: episode1, state: MediaPlaybackState())
        #expect(node.observe(state) == nil)
        state.status = .paused
        #expect(node.observe(state) == nil, "no onPause without an onPlay")
    }

    @Test func reachingTheEndOrFailingFiresOnPause() {
        var node = MediaPlayerNode(url: episode1, state: MediaPlaybackState())
        var state = MediaPlaybackState(url: episode1, status: .playing, elapsed: 100, duration: 600)
        #expect(node.observe(state) == .play)
        state.status = .paused
        state.elapsed = 600
        #expect(node.observe(state) == .pause)
        state.status = .playing
        #expect(node.observe(state) == .play)
        state.failed = true
        #expect(node.observe(state) == .pause)
    }

    @Test func anotherNodeTakingThePlayerPausesThisOne() {
        var player = SimulatedPlayer()
        var first = MediaPlayerNode(url: episode1, state: player.state)
        var second = MediaPlayerNode(url: episode2, state: player.state)
        player.perform(player.state.tap(episode1))
        player.state.status = .playing
        #expect(first.observe(player.state) == .play)
        #expect(second.observe(player.state) == nil)
        player.perform(player.state.tap(episode2))
        #expect(player.itemsMade == 2)
        #expect(first.observe(player.state) == .pause, "one player: the first episode stopped")
        player.state.status = .playing
        #expect(second.observe(player.state) == .play)
        #expect(first.observe(player.state) == nil)
    }

    @Test func twoNodesOfOneURLEachFireOnce() {
        var a = MediaPlayerNode(url: episode1, state: MediaPlaybackState())
        var b = MediaPlayerNode(url: episode1, state: MediaPlaybackState())
        let playing = MediaPlaybackState(url: episode1, status: .playing)
        #expect(a.observe(playing) == .play && b.observe(playing) == .play)
        #expect(a.observe(playing) == nil && b.observe(playing) == nil)
    }

    @Test func aViewMadeAgainWhilePlayingFiresNothingThenReportsThePause() {
        // A sibling that appears (a "now playing" row) may make the player's view again: the
        // new view finds the episode playing and must neither fire onPlay again nor stop it.
        var state = MediaPlaybackState(url: episode1, status: .playing)
        var remade = MediaPlayerNode(url: episode1, state: state)
        #expect(remade.isPlaying)
        #expect(remade.observe(state) == nil)
        state.status = .paused
        #expect(remade.observe(state) == .pause)
        let waiting = MediaPlayerNode(url: episode1, state: MediaPlaybackState(url: episode1, status: .waiting))
        #expect(!waiting.isPlaying, "made while waiting: onPlay is still to come")
    }

    // A node whose URL changes.

    @Test func aNewURLWhilePlayingPlaysTheNewURLWithoutEvents() {
        var player = SimulatedPlayer(state: MediaPlaybackState(url: episode1, status: .playing))
        var node = MediaPlayerNode(url: episode1, state: player.state)
        player.perform(node.urlChanged(to: episode2, state: player.state))
        #expect(node.url == episode2)
        #expect(player.state.url == episode2 && player.itemsMade == 1)
        #expect(node.observe(player.state) == nil, "it goes on playing, now the new URL")
        player.state.status = .playing
        #expect(node.observe(player.state) == nil)
        player.state.status = .paused
        #expect(node.observe(player.state) == .pause)
    }

    @Test func aNewURLWhilePausedWaitsForPlayAndThenPlaysTheNewURL() {
        let player = SimulatedPlayer(state: MediaPlaybackState(url: episode1, status: .paused, elapsed: 50))
        var node = MediaPlayerNode(url: episode1, state: player.state)
        #expect(node.urlChanged(to: episode2, state: player.state) == .nothing)
        #expect(node.observe(player.state) == nil)
        #expect(player.state.tap(node.url) == .play(episode2, loading: true, fromStart: false))
    }

    @Test func losingTheURLWhilePlayingPausesAndFiresOnPause() {
        var player = SimulatedPlayer(state: MediaPlaybackState(url: episode1, status: .playing))
        var node = MediaPlayerNode(url: episode1, state: player.state)
        let command = node.urlChanged(to: nil, state: player.state)
        #expect(command == .pause)
        player.perform(command)
        #expect(node.observe(player.state) == .pause)
        #expect(node.urlChanged(to: nil, state: player.state) == .nothing)
    }

    // The player's clock.

    @Test func theClockTakesOnlyTimesAndPositiveLengths() {
        var state = MediaPlaybackState(url: episode1)
        state.update(elapsed: 12.5, duration: .nan)
        #expect(state.elapsed == 12.5 && state.duration == nil)
        state.update(elapsed: .nan, duration: 600)
        #expect(state.elapsed == 12.5 && state.duration == 600)
        state.update(elapsed: -1, duration: .infinity)
        #expect(state.elapsed == 0 && state.duration == nil)
        state.load(episode2)
        #expect(state == MediaPlaybackState(url: episode2))
    }

    @Test(arguments: [
        (0.0, "0:00"), (0.99, "0:00"), (5, "0:05"), (65, "1:05"), (599.9, "9:59"), (3599, "59:59"), (3600, "1:00:00"),
        (3723, "1:02:03"), (36_000, "10:00:00"), (-1, "--:--"), (.nan, "--:--"), (.infinity, "--:--"),
    ])
    func elapsedTimeReads(seconds: Double, text: String) {
        #expect(MediaClock.text(seconds) == text)
    }

    @Test func progressReadsElapsedOverLength() {
        #expect(MediaClock.text(nil) == "--:--")
        #expect(MediaClock.text(42, hours: true) == "0:00:42")
        #expect(MediaClock.progress(elapsed: 42, duration: 2470) == "0:42 / 41:10")
        #expect(MediaClock.progress(elapsed: 42, duration: 3723) == "0:00:42 / 1:02:03")
        #expect(MediaClock.progress(elapsed: 42, duration: nil) == "0:42")
        #expect(MediaClock.progress(elapsed: 42, duration: .nan) == "0:42")
    }

    // The component.

    @Test func theComponentDeclaresBothActions() {
        #expect(MediaPlayerComponent().actionNames == ["onPlay", "onPause"])
        #expect(MediaPlayerEvent.allCases.map(\.rawValue) == ["onPlay", "onPause"])
    }
}
