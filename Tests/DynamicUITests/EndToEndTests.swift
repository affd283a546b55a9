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
import Foundation
import Testing

/// The runtime's pieces wired as a host would, against the demo backend on 127.0.0.1.
@MainActor
final class Runtime {
    let backend: DemoBackend
    let client: APIClient
    let tokens = InMemoryTokenStore()
    let queue: OfflineQueueStore
    let clock = ManualClock(start: Date())
    let screens: ScreenLoader
    let data: DataLoader
    let dispatcher: ActionDispatcher
    let navigation = NavigationModel(role: "student")
    var session: SessionInfo?

    init() async throws {
        backend = try DemoBackend()
        try await backend.start()
        queue = try OfflineQueueStore()
        client = APIClient(
            configuration: APIConfiguration(
                adminBaseURL: backend.adminURL, mobileBaseURL: backend.mobileURL, allowInsecureLoopback: true, timeout: 5,
                retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: 0, jitter: 0)),
            transport: URLSessionTransport(), tokens: tokens, cache: ResponseCache(clock: clock), queue: queue, clock: clock)
        let services = ActionServices(
            api: client, tokens: tokens, settings: InMemorySettingsStore(), security: URLSecurityPolicy(hosts: ["edugo.test"]))
        dispatcher = ActionDispatcher(
            screenHandlers: try ScreenHandlerRegistry(
                plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin()], services: services),
            registry: ActionRegistry(services: services))
        screens = ScreenLoader(client: client, cache: ScreenCache(clock: clock))
        data = DataLoader(client: client)
    }

    func model(_ key: String, params: [String: String] = [:]) -> DynamicScreenViewModel {
        DynamicScreenViewModel(
            route: Route(screenKey: key, params: params), screens: screens, data: data, dispatcher: dispatcher,
            navigation: navigation,
            environment: evaluation, session: { [unowned self] in self.session },
            onLogout: { [unowned self] in self.session = nil }, onSignedIn: { [unowned self] in self.session = $0 })
    }

    func signIn(_ email: String) async throws {
        let login = model("app-login")
        await login.load()
        login.formState.setValue(email, for: "email")
        login.formState.setValue("edugo123", for: "password")
        await login.perform(actionId: "submit-login")
    }

    func stop() async { await backend.stop() }
}

@Suite("End to end against the demo backend", .serialized)
@MainActor
struct EndToEndTests {
    @Test(arguments: [
        ("superadmin@edugo.test", "dashboard-superadmin"), ("plataforma@edugo.test", "dashboard-superadmin"),
        ("admin.escuela@edugo.test", "dashboard-schooladmin"), ("director@edugo.test", "dashboard-schooladmin"),
        ("docente@edugo.test", "dashboard-teacher"), ("estudiante@edugo.test", "dashboard-student"),
        ("tutor@edugo.test", "dashboard-guardian"),
    ])
    func signInLandsOnTheRoleDashboard(email: String, dashboard: String) async throws {
        let runtime = try await Runtime()
        try await runtime.signIn(email)
        #expect(runtime.navigation.selectedScreenKey == dashboard)
        #expect(runtime.session?.user.email == email)
        #expect(await runtime.tokens.load() != nil)
        let home = runtime.model(runtime.navigation.selectedScreenKey!)
        await home.load()
        guard case .ready(_, false) = home.screenState else {
            Issue.record("\(home.screenState)")
            return
        }
        await runtime.stop()
    }

