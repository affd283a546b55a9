#if canImport(SwiftUI) && canImport(AVFoundation)
    import AVFoundation
    import DynamicUIModels
    public import DynamicUIRendering
    public import DynamicUISwiftUI
    import Foundation
    public import SwiftUI
    #if canImport(AVKit)
        import AVKit
    #endif

    extension MediaPlayerComponent: SwiftUINativeComponent {
        /// The player of `node` on the component's `MediaPlaybackService`: a play/pause row with the
        /// elapsed time, under `VideoPlayer` for a video; fires `onPlay` and `onPause` as it starts and stops.
        @MainActor
        public func view(_ node: CustomNode, actions: NativeComponentActions) -> AnyView {
            AnyView(
                MediaPlayerView(media: Media(node), playback: playback ?? .shared) { event in
                    actions.perform(event.rawValue)
                })
        }
    }

    /// One player node: its title, a video's picture, and the play/pause row, all reading the
    /// shared player's state.
    struct MediaPlayerView: View {
        let media: MediaPlayerComponent.Media
        let playback: MediaPlaybackService
        let fire: @MainActor (MediaPlayerEvent) -> Void
        /// What this node last reported; made when the view first appears.
        @State private var node: MediaPlayerNode?

        var body: some View {
            let state = playback.state
            let phase = state.phase(of: media.url)
            VStack(alignment: .leading, spacing: 8) {
                if !media.title.isEmpty {
                    Text(media.title).font(.headline)
                }
                if let url = media.url {
                    if media.isVideo {
                        picture(bound: state.url == url && phase != .failed)
                    }
                    controls(state: state, phase: phase, loaded: state.url == url)
                } else {
                    Text(media.strings(.unavailable)).foregroundStyle(.secondary)
                }
            }
            .accessibilityElement(children: .contain)
            .onAppear {
                // A view made again finds the player as it is and fires nothing; one that comes
                // back on screen reports what changed while it was away.
                if node == nil {
                    node = MediaPlayerNode(url: media.url, state: playback.state)
                } else {
                    sync()
                }
            }
            .onChange(of: media.url) { sync() }
            .onChange(of: phase) { sync() }
        }

        /// Follows a new URL (playing it if the old one played), then fires what changed.
        private func sync() {
            guard var current = node else { return }
            playback.perform(current.urlChanged(to: media.url, state: playback.state), for: media)
            let event = current.observe(playback.state)
            node = current
            if let event { fire(event) }
        }

        private func controls(state: MediaPlaybackState, phase: MediaPlaybackPhase, loaded: Bool) -> some View {
            HStack(spacing: 12) {
                Button {
                    playback.toggle(media)
                } label: {
                    if phase.isActive {
                        Label(media.strings.pause, systemImage: "pause.fill")
                    } else {
                        Label(media.strings(.play), systemImage: "play.fill")
                    }
                }
                .buttonStyle(.borderedProminent)
                if phase == .starting {
                    ProgressView()
                }
                if phase == .failed {
                    Text(media.strings(.unavailable)).font(.footnote).foregroundStyle(.secondary)
                } else if loaded {
                    Text(MediaClock.progress(elapsed: state.elapsed, duration: state.duration))
                        .font(.footnote.monospacedDigit())
                        .foregroundStyle(.secondary)
                        .accessibilityLabel(spokenProgress(state))
                }
            }
        }

        /// `42 seconds of 41 minutes, 10 seconds`, in the screen's language.
        private func spokenProgress(_ state: MediaPlaybackState) -> String {
            let locale = Locale(identifier: media.strings.language.rawValue)
            let spoken = { (seconds: Double) in
                Duration.seconds(seconds.rounded(.down))
                    .formatted(.units(allowed: [.hours, .minutes, .seconds], width: .wide).locale(locale))
            }
            guard let duration = state.duration else { return spoken(state.elapsed) }
            return media.strings.elapsed(spoken(state.elapsed), of: spoken(duration))
        }

        #if canImport(AVKit)
            /// The shared player's picture while this video is loaded, its poster otherwise (the
            /// player may be playing another node's URL).
            @ViewBuilder
            private func picture(bound: Bool) -> some View {
                if bound {
                    VideoPlayer(player: playback.player).frame(height: 200)
                } else {
                    poster
                }
            }
        #else
            private func picture(bound: Bool) -> some View { poster }
        #endif

        private var poster: some View {
            ZStack {
                Color.black
                if let poster = media.poster {
                    AsyncImage(url: poster) { image in
                        image.resizable().scaledToFit()
                    } placeholder: {
                        Color.clear
                    }
                }
            }
            .frame(maxWidth: .infinity)
            .frame(height: 200)
            .accessibilityHidden(true)
        }
    }

    extension DynamicUIStrings {
        /// The player's words that the SDK's table lacks, in the same two languages.
        fileprivate var pause: String { language == .spanish ? "Pausar" : "Pause" }

        fileprivate func elapsed(_ elapsed: String, of duration: String) -> String {
            language == .spanish ? "\(elapsed) de \(duration)" : "\(elapsed) of \(duration)"
        }
    }
#endif
