import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

/// A render with a memo lowers only what changed, and draws exactly what a render without one
/// draws.
@Suite("Renders that keep what did not change")
struct RenderMemoTests {
    /// A dashboard of `count` cards reading the data.
    static func dashboard(cards count: Int, status: String = "Procesando") throws -> ScreenDefinition {
        try ScreenDefinition(json: [
            "screen_id": "scr_cards", "screen_key": "cards", "screen_name": "Panel", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-25T00:00:00Z", "actions": [],
            "template": ["zones": .array((0..<count).map { card($0, status: status) })],
        ])
    }

    static func card(_ index: Int, status: String) -> JSONValue {
        [
            "id": .string("card-\(index)"), "type": "container", "title": .string("{data.cards.\(index).title}"),
            "slots": [
                ["id": .string("card-\(index)-status"), "control_type": "chip", "value": .string(status)],
                ["id": .string("card-\(index)-owner"), "control_type": "label", "value": "{user.firstName}"],
            ],
        ]
    }

    static let data: JSONValue = ["cards": .array((0..<5).map { ["title": .string("Material \($0)")] })]

    static func inputs(
        _ screen: CompiledScreen, data: JSONValue = data, items: [JSONValue]? = nil, user: AuthUserInfo = teacher,
        memo: RenderMemo?
    ) throws -> ScreenInputs {
        let context = try screen.context(user: user, userContext: teacherContext, data: data, environment: environment)
        return ScreenInputs(screen: screen, context: context, items: items.map(ListItems.init), memo: memo)
    }

