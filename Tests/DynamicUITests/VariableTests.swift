import DynamicUI
import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITesting
import Foundation
import Testing

/// Screen variables: typed values every expression reads, set by `SET_VARIABLE`, by patches and
/// by the host app, and triggers that run actions when they change, in bounded cascades.
@Suite("Variables and triggers")
@MainActor
struct VariableTests {
    /// A counter screen: `count` (integer), `label` (string), a button that adds one, a button
    /// that sets a wrong type, and `triggers` as given.
    static func counter(triggers: [JSONValue] = [], extraActions: [JSONValue] = []) -> JSONValue {
        [
            "screen_id": "scr_counter", "screen_key": "counter", "screen_name": "Contador", "pattern": "dashboard",
            "version": 1, "updated_at": "2026-11-25T00:00:00Z",
            "variables": [
                ["name": "count", "type": "integer", "value": 2], ["name": "label", "type": "string"],
                ["name": "tint", "type": "color", "value": "#1E88E5"],
            ],
            "triggers": .array(triggers),
            "template": [
                "zones": [
                    [
                        "id": "main", "type": "container",
                        "slots": [
                            ["id": "shown", "control_type": "label", "value": "Cuenta: {variables.count} {variables.label}"],
                            ["id": "add", "control_type": "filled-button", "label": "Sumar"],
                            ["id": "break", "control_type": "text-button", "label": "Romper"],
                        ],
                    ]
                ]
            ],
            "actions": .array(
                [
                    [
                        "id": "add-one", "trigger": "BUTTON_CLICK", "trigger_slot_id": "add", "type": "SET_VARIABLE",
                        "config": ["name": "count", "increment": 1],
                    ],
                    [
                        "id": "set-wrong", "trigger": "BUTTON_CLICK", "trigger_slot_id": "break", "type": "SET_VARIABLE",
                        "config": ["name": "count", "value": "muchos"],
                    ],
                ] + extraActions),
        ]
    }

    static func shown(
        _ screen: JSONValue, observers: DynamicUIObservers = .none
    ) async throws -> (Fixture, DynamicScreenViewModel) {
        let fixture = Fixture()
        return (fixture, try await fixture.shown(screen, observers: observers))
    }

    static func text(_ model: DynamicScreenViewModel) throws -> String {
        TextRenderer().render(try model.render(options: RenderOptions()))
    }

    @Test func expressionsReadTypedVariablesThatSetVariableChanges() async throws {
        let (_, model) = try await Self.shown(Self.counter())
        #expect(model.variables == ["count": 2, "label": "", "tint": "#1E88E5"])
        #expect(try Self.text(model).contains("Cuenta: 2"))
        await model.perform(actionId: "add-one")
        await model.perform(actionId: "add-one")
        #expect(model.variables["count"] == 4)
        #expect(try Self.text(model).contains("Cuenta: 4"))
        // A value of another type is refused: the variable keeps its value, the user sees an error.
        let result = await model.perform(actionId: "set-wrong")
        #expect(model.variables["count"] == 4)
        #expect(model.banner?.kind == .error, "\(result)")
    }

    @Test func theHostSetsVariablesAllOrNothing() async throws {
        let (_, model) = try await Self.shown(Self.counter())
        try await model.setVariables(["count": 7, "label": "hoy"])
        #expect(try Self.text(model).contains("Cuenta: 7 hoy"))
        let wrong = await #expect(throws: VariableError.self) { try await model.setVariables(["count": 8, "tint": "azul"]) }
        #expect(wrong?.code == .typeMismatch && wrong?.location.description == "tint")
        #expect(model.variables["count"] == 7, "nothing set when one value is wrong")
        let unknown = await #expect(throws: VariableError.self) { try await model.setVariables(["nope": 1]) }
        #expect(unknown?.code == .unknownVariable)
        let fraction = await #expect(throws: VariableError.self) { try await model.setVariables(["count": 1.5]) }
        #expect(fraction?.code == .typeMismatch)
    }