    @Test func listPagingSearchDetailCreateEditOfflineAndSignOut() async throws {
        let runtime = try await Runtime()
        try await runtime.signIn("docente@edugo.test")

        // Page through all 137 materials.
        let list = runtime.model("materials-list")
        await list.load()
        var pages = 1
        while case .success(_, true, _) = list.dataState {
            await list.loadNextPage()
            pages += 1
            if pages > 20 { break }
        }
        guard case .success(let all, false, false) = list.dataState else {
            Issue.record("\(list.dataState)")
            return
        }
        #expect(all.count == 137)
        #expect(pages == 7)
        await list.search("puntuación")
        guard case .success(let found, _, _) = list.dataState, !found.isEmpty else {
            Issue.record("search found nothing: \(list.dataState)")
            return
        }
        #expect(!found.isEmpty && found.count < 137)

        // Open a detail.
        await list.perform(actionId: "open-item", item: found[0])
        let route = try #require(runtime.navigation.current)
        let detail = runtime.model(route.screenKey, params: route.params)
        await detail.load()
        guard case .success(let record, _, _) = detail.dataState else {
            Issue.record("\(detail.dataState)")
            return
        }
        #expect(record.first?["id"] == found[0]["id"])

        // Create: missing fields, then valid; the list shows it (its cache was invalidated).
        let create = runtime.model("material-create")
        await create.load()
        await create.perform(actionId: "submit")
        #expect(!create.formState.fieldErrors.isEmpty)
        let title = "Prueba E2E \(UUID().uuidString.prefix(6))"
        for (field, value) in [
            "title": title, "description": "Creado por la prueba", "subject": "Matemáticas", "grade": "5",
            "file_url": "https://edugo.test/e2e.pdf", "file_type": "PDF", "unit_id": "unt-001", "status": "borrador",
        ] {
            create.formState.setValue(value, for: field)
        }
        await create.perform(actionId: "submit")
        #expect(create.banner?.kind == .success, "\(String(describing: create.banner))")
        await list.search(title)
        guard case .success(let created, _, _) = list.dataState else {
            Issue.record("\(list.dataState)")
            return
        }
        #expect(created.count == 1)
        let createdId = try #require(created.first?["id"]?.text)

        // Edit with a stale version: 409 handled as an error message.
        let edit = runtime.model("material-edit", params: ["id": createdId])
        await edit.load()
        edit.formState.setValue("0", for: "version")
        edit.formState.setValue(title + " editado", for: "title")
        await edit.perform(actionId: "submit")
        #expect(edit.banner?.kind == .error, "\(String(describing: edit.banner))")

        // Offline: the change is pending, then delivered once when the backend is back.
        await runtime.backend.stop()
        let offline = runtime.model("material-create")
        for (field, value) in [
            "title": title + " offline", "subject": "Historia", "grade": "6", "file_url": "https://edugo.test/o.pdf",
            "file_type": "PDF",
            "unit_id": "unt-001", "status": "borrador",
        ] {
            offline.formState.setValue(value, for: field)
        }
        await offline.load()
        #expect(offline.compiled != nil)
        await offline.perform(actionId: "submit")
        #expect(offline.banner?.kind == .pending, "\(String(describing: offline.banner))")
        #expect(try runtime.queue.count() == 1)
        try await runtime.backend.restart()
        let report = await OfflineQueue(store: runtime.queue, client: runtime.client).process()
        #expect(report.delivered == 1)
        let posts = runtime.backend.log.filter { $0 == "POST mobile:/v1/materials" }
        #expect(posts.count == 2)
        await list.search(title + " offline")
        guard case .success(let delivered, _, _) = list.dataState else {
            Issue.record("\(list.dataState)")
            return
        }
        #expect(delivered.count == 1)

        // Sign out.
        let settings = runtime.model("app-settings")
        await settings.load()
        await settings.perform(actionId: "logout")
        await settings.confirm()
        #expect(runtime.session == nil)
        #expect(await runtime.tokens.load() == nil)
        await runtime.stop()
    }

    @Test func malformedRequestBodyIsABadRequestThatSaysWhere() async throws {
        let runtime = try await Runtime()
        let request = TransportRequest(
            method: .post, url: runtime.backend.mobileURL.appendingPathComponent("v1/auth/login"),
            headers: ["Content-Type": "application/json"], body: Data(#"{"email": "docente@edugo.test",}"#.utf8))
        let response = try await URLSessionTransport().send(request)
        #expect(response.status == 400)
        let message = try JSONReader().read(response.body)["error"]?.stringValue ?? ""
        #expect(message.contains("line 1, column 32"), "\(message)")
        await runtime.stop()
    }

    @Test func revalidationAndStaleScreens() async throws {
        let runtime = try await Runtime()
        #expect(try await runtime.screens.load("materials-list").source == .network)
        runtime.clock.advance(by: 3601)
        #expect(try await runtime.screens.load("materials-list").source == .revalidated)
        await runtime.backend.stop()
        runtime.clock.advance(by: 3601)
        #expect(try await runtime.screens.load("materials-list").source == .stale)
        #expect(runtime.backend.log.filter { $0.hasPrefix("GET mobile:/v1/screens/materials-list") }.count == 2)
    }
}
