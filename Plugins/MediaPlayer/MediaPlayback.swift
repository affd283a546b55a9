public import Foundation

// What the shared player decides without AVFoundation: what a tap or a remote command does, when a
// player node fires `onPlay` and `onPause`, and how elapsed time reads. `MediaPlaybackService`
// (Apple platforms) feeds it the player's status and does what it returns.

/// Whether the player plays, as `AVPlayer.timeControlStatus` reports it.
public enum MediaPlaybackStatus: Sendable, Hashable {
    /// Paused, stopped at the end, or never started.
    case paused
    /// Asked to play and waiting for data (buffering, or stalled).
    case waiting
    /// Playing.
    case playing
}

/// How one URL's player looks, given what the shared player holds.
public enum MediaPlaybackPhase: Sendable, Hashable {
    /// Not loaded, or loaded and paused: the button shows Play.
    case idle
    /// Asked to play, waiting for data: the button shows Pause.
    case starting
    /// Playing: the button shows Pause.
    case playing
    /// Loaded, but it could not be played: the button shows Play, which tries again.
    case failed

    /// Whether playback was asked for (the button shows Pause).
    public var isActive: Bool { self == .starting || self == .playing }
}

/// What the shared player is told to do.
public enum MediaPlaybackCommand: Sendable, Hashable {
    /// Nothing.
    case nothing
    /// Play `url`: make a new player item for it when `loading`, seek to the start first when
    /// `fromStart` (it had played to the end).
    case play(URL, loading: Bool, fromStart: Bool)
    /// Pause.
    case pause
}

/// A command from the system's controls (lock screen, Control Center, headphones, CarPlay).
public enum MediaRemoteCommand: Sendable, Hashable, CaseIterable {
    /// Play.
    case play
    /// Pause.
    case pause
    /// Play when paused, pause when playing (a headphone click).
    case togglePlayPause
}

/// The action a player node fires.
public enum MediaPlayerEvent: String, Sendable, Hashable, CaseIterable {
    /// Its URL started playing.
    case play = "onPlay"
    /// Its URL stopped playing: paused from anywhere, played to the end, failed, or replaced.
    case pause = "onPause"
}

/// What the shared player holds and whether it plays: the loaded URL, its status, elapsed time
/// and duration, and whether it failed.
public struct MediaPlaybackState: Sendable, Hashable {
    /// The URL of the loaded player item, `nil` before anything was played.
    public var url: URL?
    /// Whether the player plays.
    public var status: MediaPlaybackStatus
    /// Seconds played of the loaded item.
    public var elapsed: Double
    /// The loaded item's length in seconds, `nil` while unknown (or a live stream).
    public var duration: Double?
    /// Whether the loaded item could not be played.
    public var failed: Bool

    /// A state; the default is an empty player.
    public init(
        url: URL? = nil, status: MediaPlaybackStatus = .paused, elapsed: Double = 0, duration: Double? = nil,
        failed: Bool = false
    ) {
        self.url = url
        self.status = status
        self.elapsed = elapsed
        self.duration = duration
        self.failed = failed
    }

    /// How the player of `url` looks: idle unless `url` is the loaded item.
    public func phase(of url: URL?) -> MediaPlaybackPhase {
        guard let url, url == self.url else { return .idle }
        if failed { return .failed }
        switch status {
        case .paused: return .idle
        case .waiting: return .starting
        case .playing: return .playing
        }
    }

    /// Whether the loaded item stopped at its end (within half a second), so that playing again
    /// starts over.
    public var isAtEnd: Bool {
        guard let duration, duration > 0 else { return false }
        return elapsed >= duration - 0.5
    }

    /// What a tap on the play/pause button of `url`'s player does: pause it while it plays or
    /// waits; otherwise play it, loading it unless it is the paused loaded item.
    public func tap(_ url: URL?) -> MediaPlaybackCommand {
        guard let url else { return .nothing }
        switch phase(of: url) {
        case .starting, .playing: return .pause
        case .failed: return .play(url, loading: true, fromStart: false)
        case .idle:
            if url != self.url { return .play(url, loading: true, fromStart: false) }
            return .play(url, loading: false, fromStart: isAtEnd)
        }
    }

