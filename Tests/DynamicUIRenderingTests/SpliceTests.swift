import DynamicUIModels
import DynamicUIResolvers
import Foundation
import PropertyBased
import Testing

@testable import DynamicUIRendering

/// A tick, a keystroke or a patch that changes a few zones puts them in place of their nodes in
/// the previous tree; whatever changes, the tree is the one a render without a memo draws,
/// focus order, chrome and rows included.
@Suite("Zones spliced into the previous tree")
struct SpliceTests {
    static let screen: CompiledScreen = try! ScreenCompiler().compile(
        try! ScreenDefinition(json: [
            "screen_id": "scr_splice", "screen_key": "splice", "screen_name": "Tarea de {user.firstName}", "pattern": "list",
            "version": 1, "updated_at": "2026-11-27T00:00:00Z",
            "actions": [
                ["id": "send", "trigger": "BUTTON_CLICK", "trigger_slot_id": "send", "type": "SUBMIT_FORM"],
                ["id": "more", "trigger": "BUTTON_CLICK", "trigger_slot_id": "more", "type": "SUBMIT_FORM"],
            ],
            "variables": [
                ["name": "remaining", "type": "number", "initial": 600], ["name": "show", "type": "boolean", "initial": false],
                ["name": "title", "type": "string", "initial": ""],
            ],
            "template": [
                "zones": [
                    [
                        "id": "countdown", "type": "container",
                        "slots": [["id": "left", "control_type": "label", "value": "Quedan {variables.remaining} s"]],
                    ],
                    // Before the form: once loaded, its button is the tree's first primary one,
                    // which the form's last field submits.
                    [
                        "id": "latest", "type": "container", "data_endpoint": "/v1/latest",
                        "slots": [
                            ["id": "episode", "control_type": "label", "value": "{section.episode}"],
                            ["id": "more", "control_type": "filled-button", "label": "Más"],
                        ],
                    ],
                    [
                        "id": "answer", "type": "form-section",
                        "slots": [
                            ["id": "name", "control_type": "text-input", "label": "Nombre", "required": true],
                            ["id": "note", "control_type": "text-input", "label": "Nota {variables.remaining}"],
                            ["id": "send", "control_type": "filled-button", "label": "Enviar"],
                        ],
                    ],
                    [
                        "id": "extra", "type": "container", "condition": "variables.show",
                        "slots": [["id": "echo", "control_type": "label", "value": "{form.note}"]],
                    ],
                    [
                        "id": "rows", "type": "simple-list",
                        "item_layout": ["slots": [["id": "t", "control_type": "list-item", "field": "title"]]],
                    ],
                ]
            ],
        ]))

    struct State {
        var remaining = 600
        var show = false
        var title = ""
        var name = ""
        var note = ""
        var items = (0..<300).map { JSONValue.object(["id": .string("m-\($0)"), "title": .string("Material \($0)")]) }
        var section: SectionState?
        var banner: Banner?
        var searchText = ""
    }

    static func render(_ state: State, memo: RenderMemo?) throws -> RenderNode {
        let items = ListItems(state.items)
        let form: JSONObject = ["name": .string(state.name), "note": .string(state.note)]
        let context = try screen.context(
            user: teacher, userContext: teacherContext, data: .null, items: items, form: form,
            variables: [
                "remaining": .number(JSONNumber(state.remaining)), "show": .bool(state.show), "title": .string(state.title),
            ],
            environment: environment)
        return PatternRouter().render(
            ScreenInputs(
                screen: screen, context: context, items: items,
                form: FormSnapshot(values: ["name": state.name, "note": state.note]), searchText: state.searchText,
                banner: state.banner, memo: memo, sections: state.section.map { ["latest": $0] } ?? [:]))
    }

    @Test func aTickAndAKeystrokeSpliceTheirZones() throws {
        let memo = RenderMemo()
        var state = State()
        let first = try Self.render(state, memo: memo)
        state.remaining = 599
        let tick = try Self.render(state, memo: memo)
        #expect(memo.splices == 1)
        #expect(firstList(in: tick) === firstList(in: first))
        #expect(describeTree(tick) == describeTree(try Self.render(state, memo: nil)))
        state.note = "h"
        let typed = try Self.render(state, memo: memo)
        #expect(memo.splices == 2)
        #expect(describeTree(typed) == describeTree(try Self.render(state, memo: nil)))
        // A banner is the chrome's: the tree is drawn in full.
        state.banner = Banner(kind: .success, message: "Guardado")
        #expect(describeTree(try Self.render(state, memo: memo)) == describeTree(try Self.render(state, memo: nil)))
        #expect(memo.splices == 2)
    }

