import DynamicUIActions
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUICatalog
import DynamicUIModels
import DynamicUINavigationPlugin
import DynamicUINetwork
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

let loginSlots = [
    Slot(id: "email", controlType: .emailInput, field: "email", label: "Correo", required: true),
    Slot(id: "password", controlType: .passwordInput, field: "password", label: "Contraseña", required: true),
    Slot(id: "remember", controlType: .checkbox, field: "remember", label: "Recordarme"),
]
let submit = ActionDefinition(id: "submit", trigger: .buttonClick, triggerSlotId: "submit_button", type: .submitForm)

func loginResponse(role: String) -> JSONValue {
    [
        "access_token": .string("access-\(role)"), "refresh_token": .string("refresh-\(role)"), "expires_in": 3600,
        "user": ["id": "usr-1", "first_name": "Ana", "last_name": "Pérez", "email": "ana@edugo.test"],
        "context": ["role": .string(role), "role_name": "Rol", "school_id": "sch-1", "academic_unit_id": "unit-3"],
    ]
}

@Suite("Auth plugin")
struct AuthPluginTests {
    @Test(arguments: ["super_admin", "teacher", "guardian", "student", "visitor"])
    func loginStoresTokensAndSignsIn(role: String) async throws {
        let harness = HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish)
        await harness.transport.on(.post, "/v1/auth/login", .json(200, loginResponse(role: role)))
        let result = try await harness.run(
            AuthPlugin(), submit,
            context: ActionContext(
                screenKey: "app-login", handlerKey: "login", actionId: "submit",
                fieldValues: ["email": " ana@edugo.test ", "password": "secreto", "remember": "true"], formSlots: loginSlots))
        guard case .signedIn(let session, let destination) = result else {
            Issue.record("not signed in: \(result)")
            return
        }
        // The runtime opens the first entry of the role's navigation: no product's screen names here.
        #expect(destination == nil)
        #expect(session.user.fullName == "Ana Pérez" && session.context.role == role)
        #expect(
            await harness.tokens.load()
                == AuthTokens(
                    accessToken: "access-\(role)", refreshToken: "refresh-\(role)",
                    expiresAt: await harness.tokens.load()?.expiresAt))
        let sent = try #require(await harness.transport.requests.first)
        #expect(sent.method == .post && sent.url.absoluteString == "https://mobile.api.test/v1/auth/login")
        #expect(sent.headers["Authorization"] == nil)
        #expect(ScriptedTransport.body(of: sent) == ["email": "ana@edugo.test", "password": "secreto"])
        #expect(await harness.settings.value(for: "remembered_email") == "ana@edugo.test")
    }

    @Test func loginErrors() async throws {
        let harness = HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish)
        let empty = try await harness.run(
            AuthPlugin(), submit,
            context: ActionContext(screenKey: "app-login", handlerKey: "login", actionId: "submit", formSlots: loginSlots))
        #expect(
            empty
                == .fieldErrors(
                    ["email": "Correo: campo obligatorio", "password": "Contraseña: campo obligatorio"], message: nil))
        await harness.transport.on(.post, "/v1/auth/login", .json(401, ["error": "invalid_credentials"]))
        let wrong = try await harness.run(
            AuthPlugin(), submit,
            context: ActionContext(
                screenKey: "app-login", handlerKey: "login", actionId: "submit",
                fieldValues: ["email": "a@b.co", "password": "x"], formSlots: loginSlots))
        guard case .fieldErrors(let errors, let message) = wrong else {
            Issue.record("\(wrong)")
            return
        }
        #expect(errors["password"] == "Correo o contraseña incorrectos")
        #expect(message == nil, "said once, under the field, not again in a banner")
        #expect(await harness.tokens.load() == nil)
    }

    @Test func logoutClearsTokensAndCaches() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        await harness.transport.on(.post, "/v1/auth/logout", .json(204, nil))
        let logout = ActionDefinition(id: "logout", trigger: .buttonClick, triggerSlotId: "logout_button", type: .logout)
        let config: JSONObject = ["confirm": ["title": "Cerrar sesión"]]
        // First the confirmation (from the generic handler), then the real sign-out.
        guard
            case .confirm = try await harness.run(
                AuthPlugin(), logout,
                context: ActionContext(screenKey: "app-settings", handlerKey: "settings", actionId: "logout", config: config))
        else {
            Issue.record("no confirmation")
            return
        }
        #expect(await harness.tokens.load() != nil)
        let result = try await harness.run(
            AuthPlugin(), logout,
            context: ActionContext(
                screenKey: "app-settings", handlerKey: "settings", actionId: "logout", config: config, confirmed: true))
        #expect(result == .logout)
        #expect(await harness.tokens.load() == nil)
        #expect(await harness.invalidator.clearedAll == 1)
        #expect(await harness.transport.requests.first?.headers["Authorization"] == "Bearer tok")
    }

    /// The server is told which refresh token to revoke, not only the access token.
    @Test func logoutSendsTheRefreshTokenToRevoke() async throws {
        let harness = HandlerHarness(
            tokens: AuthTokens(accessToken: "tok", refreshToken: "refresh-1"), allowedHosts: ["edugo.test"], strings: .spanish)
        await harness.transport.on(.post, "/v1/auth/logout", .json(204, nil))
        let logout = ActionDefinition(id: "logout", trigger: .buttonClick, triggerSlotId: "logout_button", type: .logout)
        let result = try await harness.run(
            AuthPlugin(), logout,
            context: ActionContext(screenKey: "app-settings", handlerKey: "settings", actionId: "logout", confirmed: true))
        #expect(result == .logout)
        let sent = try #require(await harness.transport.requests(to: "/v1/auth/logout").first)
        #expect(ScriptedTransport.body(of: sent) == ["refresh_token": "refresh-1"])
    }

    @Test func themeAndPreferencesPersist() async throws {
        let harness = HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish)
        let toggle = ActionDefinition(id: "toggle-theme", trigger: .buttonClick, type: .custom)
        let context = ActionContext(
            screenKey: "app-settings", handlerKey: "settings", actionId: "toggle-theme", config: ["event": "toggle_theme"])
        #expect(try await harness.run(AuthPlugin(), toggle, context: context) == .stateChanged(["dark_mode": true]))
        #expect(try await harness.run(AuthPlugin(), toggle, context: context) == .stateChanged(["dark_mode": false]))
        #expect(await harness.settings.value(for: "dark_mode") == false)
        let push = ActionContext(
            screenKey: "app-settings", handlerKey: "settings", actionId: "push",
            config: ["event": "set_preference", "payload": ["key": "push_notifications"]])
        #expect(try await harness.run(AuthPlugin(), toggle, context: push) == .stateChanged(["push_notifications": true]))
    }

    @Test func aPreferenceTheFullQueueCannotHoldIsKeptHereAndSaysTheServerWillNotHear() async throws {
        let harness = HandlerHarness(
            tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish, queueCapacity: 1)
        await harness.transport.setFallback(.failure(.noConnection))
        let action = ActionDefinition(id: "pref", trigger: .buttonClick, type: .custom)
        func set(_ key: String) async throws -> ActionResult {
            try await harness.run(
                AuthPlugin(), action,
                context: ActionContext(
                    screenKey: "app-settings", handlerKey: "settings", actionId: "pref",
                    config: ["event": "set_preference", "payload": ["key": .string(key)]]))
        }
        guard case .sequence(let queued) = try await set("push_notifications"), case .pendingOffline = queued.last else {
            Issue.record("the first preference was not queued")
            return
        }
        let refused = try await set("weekly_summary")
        #expect(
            refused
                == .sequence([
                    .stateChanged(["weekly_summary": true]), .error(message: harness.services.strings(.queueFull)),
                ]), "\(refused)")
        #expect(await harness.settings.value(for: "weekly_summary") == true, "kept on the device")
        #expect(try harness.queue.count() == 1, "nothing more stored")
    }
}