    @Test func aPatchedCardIsTheOnlyZoneLoweredAgain() throws {
        let compiled = try ScreenCompiler().compile(try Self.dashboard(cards: 5))
        let memo = RenderMemo()
        _ = PatternRouter().render(try Self.inputs(compiled, memo: memo))
        #expect(memo.reused.zones == 0)

        let patch = DocumentPatch(changes: [PatchChange(id: "card-2", items: [Self.card(2, status: "Listo")])])
        let patched = try ScreenCompiler().compile(try compiled.definition.applying(patch), reusing: compiled)
        // The compiler took the four unchanged zones as they were.
        #expect(zip(patched.zones, compiled.zones).filter { $0 == $1 }.count == 4)
        let drawn = PatternRouter().render(try Self.inputs(patched, memo: memo))
        #expect(memo.reused.zones == 4)
        let fresh = PatternRouter().render(try Self.inputs(patched, memo: nil))
        #expect(TextRenderer().render(drawn) == TextRenderer().render(fresh))
        #expect(TextRenderer().render(drawn).contains("Listo"))

        // Another user: every zone reads the user, so nothing is taken.
        let other = AuthUserInfo(id: "usr-9", firstName: "Tomás", lastName: "Ruiz", email: "t@edugo.test")
        let redrawn = PatternRouter().render(try Self.inputs(patched, user: other, memo: memo))
        #expect(memo.reused.zones == 4)
        #expect(
            TextRenderer().render(redrawn)
                == TextRenderer().render(PatternRouter().render(try Self.inputs(patched, user: other, memo: nil))))
        #expect(TextRenderer().render(redrawn).contains("Tomás"))
    }

    @Test func aChangedZoneKeepsWhatDidNotChangeAndCompilesLikeAFreshScreen() throws {
        let compiled = try ScreenCompiler().compile(try Self.dashboard(cards: 3))
        // The status chip changes, and the title too: the owner slot stays; the new title is compiled.
        var card = Self.card(1, status: "Listo").objectValue ?? [:]
        card["title"] = "Nuevo {data.cards.1.title}"
        let patch = DocumentPatch(changes: [PatchChange(id: "card-1", items: [.object(card)])])
        let definition = try compiled.definition.applying(patch)
        let patched = try ScreenCompiler().compile(definition, reusing: compiled)
        let fresh = try ScreenCompiler().compile(definition)
        #expect(patched.zones == fresh.zones, "what the compiler kept equals what it would compile")
        #expect(patched.zones[1].slots[1] == compiled.zones[1].slots[1], "the unchanged owner slot is kept")
        #expect(patched.zones[1].slots[0] != compiled.zones[1].slots[0])
        let drawn = TextRenderer().render(PatternRouter().render(try Self.inputs(patched, memo: nil)))
        #expect(drawn.contains("Nuevo Material 1") && drawn.contains("Listo"), "\(drawn)")
    }

    @Test func otherOptionsDrawAgainInFull() throws {
        let compiled = try ScreenCompiler().compile(try Self.dashboard(cards: 3))
        let memo = RenderMemo()
        _ = PatternRouter(options: RenderOptions(sizeClass: .compact)).render(try Self.inputs(compiled, memo: memo))
        let wide = PatternRouter(options: RenderOptions(sizeClass: .regular)).render(try Self.inputs(compiled, memo: memo))
        #expect(memo.reused.zones == 0)
        let fresh = PatternRouter(options: RenderOptions(sizeClass: .regular)).render(try Self.inputs(compiled, memo: nil))
        #expect(TextRenderer().render(wide) == TextRenderer().render(fresh))
    }

    /// A list whose row template reads `row` (its record) and, when `readsData`, the data's total.
    static func list(readsData: Bool) throws -> CompiledScreen {
        var slots: [JSONValue] = [["id": "row-title", "control_type": "list-item", "field": "title"]]
        if readsData { slots.append(["id": "row-total", "control_type": "label", "value": "de {data.total}"]) }
        return try ScreenCompiler().compile(
            try ScreenDefinition(json: [
                "screen_id": "scr_rows", "screen_key": "rows", "screen_name": "Filas", "pattern": "list", "version": 1,
                "updated_at": "2026-11-25T00:00:00Z", "actions": [],
                "template": [
                    "zones": [["id": "rows", "type": "simple-list", "field": "items", "item_layout": ["slots": .array(slots)]]]
                ],
            ]))
    }

    static func records(_ count: Int, renamed: Int? = nil) -> JSONValue {
        [
            "total": .number(JSONNumber(count)),
            "items": .array(
                (0..<count).map { index in
                    ["id": .string("r-\(index)"), "title": .string(index == renamed ? "Fila \(index) (nueva)" : "Fila \(index)")]
                }),
        ]
    }

    static func rows(_ tree: RenderNode) -> [String] {
        if case .list(_, let rows) = tree.kind { return rows.rows(limit: rows.count).map { TextRenderer().render($0) } }
        return tree.children.flatMap(rows)
    }

    @Test func aPatchedRecordIsTheOnlyRowLoweredAgain() throws {
        let screen = try Self.list(readsData: false)
        let memo = RenderMemo()
        let before = Self.records(6)
        #expect(Self.rows(PatternRouter().render(try Self.inputs(screen, data: before, memo: memo))).count == 6)
        let after = try before.applying(
            DocumentPatch(changes: [PatchChange(id: "r-3", items: [["id": "r-3", "title": "Fila 3 (nueva)"]])]))
        #expect(after == Self.records(6, renamed: 3))
        let drawn = Self.rows(PatternRouter().render(try Self.inputs(screen, data: after, memo: memo)))
        #expect(memo.reused.rows == 5)
        #expect(drawn == Self.rows(PatternRouter().render(try Self.inputs(screen, data: after, memo: nil))))
        #expect(drawn[3].contains("Fila 3 (nueva)"))
    }

    @Test func rowsThatReadTheDataAreLoweredAgainWhenItChanges() throws {
        let screen = try Self.list(readsData: true)
        let memo = RenderMemo()
        _ = Self.rows(PatternRouter().render(try Self.inputs(screen, data: Self.records(4), memo: memo)))
        // The same records, and another total: rows that read it are drawn again.
        guard case .object(var grown) = Self.records(4) else { return }
        grown["total"] = 40
        let drawn = Self.rows(PatternRouter().render(try Self.inputs(screen, data: .object(grown), memo: memo)))
        #expect(memo.reused.rows == 0, "each row reads data.total")
        #expect(drawn.allSatisfy { $0.contains("de 40") })
        #expect(drawn == Self.rows(PatternRouter().render(try Self.inputs(screen, data: .object(grown), memo: nil))))
    }

    @Test func slotsKnowTheNamesTheyRead() throws {
        let screen = try Self.list(readsData: true)
        let slots = try #require(screen.zones.first?.itemSlots)
        #expect(slots.map(\.reads) == [[""], ["data"]])
        let card = try ScreenCompiler().compile(try Self.dashboard(cards: 1))
        #expect(card.zones[0].slots.map(\.reads) == [[], ["user"]])
    }

    @Test func aListHiddenForARenderDoesNotKeepRowsThatMissedAChange() throws {
        let compiled = try ScreenCompiler().compile(
            try ScreenDefinition(json: [
                "screen_id": "scr_hidden", "screen_key": "hidden", "screen_name": "Filas", "pattern": "list", "version": 1,
                "updated_at": "2026-11-25T00:00:00Z", "actions": [],
                "template": [
                    "zones": [
                        [
                            "id": "rows", "type": "simple-list", "field": "items", "condition": "state.show",
                            "item_layout": [
                                "slots": [["id": "t", "control_type": "list-item", "value": "{item.title} {state.mark}"]]
                            ],
                        ]
                    ]
                ],
            ]))
        let memo = RenderMemo()
        func draw(show: Bool, mark: String, form: JSONObject = [:]) throws -> [String] {
            let context = try compiled.context(
                user: teacher, userContext: teacherContext, data: Self.records(3), form: form,
                state: ["show": .bool(show), "mark": .string(mark)], environment: environment)
            return Self.rows(PatternRouter().render(ScreenInputs(screen: compiled, context: context, memo: memo)))
        }
        #expect(try draw(show: true, mark: "a").first?.contains("Fila 0 a") == true)
        #expect(try draw(show: false, mark: "b").isEmpty)
        // Shown again with only the form changed since the last render: the rows read the mark
        // that changed while they were hidden.
        let shown = try draw(show: true, mark: "b", form: ["q": "x"])
        #expect(shown.first?.contains("Fila 0 b") == true, "\(shown)")
    }

    @Test func zonesCarryTheirTransitionsClampedAndReduceMotionCrossFades() throws {
        var zones = try Self.dashboard(cards: 3).json
        func setTransition(_ index: Int, _ transition: JSONValue) {
            guard case .object(var screen) = zones, case .object(var template)? = screen["template"],
                case .array(var list)? = template["zones"], case .object(var zone) = list[index]
            else { return }
            zone["transition"] = transition
            list[index] = .object(zone)
            template["zones"] = .array(list)
            screen["template"] = .object(template)
            zones = .object(screen)
        }
        setTransition(0, ["type": "slide", "duration_ms": 300, "curve": "ease-out"])
        setTransition(1, ["type": "scale", "duration_ms": 99_999])
        setTransition(2, ["type": "wobble"])
        let compiled = try ScreenCompiler().compile(try ScreenDefinition(json: zones))
        let tree = PatternRouter().render(try Self.inputs(compiled, memo: nil))
        var found: [String: RenderTransition?] = [:]
        func walk(_ node: RenderNode) {
            if node.id.hasPrefix("zone:card-") { found[node.id] = node.transition }
            node.children.forEach(walk)
        }
        walk(tree)
        #expect(found["zone:card-0"] == RenderTransition(kind: .slide, duration: 0.3, curve: .easeOut))
        #expect(found["zone:card-1"] == RenderTransition(kind: .scale, duration: 2, curve: .easeInOut), "clamped to 2 s")
        #expect(found["zone:card-2"] == .some(nil), "an unknown transition is none")
        #expect(TextRenderer().render(tree).contains("transition:slide 300ms ease-out"))
        // Reduce Motion: a slide or a scale is a cross-fade of the same duration; nothing when it takes no time.
        #expect(RenderTransition(kind: .slide, duration: 0.3).reducedMotion == RenderTransition(kind: .fade, duration: 0.3))
        #expect(RenderTransition(kind: .scale, duration: 0).reducedMotion == nil)
        #expect(RenderTransition(kind: .fade, duration: .nan).duration == 0)
        #expect(RenderTransition(kind: .fade, duration: -1).duration == 0)
    }
}

