import DynamicUI
import DynamicUIActions
import DynamicUIDemoBackend
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Logging
import Metrics
import MetricsTestKit
import Testing

@Suite("Observability and the capability contract, end to end against the demo backend", .serialized)
@MainActor
struct ObservabilityTests {
    @Test func everyHookFiresWithItsPayload() async throws {
        let recorder = RecordingObserver()
        let runtime = try await Live(
            observers: [recorder], components: try NativeComponentRegistry([MediaPlayerComponent()]))

        // A failed sign-in: the action and its failure; then a good one.
        let login = await runtime.loaded("app-login")
        login.formState.setValue("docente@edugo.test", for: "email")
        login.formState.setValue("wrong", for: "password")
        await login.perform(actionId: "submit-login")
        #expect(recorder.actions.last?.screen == "app-login")
        #expect(recorder.actions.last?.action == "submit-login")
        #expect(recorder.actions.last?.type == "SUBMIT_FORM")
        #expect(
            recorder.errors.contains { $0.kind == .actionFailed && $0.screen == "app-login" && $0.path == "actions.submit-login" }
        )
        try await runtime.signIn("docente@edugo.test")
        #expect(recorder.actions.last?.outcome == "signed in")

        // Loading: from the network the first time, with bytes and timings.
        let load = try #require(recorder.loads.first { $0.screen == "app-login" })
        #expect(load.source == "network" && load.bytes > 500 && load.decodeSeconds > 0 && load.compileSeconds > 0)
        #expect(runtime.backend.log.contains { $0.hasPrefix("GET mobile:/v1/screens/app-login") })

        // A video material: the native player (its requirement met), its log ids, impressions once each.
        let detail = await runtime.loaded("material-detail", params: ["id": "mat-020"])
        let tree = try detail.render(options: RenderOptions())
        #expect(recorder.renders.last?.0 == "material-detail" && (recorder.renders.last?.1 ?? 0) > 10)
        let player = try #require(nodes(tree).first { $0.logId == "material_video_player" })
        guard case .custom(let custom) = player.kind else {
            Issue.record("the player is \(player.kind)")
            return
        }
        #expect(custom.type == "media-player" && custom.props["value"]?.stringValue?.hasSuffix(".mp4") == true)
        #expect(nodes(tree).contains { $0.logId == "material_hero" })
        detail.recordImpression("material_video_player")
        detail.recordImpression("material_video_player")
        detail.recordImpression("material_hero")
        #expect(recorder.impressions.map(\.1) == ["material_video_player", "material_hero"])
        #expect(recorder.impressions.allSatisfy { $0.0 == "material-detail" })
        #expect(!recorder.errors.contains { $0.kind == .fallbackUsed })

