import DynamicUI
import DynamicUIActions
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINavigationPlugin
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// A transport whose connection a test switches off, as the web preview's "Conexión" switch
/// does: off, every request fails as a lost connection would.
final class WalkSwitchTransport: HTTPTransport, @unchecked Sendable {
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var online = true
    /// Requests whose path ends so, and how many of them still fail as a lost connection.
    private var drops: [String: Int] = [:]
    /// How many requests were dropped so.
    private(set) var dropped = 0

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var isOnline: Bool { lock.withLock { online } }

    func set(online: Bool) { lock.withLock { self.online = online } }

    /// The next `count` requests whose path ends with `suffix` fail as a lost connection (the
    /// connection drops again at once, as a flapping Wi-Fi does).
    func drop(_ count: Int, endingWith suffix: String) { lock.withLock { drops[suffix] = count } }

    var droppedCount: Int { lock.withLock { dropped } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard isOnline else { throw TransportError(.noConnection) }
        let drop = lock.withLock {
            guard let suffix = drops.first(where: { request.url.path.hasSuffix($0.key) && $0.value > 0 })?.key else {
                return false
            }
            drops[suffix, default: 0] -= 1
            dropped += 1
            return true
        }
        if drop { throw TransportError(.noConnection) }
        return try await inner.send(request)
    }
}

/// The EduGo app built as the web preview builds it (a switchable connection, a hand-set
/// connectivity monitor) over the demo backend on 127.0.0.1, driven as SwiftUI drives it.
@MainActor
final class WalkApp {
    let backend: DemoBackend
    let runtime: DynamicUIRuntime
    let transport = WalkSwitchTransport(URLSessionTransport())
    let connectivity = ManualConnectivityMonitor()
    let clock = ManualClock(start: Date())
    let driver: AppDriver<DynamicUIRuntime>

    init(backend existing: DemoBackend? = nil, observers: [any DynamicUIObserver]? = nil) async throws {
        if let existing {
            backend = existing
        } else {
            backend = try DemoBackend()
            try await backend.start()
        }
        runtime = try DynamicUIRuntime(
            configuration: DynamicUIConfiguration(
                adminBaseURL: backend.adminURL, mobileBaseURL: backend.mobileURL, allowInsecureLoopback: true, timeout: 5,
                retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: 0, jitter: 0),
                security: URLSecurityPolicy(hosts: ["edugo.test"]), locale: Locale(identifier: "es_ES"),
                fallbackNavigation: EduGoCatalog.fallbackNavigation, clock: clock, observers: observers),
            plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin()], tokens: InMemoryTokenStore(),
            settings: InMemorySettingsStore(), queueStore: try OfflineQueueStore(), transport: transport,
            connectivity: connectivity)
        driver = AppDriver(runtime, clock: clock)
        await driver.launch()
    }

    /// Signs in through the login screen.
    func signIn(_ email: String) async {
        driver.enter(email, in: "email")
        driver.enter("edugo123", in: "password")
        driver.tap("submit-login")
        await driver.settle()
    }

    /// Switches the connection, as the preview's switch does (the transport, then the monitor).
    func set(online: Bool) async {
        transport.set(online: online)
        await connectivity.set(connected: online)
    }

    /// Opens `key` with `params` on the selected tab.
    func open(_ key: String, _ params: [String: String] = [:]) async {
        runtime.navigation.push(Route(screenKey: key, params: params))
        driver.redraw()
        await driver.settle()
    }

    /// How many requests the backend saw that `line` names (`POST mobile:/v1/…`).
    func requests(_ line: String) -> Int { backend.log.filter { $0 == line }.count }

    /// How many attempts the signed-in student has on the server (asked for anew).
    func attemptCount() async throws -> Int {
        var request = APIRequest(.get, "/v1/users/me/attempts")
        request.bypassCache = true
        let json = try await runtime.client.send(request).json()
        if let total = json["total"]?.intValue { return total }
        return json.arrayValue?.count ?? json["data"]?.arrayValue?.count ?? -1
    }

    func stop() async {
        await driver.settle()
        await runtime.stop()
        await backend.stop()
    }
}