/// A screen with a countdown, a field and a 1,000-row list: a tick of the countdown draws the
/// countdown again and keeps the list (its rows and their ids), a keystroke draws the field again.
@Suite("Renders that draw only the zones a change reaches")
struct ZoneDependencyTests {
    static let screen: CompiledScreen = try! ScreenCompiler().compile(
        try! ScreenDefinition(json: [
            "screen_id": "scr_mixed", "screen_key": "mixed", "screen_name": "Mixta", "pattern": "list", "version": 1,
            "updated_at": "2026-11-25T00:00:00Z", "actions": [],
            "template": [
                "zones": [
                    [
                        "id": "countdown", "type": "container",
                        "slots": [["id": "left", "control_type": "label", "value": "Quedan {variables.remaining} s"]],
                    ],
                    [
                        "id": "note", "type": "form-section",
                        "slots": [["id": "note", "control_type": "text-input", "label": "Nota"]],
                    ],
                    [
                        "id": "rows", "type": "simple-list",
                        "item_layout": ["slots": [["id": "t", "control_type": "list-item", "field": "title"]]],
                    ],
                ]
            ],
        ]))

    static let items = ListItems((0..<1000).map { ["id": .string("m-\($0)"), "title": .string("Material \($0)")] })

    static func render(remaining: Int, note: String = "", items: ListItems = items, memo: RenderMemo?) throws -> RenderNode {
        let context = try screen.context(
            user: teacher, userContext: teacherContext, data: .null, items: items, form: ["note": .string(note)],
            variables: ["remaining": .number(JSONNumber(remaining))], environment: environment)
        return PatternRouter().render(
            ScreenInputs(screen: screen, context: context, items: items, form: FormSnapshot(values: ["note": note]), memo: memo))
    }

