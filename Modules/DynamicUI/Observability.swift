import DynamicUIActions
import DynamicUIModels
import Foundation
public import Logging
public import Metrics

/// Something the SDK reports to the host's observers: a screen loaded, an element seen, an
/// action performed, an error — each with the screen key and, for errors, the JSON path.
public enum DynamicUIEvent: Sendable, Hashable {
    /// A screen definition (or node document) was loaded.
    case screenLoaded(ScreenLoadEvent)
    /// A screen was drawn (its render tree built).
    case screenRendered(screen: String, seconds: Double, nodes: Int)
    /// An element with a `log_id` became visible.
    case impression(screen: String, logId: String)
    /// An element with a disappear action went out of view (after being seen).
    case disappearance(screen: String, logId: String)
    /// An action ran.
    case actionPerformed(ActionEvent)
    /// Something went wrong, or an element could not be drawn as written.
    case error(ErrorEvent)
}

/// How a screen was loaded.
public struct ScreenLoadEvent: Sendable, Hashable {
    /// The screen key (or document name).
    public let screen: String
    /// `network`, `cache`, `revalidated` or `stale`.
    public let source: String
    /// Bytes of the definition read (0 when it came from a cache).
    public let bytes: Int
    /// Seconds spent reading and decoding it.
    public let decodeSeconds: Double
    /// Seconds spent compiling it (0 when the compiled program was cached).
    public let compileSeconds: Double

    /// Creates an event.
    public init(screen: String, source: String, bytes: Int, decodeSeconds: Double, compileSeconds: Double) {
        self.screen = screen
        self.source = source
        self.bytes = bytes
        self.decodeSeconds = decodeSeconds
        self.compileSeconds = compileSeconds
    }
}

/// An action that ran and what came of it.
public struct ActionEvent: Sendable, Hashable {
    /// The screen key (or document name).
    public let screen: String
    /// The action's id (screen dialect) or key (node dialect).
    public let action: String
    /// Its type (`SUBMIT_FORM`, `navigate`).
    public let type: String
    /// What came of it: `success`, `error`, `navigate`, `queued`, … (the result's kind).
    public let outcome: String

    /// Creates an event.
    public init(screen: String, action: String, type: String, outcome: String) {
        self.screen = screen
        self.action = action
        self.type = type
        self.outcome = outcome
    }
}

/// An error, or an element drawn otherwise than written.
public struct ErrorEvent: Sendable, Hashable {
    /// What kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// A definition or document that is not valid JSON or not a valid model.
        case decode
        /// Expressions that do not compile.
        case compile
        /// A screen that could not be loaded at all.
        case load
        /// An element's `fallback` was drawn because the app lacks what it `requires`.
        case fallbackUsed = "fallback used"
        /// An element was left out (unknown type, or unmet `requires` without a fallback).
        case elementDropped = "element dropped"
        /// An action ended in an error.
        case actionFailed = "action failed"
        /// A queued change was dropped after 24 hours undelivered.
        case queueDropped = "queue dropped"
        /// Variable triggers fired one another deeper than `VariableTrigger.maxCascadeDepth`.
        case triggerCascade = "trigger cascade"
    }

    /// What kind of problem.
    public let kind: Kind
    /// The screen key (or document name), when there is one.
    public let screen: String?
    /// Where in the document (`template.zones[1].slots[0]`), when known.
    public let path: String?
    /// What happened.
    public let message: String

    /// Creates an event.
    public init(_ kind: Kind, screen: String?, path: String? = nil, message: String) {
        self.kind = kind
        self.screen = screen
        self.path = path
        self.message = message
    }
}

/// Receives the SDK's events. Called synchronously on whatever task produced the event, so an
/// implementation must be quick and thread-safe (hand work off to its own queue or actor).
public protocol DynamicUIObserver: Sendable {
    /// Handles one event.
    func observe(_ event: DynamicUIEvent)
}

/// Writes every event to a swift-log `Logger`: errors at `warning` (`error` for load failures),
/// the rest at `debug`, with their fields as metadata.
public struct LoggingObserver: DynamicUIObserver {
    private let logger: Logger

    /// An observer writing to `logger`.
    public init(logger: Logger) { self.logger = logger }

