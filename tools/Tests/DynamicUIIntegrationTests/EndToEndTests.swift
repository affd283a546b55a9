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

/// The EduGo catalog, read once.
let catalog = try! EduGoCatalog()

/// Lets the main actor run the rebuilds the model scheduled.
@MainActor
func settle() async {
    for _ in 0..<5 { await Task.yield() }
}

/// The SDK's runtime as a host builds it, against the demo backend on 127.0.0.1, with stores
/// the test can inspect and a connection it can switch.
@MainActor
final class Live {
    let backend: DemoBackend
    let sdk: DynamicUIRuntime
    let tokens: InMemoryTokenStore
    let settings: InMemorySettingsStore
    let queue: OfflineQueueStore
    let clock = ManualClock(start: Date())
    let connectivity = ManualConnectivityMonitor()

    init(
        backend existing: DemoBackend? = nil, tokens: InMemoryTokenStore = InMemoryTokenStore(),
        settings: InMemorySettingsStore = InMemorySettingsStore(), observers: [any DynamicUIObserver]? = nil,
        components: NativeComponentRegistry = .empty, start: Bool = true, cacheDirectory: URL? = nil
    ) async throws {
        if let existing {
            backend = existing
        } else {
            backend = try DemoBackend()
            try await backend.start()
        }
        self.tokens = tokens
        self.settings = settings
        queue = try OfflineQueueStore()
        sdk = try DynamicUIRuntime(
            configuration: DynamicUIConfiguration(
                adminBaseURL: backend.adminURL, mobileBaseURL: backend.mobileURL, allowInsecureLoopback: true, timeout: 5,
                retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: 0, jitter: 0),
                security: URLSecurityPolicy(hosts: ["edugo.test"]), deepLinkSchemes: ["edugo"],
                deepLinkScreens: ["material-detail", "child-progress"],
                deepLinkParameters: ["material-detail": ["id"], "child-progress": ["id"]],
                screenCacheDirectory: cacheDirectory?.appendingPathComponent("screens"),
                responseCacheDirectory: cacheDirectory?.appendingPathComponent("responses"),
                locale: Locale(identifier: "es_ES"), fallbackNavigation: EduGoCatalog.fallbackNavigation, clock: clock,
                observers: observers),
            plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin()], tokens: tokens, settings: settings, queueStore: queue,
            connectivity: connectivity, components: components)
        if start { await sdk.start() }
    }

    var navigation: NavigationModel { sdk.navigation }
    var session: SessionInfo? { sdk.session }
    var screens: ScreenLoader { sdk.screens }
    var client: APIClient { sdk.client }

    /// A runtime against a new demo backend, signed in as `email`.
    static func signedIn(as email: String) async throws -> Live {
        let runtime = try await Live()
        try await runtime.signIn(email)
        return runtime
    }

    /// The app launched again, as a new process: a new runtime over this one's backend and stores.
    func relaunch(start: Bool = true, cacheDirectory: URL? = nil) async throws -> Live {
        try await Live(backend: backend, tokens: tokens, settings: settings, start: start, cacheDirectory: cacheDirectory)
    }

    func model(_ key: String, params: [String: String] = [:]) -> DynamicScreenViewModel {
        sdk.viewModel(for: Route(screenKey: key, params: params))
    }

    /// The view model of `key`, loaded.
    func loaded(_ key: String, params: [String: String] = [:]) async -> DynamicScreenViewModel {
        let screen = model(key, params: params)
        await screen.load()
        return screen
    }

    func signIn(_ email: String) async throws {
        let login = await loaded("app-login")
        login.formState.setValue(email, for: "email")
        login.formState.setValue("edugo123", for: "password")
        await login.perform(actionId: "submit-login")
    }

    func stop() async {
        await sdk.stop()
        await backend.stop()
    }
}

