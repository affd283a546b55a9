#if canImport(AVFoundation)
    public import AVFoundation
    public import Observation
    #if canImport(MediaPlayer)
        import MediaPlayer
    #endif

    /// The app's one player: every media player node plays through it, so one thing plays at a
    /// time and playback goes on when the page that started it is closed. It sets the audio
    /// session to `.playback` when playback starts, answers the system's play, pause and
    /// toggle commands, and fills in Now Playing (title, URL, duration, elapsed time).
    ///
    /// Views observe ``state``; whatever plays or pauses ``player`` (a button, `VideoPlayer`'s
    /// controls, the lock screen, an interruption) shows there.
    @Observable @MainActor
    public final class MediaPlaybackService {
        /// The app's player, used by `MediaPlayerComponent()` unless it is given another.
        public static let shared = MediaPlaybackService()

        /// The player. A `VideoPlayer` may show it; play and pause it through the service so
        /// that the item is made and the audio session set.
        public let player: AVPlayer
        /// What is loaded and whether it plays.
        public private(set) var state = MediaPlaybackState()
        /// The title of what is loaded, for Now Playing.
        public private(set) var title = ""
        /// Whether what is loaded is a video.
        public private(set) var isVideo = false

        @ObservationIgnored private var observers: PlayerObservers?
        @ObservationIgnored private var itemObservation: NSKeyValueObservation?
        @ObservationIgnored private var nowPlayingShown: NowPlaying?

        /// A service over `player` (a new one by default). Keep it for as long as the app plays:
        /// the shared one is.
        public init(player: AVPlayer = AVPlayer()) {
            self.player = player
            observers = PlayerObservers(player: player, service: self)
        }

        /// What the play/pause button of `media` does: pauses it while it plays, otherwise plays it
        /// (making its player item now, the first time).
        public func toggle(_ media: MediaPlayerComponent.Media) {
            perform(state.tap(media.url), for: media)
        }

        /// Plays `media`, unless it already plays.
        public func play(_ media: MediaPlayerComponent.Media) {
            guard !state.phase(of: media.url).isActive else { return }
            perform(state.tap(media.url), for: media)
        }

        /// Pauses whatever plays.
        public func pause() {
            perform(state.remote(.pause), for: nil)
        }

        /// Does `command`; `media` names what a new item plays (its title and kind).
        func perform(_ command: MediaPlaybackCommand, for media: MediaPlayerComponent.Media?) {
            switch command {
            case .nothing:
                return
            case .pause:
                player.pause()
            case .play(let url, let loading, let fromStart):
                if loading {
                    // A remote command reloads the loaded URL (after a failure) and keeps its title.
                    if let media {
                        title = media.title.isEmpty ? url.lastPathComponent : media.title
                        isVideo = media.isVideo
                    }
                    load(url)
                } else if fromStart {
                    player.seek(to: .zero)
                }
                startAudioSession()
                observers?.listenToRemoteCommands()
                player.play()
            }
            refresh()
        }

        /// Does what a system control asks.
        func remote(_ command: MediaRemoteCommand) {
            perform(state.remote(command), for: nil)
        }

        /// Makes the player item of `url`, the only place one is made.
        private func load(_ url: URL) {
            let item = AVPlayerItem(url: url)
            itemObservation = item.observe(\.status) { @Sendable [weak self] _, _ in
                Task { @MainActor [weak self] in self?.refresh() }
            }
            player.replaceCurrentItem(with: item)
            state.load(url)
        }

        /// Reads the player (status, time, failure) into `state`, and Now Playing when it changed.
        func refresh() {
            var next = state
            switch player.timeControlStatus {
            case .playing: next.status = .playing
            case .waitingToPlayAtSpecifiedRate: next.status = .waiting
            // Asked to play (a rate) but not reporting it yet: about to play.
            case .paused: next.status = player.rate != 0 ? .waiting : .paused
            @unknown default: next.status = .paused
            }
            if let item = player.currentItem {
                next.update(elapsed: player.currentTime().seconds, duration: item.duration.seconds)
                next.failed = item.status == .failed
            }
            if next != state { state = next }
            showNowPlaying()
        }

        /// Sets the audio session to play with the silent switch on and the screen locked.
        private func startAudioSession() {
            #if !os(macOS)
                let session = AVAudioSession.sharedInstance()
                do {
                    try session.setCategory(.playback, mode: isVideo ? .moviePlayback : .default)
                    try session.setActive(true)
                } catch {
                    // Playback still works; only the silent switch and the lock may stop it.
                }
            #endif
        }

        /// What Now Playing shows; elapsed time is sent only when playing starts or stops (or the
        /// item changes), and the system moves it on from the rate.
        private struct NowPlaying: Equatable {
            var url: URL
            var title: String
            var isVideo: Bool
            var duration: Double?
            var playing: Bool
        }

        private func showNowPlaying() {
            #if canImport(MediaPlayer)
                guard let url = state.url else { return }
                let shown = NowPlaying(
                    url: url, title: title, isVideo: isVideo, duration: state.duration, playing: state.status == .playing)
                guard shown != nowPlayingShown else { return }
                nowPlayingShown = shown
                var info: [String: Any] = [
                    MPMediaItemPropertyTitle: title,
                    MPNowPlayingInfoPropertyAssetURL: url,
                    MPNowPlayingInfoPropertyMediaType: (isVideo ? MPNowPlayingInfoMediaType.video : .audio).rawValue,
                    MPNowPlayingInfoPropertyElapsedPlaybackTime: state.elapsed,
                    MPNowPlayingInfoPropertyPlaybackRate: shown.playing ? Double(player.rate) : 0.0,
                ]
                if let duration = state.duration { info[MPMediaItemPropertyPlaybackDuration] = duration }
                MPNowPlayingInfoCenter.default().nowPlayingInfo = info
            #endif
        }
    }

    /// The service's observers of its player (status and time) and its remote-command targets,
    /// removed when the service goes.
    private final class PlayerObservers {
        let player: AVPlayer
        weak var service: MediaPlaybackService?
        private var status: NSKeyValueObservation?
        private var time: Any?
        #if canImport(MediaPlayer)
            private var targets: [(MPRemoteCommand, Any)] = []
        #endif

        init(player: AVPlayer, service: MediaPlaybackService) {
            self.player = player
            self.service = service
            // Both are called on the main queue or elsewhere; the service reads the player afresh
            // on the main actor, so it sees the latest status whatever order they come in.
            status = player.observe(\.timeControlStatus) { @Sendable [weak service] _, _ in
                Task { @MainActor [weak service] in service?.refresh() }
            }
            time = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 2), queue: .main) {
                @Sendable [weak service] _ in
                Task { @MainActor [weak service] in service?.refresh() }
            }
        }

        /// Answers the system's play, pause and toggle commands (from the first playback on, so an
        /// app that never plays does not take them).
        func listenToRemoteCommands() {
            #if canImport(MediaPlayer)
                guard targets.isEmpty, let service else { return }
                let center = MPRemoteCommandCenter.shared()
                let commands: [(MPRemoteCommand, MediaRemoteCommand)] = [
                    (center.playCommand, .play), (center.pauseCommand, .pause),
                    (center.togglePlayPauseCommand, .togglePlayPause),
                ]
                for (command, meaning) in commands {
                    command.isEnabled = true
                    targets.append((command, command.addTarget(handler: Self.handler(meaning, for: service))))
                }
            #endif
        }

        #if canImport(MediaPlayer)
            /// A command's handler: the system may call it on any thread, so it hands the command
            /// to the service on the main actor.
            private static func handler(
                _ command: MediaRemoteCommand, for service: MediaPlaybackService
            )
                -> @Sendable (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus
            {
                { [weak service] _ in
                    Task { @MainActor [weak service] in service?.remote(command) }
                    return .success
                }
            }
        #endif

        deinit {
            if let time { player.removeTimeObserver(time) }
            #if canImport(MediaPlayer)
                for (command, target) in targets { command.removeTarget(target) }
            #endif
        }
    }
#endif