        // Offline for 25 hours: the queued change is dropped, and reported.
        await runtime.model("material-create").load()
        await runtime.backend.stop()
        await runtime.connectivity.set(connected: false)
        let create = runtime.model("material-create")
        for (field, value) in [
            "title": "Expira", "subject": "Historia", "grade": "6", "file_url": "https://edugo.test/e.pdf", "file_type": "PDF",
            "unit_id": "unt-001", "status": "borrador",
        ] {
            create.formState.setValue(value, for: field)
        }
        await create.load()
        await create.perform(actionId: "submit")
        #expect(try runtime.queue.count() == 1, "\(String(describing: create.banner))")
        runtime.clock.advance(by: 25 * 3600)
        try await runtime.backend.restart()
        await runtime.connectivity.set(connected: true)
        #expect(await eventually { recorder.errors.contains { $0.kind == .queueDropped } })
        #expect(recorder.errors.first { $0.kind == .queueDropped }?.message.contains("POST") == true)
        await runtime.stop()
    }

    @Test func anAppWithoutTheComponentDrawsTheFallbackAndSaysSo() async throws {
        let recorder = RecordingObserver()
        let runtime = try await Live(observers: [recorder])
        try await runtime.signIn("docente@edugo.test")
        let detail = await runtime.loaded("material-detail", params: ["id": "mat-020"])
        let text = TextRenderer().render(try detail.render(options: RenderOptions()))
        #expect(text.contains("Ábrelo con Descargar"))
        #expect(!text.contains("custom media-player"))
        let fallback = try #require(recorder.errors.first { $0.kind == .fallbackUsed })
        #expect(fallback.screen == "material-detail")
        #expect(fallback.path?.hasSuffix(".slots[0]") == true && fallback.message.contains("component:media-player"))
        await runtime.stop()
    }

    @Test func theBackendFitsScreensForAppsThatCannotFitThemselves() async throws {
        let backend = try DemoBackend()
        try await backend.start()
        // Screens are served to a signed-in account: a teacher opens material details.
        let login = try await URLSessionTransport().send(
            TransportRequest(
                method: .post, url: backend.mobileURL.appendingPathComponent("v1/auth/login"),
                headers: ["Content-Type": "application/json"],
                body: Data(#"{"email": "docente@edugo.test", "password": "edugo123"}"#.utf8)))
        let token = try #require(try JSONReader().read(login.body)["access_token"]?.stringValue)
        func screen(_ capabilities: String) async throws -> String {
            let request = TransportRequest(
                method: .get, url: backend.mobileURL.appendingPathComponent("v1/screens/material-detail"),
                headers: ["DynamicUI-Capabilities": capabilities, "Authorization": "Bearer \(token)"])
            return String(decoding: try await URLSessionTransport().send(request).body, as: UTF8.self)
        }
        // Schema 1 ignores requires/fallback: the backend sends the fallback in place.
        let old = try await screen("schema=1; sdk=0.1.0; platform=ios; hash=0")
        #expect(old.contains("video_hint") && !old.contains("\"media-player\""))
        // An old app that registers the component gets the player.
        let oldWithPlayer = try await screen("schema=1; sdk=0.1.0; platform=ios; components=media-player; hash=0")
        #expect(oldWithPlayer.contains("\"media-player\""))
        // Schema 2 fits screens itself: the backend sends them as written.
        let current = try await screen("schema=2; sdk=0.3.0; platform=ios; hash=0")
        #expect(current.contains("\"media-player\"") && current.contains("video_hint"))
        await backend.stop()
    }
}

@Suite("The default observers: swift-log and swift-metrics")
struct DefaultObserverTests {
    static let events: [DynamicUIEvent] = [
        .screenLoaded(
            ScreenLoadEvent(screen: "home", source: "network", bytes: 4096, decodeSeconds: 0.002, compileSeconds: 0.001)),
        .screenRendered(screen: "home", seconds: 0.003, nodes: 40),
        .impression(screen: "home", logId: "hero"),
        .actionPerformed(ActionEvent(screen: "home", action: "save", type: "SUBMIT_FORM", outcome: "success")),
        .error(ErrorEvent(.fallbackUsed, screen: "home", path: "template.zones[0]", message: "zone:carousel")),
        .error(ErrorEvent(.compile, screen: "home", path: "template.zones[1].condition", message: "syntax error")),
    ]

    @Test func metricsAreRecordedWithTheirDimensions() throws {
        let metrics = TestMetrics()
        let observer = MetricsObserver(factory: metrics)
        for event in Self.events { observer.observe(event) }
        #expect(try metrics.expectCounter("dynamicui.screens", [("screen", "home"), ("source", "network")]).totalValue == 1)
        #expect(
            try metrics.expectTimer("dynamicui.screen.decode", [("screen", "home"), ("source", "network")]).lastValue == 2_000_000
        )
        #expect(try metrics.expectTimer("dynamicui.screen.render", [("screen", "home")]).lastValue == 3_000_000)
        #expect(try metrics.expectCounter("dynamicui.impressions", [("screen", "home"), ("log_id", "hero")]).totalValue == 1)
        #expect(try metrics.expectCounter("dynamicui.actions", [("screen", "home"), ("outcome", "success")]).totalValue == 1)
        #expect(metrics.counterTotal(label: "dynamicui.errors") == 2)
        #expect(try metrics.expectCounter("dynamicui.errors", [("kind", "compile"), ("screen", "home")]).totalValue == 1)
    }

    @Test func logLinesCarryTheFields() {
        let capture = LineCapture()
        var logger = Logger(label: "events") { _ in capture }
        logger.logLevel = .trace
        let observer = LoggingObserver(logger: logger)
        for event in Self.events { observer.observe(event) }
        let lines = capture.lines
        #expect(lines.count == Self.events.count)
        #expect(
            lines.contains {
                $0.level == .warning && $0.message == "syntax error" && $0.metadata["path"] == "template.zones[1].condition"
            })
        #expect(
            lines.contains { $0.message == "screen loaded" && $0.metadata["bytes"] == "4096" && $0.metadata["decode_ms"] == "2" })
        #expect(lines.contains { $0.message == "impression" && $0.metadata["log_id"] == "hero" })
    }
}

/// A log handler that keeps every line.
final class LineCapture: LogHandler, @unchecked Sendable {
    struct Line {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let lock = NSLock()
    private var kept: [Line] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [Line] { lock.withLock { kept } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).mapValues { "\($0)" }
        lock.withLock { kept.append(Line(level: event.level, message: "\(event.message)", metadata: fields)) }
    }
}
