import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

let evaluation = EvaluationEnvironment(now: Date(timeIntervalSince1970: 1_773_570_600), locale: Locale(identifier: "es_ES"))
let teacherSession = SessionInfo(
    user: AuthUserInfo(id: "usr-2", firstName: "Lucía", lastName: "Fernández", email: "docente@edugo.test"),
    context: UserContext(role: "teacher", roleName: "Docente", schoolId: "sch-1", academicUnitId: "unit-1"))

@MainActor
final class Fixture {
    let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
    let navigation = NavigationModel(role: "teacher", fallback: EduGoCatalog.fallbackNavigation, strings: .spanish)
    var loggedOut = 0
    var signedIn: [SessionInfo] = []
    var queued = 0

    /// The view model of `route` over the harness; the route's screen definition is the caller's to script.
    func model(
        route: Route, session: @escaping @MainActor () -> SessionInfo? = { teacherSession },
        observers: DynamicUIObservers = .none
    ) throws -> DynamicScreenViewModel {
        let api = harness.services.api!
        return DynamicScreenViewModel(
            route: route,
            services: ScreenServices(
                screens: ScreenLoader(client: api, cache: ScreenCache(clock: harness.clock)), data: DataLoader(client: api),
                dispatcher: try harness.dispatcher(), navigation: navigation, environment: evaluation, clock: harness.clock,
                observers: observers),
            hooks: ScreenModelHooks(
                session: session, signedOut: { self.loggedOut += 1 }, signedIn: { self.signedIn.append($0) },
                queued: { self.queued += 1 }))
    }

    /// The view model of `route`, its screen definition served from the catalog.
    func model(
        catalogRoute route: Route, session: @escaping @MainActor () -> SessionInfo? = { teacherSession },
        observers: DynamicUIObservers = .none
    ) async throws -> DynamicScreenViewModel {
        let key = route.screenKey
        await harness.transport.on(.get, "/v1/screens/\(key)", .json(200, try catalog.screenJSON(key)))
        return try model(route: route, session: session, observers: observers)
    }

    func model(
        _ key: String, params: [String: String] = [:], observers: DynamicUIObservers = .none
    ) async throws -> DynamicScreenViewModel {
        try await model(catalogRoute: Route(screenKey: key, params: params), observers: observers)
    }

    /// The view model of `key`, loaded.
    func loaded(_ key: String, params: [String: String] = [:]) async throws -> DynamicScreenViewModel {
        let screen = try await model(key, params: params)
        await screen.load()
        return screen
    }

    /// A scripted screen definition (served under its `screen_key`), loaded.
    func shown(_ screen: JSONValue, observers: DynamicUIObservers = .none) async throws -> DynamicScreenViewModel {
        let key = screen["screen_key"]?.stringValue ?? ""
        await harness.transport.on(.get, "/v1/screens/\(key)", .json(200, screen))
        let model = try model(route: Route(screenKey: key), observers: observers)
        await model.load()
        return model
    }

    /// The materials list, loaded, with `/v1/materials` answering `pages` in turn.
    func materialsList(answering pages: ScriptedTransport.Reply...) async throws -> DynamicScreenViewModel {
        await harness.transport.on(.get, "/v1/materials", replies: pages)
        return try await loaded("materials-list")
    }
}

func materials(_ range: Range<Int>) -> JSONValue {
    .array(range.map { ["id": .string("mat-\($0)"), "title": .string("Material \($0)"), "status_label": "Publicado"] })
}

/// A page of the materials list: the records in `range`, of `total`.
func materialsPage(_ range: Range<Int>, of total: Int) -> ScriptedTransport.Reply {
    .json(200, ["items": materials(range), "total": .number(JSONNumber(total))])
}