    static func list(_ tree: RenderNode) -> LazyRows? {
        if case .list(_, let rows) = tree.kind { return rows }
        return tree.children.lazy.compactMap(list).first
    }

    @Test func aTickDrawsTheCountdownAndKeepsTheListAndItsIds() throws {
        let memo = RenderMemo()
        let first = try Self.render(remaining: 10, memo: memo)
        let rows = try #require(Self.list(first))
        #expect(rows.id(at: 999) == "zone:rows/m-999")
        let tick = try Self.render(remaining: 9, memo: memo)
        #expect(Self.list(tick) === rows, "the same rows: their ids are not made again")
        #expect(memo.reused.zones == 2, "the field and the list are kept")
        #expect(TextRenderer().render(tick) == TextRenderer().render(try Self.render(remaining: 9, memo: nil)))
        #expect(TextRenderer().render(tick).contains("Quedan 9 s"))

        let typed = try Self.render(remaining: 9, note: "hola", memo: memo)
        #expect(Self.list(typed) === rows, "a keystroke keeps the list")
        #expect(memo.reused.zones == 4, "and the countdown")
        #expect(TextRenderer().render(typed) == TextRenderer().render(try Self.render(remaining: 9, note: "hola", memo: nil)))

        // Other records: the list is drawn again (its rows by record, from the memo).
        var renamed = (0..<1000).map { JSONValue.object(["id": .string("m-\($0)"), "title": .string("Material \($0)")]) }
        renamed[0] = ["id": "m-0", "title": "Primero"]
        let reloaded = try Self.render(remaining: 9, note: "hola", items: ListItems(renamed), memo: memo)
        #expect(Self.list(reloaded) !== rows)
        #expect(memo.reused.zones == 4, "other records: every zone may read the records shown")
        #expect(Self.list(reloaded).map { TextRenderer().render($0.row(at: 0)) }?.contains("Primero") == true)
    }

    @Test func scrollingALongListKeepsOnlyTheRowsNearTheScreen() throws {
        let memo = RenderMemo()
        let rows = try #require(Self.list(try Self.render(remaining: 1, memo: memo)))
        for index in 0..<1000 { _ = rows.row(at: index) }
        #expect(memo.keptRows <= 2 * RenderMemo.rowLimit)
        #expect(memo.keptRows >= RenderMemo.rowLimit)
        // The rows near the last one drawn are still taken from the memo.
        let before = memo.reused.rows
        let again = try #require(Self.list(try Self.render(remaining: 1, note: "x", memo: memo)))
        #expect(again === rows)
        _ = rows.row(at: 990)
        #expect(memo.reused.rows == before + 1)
    }
}
