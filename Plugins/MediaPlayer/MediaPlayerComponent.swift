public import DynamicUIModels
public import DynamicUIRendering
public import Foundation

/// A native component that plays an audio or video URL: `media-player` in screens
/// (`control_type`) and `media_player` in node documents (`type`).
///
/// Props: `url` (https only; anything else shows "not available"), `kind` (`audio` or
/// `video`; without it, a video when the URL's file is one: `.mp4`, `.m4v`, `.mov`, `.webm`),
/// `title`, `poster` (a video's still). A screen's slot gives its `value` as the URL and its
/// `label` as the title. Actions: `onPlay` when its URL
/// starts playing and `onPause` when it stops, whatever started or stopped it. On Apple
/// platforms every player node drives one `MediaPlaybackService`; the web preview draws a
/// `<video>` with its controls, or one Play button over a hidden `<audio>` (a host's script
/// plays it; without one the button fires `onPlay`).
public struct MediaPlayerComponent: NativeComponent {
    /// `media-player`.
    public let type = "media-player"
    /// `onPlay` and `onPause`.
    public let actionNames = MediaPlayerEvent.allCases.map(\.rawValue)

    #if canImport(AVFoundation)
        /// The player service the views use; `nil` for the shared one.
        let playback: MediaPlaybackService?

        /// The component, playing through the app's shared `MediaPlaybackService`.
        public init() { playback = nil }

        /// The component, playing through `playback` (a test's or a host's own service).
        public init(playback: MediaPlaybackService) { self.playback = playback }
    #else
        /// The component.
        public init() {}
    #endif

    /// What a node asks to play.
    public struct Media: Sendable, Hashable {
        /// The https URL, or `nil` when the node has none that can be played.
        public let url: URL?
        /// Whether it is a video.
        public let isVideo: Bool
        /// The title, empty when none.
        public let title: String
        /// A video's still image (https), if any.
        public let poster: URL?
        /// The words of the player (play, not available) in the screen's language.
        public let strings: DynamicUIStrings

        /// The media of `node`'s props.
        public init(_ node: CustomNode) {
            strings = node.strings
            // A screen's slot names its URL `value` and its title `label`.
            url = Self.https(node.props["url"]?.stringValue ?? node.props["value"]?.stringValue)
            if let kind = node.props["kind"]?.stringValue {
                isVideo = kind == "video"
            } else {
                isVideo = url.map { Self.videoExtensions.contains($0.pathExtension.lowercased()) } ?? false
            }
            title = node.props["title"]?.stringValue ?? node.props["label"]?.stringValue ?? ""
            poster = Self.https(node.props["poster"]?.stringValue)
        }

        /// The file extensions of a video, when a node does not say its kind.
        static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "webm"]

        private static func https(_ text: String?) -> URL? {
            guard let text, let url = URL(string: text), url.scheme?.lowercased() == "https", url.host != nil else { return nil }
            return url
        }
    }

    /// The preview's drawing. A video: a captioned `<video>` with its controls and a play
    /// button. An audio: one control, a Play button (a host's script plays the hidden
    /// `<audio>` and turns it into Pause), the time played and a status line; its title names
    /// it rather than repeating what the page around it shows.
    public func html(_ node: CustomNode) -> HTMLFragment {
        let media = Media(node)
        guard let url = media.url else {
            return .element(
                "p", attributes: [HTMLAttribute("class", "media-unavailable")], children: [.text(node.strings(.unavailable))])
        }
        let name = media.title.isEmpty ? "Player" : media.title
        var attributes = [
            HTMLAttribute("src", url.absoluteString), HTMLAttribute("preload", "none"), HTMLAttribute("aria-label", name),
        ]
        let play = HTMLFragment.action("onPlay", label: [.text("▶ " + node.strings(.play))])
        guard media.isVideo else {
            let time = HTMLFragment.element("span", attributes: [HTMLAttribute("class", "media-time")])
            let status = HTMLFragment.element(
                "span", attributes: [HTMLAttribute("class", "media-status"), HTMLAttribute("role", "status")])
            return .element(
                "figure",
                attributes: [
                    HTMLAttribute("class", "media-player audio"), HTMLAttribute("role", "group"),
                    HTMLAttribute("aria-label", name),
                ],
                children: [.element("audio", attributes: attributes), play, time, status])
        }
        attributes.insert(HTMLAttribute("controls", "controls"), at: 1)
        if let poster = media.poster { attributes.append(HTMLAttribute("poster", poster.absoluteString)) }
        var children: [HTMLFragment] = []
        if !media.title.isEmpty { children.append(.element("figcaption", children: [.text(media.title)])) }
        children.append(.element("video", attributes: attributes))
        children.append(play)
        return .element("figure", attributes: [HTMLAttribute("class", "media-player")], children: children)
    }
}