/// Waits (real time, up to five seconds) until `condition` holds; returns whether it did.
@MainActor
func eventually(_ condition: @MainActor () async -> Bool) async -> Bool {
    for _ in 0..<500 {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return false
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
        let runtime = try await Live.signedIn(as: email)
        #expect(runtime.navigation.selectedScreenKey == dashboard)
        #expect(runtime.session?.user.email == email)
        #expect(await runtime.tokens.load() != nil)
        let home = await runtime.loaded(runtime.navigation.selectedScreenKey!)
        guard case .ready(_, false) = home.screenState else {
            Issue.record("\(home.screenState)")
            return
        }
        await runtime.stop()
    }

    @Test func listPagingSearchDetailCreateEditOfflineAndSignOut() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")

        // Page through the 111 published materials (the teacher has no draft of their own).
        let list = await runtime.loaded("materials-list")
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
        #expect(all.count == 111)
        #expect(pages == 6)
        await list.search("puntuación")
        guard case .success(let found, _, _) = list.dataState, !found.isEmpty else {
            Issue.record("search found nothing: \(list.dataState)")
            return
        }
        #expect(!found.isEmpty && found.count < 137)

        // Open a detail.
        await list.perform(actionId: "open-item", item: found[0])
        let route = try #require(runtime.navigation.current)
        let detail = await runtime.loaded(route.screenKey, params: route.params)
        guard case .success(let record, _, _) = detail.dataState else {
            Issue.record("\(detail.dataState)")
            return
        }
        #expect(record.first?["id"] == found[0]["id"])

        // Create in a sheet over the materials tab: missing fields, then valid. The sheet closes,
        // its success message lands on the list below, and the list reloads (its data changed).
        runtime.sdk.navigation.select("materials-list")
        let createRoute = Route(screenKey: "material-create", presentation: .sheet)
        runtime.sdk.navigation.push(createRoute)
        let create = runtime.sdk.viewModel(for: createRoute)
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
        #expect(!list.isDataOutdated)
        await create.perform(actionId: "submit")
        #expect(create.banner == nil)
        #expect(list.banner?.kind == .success, "\(String(describing: list.banner))")
        #expect(runtime.sdk.navigation.stack.isEmpty)
        #expect(!list.isDataOutdated, "the list below the sheet reloaded after the create")
        await list.search(title)
        guard case .success(let created, _, _) = list.dataState else {
            Issue.record("\(list.dataState)")
            return
        }
        #expect(created.count == 1)
        let createdId = try #require(created.first?["id"]?.text)

        // Edit a record someone else saved since the form loaded it: the save carries the loaded
        // version, the server answers 409, and the form says so and keeps the edit.
        let edit = await runtime.loaded("material-edit", params: ["id": createdId])
        edit.formState.setValue(title + " editado", for: "title")
        let token = try #require(await runtime.tokens.load()?.accessToken)
        let elsewhere = try await URLSessionTransport().send(
            TransportRequest(
                method: .put, url: runtime.backend.mobileURL.appendingPathComponent("v1/materials/\(createdId)"),
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                body: Data(#"{"description": "Cambiado en otra sesión"}"#.utf8)))
        #expect(elsewhere.status == 200)
        await edit.perform(actionId: "submit")
        #expect(edit.banner?.kind == .error, "\(String(describing: edit.banner))")
        #expect(edit.formState.value(for: "title") == title + " editado", "the edit is kept")

        // Offline: the change is pending, then delivered once when the connection returns.
        await runtime.backend.stop()
        await runtime.connectivity.set(connected: false)
        #expect(await eventually { !runtime.sdk.isConnected })
        let offlineRoute = Route(screenKey: "material-create", presentation: .sheet)
        runtime.sdk.navigation.push(offlineRoute)
        let offline = runtime.sdk.viewModel(for: offlineRoute)
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
        #expect(list.banner?.kind == .pending, "the pending notice goes with the user to the list")
        #expect(try runtime.queue.count() == 1)
        #expect(runtime.sdk.pendingChanges == 1)
        try await runtime.backend.restart()
        await runtime.connectivity.set(connected: true)
        #expect(await eventually { runtime.sdk.pendingChanges == 0 && runtime.sdk.isConnected })
        #expect(try runtime.queue.count() == 0)
        let posts = runtime.backend.log.filter { $0 == "POST mobile:/v1/materials" }
        #expect(posts.count == 2)
        await list.search(title + " offline")
        guard case .success(let delivered, _, _) = list.dataState else {
            Issue.record("\(list.dataState)")
            return
        }
        #expect(delivered.count == 1)

        // Sign out.
        let settings = await runtime.loaded("app-settings")
        await settings.perform(actionId: "logout")
        await settings.confirm()
        #expect(runtime.session == nil)
        #expect(await runtime.tokens.load() == nil)
        #expect(runtime.navigation.selectedScreenKey == "app-login" && runtime.navigation.stack.isEmpty)
        #expect(await runtime.screens.cache.entry(for: "materials-list?platform=ios") == nil)
        await runtime.stop()
    }

    @Test func sessionIsRestoredAtStartWithItsNavigation() async throws {
        let first = try await Live()
        #expect(!first.sdk.isSignedIn && first.navigation.selectedScreenKey == "app-login")
        try await first.signIn("tutor@edugo.test")
        #expect(!first.navigation.isFallback)
        await first.sdk.stop()

        // A new launch with the same stores: signed in, the server's navigation for the guardian.
        let second = try await first.relaunch()
        #expect(second.session?.user.email == "tutor@edugo.test")
        #expect(second.session?.context.role == "guardian")
        #expect(!second.navigation.isFallback)
        #expect(second.navigation.selectedScreenKey == "dashboard-guardian")
        #expect(second.sdk.open(deepLink: URL(string: "edugo://screen/child-progress?id=usr-7")!))
        #expect(second.navigation.current?.screenKey == "child-progress")
        #expect(!second.sdk.open(deepLink: URL(string: "evil://screen/child-progress")!))
        #expect(!second.sdk.open(deepLink: URL(string: "edugo://screen/..%2Fadmin")!))
        await second.stop()
    }

    @Test func navigationFallsBackWhenTheServerCannotServeIt() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        #expect(!runtime.navigation.isFallback)
        await runtime.backend.stop()
        // The last navigation received is still served while the server is down…
        await runtime.sdk.loadNavigation()
        #expect(!runtime.navigation.isFallback)
        // …and without one, the role's fallback is used.
        await runtime.client.cache?.clearAll()
        await runtime.sdk.loadNavigation()
        #expect(runtime.navigation.isFallback)
        #expect(runtime.navigation.selectedScreenKey == "dashboard-teacher")
        #expect(
            runtime.navigation.items(regular: false).map(\.screenKey) == ["dashboard-teacher", "materials-list", "app-settings"])
        #expect(runtime.navigation.items(regular: false).map(\.label) == ["Inicio", "Materiales", "Ajustes"])
        await runtime.stop()
    }

    @Test func dashboardsPollTheirRefreshInterval() async throws {
        let runtime = try await Live.signedIn(as: "estudiante@edugo.test")
        let dashboard = await runtime.loaded("dashboard-student")
        let interval = try #require(dashboard.compiled?.definition.dataConfig?.refreshInterval)
        let endpoint = try #require(dashboard.compiled?.definition.dataEndpoint)
        let path = "GET " + endpoint.split(separator: "?")[0]
        func requests() -> Int { runtime.backend.log.filter { $0.hasPrefix(path) }.count }
        let before = requests()
        dashboard.startPolling()
        #expect(dashboard.isPolling)
        for round in 1...2 {
            #expect(await runtime.clock.waitForSleepers(1))
            runtime.clock.advance(by: Double(interval))
            #expect(await eventually { requests() == before + round }, "round \(round): \(requests() - before)")
        }
        dashboard.stopPolling()
        runtime.clock.advance(by: Double(interval))
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(requests() == before + 2)
        await runtime.stop()
    }

    @Test func pollingPausesInTheBackgroundAndResumesWithAReload() async throws {
        let runtime = try await Live.signedIn(as: "estudiante@edugo.test")
        let dashboard = await runtime.loaded("dashboard-student")
        let endpoint = try #require(dashboard.compiled?.definition.dataEndpoint)
        let path = "GET " + endpoint.split(separator: "?")[0]
        func requests() -> Int { runtime.backend.log.filter { $0.hasPrefix(path) }.count }
        dashboard.startPolling()
        #expect(await runtime.clock.waitForSleepers(1))
        await runtime.sdk.appDidChange(isActive: false)
        #expect(!dashboard.isPolling, "no requests from the background")
        let before = requests()
        runtime.clock.advance(by: 3_600)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(requests() == before)
        await runtime.sdk.appDidChange(isActive: true)
        #expect(dashboard.isPolling)
        #expect(requests() == before + 1, "back in the foreground, the data is fresh at once")
        dashboard.stopPolling()
        await runtime.stop()
    }

    @Test func malformedRequestBodyIsABadRequestThatSaysWhere() async throws {
        let runtime = try await Live()
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
        // Screens are served to a signed-in account (which ones depends on its role).
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        #expect(try await runtime.screens.load("materials-list").source == .network)
        runtime.clock.advance(by: 3601)
        #expect(try await runtime.screens.load("materials-list").source == .revalidated)
        await runtime.backend.stop()
        runtime.clock.advance(by: 3601)
        #expect(try await runtime.screens.load("materials-list").source == .stale)
        #expect(runtime.backend.log.filter { $0.hasPrefix("GET mobile:/v1/screens/materials-list") }.count == 2)
    }
}