    /// What a system control does: it acts on the loaded item, and does nothing when nothing
    /// is loaded or the command asks for what already happens.
    public func remote(_ command: MediaRemoteCommand) -> MediaPlaybackCommand {
        guard let url else { return .nothing }
        let active = phase(of: url).isActive
        switch command {
        case .play: return active ? .nothing : tap(url)
        case .pause: return active ? .pause : .nothing
        case .togglePlayPause: return tap(url)
        }
    }

    /// `url` was loaded as a new item: nothing played of it yet, its length unknown.
    public mutating func load(_ url: URL) {
        self.url = url
        elapsed = 0
        duration = nil
        failed = false
    }

    /// Takes the player's clock: `elapsed` when it is a time, `duration` when it is a positive
    /// length (an unknown or live item's is NaN or infinite).
    public mutating func update(elapsed: Double, duration: Double?) {
        if elapsed.isFinite { self.elapsed = max(0, elapsed) }
        if let duration, duration.isFinite, duration > 0 {
            self.duration = duration
        } else {
            self.duration = nil
        }
    }
}

/// One player node bound to the shared player: the URL it shows and whether its last action
/// was `onPlay`, so that it fires `onPlay` and `onPause` once per change whoever caused it.
public struct MediaPlayerNode: Sendable, Hashable {
    /// The URL the node shows.
    public private(set) var url: URL?
    /// Whether the last action it fired (or found when it appeared) is `onPlay`.
    public private(set) var isPlaying: Bool

    /// A node that appears while the shared player is in `state`: it takes what it finds as
    /// already reported, so a view made again (or a page opened again) fires nothing.
    public init(url: URL?, state: MediaPlaybackState) {
        self.url = url
        isPlaying = state.phase(of: url) == .playing
    }

    /// The node's URL became `newURL`: if its old URL was playing or about to, the shared
    /// player plays `newURL` instead (or pauses when there is none); otherwise nothing.
    public mutating func urlChanged(to newURL: URL?, state: MediaPlaybackState) -> MediaPlaybackCommand {
        guard newURL != url else { return .nothing }
        let wasActive = state.phase(of: url).isActive
        url = newURL
        guard wasActive else { return .nothing }
        guard let newURL else { return .pause }
        return .play(newURL, loading: true, fromStart: false)
    }

    /// The shared player is in `state`: `onPlay` when the node's URL reaches playing, `onPause`
    /// when it stops (paused, ended, failed or replaced); nothing while it waits for data or
    /// when nothing changed for the node.
    public mutating func observe(_ state: MediaPlaybackState) -> MediaPlayerEvent? {
        switch state.phase(of: url) {
        case .playing where !isPlaying:
            isPlaying = true
            return .play
        case .idle where isPlaying, .failed where isPlaying:
            isPlaying = false
            return .pause
        default:
            return nil
        }
    }
}

/// Elapsed time and length as a player shows them: `4:05`, `1:02:03`.
public enum MediaClock {
    /// `seconds` as `m:ss`, or `h:mm:ss` from an hour (or always when `hours`); `--:--` when
    /// unknown, negative or not a number.
    public static func text(_ seconds: Double?, hours: Bool = false) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < Double(Int.max) else { return "--:--" }
        let whole = Int(seconds.rounded(.down))
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        if h > 0 || hours { return "\(h):\(twoDigits(m)):\(twoDigits(s))" }
        return "\(m):\(twoDigits(s))"
    }

    /// `elapsed / duration` (`0:42 / 41:10`), both with hours when the length has them; the
    /// elapsed time alone while the length is unknown.
    public static func progress(elapsed: Double, duration: Double?) -> String {
        guard let duration, duration.isFinite, duration > 0 else { return text(elapsed) }
        let hours = duration >= 3600
        return "\(text(elapsed, hours: hours)) / \(text(duration, hours: hours))"
    }
}