@Suite("CRUD plugin")
struct CRUDPluginTests {
    static let cases: [(key: String, method: RequestMethod, url: String)] = [
        ("material-create", .post, "https://mobile.api.test/v1/materials"),
        ("material-edit", .put, "https://mobile.api.test/v1/materials/x-1"),
        ("user-create", .post, "https://admin.api.test/v1/users"),
        ("user-edit", .put, "https://admin.api.test/v1/users/x-1"),
        ("school-create", .post, "https://admin.api.test/v1/schools"),
        ("school-edit", .put, "https://admin.api.test/v1/schools/x-1"),
        ("unit-create", .post, "https://admin.api.test/v1/schools/x-1/units"),
        ("unit-edit", .put, "https://admin.api.test/v1/units/x-1"),
        ("membership-add", .post, "https://admin.api.test/v1/memberships"),
    ]

    @Test(arguments: cases.map(\.key))
    func entityRequestAndResult(key: String) async throws {
        let expected = try #require(Self.cases.first { $0.key == key })
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        let path = URL(string: expected.url)!.path
        await harness.transport.on(expected.method, path, .json(expected.method == .post ? 201 : 200, ["id": "new"]))
        let slots = [Slot(id: "name", controlType: .textInput, field: "name", label: "Nombre", required: true)]
        let result = try await harness.run(
            CRUDPlugin(), submit,
            context: ActionContext(
                screenKey: key, handlerKey: key, actionId: "submit", config: ["fields": ["name", "version"]],
                fieldValues: ["name": "Nuevo nombre", "version": "3"], formSlots: slots, params: ["id": "x-1"]))
        guard case .sequence(let steps) = result, case .success = steps.first, steps.last == .navigateBack else {
            Issue.record("\(key): \(result)")
            return
        }
        let sent = try #require(await harness.transport.requests.first)
        #expect(sent.method == expected.method)
        #expect(sent.url.absoluteString == expected.url)
        #expect(sent.headers["Authorization"] == "Bearer tok")
        #expect(sent.headers["Idempotency-Key"] != nil)
        #expect(ScriptedTransport.body(of: sent) == ["name": "Nuevo nombre", "version": 3])
        let entity = try #require(CRUDPlugin.eduGo.first { $0.handlerKey == key })
        #expect(await harness.invalidator.screens == entity.invalidates)
    }