@Suite("Navigation model")
@MainActor
struct NavigationModelTests {
    @Test(arguments: [
        ("super_admin", ["dashboard-superadmin", "materials-list", "app-settings"]),
        ("school_director", ["dashboard-schooladmin", "materials-list", "app-settings"]),
        ("teacher", ["dashboard-teacher", "materials-list", "app-settings"]),
        ("student", ["dashboard-student", "materials-list", "app-settings"]),
        // A guardian's navigation has no materials; a role the app does not know gets the least.
        ("guardian", ["dashboard-guardian", "app-settings"]), ("visitor", ["dashboard-student", "app-settings"]),
    ])
    func productFallbackForEachRole(role: String, screens: [String]) {
        let navigation = NavigationModel(role: role, fallback: EduGoCatalog.fallbackNavigation, strings: .spanish)
        #expect(navigation.isFallback)
        #expect(navigation.items(regular: false).map(\.screenKey) == screens)
        #expect(
            navigation.items(regular: false).map(\.label)
                == ["Inicio", "Materiales", "Ajustes"].filter {
                    screens.count == 3 || $0 != "Materiales"
                })
        #expect(navigation.selectedScreenKey == screens[0])
    }

    @Test func theSDKsOwnFallbackKnowsNoProduct() {
        // No role, no product's screens: a home screen and the settings, in the given language.
        let navigation = NavigationModel(strings: .english)
        #expect(navigation.items(regular: false).map(\.screenKey) == ["home", "app-settings"])
        #expect(navigation.items(regular: false).map(\.label) == ["Home", "Settings"])
        for role in ["teacher", "guardian", "student"] {
            navigation.apply(nil, role: role)
            #expect(navigation.isFallback && navigation.selectedScreenKey == "home")
        }
        // An app's own tab, labelled in its own words, for one role only.
        var fallback = FallbackNavigation.standard
        fallback.homes = ["pilot": "cockpit"]
        fallback.tabs.insert(
            .init(key: "logbook", label: .text("Bitácora"), icon: "book", screenKey: "logbook", roles: ["pilot"]), at: 0)
        let pilot = NavigationModel(role: "pilot", fallback: fallback, strings: .english)
        #expect(pilot.items(regular: false).map(\.screenKey) == ["cockpit", "logbook", "app-settings"])
        #expect(pilot.items(regular: false).map(\.label) == ["Home", "Bitácora", "Settings"])
        #expect(pilot.items(regular: false).map(\.sortOrder) == [0, 1, 2])
        pilot.apply(nil, role: nil)
        #expect(pilot.items(regular: false).map(\.screenKey) == ["home", "app-settings"])
    }

    @Test func loadedDefinitionAndStack() throws {
        let navigation = NavigationModel(role: "teacher", fallback: EduGoCatalog.fallbackNavigation)
        navigation.apply(try catalog.navigation(role: "teacher"), role: "teacher")
        #expect(!navigation.isFallback)
        let definition = try catalog.navigation(role: "teacher")
        #expect(
            navigation.items(regular: true).map(\.key)
                == (definition.drawerItems ?? []).sorted { $0.sortOrder < $1.sortOrder }.map(\.key))
        #expect(
            navigation.items(regular: false).map(\.key) == definition.bottomNav.sorted { $0.sortOrder < $1.sortOrder }.map(\.key))
        navigation.push(Route(screenKey: "materials-list"))
        navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-1"]))
        #expect(navigation.current?.screenKey == "material-detail")
        #expect(navigation.back())
        navigation.replace(with: Route(screenKey: "app-settings"))
        #expect(navigation.stack.map(\.screenKey) == ["app-settings"])
        navigation.popToRoot()
        #expect(!navigation.back())
        navigation.apply(nil, role: "guardian")
        #expect(navigation.isFallback && navigation.selectedScreenKey == "dashboard-guardian")
    }
}

@Suite("Screen view model")
@MainActor
struct ViewModelTests {
    @Test func listLoadsPagesSearchesAndNavigates() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(
            answering: materialsPage(0..<20, of: 25), materialsPage(20..<25, of: 25), materialsPage(3..<4, of: 1))
        guard case .ready(let screen, false) = model.screenState, case .success(let items, true, false) = model.dataState else {
            Issue.record("\(model.screenState) \(model.dataState)")
            return
        }
        #expect(screen.screenKey == "materials-list" && items.count == 20)
        await model.loadNextPage()
        guard case .success(let all, false, false) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(all.count == 25)
        #expect(await fixture.harness.transport.requests.last?.url.query?.contains("offset=20") == true)
        await model.search("Material 3")
        #expect(await fixture.harness.transport.requests.last?.url.query?.contains("q=Material%203") == true)