    /// Logs `event`.
    public func observe(_ event: DynamicUIEvent) {
        switch event {
        case .screenLoaded(let load):
            logger.debug(
                "screen loaded",
                metadata: [
                    "screen": "\(load.screen)", "source": "\(load.source)", "bytes": "\(load.bytes)",
                    "decode_ms": "\(Int(load.decodeSeconds * 1000))", "compile_ms": "\(Int(load.compileSeconds * 1000))",
                ])
        case .screenRendered(let screen, let seconds, let nodes):
            logger.debug(
                "screen rendered", metadata: ["screen": "\(screen)", "ms": "\(Int(seconds * 1000))", "nodes": "\(nodes)"])
        case .impression(let screen, let logId):
            logger.debug("impression", metadata: ["screen": "\(screen)", "log_id": "\(logId)"])
        case .disappearance(let screen, let logId):
            logger.debug("disappearance", metadata: ["screen": "\(screen)", "log_id": "\(logId)"])
        case .actionPerformed(let action):
            logger.debug(
                "action performed",
                metadata: [
                    "screen": "\(action.screen)", "action": "\(action.action)", "type": "\(action.type)",
                    "outcome": "\(action.outcome)",
                ])
        case .error(let error):
            var metadata: Logger.Metadata = ["kind": "\(error.kind.rawValue)"]
            if let screen = error.screen { metadata["screen"] = "\(screen)" }
            if let path = error.path { metadata["path"] = "\(path)" }
            logger.log(level: error.kind == .load ? .error : .warning, "\(error.message)", metadata: metadata)
        }
    }
}

/// Records every event as swift-metrics: timers `dynamicui.screen.decode`,
/// `dynamicui.screen.compile`, `dynamicui.screen.render` and counters `dynamicui.screens`,
/// `dynamicui.impressions`, `dynamicui.disappearances`, `dynamicui.actions` and `dynamicui.errors`, with `screen`, `source`,
/// `outcome` and `kind` dimensions. The metrics go to `factory` (the app's `MetricsSystem` by default).
public struct MetricsObserver: DynamicUIObserver {
    private let factory: any MetricsFactory

    /// An observer recording into `factory`.
    public init(factory: any MetricsFactory = MetricsSystem.factory) { self.factory = factory }

    /// Records `event`.
    public func observe(_ event: DynamicUIEvent) {
        switch event {
        case .screenLoaded(let load):
            let dimensions = [("screen", load.screen), ("source", load.source)]
            Counter(label: "dynamicui.screens", dimensions: dimensions, factory: factory).increment()
            Timer(label: "dynamicui.screen.decode", dimensions: dimensions, factory: factory)
                .recordNanoseconds(WireNumber.int(load.decodeSeconds * 1e9))
            Timer(label: "dynamicui.screen.compile", dimensions: dimensions, factory: factory)
                .recordNanoseconds(WireNumber.int(load.compileSeconds * 1e9))
        case .screenRendered(let screen, let seconds, _):
            Timer(label: "dynamicui.screen.render", dimensions: [("screen", screen)], factory: factory)
                .recordNanoseconds(WireNumber.int(seconds * 1e9))
        case .impression(let screen, let logId):
            Counter(label: "dynamicui.impressions", dimensions: [("screen", screen), ("log_id", logId)], factory: factory)
                .increment()
        case .disappearance(let screen, let logId):
            Counter(label: "dynamicui.disappearances", dimensions: [("screen", screen), ("log_id", logId)], factory: factory)
                .increment()
        case .actionPerformed(let action):
            Counter(
                label: "dynamicui.actions", dimensions: [("screen", action.screen), ("outcome", action.outcome)],
                factory: factory
            ).increment()
        case .error(let error):
            Counter(
                label: "dynamicui.errors", dimensions: [("kind", error.kind.rawValue), ("screen", error.screen ?? "")],
                factory: factory
            ).increment()
        }
    }
}

/// The observers of a runtime, each told every event in turn.
public struct DynamicUIObservers: Sendable {
    /// The observers.
    public let observers: [any DynamicUIObserver]

    /// A set of observers.
    public init(_ observers: [any DynamicUIObserver]) { self.observers = observers }

    /// No observers.
    public static let none = DynamicUIObservers([])

    /// Tells every observer.
    public func emit(_ event: DynamicUIEvent) {
        for observer in observers { observer.observe(event) }
    }

    /// Reports how a document was fitted to the app's capabilities.
    func emit(_ events: [RequirementEvent], screen: String) {
        for event in events {
            let kind: ErrorEvent.Kind = event.outcome == .fallbackUsed ? .fallbackUsed : .elementDropped
            emit(.error(ErrorEvent(kind, screen: screen, path: event.location.description, message: event.description)))
        }
    }
}

extension ActionResult {
    /// The result's kind, for events (`success`, `error`, `navigate`, …).
    var outcome: String {
        switch self {
        case .navigateTo: "navigate"
        case .navigateBack: "back"
        case .success: "success"
        case .error: "error"
        case .fieldErrors: "field errors"
        case .pendingOffline: "queued"
        case .logout: "logout"
        case .signedIn: "signed in"
        case .cancelled: "cancelled"
        case .refresh: "refresh"
        case .confirm: "confirm"
        case .openURL: "open URL"
        case .present: "present"
        case .dismiss: "dismiss"
        case .stateChanged: "state changed"
        case .patch: "patch"
        case .setVariable: "variable set"
        case .timer: "timer"
        case .sequence(let steps): steps.last?.outcome ?? "nothing"
        }
    }
}

extension ContinuousClock.Instant {
    /// Seconds from this instant to now, for the timings events report.
    var secondsElapsed: Double {
        let elapsed = ContinuousClock.now - self
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