    @Test func validationServerErrorsAndOffline() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        let slots = [Slot(id: "email", controlType: .emailInput, field: "email", label: "Correo", required: true)]
        func submitUser(_ email: String) async throws -> ActionResult {
            try await harness.run(
                CRUDPlugin(), submit,
                context: ActionContext(
                    screenKey: "user-create", handlerKey: "user-create", actionId: "submit", fieldValues: ["email": email],
                    formSlots: slots))
        }
        #expect(
            try await submitUser("")
                == .fieldErrors(["email": "Correo: campo obligatorio"], message: "Revisa los campos marcados"))
        await harness.transport.on(.post, "/v1/users", .json(422, ["errors": [["field": "email", "message": "Ya registrado"]]]))
        #expect(
            try await submitUser("ana@edugo.test")
                == .fieldErrors(["email": "Ya registrado"], message: "Revisa los campos marcados"))
        await harness.transport.setFallback(.failure(.noConnection))
        await harness.transport.on(.post, "/v1/users", .failure(.noConnection))
        guard case .sequence(let steps) = try await submitUser("otra@edugo.test"), case .pendingOffline = steps.first else {
            Issue.record("not pending")
            return
        }
        #expect(try harness.queue.count() == 1)
        #expect(await harness.invalidator.screens == ["users-list"])
    }

    @Test func assessmentTakeOpensTheResult() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        await harness.transport.on(.post, "/v1/materials/mat-3/assessment/attempts", .json(201, ["id": "att-99", "score": 4]))
        let context = ActionContext(
            screenKey: "assessment-take", handlerKey: "assessment-take", actionId: "submit", config: ["fields": ["q1", "q2"]],
            fieldValues: ["q1": "a", "q2": "c"], params: ["id": "mat-3"])
        let result = try await harness.run(CRUDPlugin(), submit, context: context)
        #expect(
            result
                == .sequence([
                    .success(message: "Evaluación enviada"),
                    .navigateTo(screenKey: "assessment-result", params: ["id": "att-99"], presentation: .push),
                ]))
        #expect(ScriptedTransport.body(of: await harness.transport.requests[0]) == ["answers": ["q1": "a", "q2": "c"]])
        var partial = context
        partial.fieldValues = ["q1": "a"]
        #expect(
            try await harness.run(CRUDPlugin(), submit, context: partial)
                == .fieldErrors(["q2": "Responde esta pregunta"], message: "Faltan respuestas"))
        // A question named twice by the screen (or in two normal forms of one name) is asked once.
        var repeated = context
        repeated.config = ["fields": ["q1", "q2", "q2", "q\u{e9}", "qe\u{301}"]]
        repeated.fieldValues = ["q1": "a"]
        guard case .fieldErrors(let errors, _) = try await harness.run(CRUDPlugin(), submit, context: repeated) else {
            Issue.record("no field errors")
            return
        }
        #expect(errors["q2"] == "Responde esta pregunta" && errors["q1"] == nil)
        // When the time runs out (`"validate": false`), what was answered is sent as it is.
        var timeUp = partial
        timeUp.config = ["fields": ["q1", "q2"], "validate": false, "success_message": "Se acabó el tiempo"]
        #expect(
            try await harness.run(CRUDPlugin(), submit, context: timeUp)
                == .sequence([
                    .success(message: "Se acabó el tiempo"),
                    .navigateTo(screenKey: "assessment-result", params: ["id": "att-99"], presentation: .push),
                ]))
        #expect(ScriptedTransport.body(of: await harness.transport.requests[1]) == ["answers": ["q1": "a", "q2": ""]])
    }
}

