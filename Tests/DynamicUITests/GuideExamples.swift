// The code of the DynamicUI guide Observability.md (Modules/DynamicUI/DynamicUI.docc), compiled
// here and run by GuideObservabilityTests.swift: each region between snippet lines is one of the
// guide's code blocks, imports included (GuideSnippetTests checks them).

// snippet: observer
import DynamicUI
import DynamicUINetwork  // ConflictStrategy (.merge)
import Foundation
import Logging

/// Sends what the SDK reports to the app's own analytics and crash reporting.
struct AnalyticsObserver: DynamicUIObserver {
    let report: @Sendable (String) -> Void

    func observe(_ event: DynamicUIEvent) {
        switch event {
        case .screenLoaded(let load):
            report("load \(load.screen) from \(load.source): \(load.bytes) bytes")
        case .screenRendered(let screen, let seconds, let nodes):
            report("render \(screen): \(nodes) nodes in \(seconds) s")
        case .impression(let screen, let logId):
            report("seen \(logId) on \(screen)")
        case .disappearance(let screen, let logId):
            report("gone \(logId) on \(screen)")
        case .actionPerformed(let action):
            report("\(action.type) \(action.action) on \(action.screen): \(action.outcome)")
        case .error(let error):
            report("\(error.kind.rawValue) on \(error.screen ?? "-") at \(error.path ?? "-"): \(error.message)")
        }
    }
}
// snippet: end

// snippet: configuration
/// The configuration of an app that keeps the SDK's logs and metrics, adds its analytics, and
/// merges its offline edits with the server's on a conflict.
func guideConfiguration(report: @escaping @Sendable (String) -> Void) -> DynamicUIConfiguration {
    DynamicUIConfiguration(
        adminBaseURL: URL(string: "https://admin.edugo.app/api")!,
        mobileBaseURL: URL(string: "https://mobile.edugo.app/api")!,
        conflictStrategy: .merge,
        logger: Logger(label: "app.edugo.sdk"),
        observers: [
            LoggingObserver(logger: Logger(label: "app.edugo.events")), MetricsObserver(), AnalyticsObserver(report: report),
        ])
}
// snippet: end

/// The lines an `AnalyticsObserver` reported, in order.
final class GuideLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// Keeps one line.
    @Sendable func append(_ line: String) { lock.withLock { lines.append(line) } }

    /// Every line kept.
    var all: [String] { lock.withLock { lines } }
}
