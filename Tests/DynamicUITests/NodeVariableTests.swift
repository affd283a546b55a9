import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

@testable import DynamicUI

/// A node document's typed variables and triggers, as a screen's: first values in state, a
/// value of another type refused, triggers run the root's named actions when a variable
/// changes or a condition turns true.
@Suite("Node document variables and triggers")
@MainActor
struct NodeVariableTests {
    /// A quiz with a typed answer count, a field bound to it, and triggers on it.
    static let document: JSONValue = [
        "type": "screen", "id": "quiz",
        "variables": [
            ["name": "answered", "type": "integer", "value": 0], ["name": "done", "type": "boolean"],
            ["name": "note", "type": "string", "value": 5], ["name": "score", "type": "number"],
        ],
        "triggers": [
            ["variable": "answered", "actions": ["report"]],
            ["condition": "$.state.answered >= 3", "actions": ["finish"]],
            ["condition": "$.state.query == 'help'", "actions": ["finish"]],
        ],
        "props": [
            "title": "Quiz",
            "actions": [
                "report": ["actionType": "api", "endpoint": "/v1/quiz/progress", "params": ["n": "$.state.answered"]],
                "finish": ["actionType": "setState", "key": "done", "value": true],
                "answer": ["actionType": "setState", "key": "answered", "value": "$.state.next"],
                "wrong": ["actionType": "setState", "key": "answered", "value": "many"],
            ],
            "body": [
                "type": "vstack",
                "children": [
                    ["type": "text", "props": ["content": "$.state.answered"]],
                    ["type": "text_field", "props": ["placeholder": "Answered", "binding": "$.state.answered"]],
                ],
            ],
        ],
    ]

    /// The document shown; the app is returned to be kept (its documents hold it weakly).
    static func shown() async throws -> (ScriptedTransport, NodeScreenModel, RecordingObserver, NodeAppRuntime) {
        let transport = ScriptedTransport()
        for name in ["theme", "components"] { await transport.on(.get, "/v1/documents/\(name)", .json(404, nil)) }
        await transport.on(.get, "/v1/documents/quiz", .json(200, document))
        await transport.on(.get, "/v1/quiz/progress", .json(200, ["ok": true]))
        let recorder = RecordingObserver()
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://api.example.com")!, documents: .remote("/v1/documents/{name}"),
                rootDocument: "quiz", retryPolicy: .none, locale: Locale(identifier: "es_ES"), observers: [recorder]),
            transport: transport)
        await app.start()
        let model = app.model(for: try #require(app.current))
        await model.appeared()
        return (transport, model, recorder, app)
    }

    @Test func variablesStartFromTheirValuesAndAWrongFirstValueIsReported() async throws {
        let (_, model, recorder, app) = try await Self.shown()
        #expect(model.phase == .ready)
        #expect(model.state["answered"] == 0 && model.state["done"] == false)
        // A first value of another type: the type's empty value, and an error that names it.
        #expect(model.state["note"] == "")
        #expect(recorder.errors.contains { $0.path == "variables[2]" && $0.message.contains("'note'") })
        #expect(app.phase == .ready)
    }

    @Test func aChangeRunsTheTriggersAndAConditionFiresOnceWhenItTurnsTrue() async throws {
        let (transport, model, _, app) = try await Self.shown()
        for next in 1...4 {
            await model.apply(.stateChanged(["answered": .number(JSONNumber(next))]))
        }
        let reports = await transport.requests(to: "/v1/quiz/progress")
        #expect(reports.map { $0.url.query ?? "" } == ["n=1", "n=2", "n=3", "n=4"], "each change reported, in order")
        #expect(model.state["done"] == true, "the condition turned true at 3")
        #expect(app.phase == .ready)
        // The same value again changes nothing and fires nothing.
        await model.apply(.stateChanged(["answered": 4]))
        #expect(await transport.requests(to: "/v1/quiz/progress").count == 4)
    }

    @Test func aValueOfAnotherTypeIsRefusedWhole() async throws {
        let (transport, model, recorder, app) = try await Self.shown()
        await model.apply(.stateChanged(["answered": "many", "other": 1]))
        #expect(model.state["answered"] == 0 && model.state["other"] == nil, "all or nothing")
        #expect(model.banner?.kind == .error, "the app's words for a failed action")
        #expect(recorder.errors.contains { $0.kind == .actionFailed && $0.path == "changes.answered" })
        #expect(await transport.requests(to: "/v1/quiz/progress").isEmpty)
        // Undeclared state keys stay free.
        await model.apply(.stateChanged(["other": "x"]))
        #expect(model.state["other"] == "x")
        #expect(app.phase == .ready)
    }

    @Test func aBoundFieldSetsItsVariableFromItsText() async throws {
        let (transport, model, _, app) = try await Self.shown()
        model.setValue("2", for: "$.state.answered")
        #expect(model.state["answered"] == 2, "the text, as the variable's type")
        await model.firedActionsFinished()
        #expect(await transport.requests(to: "/v1/quiz/progress").count == 1)
        model.setValue("two", for: "$.state.answered")
        #expect(model.state["answered"] == 2, "text that is no integer leaves the variable as it was")
        #expect(app.phase == .ready)
    }

    @Test func aNumberFieldReadsTheLocalesCommaOrAPointAndAFreeKeyStillFiresConditions() async throws {
        let (_, model, recorder, app) = try await Self.shown()
        model.setValue("2,5", for: "$.state.score")
        #expect(model.state["score"] == 2.5)
        model.setValue("2.75", for: "$.state.score")
        #expect(model.state["score"] == 2.75, "the point the field shows is read too")
        model.setValue("mucho", for: "$.state.score")
        #expect(model.state["score"] == 2.75 && recorder.errors.contains { $0.path == "binding.score" })
        // A field bound to a key no variable declares: a condition on it still turns.
        model.setValue("help", for: "$.state.query")
        await model.firedActionsFinished()
        #expect(model.state["done"] == true)
        #expect(app.phase == .ready)
    }

    @Test func aPatchSetsVariablesCheckedWithItsChanges() async throws {
        let (transport, model, _, app) = try await Self.shown()
        try model.apply(try DocumentPatch(json: ["variables": ["answered": 2], "changes": []]))
        await model.firedActionsFinished()
        #expect(model.state["answered"] == 2)
        #expect(await transport.requests(to: "/v1/quiz/progress").count == 1, "its triggers ran")
        #expect(throws: PatchError.self) {
            try model.apply(try DocumentPatch(json: ["variables": ["answered": "x"], "changes": []]))
        }
        #expect(model.state["answered"] == 2, "refused whole")
        // Declarations read again (a preview's edit) keep the values of the same types.
        model.startVariables(keeping: true)
        #expect(model.state["answered"] == 2)
        model.startVariables()
        #expect(model.state["answered"] == 0)
        #expect(app.phase == .ready)
    }
}
