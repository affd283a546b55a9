import DynamicUICatalog
import DynamicUIModels
import DynamicUIResolvers
import Foundation
import Testing

@testable import DynamicUIRendering

func compiledScreen(
    zones: [Zone], pattern: ScreenPattern = .list, actions: [ActionDefinition] = [], overrides: [String: PlatformOverride]? = nil
)
    throws -> CompiledScreen
{
    try ScreenCompiler().compile(
        ScreenDefinition(
            screenId: "s", screenKey: "test", screenName: "Prueba", pattern: pattern, version: 1,
            template: ScreenTemplate(zones: zones, platformOverrides: overrides), actions: actions,
            updatedAt: "2026-01-01T00:00:00Z"))
}

func render(
    _ screen: CompiledScreen, data: JSONValue = .null, items: [JSONValue]? = nil, form: FormSnapshot = FormSnapshot(),
    options: RenderOptions = RenderOptions()
)
    throws -> RenderNode
{
    let context = try screen.context(user: teacher, userContext: teacherContext, data: data, environment: environment)
    return PatternRouter(options: options).render(
        ScreenInputs(screen: screen, context: context, items: items.map(ListItems.init), form: form))
}

/// Every node of a tree, depth first (list rows excluded).
func flatten(_ node: RenderNode) -> [RenderNode] { [node] + node.children.flatMap(flatten) }

@Suite("Rendering: laziness, controls, zones")
struct RenderingTests {
    @Test func tenThousandItemsBuildOnlyTheRowsAskedFor() throws {
        let row = Slot(id: "t", controlType: .listItemNavigation, field: "title")
        let screen = try compiledScreen(
            zones: [Zone(id: "items", type: .simpleList, itemLayout: ItemLayout(slots: [row]))],
            actions: [ActionDefinition(id: "open", trigger: .itemClick, type: .navigate, config: ["screen_key": "d"])])
        let items: [JSONValue] = (0..<10_000).map { ["id": .string("i\($0)"), "title": .string("Item \($0)")] }
        let tree = try render(screen, data: .array(items), items: items)
        guard
            let list = flatten(tree).compactMap({ node -> LazyRows? in
                if case .list(_, let rows) = node.kind { rows } else { nil }
            }).first
        else {
            Issue.record("no list")
            return
        }
        #expect(list.count == 10_000)
        #expect(list.rowsBuilt == 0)
        let first = list.rows(limit: 20)
        #expect(list.rowsBuilt == 20)
        #expect(first.last?.id == "zone:items/i19")
        guard case .row(let last) = list.row(at: 9_999).kind else {
            Issue.record("not a row")
            return
        }
        #expect(last.title == "Item 9999" && last.showsChevron && last.actionId == "open")
        #expect(list.rowsBuilt == 21)
    }