@Suite("Navigation plugin")
struct NavigationPluginTests {
    let session = SessionInfo(
        user: AuthUserInfo(id: "usr-9", firstName: "Luis", lastName: "Gómez", email: "luis@edugo.test"),
        context: UserContext(role: "teacher", roleName: "Docente", schoolId: "sch-2", academicUnitId: "unit-7"))
    let navigate = ActionDefinition(id: "go", trigger: .buttonClick, type: .navigate)

    func go(_ handlerKey: String, _ config: JSONObject) async throws -> ActionResult {
        try await HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish).run(
            NavigationPlugin(), navigate,
            context: ActionContext(
                screenKey: handlerKey, handlerKey: handlerKey, actionId: "go", config: config, session: session))
    }

    @Test func completesRouteParametersFromTheSession() async throws {
        #expect(
            try await go("dashboard-teacher", ["screen_key": "progress-unit-list"])
                == .navigateTo(screenKey: "progress-unit-list", params: ["id": "unit-7"], presentation: .push))
        #expect(
            try await go("dashboard-schooladmin", ["screen_key": "unit-create", "presentation": "sheet"])
                == .navigateTo(screenKey: "unit-create", params: ["id": "sch-2"], presentation: .sheet))
        #expect(
            try await go("progress-unit-list", ["screen_key": "progress-student-detail", "params": ["id": "usr-3"]])
                == .navigateTo(screenKey: "progress-student-detail", params: ["id": "usr-3"], presentation: .push))
        #expect(try await go("guardian-children", ["screen_key": "child-progress"]).isError)
        #expect(
            try await go("material-detail", ["screen_key": "assessment-take", "params": ["id": "mat-1"]])
                == .navigateTo(screenKey: "assessment-take", params: ["id": "mat-1"], presentation: .push))
        // Other action types go to the generic handlers.
        let refresh = try await HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish).run(
            NavigationPlugin(), ActionDefinition(id: "r", trigger: .pullRefresh, type: .refresh),
            context: ActionContext(screenKey: "progress-my", handlerKey: "progress-my", actionId: "r"))
        #expect(refresh == .refresh)
    }

    @Test func everyCatalogHandlerKeyIsServed() throws {
        let catalog = try EduGoCatalog()
        let registry = try HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish).registry([
            AuthPlugin(), CRUDPlugin(), NavigationPlugin(),
        ])
        for key in catalog.screenKeys {
            guard let handlerKey = try catalog.screen(key).handlerKey else { continue }
            #expect(registry.handler(for: handlerKey) != nil, "\(key): no handler for '\(handlerKey)'")
        }
    }
}

@Suite("Form state")
@MainActor
struct FormStateTests {
    @Test func editingClearsItsErrorAndValidationReplacesErrors() {
        let form = FormState()
        form.validator.strings = .spanish
        #expect(!form.validate(slots: materialSlots))
        #expect(form.fieldErrors["title"] == "Título: campo obligatorio")
        form.setValue("Álgebra", for: "title")
        #expect(form.fieldErrors["title"] == nil)
        #expect(form.validate(slots: materialSlots))
        form.setErrors(["grade": "Servidor: grado inválido"])
        form.setValue("8", for: "grade")
        #expect(form.fieldErrors.isEmpty)
        form.prefill(from: ["title": "Otro", "grade": 9, "contact": "x@y.zz"], slots: materialSlots)
        #expect(form.value(for: "title") == "Álgebra" && form.value(for: "contact") == "x@y.zz")
        form.clear()
        #expect(form.fieldValues.isEmpty && form.fieldErrors.isEmpty)
    }