    /// Random changes, each drawn with the memo and without: the same tree every time.
    @Test func whatASpliceDrawsIsWhatAFullRenderDraws() throws {
        var generator = Xoshiro(seed: (0x5911CE, 1, 2, 3))
        let memo = RenderMemo()
        var state = State()
        for step in 0..<200 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0, 1: state.remaining -= 1
            case 2: state.note = String(repeating: "a", count: Int.random(in: 0..<4, using: &generator))
            case 3: state.name = ["", "Lucía", "Tomás"].randomElement(using: &generator)!
            case 4: state.show.toggle()
            case 5: state.title = ["", "de hoy"].randomElement(using: &generator)!
            case 6:
                let index = Int.random(in: 0..<state.items.count, using: &generator)
                state.items[index] = ["id": .string("m-\(index)"), "title": .string("Revisado \(step)")]
            case 7:
                state.section = [nil, .loading, .loaded(["episode": .string("E\(step)")]), .failed(message: "sin red")]
                    .randomElement(using: &generator)!
            case 8: state.banner = [nil, Banner(kind: .success, message: "Guardado")].randomElement(using: &generator)!
            default: state.searchText = ["", "alg"].randomElement(using: &generator)!
            }
            let drawn = try Self.render(state, memo: memo)
            #expect(describeTree(drawn) == describeTree(try Self.render(state, memo: nil)), "step \(step)")
        }
        #expect(memo.splices > 50, "renders spliced over the walk: \(memo.splices)")
    }

    /// Patches of a dashboard's cards (their status, their title, their type) while a variable
    /// that one card shows ticks, each drawn with the memo and without.
    @Test func aPatchedCardIsSplicedOnlyWhereItStays() throws {
        var generator = Xoshiro(seed: (0xCA4D, 5, 8, 13))
        func card(_ index: Int, status: String, titled: Bool, type: String) -> JSONValue {
            var zone: JSONObject = [
                "id": .string("card-\(index)"), "type": .string(type),
                "slots": [
                    ["id": .string("card-\(index)-status"), "control_type": "chip", "value": .string(status)],
                    [
                        "id": .string("card-\(index)-tick"), "control_type": "label",
                        "value": .string(index == 3 ? "{variables.tick}" : "Fijo"),
                    ],
                ],
            ]
            if titled { zone["title"] = .string("Material \(index)") }
            return .object(zone)
        }
        var definition = try ScreenDefinition(json: [
            "screen_id": "scr_cards", "screen_key": "cards", "screen_name": "Panel", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-25T00:00:00Z", "actions": [],
            "template": ["zones": .array((0..<8).map { card($0, status: "Procesando", titled: $0 % 2 == 0, type: "container") })],
        ])
        var compiled = try ScreenCompiler().compile(definition)
        let memo = RenderMemo()
        for options in [RenderOptions(), RenderOptions(sizeClass: .regular)] {
            for step in 0..<60 {
                if Bool.random(using: &generator) {
                    let index = Int.random(in: 0..<8, using: &generator)
                    let patch = DocumentPatch(changes: [
                        PatchChange(
                            id: "card-\(index)",
                            items: [
                                card(
                                    index, status: ["Listo", "Procesando"].randomElement(using: &generator)!,
                                    titled: Bool.random(using: &generator),
                                    type: ["container", "metric-grid"].randomElement(using: &generator)!)
                            ])
                    ])
                    definition = try definition.applying(patch)
                    compiled = try ScreenCompiler().compile(definition, reusing: compiled)
                }
                let context = try compiled.context(
                    user: teacher, userContext: teacherContext, data: .null, variables: ["tick": .number(JSONNumber(step))],
                    environment: environment)
                let drawn = PatternRouter(options: options).render(
                    ScreenInputs(screen: compiled, context: context, memo: memo))
                let fresh = PatternRouter(options: options).render(ScreenInputs(screen: compiled, context: context))
                #expect(describeTree(drawn) == describeTree(fresh), "step \(step)")
            }
        }
        #expect(memo.splices > 10, "renders spliced: \(memo.splices)")
    }
}
