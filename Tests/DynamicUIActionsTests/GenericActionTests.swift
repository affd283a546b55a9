import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

func action(_ type: ActionType, id: String = "act") -> ActionDefinition {
    ActionDefinition(id: id, trigger: .buttonClick, type: type)
}

let materialSlots = [
    Slot(id: "title", controlType: .textInput, field: "title", label: "Título", required: true),
    Slot(id: "grade", controlType: .numberInput, field: "grade", label: "Grado"),
    Slot(id: "email", controlType: .emailInput, field: "contact", label: "Contacto"),
    Slot(id: "published", controlType: .switch, field: "published", label: "Publicado"),
]

@Suite("Generic actions (screen dialect)")
struct GenericActionTests {
    let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)

    func run(
        _ type: ActionType, _ config: JSONObject, item: JSONValue? = nil, fields: [String: String] = [:], confirmed: Bool = false
    )
        async throws -> ActionResult
    {
        try await harness.dispatcher().execute(
            action(type),
            context: ActionContext(
                screenKey: "s", actionId: "act", config: config, fieldValues: fields, formSlots: materialSlots,
                selectedItem: item,
                confirmed: confirmed))
    }

    @Test func anActionWithoutItsEndpointSaysWhichParameterIsMissingInTheLocale() async throws {
        for type in [ActionType.apiCall, .applyPatch] {
            #expect(try await run(type, [:]) == .error(message: "Falta el parámetro 'endpoint' para act"), "\(type)")
        }
    }

    @Test func navigation() async throws {
        #expect(
            try await run(.navigate, ["screen_key": "material-detail", "params": ["id": "mat-7"]])
                == .navigateTo(screenKey: "material-detail", params: ["id": "mat-7"], presentation: .push))
        #expect(
            try await run(.navigate, ["screen_key": "material-create", "presentation": "sheet"])
                == .navigateTo(screenKey: "material-create", params: [:], presentation: .sheet))
        #expect(try await run(.navigate, [:]) == .error(message: "Falta la pantalla de destino (screen_key)"))
        #expect(try await run(.navigateBack, [:]) == .navigateBack)
        #expect(try await run(.refresh, [:]) == .refresh)
    }

    @Test func logoutAsksFirstWhenConfigured() async throws {
        #expect(try await run(.logout, [:]) == .logout)
        guard
            case .confirm(let request) = try await run(
                .logout, ["confirm": ["title": "Cerrar sesión", "confirm_label": "Salir"]])
        else {
            Issue.record("no confirmation")
            return
        }
        #expect(request.title == "Cerrar sesión" && request.confirmLabel == "Salir" && request.action.type == .logout)
        #expect(try await run(.logout, ["confirm": ["title": "x"]], confirmed: true) == .logout)
    }

    @Test func apiCallRoutesFillsParametersAndInvalidates() async throws {
        await harness.transport.on(.delete, "/v1/materials/mat-7", .json(204, nil))
        let result = try await run(
            .apiCall,
            [
                "method": "DELETE", "endpoint": "mobile:/v1/materials/{id}", "success_message": "Eliminado",
                "invalidates": ["materials-list"],
            ],
            item: ["id": "mat-7"])
        #expect(result == .success(message: "Eliminado"))
        let sent = try #require(await harness.transport.requests.first)
        #expect(sent.method == .delete)
        #expect(sent.url.absoluteString == "https://mobile.api.test/v1/materials/mat-7")
        #expect(sent.headers["Authorization"] == "Bearer tok")
        #expect(sent.headers["Idempotency-Key"] != nil)
        #expect(await harness.invalidator.screens == ["materials-list"])
        #expect(await harness.invalidator.endpoints == ["mobile:/v1/materials/{id}"])
        #expect(try await run(.apiCall, ["method": "DELETE", "endpoint": "admin:/v1/users/{id}"]).isError)
    }

    @Test func apiCallOfflineIsQueuedAndReportedPending() async throws {
        await harness.transport.setFallback(.failure(.noConnection))
        let result = try await run(
            .apiCall, ["method": "PUT", "endpoint": "admin:/v1/units/{id}", "body": ["name": "3.º C"]], item: ["id": "u-1"])
        guard case .pendingOffline = result else {
            Issue.record("not pending: \(result)")
            return
        }
        let queued = try harness.queue.all()
        #expect(queued.map(\.url) == ["https://admin.api.test/v1/units/u-1"])
        #expect(queued.first?.headers["Authorization"] == nil)
    }

    @Test func aChangeTheFullQueueCannotHoldSaysSoAndIsNotPending() async throws {
        let harness = HandlerHarness(
            tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish, queueCapacity: 1)
        await harness.transport.setFallback(.failure(.noConnection))
        func put(_ id: String) async throws -> ActionResult {
            try await harness.dispatcher().execute(
                action(.apiCall),
                context: ActionContext(
                    screenKey: "s", actionId: "act",
                    config: ["method": "PUT", "endpoint": "admin:/v1/units/{id}", "body": ["name": "x"]],
                    selectedItem: ["id": .string(id)]))
        }
        guard case .pendingOffline = try await put("u-1") else {
            Issue.record("the first change was not queued")
            return
        }
        let refused = try await put("u-2")
        #expect(refused == .error(message: harness.services.strings(.queueFull)), "\(refused)")
        #expect(try harness.queue.count() == 1, "nothing more stored")
    }

    @Test func submitFormValidatesTypesAndMapsServerErrors() async throws {
        let config: JSONObject = [
            "method": "POST", "endpoint": "/v1/materials", "fields": ["title", "grade", "contact", "published"],
            "on_success": ["type": "NAVIGATE_BACK"],
        ]
        let invalid = try await run(.submitForm, config, fields: ["grade": "siete", "contact": "ana@"])
        #expect(
            invalid
                == .fieldErrors(
                    [
                        "title": "Título: campo obligatorio", "grade": "Grado: introduce un número",
                        "contact": "Contacto: introduce un correo electrónico válido",
                    ],
                    message: "Revisa los campos marcados"))
        #expect(await harness.transport.requests.isEmpty)

        await harness.transport.on(
            .post, "/v1/materials", .json(422, ["errors": ["title": "Ya existe un material con ese título"]]),
            .json(201, ["id": "mat-138"]))
        let fields = ["title": "Álgebra", "grade": "7", "contact": "ana@edugo.test", "published": "true"]
        #expect(
            try await run(.submitForm, config, fields: fields)
                == .fieldErrors(["title": "Ya existe un material con ese título"], message: "Revisa los campos marcados"))
        #expect(try await run(.submitForm, config, fields: fields) == .sequence([.success(message: "Guardado"), .navigateBack]))
        let body = ScriptedTransport.body(of: await harness.transport.requests.last!)
        #expect(body == ["title": "Álgebra", "grade": 7, "contact": "ana@edugo.test", "published": true])
    }

    @Test func confirmThenAcceptOrCancel() async throws {
        let config: JSONObject = [
            "title": "Eliminar material", "message": "¿Seguro?", "confirm_label": "Eliminar", "destructive": true,
            "action": ["type": "API_CALL", "config": ["method": "DELETE", "endpoint": "/v1/materials/{id}"]],
        ]
        guard case .confirm(let request) = try await run(.confirm, config, item: ["id": "mat-1"]) else {
            Issue.record("no confirmation")
            return
        }
        #expect(request.destructive && request.cancelLabel == "Cancelar" && request.action.type == .apiCall)
        // Cancelling means not running the guarded action: nothing was sent.
        #expect(await harness.transport.requests.isEmpty)
        await harness.transport.on(.delete, "/v1/materials/mat-1", .json(204, nil))
        let accepted = try await harness.dispatcher().execute(
            request.action,
            context: ActionContext(
                screenKey: "s", actionId: request.action.id,
                config: request.action.config.map { JSONObject($0.map { ($0.key, $0.value) }) } ?? [:],
                selectedItem: ["id": "mat-1"], confirmed: true))
        #expect(!accepted.isError)
        #expect(await harness.transport.requests.map(\.url.path) == ["/v1/materials/mat-1"])
    }

    @Test(arguments: [
        ("https://edugo.test/legal/privacidad", true), ("https://www.edugo.test/x", true), ("javascript:alert(1)", false),
        ("file:///etc/passwd", false), ("http://edugo.test/", false), ("https://evil.test/", false),
        ("https://edugo.test.evil.com/", false), ("https://edugo.test@evil.com/", false), ("data:text/html,<script>", false),
    ])
    func openURLFollowsTheSecurityPolicy(url: String, allowed: Bool) async throws {
        let result = try await run(.openURL, ["url": .string(url)])
        if allowed {
            #expect(result == .openURL(URL(string: url)!))
        } else {
            #expect(result.isError, "\(url) was allowed")
        }
    }

    @Test func customEventsGoToHostHandlers() async throws {
        let harness = HandlerHarness(
            events: EventHandlerRegistry(["share": { payload, _ in .success(message: payload["text"]?.text) }]),
            allowedHosts: ["edugo.test"], strings: .spanish)
        let dispatcher = try harness.dispatcher()
        #expect(
            await dispatcher.execute(
                action(.custom),
                context: ActionContext(screenKey: "s", actionId: "c", config: ["event": "share", "payload": ["text": "hola"]]))
                == .success(message: "hola"))
        #expect(
            await dispatcher.execute(
                action(.custom), context: ActionContext(screenKey: "s", actionId: "c", config: ["event": "nope"])
            ).isError)
    }
}