    @Test func everyControlTypeLowers() throws {
        let types = ControlType.knownCases.filter { $0 != .searchBar }
        let slots = types.map { type in
            Slot(
                id: type.rawValue, controlType: type, field: "f_\(type.rawValue)", label: "L \(type.rawValue)", value: "v",
                required: type.isInput,
                style: type == .outlinedButton ? "destructive" : nil,
                options: type == .select ? [SlotOption(value: "v", label: "V")] : nil)
        }
        let screen = try compiledScreen(zones: [Zone(id: "z", type: .container, slots: slots)], pattern: .detail)
        let nodes = flatten(
            try render(screen, form: FormSnapshot(values: ["f_email-input": "x@y.zz"], errors: ["f_text-input": "Obligatorio"])))
        func node(_ type: ControlType) -> RenderNode? { nodes.first { $0.id.hasSuffix("/\(type.rawValue)") } }
        for type in types { #expect(node(type) != nil, "\(type) did not lower") }
        guard case .control(let email)? = node(.emailInput)?.kind else { Issue.record("email"); return }
        #expect(email.inputKind == .email && email.value == "x@y.zz" && email.isRequired && email.field == "f_email-input")
        guard case .control(let text)? = node(.textInput)?.kind else { Issue.record("text"); return }
        #expect(text.error == "Obligatorio" && node(.textInput)?.accessibility?.hint == "Obligatorio")
        guard case .control(let password)? = node(.passwordInput)?.kind, case .control(let number)? = node(.numberInput)?.kind
        else {
            Issue.record("inputs")
            return
        }
        #expect(password.inputKind == .password && number.inputKind == .number)
        guard case .control(let destructive)? = node(.outlinedButton)?.kind,
            case .control(let filled)? = node(.filledButton)?.kind
        else {
            Issue.record("buttons")
            return
        }
        #expect(destructive.role == .destructive && filled.role == .primary)
        #expect(node(.filledButton)?.accessibility?.traits == ["button"])
        guard case .metric(let label, let value, _)? = node(.metricCard)?.kind else { Issue.record("metric"); return }
        #expect(label == "L metric-card" && value == "v")
        guard case .labeledContent? = node(.label)?.kind, case .divider? = node(.divider)?.kind, case .chip? = node(.chip)?.kind,
            case .row? = node(.listItemNavigation)?.kind
        else {
            Issue.record("display controls")
            return
        }
    }

    @Test func zoneTypesDistributionsAndConditions() throws {
        let label = { (id: String) in Slot(id: id, controlType: .label, value: .string(id)) }
        let zones = [
            Zone(id: "stacked", type: .container, distribution: .stacked, slots: [label("a")]),
            Zone(id: "side", type: .container, distribution: .sideBySide, slots: [label("b")]),
            Zone(id: "grid", type: .metricGrid, slots: [Slot(id: "m", controlType: .metricCard, field: "n", label: "N")]),
            Zone(id: "flow", type: .container, distribution: .flowRow, slots: [label("c")]),
            Zone(id: "hidden", type: .container, condition: "data.isEmpty", slots: [label("d")]),
            Zone(
                id: "shown", type: .container, condition: "n > 3 && title != null", title: "Sección {user.firstName}",
                slots: [label("e")]),
            Zone(id: "outer", type: .container, zones: [Zone(id: "inner", type: .actionGroup, slots: [label("f")])]),
        ]
        let screen = try compiledScreen(zones: zones, pattern: .dashboard)
        let data: JSONValue = ["n": 5, "title": "x"]
        let compact = flatten(try render(screen, data: data))
        func kind(_ id: String, in nodes: [RenderNode]) -> RenderKind? { nodes.first { $0.id == "zone:\(id)" }?.kind }
        guard case .stack(.vertical, _, _, _)? = kind("stacked", in: compact),
            case .stack(.horizontal, _, _, _)? = kind("side", in: compact),
            case .grid(2, _)? = kind("grid", in: compact), case .flow? = kind("flow", in: compact)
        else {
            Issue.record("distributions: \(compact.map(\.id))")
            return
        }
        #expect(kind("hidden", in: compact) == nil)
        #expect(kind("shown", in: compact) == .section(header: "Sección Lucía"))
        #expect(compact.contains { $0.id == "zone:inner" })
        let regular = flatten(try render(screen, data: data, options: RenderOptions(sizeClass: .regular, platform: .ipad)))
        guard case .grid(4, _)? = kind("grid", in: regular) else {
            Issue.record("regular metric grid")
            return
        }
    }

    @Test func platformOverridesHideResizeAndRedistribute() throws {
        let zones = [
            Zone(id: "brand", type: .container, slots: [Slot(id: "l", controlType: .label, value: "EduGo")]),
            Zone(id: "body", type: .container, distribution: .stacked, slots: [Slot(id: "m", controlType: .label, value: "x")]),
        ]
        let overrides = [
            "mac": PlatformOverride(zones: [
                "brand": ZoneOverride(visible: false), "body": ZoneOverride(height: 200, distribution: .sideBySide),
            ])
        ]
        let screen = try compiledScreen(zones: zones, pattern: .detail, overrides: overrides)
        let ios = flatten(try render(screen))
        #expect(ios.contains { $0.id == "zone:brand" })
        let mac = flatten(try render(screen, options: RenderOptions(sizeClass: .regular, platform: .mac)))
        #expect(!mac.contains { $0.id == "zone:brand" })
        let body = try #require(mac.first { $0.id == "zone:body" })
        #expect(body.style?.height == .points(200))
        guard case .stack(.horizontal, _, _, _) = body.kind else {
            Issue.record("not side by side")
            return
        }
    }

    @Test func unknownTypesAreMarkersInPreviewsAndNothingInRelease() throws {
        let zones = [Zone(id: "z", type: .unknown("carousel"), slots: [Slot(id: "h", controlType: .unknown("hologram"))])]
        let screen = try compiledScreen(zones: zones, pattern: .unknown("wizard"))
        let release = TextRenderer().render(try render(screen))
        #expect(!release.contains("unknown"))
        let preview = TextRenderer().render(try render(screen, options: RenderOptions(showUnknownMarkers: true)))
        #expect(preview.contains("unknown pattern wizard") && preview.contains("unknown control hologram"))
    }

    @Test func emptyStateReplacesTheEmptyList() throws {
        let screen = try ScreenCompiler().compile(try edugo.screen("materials-list"))
        let context = try screen.context(user: teacher, userContext: teacherContext, data: [], environment: environment)
        let tree = PatternRouter().render(ScreenInputs(screen: screen, context: context, items: []))
        let nodes = flatten(tree)
        #expect(nodes.contains { if case .emptyState("Aún no hay materiales", _, "folder") = $0.kind { true } else { false } })
        #expect(!nodes.contains { if case .list = $0.kind { true } else { false } })
    }
}

@Suite("Node dialect: components and styles")
struct NodeRenderingTests {
    @Test func componentParametersAreScopedAndStylesMerge() throws {
        let library = try ComponentLibrary(json: [
            "components": [
                "badge": [
                    "parameters": ["label"],
                    "body": ["type": "text", "style": "title", "props": ["content": "$.label | uppercase"]],
                ],
                "card": [
                    "parameters": ["podcast"],
                    "body": [
                        "type": "vstack",
                        "children": [
                            ["type": "text", "props": ["content": "$.podcast.trackName"]],
                            ["type": "text", "props": ["content": "$.item.trackName | default:'sin item'"]],
                            ["type": "component", "props": ["name": "badge", "parameters": ["label": "$.podcast.genre"]]],
                        ],
                    ],
                ],
                "loop": ["parameters": [], "body": ["type": "component", "props": ["name": "loop"]]],
            ]
        ])
        let theme = try Theme(json: [
            "fonts": ["title": ["size": 20, "weight": "semibold"]],
            "presets": [
                "title": ["font": "title", "foregroundColor": "primary", "padding": 4],
                "card": ["padding": 12, "cornerRadius": 10],
            ],
        ])
        let document = try ViewNode(json: [
            "type": "list",
            "props": [
                "items": "$.results",
                "itemTemplate": [
                    "type": "component", "style": "card", "inlineStyle": ["padding": 2],
                    "props": ["name": "card", "parameters": ["podcast": "$.item"]],
                ],
            ],
            "children": [["type": "component", "props": ["name": "loop"]]],
        ])
        let renderer = NodeRenderer(
            theme: theme, library: library, components: try NodeCompiler().compile(library),
            options: RenderOptions(showUnknownMarkers: true))
        let context = DataContext([("results", [["trackName": "Uno", "genre": "Noticias"]])], environment: environment)
        let rendered = renderer.render(try NodeCompiler().compile(document), context: context, name: "doc")
        guard case .list(_, let rows) = rendered.root.kind else {
            Issue.record("not a list")
            return
        }
        let text = TextRenderer().render(rows.row(at: 0))
        #expect(text.contains("\"Uno\""))
        #expect(text.contains("\"sin item\""), "the component saw the caller's $.item:\n\(text)")
        #expect(text.contains("text title2 \"NOTICIAS\""))
        let card = rows.row(at: 0)
        #expect(card.style == NodeStyle(padding: .all(2), cornerRadius: 10))
        #expect(
            renderer.style(of: ViewNode(type: .text, style: "title", inlineStyle: NodeStyle(foregroundColor: "#FF0000")))
                == NodeStyle(font: "title", foregroundColor: "#FF0000", padding: .all(4)))
        // A component that expands itself stops at the depth limit with a marker.
        #expect(TextRenderer().render(rendered.root).contains("unknown component loop"))
    }
}