        await model.perform(actionId: "open-item", item: ["id": "mat-3"])
        #expect(fixture.navigation.current?.screenKey == "material-detail")
        #expect(fixture.navigation.current?.params == ["id": "mat-3"])
        await model.perform(actionId: "create")
        #expect(fixture.navigation.current?.presentation == .sheet)
        let tree = try model.render(options: RenderOptions())
        #expect(TextRenderer().render(tree).contains("row \"Material 3\""))
    }

    /// A list's pages stay in their documents: the screen binds them as `data` without building
    /// them, draws its rows from them, appends the next page beside the first, and a record patch
    /// builds the items it changes.
    @Test func listPagesStayInTheirDocuments() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(answering: materialsPage(0..<20, of: 25), materialsPage(20..<25, of: 25))
        guard case .success(let items, true, false) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(items.count == 20 && items.unbuiltCount == 20)
        let context = try model.context()
        #expect(context.defaultItems == items)
        #expect(try ExpressionCompiler().expression("data.count").evaluate(in: context) == 20)
        #expect(try ExpressionCompiler().expression("data.3.title").evaluate(in: context) == "Material 3")
        #expect(TextRenderer(rowLimit: 30).render(try model.render(options: RenderOptions())).contains("row \"Material 19\""))
        await model.loadNextPage()
        guard case .success(let all, false, false) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(all.count == 25 && all.unbuiltCount == 25)
        #expect(all.indices.map { all.member("id", at: $0) } == (0..<25).map { .string("mat-\($0)") })
        #expect(model.data == .array(all.values))
        let text = TextRenderer(rowLimit: 30).render(try model.render(options: RenderOptions()))
        #expect(text.contains("row \"Material 0\"") && text.contains("row \"Material 24\""))
        try model.applyToData(DocumentPatch(changes: [PatchChange(id: "mat-21", items: [["id": "mat-21", "title": "Nuevo"]])]))
        guard case .success(let patched, _, _) = model.dataState else { return }
        #expect(patched.count == 25 && patched[21]["title"] == "Nuevo" && patched[20] == all[20])
        // The patch built only the record it brought; the response follows when it is read.
        #expect(patched.unbuiltCount == 24)
        #expect(model.data == .array(patched.values))
        #expect(TextRenderer(rowLimit: 30).render(try model.render(options: RenderOptions())).contains("row \"Nuevo\""))
    }

    /// A bare array is a list too: its items stay in the document and are the screen's `data`.
    @Test func aBareArrayPageIsTheList() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(answering: .json(200, materials(0..<5)))
        guard case .success(let items, _, false) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(items.count == 5 && items.unbuiltCount == 5 && model.hasData)
        let context = try model.context()
        #expect(context.defaultItems == items)
        #expect(try ExpressionCompiler().expression("data.isEmpty").evaluate(in: context) == false)
        #expect(TextRenderer(rowLimit: 10).render(try model.render(options: RenderOptions())).contains("row \"Material 4\""))
        #expect(model.data == materials(0..<5))
    }

    /// A detail screen's record is its data: a patch to it changes both.
    @Test func aDetailRecordPatchChangesItsData() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials/mat-1", .json(200, ["id": "mat-1", "title": "Álgebra"]))
        let model = try await fixture.loaded("material-detail", params: ["id": "mat-1"])
        #expect(model.data["title"] == "Álgebra")
        try model.applyToData(DocumentPatch(changes: [PatchChange(id: "mat-1", items: [["id": "mat-1", "title": "Geometría"]])]))
        #expect(model.data == ["id": "mat-1", "title": "Geometría"])
        guard case .success(let items, _, _) = model.dataState else { return }
        #expect(items == [["id": "mat-1", "title": "Geometría"]])
        #expect(TextRenderer().render(try model.render(options: RenderOptions())).contains("Geometría"))
    }

    @Test func detailConfirmDeleteThenBack() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(
            .get, "/v1/materials/mat-1", .json(200, ["id": "mat-1", "title": "Álgebra", "file_url": "https://edugo.test/f.pdf"]))
        await fixture.harness.transport.on(.delete, "/v1/materials/mat-1", .json(204, nil))
        fixture.navigation.push(Route(screenKey: "materials-list"))
        fixture.navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-1"]))
        let model = try await fixture.loaded("material-detail", params: ["id": "mat-1"])
        await model.perform(actionId: "delete")
        let request = try #require(model.confirmation)
        #expect(request.destructive && request.message?.contains("Álgebra") == true)
        model.cancelConfirmation()
        #expect(await fixture.harness.transport.requests(to: "/v1/materials/mat-1").count == 1)
        await model.perform(actionId: "delete")
        await model.confirm()
        #expect(await fixture.harness.transport.requests.last?.method == .delete)
        #expect(fixture.navigation.current?.screenKey == "materials-list")
        await model.perform(actionId: "download")
        #expect(model.urlToOpen == URL(string: "https://edugo.test/f.pdf"))
    }

    @Test func formErrorsPendingOfflineAndLogout() async throws {
        let fixture = Fixture()
        let model = try await fixture.loaded("material-create")
        await model.perform(actionId: "submit")
        #expect(model.formState.fieldErrors["title"] != nil)
        #expect(model.banner?.kind == .error)
        model.formState.setValue("Álgebra", for: "title")
        #expect(model.formState.fieldErrors["title"] == nil)
        for (field, value) in [
            "subject": "Matemáticas", "grade": "7", "file_url": "https://edugo.test/a.pdf", "file_type": "PDF",
            "unit_id": "unt-001", "status": "borrador",
        ] {
            model.formState.setValue(value, for: field)
        }
        await fixture.harness.transport.setFallback(.failure(.noConnection))
        fixture.navigation.push(Route(screenKey: "material-create", presentation: .sheet))
        await model.perform(actionId: "submit")
        #expect(model.banner?.kind == .pending)
        #expect(try fixture.harness.queue.count() == 1)
        #expect(fixture.navigation.stack.isEmpty)

        let settings = try await fixture.model("app-settings")
        await fixture.harness.transport.setFallback(.json(404, nil))
        await settings.load()
        await settings.perform(actionId: "logout")
        #expect(settings.confirmation != nil)
        await settings.confirm()
        #expect(fixture.loggedOut == 1)
        await settings.apply(.stateChanged(["dark_mode": true]))
        #expect(settings.state["dark_mode"] == true)
    }

    @Test func screenErrorsAndStaleDefinitions() async throws {
        let model = try Fixture().model(route: Route(screenKey: "nope"), session: { nil })
        await model.load()
        guard case .error(let message) = model.screenState else {
            Issue.record("\(model.screenState)")
            return
        }
        #expect(message.contains("nope"))
    }

    @Test func everyActionResultIsApplied() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials", materialsPage(0..<3, of: 3))
        let model = try await fixture.loaded("materials-list")
        let navigation = fixture.navigation
        let requests = { await fixture.harness.transport.requests(to: "/v1/materials").count }

        await model.apply(.navigateTo(screenKey: "material-detail", params: ["id": "mat-1", "n": 2], presentation: .push))
        #expect(navigation.current?.screenKey == "material-detail")
        #expect(navigation.current?.params == ["id": "mat-1", "n": "2"] && navigation.current?.presentation == .push)
        await model.apply(.present(screen: "material-create", params: [:]))
        #expect(navigation.current?.presentation == .sheet && navigation.stack.count == 2)
        await model.apply(.dismiss)
        #expect(navigation.current?.screenKey == "material-detail")
        await model.apply(.navigateBack)
        #expect(navigation.stack.isEmpty)

        await model.apply(.success(message: "Guardado"))
        #expect(model.banner == Banner(kind: .success, message: "Guardado"))
        await model.apply(.success(message: nil))
        #expect(model.banner?.message == "Guardado")
        await model.apply(.error(message: "Falló"))
        #expect(model.banner == Banner(kind: .error, message: "Falló"))
        await model.apply(.fieldErrors(["title": "Obligatorio"], message: "Revisa el formulario"))
        #expect(model.formState.fieldErrors == ["title": "Obligatorio"] && model.banner?.kind == .error)
        await model.apply(.pendingOffline(message: "Pendiente"))
        #expect(model.banner == Banner(kind: .pending, message: "Pendiente") && fixture.queued == 1)
        model.dismissBanner()
        #expect(model.banner == nil)

        let before = await requests()
        await model.apply(.refresh)
        #expect(await requests() == before + 1)
        await model.apply(.cancelled)
        #expect(model.banner == nil && navigation.stack.isEmpty)

        let guarded = ActionDefinition(id: "del", trigger: .buttonClick, type: .logout)
        let request = ConfirmationRequest(
            title: "¿Salir?", confirmLabel: "Salir", cancelLabel: "Cancelar", destructive: true, action: guarded)
        await model.apply(.confirm(request))
        #expect(model.confirmation == request)
        model.cancelConfirmation()
        #expect(model.confirmation == nil)

        await model.apply(.openURL(URL(string: "https://edugo.test/a.pdf")!))
        #expect(model.urlToOpen == URL(string: "https://edugo.test/a.pdf"))
        await model.apply(.stateChanged(["tab": "b"]))
        #expect(model.state["tab"] == "b")

        navigation.push(Route(screenKey: "material-detail"))
        await model.apply(.logout)
        #expect(fixture.loggedOut == 1 && navigation.stack.isEmpty)
        await model.apply(.signedIn(teacherSession, destination: "dashboard-teacher"))
        #expect(fixture.signedIn == [teacherSession] && navigation.selectedScreenKey == "dashboard-teacher")

        await model.apply(
            .sequence([
                .stateChanged(["step": 1]), .success(message: "Hecho"),
                .navigateTo(screenKey: "x", params: [:], presentation: .push),
            ]))
        #expect(model.state["step"] == 1 && model.banner?.message == "Hecho" && navigation.current?.screenKey == "x")
    }
}