@Suite("Node-dialect actions")
struct NodeActionTests {
    let harness = HandlerHarness(
        events: EventHandlerRegistry(["openExternalUrl": { payload, _ in .success(message: payload["url"]?.text) }]),
        allowedHosts: ["edugo.test"], strings: .spanish)
    let context = DataContext.screen(
        data: ["podcast": ["trackId": 42, "collectionViewUrl": "https://podcasts.apple.com/x"]], state: ["searchQuery": "swift"],
        environment: EvaluationEnvironment(now: Date(timeIntervalSince1970: 0), locale: Locale(identifier: "es_ES")))

    func node(_ json: JSONValue) throws -> CompiledNodeAction {
        let action = try NodeAction(json: json)
        let wrapper = ViewNode(type: .button, props: .button(label: nil, action: action))
        return try NodeCompiler().compile(wrapper).actions["action"]!
    }

    @Test func aCompiledActionKeepsTheTypeItWasWrittenWith() throws {
        let samples: [String: JSONValue] = [
            "navigate": ["screen": "a"], "present": ["screen": "a"], "dismiss": [:], "api": ["endpoint": "/v1/x"],
            "setState": ["key": "k", "value": 1], "custom": ["event": "e"], "sequence": ["actions": []],
            "patch": ["endpoint": "/v1/patch"], "timer": ["id": "t", "command": "start"],
        ]
        #expect(Set(samples.keys) == Set(NodeAction.knownTypes))
        for (type, members) in samples {
            var object = members.objectValue ?? [:]
            object["actionType"] = .string(type)
            #expect(try node(.object(object)).actionType == type)
        }
        #expect(try node(["actionType": "vibrate"]).actionType == "vibrate")
    }