    @Test func serverErrorShapes() {
        let validator = FormValidator(strings: .spanish)
        #expect(validator.serverErrors(in: ["errors": ["a": "m"]]) == ["a": "m"])
        #expect(validator.serverErrors(in: ["fields": ["a": ["m1", "m2"]]]) == ["a": "m1"])
        #expect(validator.serverErrors(in: ["errors": [["field": "b", "message": "n"]]]) == ["b": "n"])
        #expect(validator.serverErrors(in: nil).isEmpty)
        #expect(FormValidator.isEmail("a.b@c.co") && !FormValidator.isEmail("a@b") && !FormValidator.isEmail("a b@c.co"))
        let select = Slot(
            id: "r", controlType: .select, field: "role", label: "Rol", options: [SlotOption(value: "teacher", label: "Docente")])
        #expect(validator.validate(slots: [select], values: ["role": "admin"]) == ["role": "Rol: elige una de las opciones"])
        let password = Slot(id: "p", controlType: .passwordInput, field: "p", label: "Clave")
        #expect(validator.validate(slots: [password], values: ["p": "corta"]) == ["p": "Clave: al menos 8 caracteres"])
    }
}

@Suite("Settings switches against hostile screens")
struct HostileSettingsTests {
    /// No key, an empty one, one that is not a preference's name, or one of the SDK's own
    /// settings (the saved session): an error, and nothing is written.
    @Test(
        arguments: [
            nil, "", String(repeating: "k", count: 10_000), "session_user", "session_context", "remembered_email",
            "Dark Mode", "pref/../x",
        ] as [String?])
    func aPreferenceWithoutAUsableKeyIsAnErrorNotAWrite(key: String?) async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        var payload = JSONObject()
        if let key { payload["key"] = .string(key) }
        let action = ActionDefinition(
            id: "pref", trigger: .buttonClick, triggerSlotId: "s", type: .custom,
            config: ["event": "set_preference", "payload": .object(payload)])
        let result = try await harness.run(
            AuthPlugin(preferencesEndpoint: nil), action,
            context: ActionContext(
                screenKey: "app-settings", handlerKey: "settings", actionId: "pref",
                config: ["event": "set_preference", "payload": .object(payload)], fieldValues: ["s": "true"]))
        #expect(result == .error(message: "Preferencia desconocida"))
        if let key { #expect(await harness.settings.value(for: key) == nil, "nothing written under \(key.prefix(20))") }
    }

    @Test func aPreferenceKeyIsStoredAsTheSwitchSays() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        let config: JSONObject = ["event": "set_preference", "payload": ["key": "push_notifications"]]
        let action = ActionDefinition(
            id: "pref", trigger: .buttonClick, triggerSlotId: "s", type: .custom,
            config: ["event": "set_preference", "payload": ["key": "push_notifications"]])
        let result = try await harness.run(
            AuthPlugin(preferencesEndpoint: nil), action,
            context: ActionContext(
                screenKey: "app-settings", handlerKey: "settings", actionId: "pref", config: config, fieldValues: ["s": "true"]))
        #expect(result == .stateChanged(["push_notifications": true]))
        #expect(await harness.settings.value(for: "push_notifications") == .bool(true))
    }

    @Test func aSwitchValueThatIsNotTrueIsOff() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        let action = ActionDefinition(
            id: "theme", trigger: .buttonClick, triggerSlotId: "dark_mode", type: .custom, config: ["event": "toggle_theme"])
        for posted in ["TRUE", "1", "yes", "true ", "\u{0}"] {
            let result = try await harness.run(
                AuthPlugin(preferencesEndpoint: nil), action,
                context: ActionContext(
                    screenKey: "app-settings", handlerKey: "settings", actionId: "theme", config: ["event": "toggle_theme"],
                    fieldValues: ["dark_mode": posted]))
            #expect(result == .stateChanged(["dark_mode": false]), "\(posted.debugDescription)")
        }
    }
}