/// What the walk of the reference app found in the SDK: offline changes, conflicts, the
/// version token, the countdown, cancelled confirmations and timers of screens left.
@Suite("Walk fixes: the SDK over the demo backend", .serialized)
@MainActor
struct WalkFixesTests {
    static let attempts = "POST mobile:/v1/materials/mat-002/assessment/attempts"
    static let answers = ["q1": "c", "q2": "b", "q3": "b", "q4": "c", "q5": "a"]

    /// The student's answers entered on the assessment shown on top.
    func answer(_ app: WalkApp) {
        for (question, value) in Self.answers.sorted(by: { $0.key < $1.key }) { app.driver.enter(value, in: question) }
    }

    @Test func anOfflineSubmitIsSentOnceWhenTheConnectionReturnsWithoutSigningInAgain() async throws {
        let app = try await WalkApp()
        await app.signIn("estudiante@edugo.test")
        #expect(app.runtime.isSignedIn)
        await app.open("assessment-take", ["id": "mat-002"])
        #expect(app.driver.topScreenKey == "assessment-take")
        answer(app)
        await app.set(online: false)
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.runtime.pendingChanges == 1, "the submit waits in the queue")
        #expect(app.requests(Self.attempts) == 0)
        // The connection returns, and drops once more just as the queue replays (its retry is
        // then scheduled); nobody signs in again, nothing else is tapped.
        app.transport.drop(1, endingWith: "/attempts")
        await app.set(online: true)
        #expect(await eventually { app.transport.droppedCount == 1 }, "the replay began when the connection returned")
        #expect(app.requests(Self.attempts) == 0)
        // Time passes until the retry is due.
        for _ in 0..<12 where app.requests(Self.attempts) == 0 {
            await app.driver.wait(seconds: 5)
            for _ in 0..<50 where app.requests(Self.attempts) == 0 { try? await Task.sleep(nanoseconds: 10_000_000) }
        }
        let sent = await eventually { app.runtime.pendingChanges == 0 && app.requests(Self.attempts) == 1 }
        #expect(sent, "the queued submit is delivered while the connection is up")
        #expect(app.requests(Self.attempts) == 1, "sent once")
        await app.stop()
    }

    @Test func anOfflineEditTheServerRefusesWhenItArrivesSaysSo() async throws {
        let app = try await WalkApp()
        await app.signIn("docente@edugo.test")
        await app.open("material-edit", ["id": "mat-092"])
        #expect(app.driver.topScreenKey == "material-edit")
        app.driver.enter("Editado sin conexión", in: "title")
        await app.set(online: false)
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.runtime.pendingChanges == 1, "the edit waits in the queue")
        // Meanwhile the record is saved from another device: the queued edit is now stale.
        app.transport.set(online: true)
        var elsewhere = APIRequest(.put, "/v1/materials/mat-092")
        elsewhere.body = ["description": "Cambiado en otro dispositivo"]
        elsewhere.queueWhenOffline = false
        _ = try await app.runtime.client.send(elsewhere)
        await app.set(online: true)
        #expect(await eventually { app.runtime.pendingChanges == 0 })
        await app.driver.settle()
        _ = await eventually { app.driver.banner?.kind == .error }
        let banner = app.driver.banner
        #expect(banner?.kind == .error, "\(String(describing: banner))")
        #expect(banner?.message.contains("no se aplicó") == true, "the person is told: \(String(describing: banner))")
        var check = APIRequest(.get, "/v1/materials/mat-092")
        check.bypassCache = true
        #expect(try await app.runtime.client.send(check).json()["title"]?.stringValue != "Editado sin conexión")
        await app.stop()
    }

    @Test func aDetailShownWhenAnOfflineEditArrivesShowsTheEdit() async throws {
        let app = try await WalkApp()
        await app.signIn("docente@edugo.test")
        await app.open("material-detail", ["id": "mat-092"])
        await app.open("material-edit", ["id": "mat-092"])
        app.driver.enter("Entregado al volver", in: "title")
        await app.set(online: false)
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.runtime.pendingChanges == 1)
        #expect(app.driver.topScreenKey == "material-detail")
        await app.set(online: true)
        #expect(await eventually { app.runtime.pendingChanges == 0 })
        await app.driver.settle()
        let shown = await eventually {
            app.driver.redraw()
            return (try? self.text(app))?.contains("Entregado al volver") == true
        }
        #expect(shown, "the detail below reloads once the edit reached the server: \((try? text(app))?.prefix(300) ?? "")")
        await app.stop()
    }

    @Test func twoSubmitsOfTheSameAnswersOfflineAreOneChangeAndOneAttempt() async throws {
        let app = try await WalkApp()
        await app.signIn("estudiante@edugo.test")
        await app.open("assessment-take", ["id": "mat-002"])
        answer(app)
        let before = try await app.attemptCount()
        await app.set(online: false)
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.driver.banner?.kind == .pending, "the form says the change waits")
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.runtime.pendingChanges == 1, "the second tap is the same change")
        await app.set(online: true)
        #expect(await eventually { app.runtime.pendingChanges == 0 && app.requests(Self.attempts) == 1 })
        await app.runtime.syncNow()
        #expect(app.requests(Self.attempts) == 1, "sent once")
        #expect(try await app.attemptCount() == before + 1, "one attempt recorded")
        await app.stop()
    }

    /// The text of the screen on top.
    func text(_ app: WalkApp) throws -> String {
        guard case .success(let root)? = app.driver.top?.tree else { return "" }
        return TextRenderer().render(root)
    }

    @Test func aConflictingSaveKeepsTheFormAndItsEditsSaysSoAndReloadBringsTheServersValues() async throws {
        let first = try await WalkApp()
        let second = try await WalkApp(backend: first.backend)
        for app in [first, second] {
            await app.signIn("docente@edugo.test")
            await app.open("material-edit", ["id": "mat-092"])
            #expect(app.driver.topScreenKey == "material-edit")
        }
        // The first session saves a new title.
        first.driver.enter("Título guardado en otra pestaña", in: "title")
        first.driver.tap("submit")
        await first.driver.settle()
        #expect(first.driver.topScreenKey != "material-edit", "the first save succeeded and closed its form")
        // The second, opened before that save, changes the description and saves.
        second.driver.enter("Mi descripción nueva", in: "description")
        let edited = try #require(second.driver.top).formState.fieldValues
        second.driver.tap("submit")
        await second.driver.settle()
        let form = try #require(second.driver.top)
        #expect(second.driver.topScreenKey == "material-edit", "the form stays")
        #expect(form.formState.fieldValues == edited, "the edits stay as typed")
        let alert = try #require(second.driver.confirmation, "the conflict is said, with a reload offered")
        #expect(alert.message?.hasPrefix("Otro usuario modificó estos datos") == true)
        #expect(alert.confirmLabel == "Volver a cargar")
        #expect(second.driver.banner?.message.hasPrefix("Otro usuario modificó estos datos") == true)
        // Reload: the form shows the record as the server has it now.
        second.driver.confirm()
        await second.driver.settle()
        #expect(second.driver.confirmation == nil)
        #expect(form.formState.value(for: "title") == "Título guardado en otra pestaña")
        #expect(form.formState.value(for: "description") != "Mi descripción nueva")
        // Saved again over the current version, the change goes through.
        second.driver.enter("Mi descripción nueva", in: "description")
        second.driver.tap("submit")
        await second.driver.settle()
        #expect(second.driver.topScreenKey != "material-edit", "saved over the current version")
        await first.driver.settle()
        await second.runtime.stop()
        await first.stop()
    }

    @Test func keepEditingAfterAConflictKeepsTheEditsAndTheNextSaveReplacesTheServersRecord() async throws {
        let first = try await WalkApp()
        let second = try await WalkApp(backend: first.backend)
        for app in [first, second] {
            await app.signIn("docente@edugo.test")
            await app.open("material-edit", ["id": "mat-092"])
        }
        first.driver.enter("Título guardado en otra pestaña", in: "title")
        first.driver.tap("submit")
        await first.driver.settle()
        #expect(first.driver.topScreenKey != "material-edit")
        // The second session's save, over the version it loaded, is refused.
        second.driver.enter("Mi título, que gana", in: "title")
        let edited = try #require(second.driver.top).formState.fieldValues
        second.driver.tap("submit")
        await second.driver.settle()
        let form = try #require(second.driver.top)
        #expect(second.driver.confirmation?.cancelLabel == "Seguir editando")
        // Seguir editando: the dialog closes, the edits stay, and saving again goes through.
        second.driver.cancelConfirmation()
        await second.driver.settle()
        #expect(second.driver.confirmation == nil)
        #expect(second.driver.top === form && form.formState.fieldValues == edited, "the edits stay as typed")
        second.driver.tap("submit")
        await second.driver.settle()
        #expect(second.driver.confirmation == nil, "saved again, it conflicted again")
        #expect(second.driver.topScreenKey != "material-edit", "the save closed the form")
        var check = APIRequest(.get, "/v1/materials/mat-092")
        check.bypassCache = true
        #expect(try await second.runtime.client.send(check).json()["title"]?.stringValue == "Mi título, que gana")
        await first.driver.settle()
        await second.runtime.stop()
        await first.stop()
    }

    @Test(arguments: [JSONValue.string(""), .array([]), .number(JSONNumber(1e300)), .null])
    func aConflictWhoseRecordHasNoUsableVersionKeepsTheLoadedOne(version: JSONValue) {
        let result = ActionServices.conflictResult(DynamicUIStrings(language: .spanish), serverRecord: ["version": version])
        guard case .sequence(let steps) = result, case .confirm(let request)? = steps.first else {
            Issue.record("no confirmation: \(result)")
            return
        }
        #expect(request.recordOnDecline == nil)
        let kept = ActionServices.conflictResult(DynamicUIStrings(language: .spanish), serverRecord: ["version": 7])
        guard case .sequence(let others) = kept, case .confirm(let offered)? = others.first else { return }
        #expect(offered.recordOnDecline?["version"]?.intValue == 7)
    }

    @Test(arguments: [
        ("docente@edugo.test", "material-edit", "mat-092"), ("superadmin@edugo.test", "school-edit", "sch-001"),
        ("superadmin@edugo.test", "unit-edit", "unt-001"), ("superadmin@edugo.test", "user-edit", "usr-021"),
    ])
    func anEditFormHasNoVersionFieldAndItsSaveCarriesTheLoadedVersion(
        email: String, screen: String, id: String
    )
        async throws
    {
        let app = try await WalkApp()
        await app.signIn(email)
        await app.open(screen, ["id": id])
        let form = try #require(app.driver.top)
        #expect(form.hasData)
        #expect(form.formState.fieldValues["version"] == nil, "the version is no form field")
        #expect(!(try text(app)).contains("Versión del registro"))
        // Someone else saves the record meanwhile (its version moves on) …
        let record = try #require(form.data.objectValue)
        let endpoint = Endpoint(try #require(form.compiled?.definition.dataEndpoint))
        var bump = APIRequest(
            .put, endpoint, pathParameters: ["id": id], body: .object(["version": record["version"] ?? .null]))
        bump.queueWhenOffline = false
        _ = try await app.runtime.client.send(bump)
        // … so the form's save, carrying the version it loaded, is refused as a conflict.
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.driver.confirmation?.message?.hasPrefix("Otro usuario modificó estos datos") == true)
        await app.stop()
    }

    /// The countdown's remaining milliseconds on the screen on top.
    func remaining(_ app: WalkApp) -> Int? { app.driver.top?.variables["remaining"]?.intValue }

    @Test func theCountdownKeepsTheAttemptsDeadlineAcrossAReloadAndARefusedSubmit() async throws {
        let app = try await WalkApp()
        await app.signIn("estudiante@edugo.test")
        await app.open("assessment-take", ["id": "mat-002"])
        let started = try #require(remaining(app))
        // The backend fixed the deadline 15 minutes after its own now; the device's clock read
        // a moment earlier (it stands still in the test).
        #expect(abs(started - 15 * 60_000) < 5_000, "\(started)")
        // Two minutes pass on the device.
        await app.driver.wait(seconds: 120)
        let later = try #require(remaining(app))
        #expect(abs(later - (started - 120_000)) < 2_000, "\(later)")
        // A refused submit (questions left unanswered) keeps counting where it was.
        app.driver.enter("c", in: "q1")
        app.driver.tap("submit")
        await app.driver.settle()
        #expect(app.driver.banner?.kind == .error)
        #expect(abs((remaining(app) ?? 0) - later) < 2_000, "the refused submit restarted it: \(remaining(app) ?? -1)")
        // Left and opened again: the attempt's deadline, not a fresh 15 minutes.
        #expect(app.driver.back())
        await app.driver.settle()
        await app.open("assessment-take", ["id": "mat-002"])
        let reopened = try #require(remaining(app))
        #expect(abs(reopened - later) < 2_000, "the reload restarted it: \(reopened) after \(later)")
        await app.stop()
    }

    @Test func keepAnsweringOnTheLeaveConfirmationKeepsTheAnswersTheDataAndTheScreen() async throws {
        let app = try await WalkApp()
        await app.signIn("estudiante@edugo.test")
        await app.open("assessment-take", ["id": "mat-002"])
        answer(app)
        let form = try #require(app.driver.top)
        let answers = form.formState.fieldValues
        let data = form.data
        let stack = app.runtime.navigation.stack
        app.driver.tap("cancel")
        await app.driver.settle()
        let alert = try #require(app.driver.confirmation)
        #expect(alert.cancelLabel == "Seguir respondiendo")
        app.driver.cancelConfirmation()
        await app.driver.settle()
        #expect(app.driver.confirmation == nil, "the dialog closed")
        #expect(app.driver.top === form && app.driver.topScreenKey == "assessment-take", "the same screen, not reloaded")
        #expect(form.formState.fieldValues == answers, "the answers stay")
        #expect(form.data == data && form.failure == nil, "the data stays")
        #expect(app.runtime.navigation.stack == stack)
        #expect(app.requests(Self.attempts) == 0, "nothing was sent")
        await app.stop()
    }

    @Test func cancelOnADeleteConfirmationChangesNothing() async throws {
        let app = try await WalkApp()
        await app.signIn("docente@edugo.test")
        await app.open("material-detail", ["id": "mat-092"])
        let detail = try #require(app.driver.top)
        let data = detail.data
        #expect(data["id"]?.stringValue == "mat-092")
        app.driver.tap("delete")
        await app.driver.settle()
        #expect(app.driver.confirmation?.destructive == true)
        app.driver.cancelConfirmation()
        await app.driver.settle()
        #expect(app.driver.confirmation == nil)
        #expect(app.driver.top === detail && detail.data == data && detail.failure == nil, "the record is still shown")
        #expect(app.backend.log.filter { $0.hasPrefix("DELETE") }.isEmpty, "nothing was deleted")
        await app.stop()
    }

    @Test(arguments: [
        ("admin.escuela@edugo.test", "user-edit", "usr-021", "first_name"),
        ("docente@edugo.test", "material-edit", "mat-092", "title"),
    ])
    func cancelOnAFormWithEditsAsksBeforeDiscardingThem(email: String, screen: String, id: String, field: String) async throws {
        let app = try await WalkApp()
        await app.signIn(email)
        await app.open(screen, ["id": id])
        let form = try #require(app.driver.top)
        #expect(app.driver.topScreenKey == screen)
        // Untouched, Cancel closes the form at once.
        app.driver.tap("cancel")
        await app.driver.settle()
        #expect(app.driver.confirmation == nil && app.driver.topScreenKey != screen, "an untouched form asked")
        // Edited, Cancel asks first.
        await app.open(screen, ["id": id])
        let edited = try #require(app.driver.top)
        #expect(edited !== form)
        app.driver.enter("Cambiado", in: field)
        let values = edited.formState.fieldValues
        app.driver.tap("cancel")
        await app.driver.settle()
        let ask = try #require(app.driver.confirmation, "Cancel on an edited form discarded the edits without asking")
        #expect(ask.title == "¿Descartar los cambios?" && ask.destructive)
        #expect(ask.confirmLabel == "Descartar cambios" && ask.cancelLabel == "Seguir editando")
        // Seguir editando: the form and its edits stay.
        app.driver.cancelConfirmation()
        await app.driver.settle()
        #expect(app.driver.top === edited && edited.formState.fieldValues == values)
        // Descartar cambios: the form closes, nothing is sent.
        app.driver.tap("cancel")
        await app.driver.settle()
        app.driver.confirm()
        await app.driver.settle()
        #expect(app.driver.topScreenKey != screen, "discarding closed the form")
        #expect(app.backend.log.filter { $0.hasPrefix("PUT") || $0.hasPrefix("PATCH") }.isEmpty, "nothing was saved")
        await app.stop()
    }

    @Test func anAssessmentLeftForOtherScreensStopsTicking() async throws {
        let renders = RenderCounter()
        let app = try await WalkApp(observers: [renders])
        await app.signIn("estudiante@edugo.test")
        await app.open("assessment-take", ["id": "mat-002"])
        let assessment = try #require(app.driver.top)
        await app.driver.wait(seconds: 3)
        #expect(renders.count(of: "assessment-take") > 0, "it ticks while shown")
        // The student goes to another tab: the assessment stays on its tab's stack, not shown.
        let other = try #require(app.runtime.navigation.items(regular: false).map(\.screenKey).last)
        app.driver.select(tab: other)
        await app.driver.settle()
        let left = try #require(assessment.variables["remaining"]?.intValue)
        let before = renders.count(of: "assessment-take")
        for _ in 0..<5 { await app.driver.wait(seconds: 1) }
        #expect(renders.count(of: "assessment-take") == before, "no render of a screen not shown")
        #expect(assessment.variables["remaining"]?.intValue == left, "no tick of a screen not shown")
        await app.stop()
    }

    @Test func aScreenTheNavigationNoLongerDrawsStopsTickingWhateverDrawsIt() async throws {
        // A host that never says a page disappeared (as the web preview's pages): the
        // navigation moving on is enough.
        let app = try await WalkApp()
        await app.signIn("estudiante@edugo.test")
        let route = Route(screenKey: "assessment-take", params: ["id": "mat-002"])
        app.runtime.navigation.push(route)
        let page = app.runtime.viewModel(for: route)
        await page.load()
        #expect(await app.clock.waitForSleepers(1, timeout: 5))
        app.clock.advance(by: 1)
        #expect(await eventually { (page.variables["remaining"]?.intValue ?? 0) < (15 * 60_000) - 500 })
        app.runtime.navigation.popToRoot()
        await app.driver.settle()
        let left = page.variables["remaining"]?.intValue
        app.clock.advance(by: 5)
        for _ in 0..<50 { await Task.yield() }
        #expect(page.variables["remaining"]?.intValue == left, "the page left keeps no timer running")
        await app.stop()
    }
}

/// Counts the renders of each screen.
final class RenderCounter: DynamicUIObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func observe(_ event: DynamicUIEvent) {
        if case .screenRendered(let screen, _, _) = event { lock.withLock { counts[screen, default: 0] += 1 } }
    }

    func count(of screen: String) -> Int { lock.withLock { counts[screen] ?? 0 } }
}