    @Test func eachActionType() async throws {
        let executor = NodeActionExecutor(services: harness.services)
        #expect(
            await executor.execute(
                try node(["actionType": "navigate", "screen": "podcast_detail", "params": ["podcastId": "$.podcast.trackId"]]),
                in: context)
                == .navigateTo(screenKey: "podcast_detail", params: ["podcastId": 42], presentation: .push))
        #expect(
            await executor.execute(try node(["actionType": "present", "screen": "share", "params": ["x": 1]]), in: context)
                == .present(screen: "share", params: ["x": 1]))
        #expect(await executor.execute(try node(["actionType": "dismiss"]), in: context) == .dismiss)
        #expect(
            await executor.execute(try node(["actionType": "setState", "key": "open", "value": true]), in: context)
                == .stateChanged(["open": true]))
        #expect(
            await executor.execute(
                try node(["actionType": "custom", "event": "openExternalUrl", "payload": ["url": "$.podcast.collectionViewUrl"]]),
                in: context)
                == .success(message: "https://podcasts.apple.com/x"))
        #expect(await executor.execute(try node(["actionType": "custom", "event": "unregistered"]), in: context).isError)
        #expect(await executor.execute(try node(["actionType": "teleport"]), in: context).isError)
    }

    @Test func patchFetchesADocumentPatchForTheShownDocument() async throws {
        let patch: JSONValue = ["screen_key": "search", "changes": [["id": "title", "items": []]]]
        await harness.transport.on(.get, "/v1/search/patch", .json(200, patch), .json(200, ["changes": "none"]))
        let executor = NodeActionExecutor(services: harness.services)
        let action = try node(["actionType": "patch", "endpoint": "/v1/search/patch"])
        #expect(
            await executor.execute(action, in: context)
                == .patch(DocumentPatch(changes: [PatchChange(id: "title")], screenKey: "search"), toData: false))
        // A body that is not a patch is an error, and nothing to apply.
        #expect(await executor.execute(action, in: context).isError)
    }

    @Test func apiStoresTheResultUnderItsKey() async throws {
        await harness.transport.on(.get, "/search", .json(200, ["resultCount": 1, "results": [["trackName": "Swift Talk"]]]))
        let executor = NodeActionExecutor(services: harness.services)
        let result = await executor.execute(
            try node([
                "actionType": "api", "endpoint": "/search", "params": ["term": "$.env.searchQuery", "media": "podcast"],
                "resultKey": "searchResults",
            ]),
            in: context)
        #expect(result == .stateChanged(["searchResults": ["resultCount": 1, "results": [["trackName": "Swift Talk"]]]]))
        let query = await harness.transport.requests.first?.url.query ?? ""
        #expect(query.contains("term=swift") && query.contains("media=podcast"))
    }

    @Test func sequenceRunsInOrderAndStopsAtTheFirstError() async throws {
        await harness.transport.on(.get, "/lookup", .json(200, ["resultCount": 0]))
        let executor = NodeActionExecutor(services: harness.services)
        let ok = await executor.execute(
            try node([
                "actionType": "sequence",
                "actions": [
                    ["actionType": "setState", "key": "lastQuery", "value": "$.env.searchQuery"],
                    ["actionType": "setState", "key": "echo", "value": "$.env.lastQuery"],
                    ["actionType": "api", "endpoint": "/lookup", "params": ["id": 1], "resultKey": "r"],
                ],
            ]), in: context)
        #expect(
            ok
                == .sequence([
                    .stateChanged(["lastQuery": "swift"]), .stateChanged(["echo": "swift"]),
                    .stateChanged(["r": ["resultCount": 0]]),
                ]))
        let stopped = await executor.execute(
            try node([
                "actionType": "sequence",
                "actions": [
                    ["actionType": "setState", "key": "a", "value": 1], ["actionType": "custom", "event": "missing"],
                    ["actionType": "dismiss"],
                ],
            ]), in: context)
        guard case .sequence(let results) = stopped else {
            Issue.record("not a sequence")
            return
        }
        #expect(results.count == 2 && results[1].isError && stopped.isError)
    }
}
