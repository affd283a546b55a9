import DynamicUI
import DynamicUIActions
import DynamicUIModels
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

/// Inputs bound to variables: what the user enters sets the variable (converted and checked)
/// and fires its triggers; the input shows the variable's value when something else changes it;
/// text that is not a value of the type is the field's error and changes nothing.
@Suite("Form inputs bound to variables")
@MainActor
struct VariableInputTests {
    static let screen: JSONValue = [
        "screen_id": "scr_inputs", "screen_key": "inputs", "screen_name": "Ajustes", "pattern": "form", "version": 1,
        "updated_at": "2026-11-26T00:00:00Z",
        "variables": [
            ["name": "minutes", "type": "integer", "value": 15], ["name": "alerts", "type": "boolean"],
            ["name": "nickname", "type": "string", "value": "Ana"], ["name": "changes", "type": "integer"],
        ],
        "triggers": [["variable": "minutes", "actions": ["count"]]],
        "template": [
            "zones": [
                [
                    "id": "form", "type": "form-section",
                    "slots": [
                        ["id": "minutes", "control_type": "number-input", "label": "Minutos", "variable": "minutes"],
                        ["id": "alerts", "control_type": "switch", "label": "Avisos", "variable": "alerts"],
                        ["id": "nickname", "control_type": "text-input", "label": "Apodo", "variable": "nickname"],
                        ["id": "summary", "control_type": "label", "value": "{variables.minutes} min · {variables.nickname}"],
                    ],
                ]
            ]
        ],
        "actions": [
            ["id": "count", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "changes", "increment": 1]],
            ["id": "more", "trigger": "SCREEN", "type": "SET_VARIABLE", "config": ["name": "minutes", "value": 30]],
        ],
    ]

    @Test func typingSetsTheVariableAndFiresItsTrigger() async throws {
        let fixture = Fixture()
        let model = try await fixture.shown(Self.screen)
        #expect(model.formState.value(for: "minutes") == "15", "the input shows the variable's initial value")
        #expect(model.formState.value(for: "nickname") == "Ana")
        model.setFieldValue("20", for: "minutes")
        await model.firedActionsFinished()
        #expect(model.variables["minutes"] == 20)
        #expect(model.variables["changes"] == 1, "its trigger ran")
        #expect(TextRenderer().render(try model.render(options: RenderOptions())).contains("20 min · Ana"))
        model.setFieldValue("on", for: "alerts")
        model.setFieldValue("Lu", for: "nickname")
        #expect(model.variables["alerts"] == true && model.variables["nickname"] == "Lu")
    }

    @Test func textThatIsNotOfTheTypeIsTheFieldsErrorAndChangesNothing() async throws {
        let recorder = RecordingObserver()
        let fixture = Fixture()
        let model = try await fixture.shown(Self.screen, observers: DynamicUIObservers([recorder]))
        model.setFieldValue("veinte", for: "minutes")
        #expect(model.variables["minutes"] == 15)
        #expect(model.formState.fieldErrors["minutes"] == "Minutos: introduce un número")
        #expect(recorder.errors.contains { $0.path == "form.minutes" && $0.message.contains("integer") })
        model.setFieldValue("99999999999999999999", for: "minutes")
        #expect(model.variables["minutes"] == 15, "beyond 64 bits is refused, not trapped")
        model.setFieldValue("21", for: "minutes")
        #expect(model.formState.fieldErrors["minutes"] == nil, "a good value clears the error")
        model.setFieldValue("x", for: "minutes")
        await model.perform(actionId: "more")
        #expect(model.formState.value(for: "minutes") == "30")
        #expect(model.formState.fieldErrors["minutes"] == nil, "the variable's value replaced the bad text and its error")
    }

    @Test func aNumberIsShownWithTheLocalesDecimalSeparator() async throws {
        var screen = Self.screen.objectValue ?? [:]
        screen["variables"] = [["name": "minutes", "type": "number", "value": 2.5]]
        screen["triggers"] = []
        let fixture = Fixture()
        let model = try await fixture.shown(.object(screen))
        #expect(model.formState.value(for: "minutes") == "2,5", "Spanish writes a decimal comma")
        model.setFieldValue("2,75", for: "minutes")
        #expect(model.variables["minutes"] == 2.75 && model.formState.value(for: "minutes") == "2,75")
    }

    @Test func theInputShowsTheVariableWhenAnActionChangesIt() async throws {
        let fixture = Fixture()
        let model = try await fixture.shown(Self.screen)
        await model.perform(actionId: "more")
        #expect(model.formState.value(for: "minutes") == "30")
    }

    @Test func inputTextConvertsToEachType() {
        #expect(VariableType.integer.value(fromInput: " 12 ") == 12)
        #expect(VariableType.integer.value(fromInput: "1.5") == nil)
        #expect(VariableType.number.value(fromInput: "2,5", decimalSeparator: ",") == 2.5)
        #expect(VariableType.number.value(fromInput: "2.5") == 2.5)
        #expect(VariableType.number.value(fromInput: "1,000") == nil, "grouping is ambiguous: refused")
        #expect(VariableType.number.value(fromInput: "1.000", decimalSeparator: ",") == nil)
        #expect(VariableType.number.value(fromInput: "inf") == nil)
        #expect(VariableType.boolean.value(fromInput: "0") == false)
        #expect(VariableType.boolean.value(fromInput: "quizá") == nil)
        #expect(VariableType.array.value(fromInput: "[1, 2]") == [1, 2])
        #expect(VariableType.object.value(fromInput: "{") == nil)
        #expect(VariableType.url.value(fromInput: "https://edugo.test") == "https://edugo.test")
    }
}