    @Test func aTriggerRunsWhenItsVariableChangesAndAConditionWhenItBecomesTrue() async throws {
        let screen = Self.counter(
            triggers: [
                ["variable": "count", "actions": ["mark"]],
                ["condition": "variables.count >= 5", "actions": ["warn"]],
            ],
            extraActions: [
                [
                    "id": "mark", "trigger": "SCREEN", "type": "SET_VARIABLE",
                    "config": ["name": "label", "value": "cambió a {variables.count}"],
                ],
                ["id": "warn", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "tint", "value": "#FF0000"]],
            ])
        let (_, model) = try await Self.shown(screen)
        await model.perform(actionId: "add-one")
        #expect(model.variables["label"] == "cambió a 3")
        #expect(model.variables["tint"] == "#1E88E5", "the condition is not true yet")
        try await model.setVariables(["count": 5])
        #expect(model.variables["tint"] == "#FF0000", "became true")
        try await model.setVariables(["tint": "#00FF00", "count": 6])
        #expect(model.variables["tint"] == "#00FF00", "still true: it does not fire again")
        try await model.setVariables(["count": 1])
        try await model.setVariables(["count": 9])
        #expect(model.variables["tint"] == "#FF0000", "false, then true again: it fires again")
    }

    @Test func aConditionOnTheDataFiresWhenTheDataArrives() async throws {
        let counter = Self.counter(
            triggers: [["condition": "data.status == 'closed'", "actions": ["mark-closed"]]],
            extraActions: [
                [
                    "id": "mark-closed", "trigger": "SCREEN", "type": "SET_VARIABLE",
                    "config": ["name": "label", "value": "cerrado"],
                ]
            ])
        var screen = try #require(counter.objectValue)
        screen["data_endpoint"] = "/v1/status"
        let fixture = Fixture()
        await fixture.harness.transport.on(
            .get, "/v1/status", .json(200, ["status": "open"]), .json(200, ["status": "closed"]))
        let model = try await fixture.shown(.object(screen))
        #expect(model.variables["label"] == "", "open: the condition does not hold")
        // No timer is bound to the data: the load alone runs the triggers.
        await model.refresh()
        #expect(model.variables["label"] == "cerrado")
    }

    @Test func aSelfTriggeringVariableStopsAtTheDepthLimit() async throws {
        let recorder = RecordingObserver()
        // Each change of `count` adds one to `count`: it would never end.
        let screen = Self.counter(triggers: [["variable": "count", "actions": ["add-one"]]])
        let (_, model) = try await Self.shown(screen, observers: DynamicUIObservers([recorder]))
        await model.perform(actionId: "add-one")
        // The first change and one per level of the cascade, then it stops.
        #expect(model.variables["count"] == .number(JSONNumber(2 + 1 + VariableTrigger.maxCascadeDepth)))
        let cascade = recorder.errors.filter { $0.kind == .triggerCascade }
        #expect(cascade.count == 1)
        #expect(cascade.first?.message.contains("add-one") == true)
    }

    @Test func aPatchSetsVariablesCheckedAgainstTheirTypes() async throws {
        let (_, model) = try await Self.shown(Self.counter())
        var patch = DocumentPatch(changes: [
            PatchChange(id: "shown", items: [["id": "shown", "control_type": "label", "value": "Total {variables.count}"]])
        ])
        patch.variables = ["count": 40]
        try model.apply(patch)
        #expect(try Self.text(model).contains("Total 40"))
        // A wrong type refuses the whole patch: the zones stay as they were.
        patch.changes = [PatchChange(id: "shown", items: [["id": "shown", "control_type": "label", "value": "Otro"]])]
        patch.variables = ["count": "cuarenta"]
        let error = #expect(throws: PatchError.self) { try model.apply(patch) }
        #expect(error?.location.description == "variables.count")
        #expect(try Self.text(model).contains("Total 40"))
        patch.variables = ["missing": 1]
        #expect(throws: PatchError.self) { try model.apply(patch) }
    }

    @Test func wireValuesAreCheckedForEveryType() throws {
        let cases: [(VariableType, JSONValue, Bool)] = [
            (.string, "a", true), (.string, 1, false), (.integer, 3, true), (.integer, 3.5, false),
            (.integer, .number(JSONNumber(1e300)), false), (.number, 3.5, true), (.boolean, true, true),
            (.boolean, "true", false),
            (.color, "#fff", true), (.color, "#80FFAA00", true), (.color, "#ggg", false), (.color, "red", false),
            (.url, "https://edugo.test/a", true), (.url, "mailto:a@b.c", true), (.url, "/relative", false),
            (.url, "https://a b", false), (.array, [1], true), (.array, [:], false), (.object, [:], true),
            (.unknown("date"), "2026-01-01", false), (.string, .null, false),
        ]
        for (type, value, valid) in cases {
            let result = Result { () throws(VariableError) in try type.checked(value, name: "v", at: "variables[0].value") }
            #expect(((try? result.get()) != nil) == valid, "\(type) \(value)")
        }
    }

    @Test func aPatchThatFiresItsOwnTriggerStopsAtTheDepthLimitToo() async throws {
        let recorder = RecordingObserver()
        // Each change of `count` fetches a patch that changes `count` again.
        let screen = Self.counter(
            triggers: [["variable": "count", "actions": ["fetch"]]],
            extraActions: [
                ["id": "fetch", "trigger": "SCREEN", "type": "APPLY_PATCH", "config": ["endpoint": "/v1/counter/patch"]]
            ])
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/screens/counter", .json(200, screen))
        let replies: [ScriptedTransport.Reply] = (0..<40).map {
            .json(200, ["changes": [], "variables": ["count": .number(JSONNumber(100 + $0))]])
        }
        await fixture.harness.transport.on(.get, "/v1/counter/patch", replies: replies)
        let model = try fixture.model(route: Route(screenKey: "counter"), observers: DynamicUIObservers([recorder]))
        await model.load()
        await model.perform(actionId: "add-one")
        await model.firedActionsFinished()
        await model.firedActionsFinished()
        for _ in 0..<50 { await Task.yield() }
        let fetched = await fixture.harness.transport.requests(to: "/v1/counter/patch").count
        #expect(fetched == VariableTrigger.maxCascadeDepth, "\(fetched) patches fetched")
        #expect(recorder.errors.contains { $0.kind == .triggerCascade })
    }

    @Test func aNameInsideAnActionsBodyIsStillATemplate() async throws {
        let screen = Self.counter(extraActions: [
            [
                "id": "send", "trigger": "SCREEN", "type": "API_CALL",
                "config": ["method": "POST", "endpoint": "/v1/counts", "body": ["name": "{variables.count}"]],
            ]
        ])
        let (fixture, model) = try await Self.shown(screen)
        await fixture.harness.transport.on(.post, "/v1/counts", .json(201, [:]))
        await model.perform(actionId: "send")
        let sent = try #require(await fixture.harness.transport.requests(to: "/v1/counts").first)
        #expect(ScriptedTransport.body(of: sent)?["name"] == 2)
    }
}