@Suite("Accessibility decided in the tree")
struct TreeAccessibilityTests {
    @Test func everyButtonOfEveryScreenHasASpokenLabel() throws {
        for key in edugo.screenKeys {
            var unlabeled: [String] = []
            var visit = [try lowerEduGo(key, options: RenderOptions())]
            while let node = visit.popLast() {
                visit += node.children
                if case .control(let control) = node.kind, control.type.isButton,
                    (node.accessibility?.label ?? "").isEmpty
                {
                    unlabeled.append(node.id)
                }
            }
            #expect(unlabeled.isEmpty, "\(key): buttons without a spoken label: \(unlabeled)")
        }
    }

    @Test func anIconOnlyButtonSaysWhatItsSymbolMeans() {
        #expect(ScreenLowering.symbolMeaning("trash.fill", strings: DynamicUIStrings.spanish) == "Eliminar")
        #expect(ScreenLowering.symbolMeaning("plus.circle", strings: .english) == "New")
        #expect(ScreenLowering.symbolMeaning("xmark", strings: .english) == "Close")
        #expect(ScreenLowering.symbolMeaning("star", strings: .english) == nil)
        #expect(ScreenLowering.symbolMeaning(nil, strings: .english) == nil)
    }
}

@Suite("Server colors in dark mode")
struct AdaptiveColorTests {
    @Test func lightSurfacesAndDarkTextAdaptBrandColorsAndWhiteTextStay() throws {
        let white = try #require(AdaptiveColor("#FFFFFF", role: .background))
        #expect(white.light == "#ffffffff" && white.dark == "#000000ff")
        let paleBlue = try #require(AdaptiveColor("#E8F0FE", role: .background))
        #expect(paleBlue.dark != paleBlue.light && paleBlue.dark.hasPrefix("#"))
        let text = try #require(AdaptiveColor("#111", role: .foreground))
        #expect(text.dark == "#eeeeeeff")
        #expect(AdaptiveColor("black", role: .foreground)?.dark == "#ffffffff")
        // A brand color, white text on a button and a black backdrop keep their color.
        let brand = try #require(AdaptiveColor("#872EC4", role: .background))
        #expect(brand.dark == brand.light)
        #expect(AdaptiveColor("white", role: .foreground).map { $0.dark == $0.light } == true)
        #expect(AdaptiveColor("#000000", role: .background).map { $0.dark == $0.light } == true)
        // Alpha is kept; theme tokens and garbage are not literal colors.
        #expect(AdaptiveColor("#FFFFFF80", role: .background)?.dark == "#00000080")
        for name in ["accent", "#12", "#GGGGGG", "", "#"] { #expect(AdaptiveColor(name, role: .background) == nil, "\(name)") }
    }
}
