public import DynamicUICatalog
public import DynamicUIModels
public import DynamicUIRendering
public import DynamicUIResolvers
import Foundation

/// Deterministic benchmark inputs: screens of about 20 KB and 100 KB, list payloads of 1,000
/// and 10,000 items (8 fields, some non-ASCII), string-heavy documents (an iTunes lookup
/// response, a screen localized in twelve languages, a timeline with every non-ASCII character
/// escaped), GeoJSON with long decimals, string catalogs of 1,000 and 10,000 keys, the
/// catalogs, and evaluation contexts.
public enum BenchInputs {
    /// The EduGo catalog.
    public static let edugo = try! EduGoCatalog()

    /// Every EduGo screen, decoded.
    public static let edugoScreens: [ScreenDefinition] = edugo.screenKeys.map { try! edugo.screen($0) }

    /// A list payload `{"items": [...], "total": n}` of `count` items with 8 fields each.
    public static func listPayload(count: Int) -> [UInt8] {
        let subjects = ["Matemáticas", "Lengua", "Ciencias", "Historia", "Inglés", "Física", "Química", "Arte"]
        let titles = [
            "Álgebra lineal", "Comprensión lectora", "La célula", "Independencia", "Vocabulary", "Energía", "Átomos", "Color",
        ]
        var items: [JSONValue] = []
        items.reserveCapacity(count)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pick = Int(state >> 33)
            items.append([
                "id": .string("mat-\(index)"),
                "title": .string("\(titles[pick % titles.count]) \(index) — ñandú"),
                "subject": .string(subjects[(pick >> 3) % subjects.count]),
                "grade": .number(JSONNumber(1 + pick % 12)),
                "score": .number(JSONNumber(Double(pick % 1000) / 10)),
                "published": .bool(pick % 3 != 0),
                "created_at": .string("2025-0\(1 + pick % 9)-1\(pick % 10)T10:\(10 + pick % 50):00Z"),
                "author": ["name": .string("Autora \(pick % 97)"), "id": .string("usr-\(pick % 45)")],
            ])
        }
        return JSONWriter().bytes(from: ["items": .array(items), "total": .number(JSONNumber(count))])
    }

    /// The 1,000-item list payload.
    public static let list1000 = listPayload(count: 1000)
    /// The 10,000-item list payload.
    public static let list10000 = listPayload(count: 10_000)

    /// A valid screen definition of at least `bytes` bytes: materials-list with its zones repeated.
    public static func screen(atLeast bytes: Int) -> [UInt8] {
        let base = try! edugo.screenJSON("materials-list")
        guard case .object(var screen) = base, case .object(var template)? = screen["template"],
            case .array(let zones)? = template["zones"]
        else { fatalError("materials-list is not an object") }
        var all = zones
        var copy = 0
        while JSONWriter(prettyPrinted: true).bytes(from: .object(screen)).count < bytes {
            copy += 1
            for zone in zones {
                guard case .object(var object) = zone else { continue }
                object["id"] = .string("\(object["id"]?.stringValue ?? "zone")-\(copy)")
                all.append(.object(object))
            }
            template["zones"] = .array(all)
            screen["template"] = .object(template)
        }
        return JSONWriter(prettyPrinted: true).bytes(from: .object(screen))
    }

    /// A screen of about 20 KB.
    public static let screen20k = screen(atLeast: 20_000)
    /// A screen of about 100 KB.
    public static let screen100k = screen(atLeast: 100_000)

    /// The bytes of a committed input in `Resources/` (written by `generate-string-heavy.py`).
    static func resource(_ name: String) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources") else {
            fatalError("no resource \(name).json")
        }
        return [UInt8](try! Data(contentsOf: url))
    }

    /// An iTunes Search API lookup response of 46 KB (a multilingual podcast and its episodes):
    /// long Unicode strings, escapes of every kind, many URLs.
    public static let itunesLookup = resource("itunes-lookup")
    /// A composed help-centre screen of 46 KB (a valid `ScreenDefinition`) whose slot data
    /// carries its strings in twelve languages.
    public static let localizedScreen = resource("localized-screen")

    /// A social network's timeline search response of 64 KB with every non-ASCII character
    /// escaped (`\u3042`, emoji as surrogate pairs) and every `/` as `\/`.
    public static let escapedTimeline = resource("escaped-timeline")
    /// A GeoJSON FeatureCollection of 64 KB whose coordinates carry up to 17 significant digits.
    public static let geoJSON = resource("geojson")

    /// A string catalog of `count` distinct keys, the shape apps ship their localizations in:
    /// one object of dotted keys (`settings.notifications.button.save.17`) and their Spanish
    /// texts, some with `%@` and `%lld`, some with `\"` and `\n`, from a fixed seed.
    public static func stringCatalog(keys count: Int) -> [UInt8] {
        let areas = [
            "onboarding", "settings", "profile", "courses", "materials", "grades", "calendar", "messages", "payments",
            "search", "auth", "notifications",
        ]
        let screens = ["list", "detail", "edit", "empty", "error", "header", "footer", "filter", "sheet", "alert", "banner"]
        let elements = [
            "title", "subtitle", "button.save", "button.cancel", "placeholder", "accessibility.label", "hint", "badge",
            "confirmation", "footnote",
        ]
        let words = [
            "Guardar", "cambios", "tu", "curso", "material", "se", "actualizó", "Cancelar", "nuevo", "mensaje", "nota",
            "estudiantes", "aún", "no", "hay", "calificación", "pendiente", "Revisa", "conexión", "inténtalo", "de",
        ]
        var state: UInt64 = 0x5EED_CA7A_1096_0001
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var members: [(String, JSONValue)] = []
        var seen: Set<String> = []
        while members.count < count {
            var key = "\(areas[next() % areas.count]).\(screens[next() % screens.count]).\(elements[next() % elements.count])"
            if next() % 4 != 0 { key += ".\(next() % 64)" }
            guard seen.insert(key).inserted else { continue }
            var text = (0..<(2 + next() % 6)).map { _ in words[next() % words.count] }.joined(separator: " ")
            switch next() % 8 {
            case 0: text += " %@"
            case 1: text = "%lld " + text
            case 2: text += ": \"%@\""
            case 3: text += "\n" + words[next() % words.count]
            default: break
            }
            members.append((key, .string(text)))
        }
        return JSONWriter(prettyPrinted: true).bytes(from: .object(JSONObject(members)))
    }

    /// An object of `count` sixteen-byte keys written so that the reader's key hash, unseeded,
    /// gives them all one value (the second eight bytes undo what the first did), as a hostile
    /// server would write them against a hash it knows; from a fixed seed.
    public static func collidingKeys(_ count: Int) -> [UInt8] {
        func mix(_ value: UInt64) -> UInt64 {
            let product = value &* 0xBF58_476D_1CE4_E5B9
            return product ^ (product >> 31)
        }
        var state: UInt64 = 0x0C01_11DE_0000_0001
        var text: [UInt8] = Array("{".utf8)
        var made = 0
        while made < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let first = (0..<8).map { UInt8(0x41 + (state >> ($0 * 8)) % 26) }
            let word = first.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let second = withUnsafeBytes(of: (mix(0x9E37_79B9_7F4A_7C15 ^ 16 ^ word) ^ 0x4141_4141_4141_4141).littleEndian) {
                Array($0)
            }
            guard second.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { continue }
            text += Array((made == 0 ? "\"" : ",\"").utf8) + first + second + Array("\":\(made)".utf8)
            made += 1
        }
        return text + Array("}".utf8)
    }

    /// 400 keys written to collide (read unseeded, the check for repeated keys probes 80,000 times).
    public static let colliding400 = collidingKeys(400)

    /// A string catalog of 1,000 keys.
    public static let strings1000 = stringCatalog(keys: 1000)
    /// A string catalog of 10,000 keys.
    public static let strings10000 = stringCatalog(keys: 10_000)

    /// The reader inputs with their names.
    public static let readerInputs: [(String, [UInt8])] = [
        ("screen 20KB", screen20k), ("screen 100KB", screen100k), ("list 1000", list1000), ("list 10000", list10000),
        ("itunes 46KB", itunesLookup), ("localized screen 46KB", localizedScreen),
        ("escaped timeline 64KB", escapedTimeline), ("geojson 64KB", geoJSON),
        ("strings 1000", strings1000), ("strings 10000", strings10000),
    ]

    /// The evaluation environment (fixed clock, es_ES, UTC).
    public static let environment = EvaluationEnvironment(
        now: Date(timeIntervalSince1970: 1_773_570_600), locale: Locale(identifier: "es_ES"),
        timeZone: TimeZone(identifier: "UTC")!)

    /// The signed-in user of the evaluation context.
    public static let user = AuthUserInfo(id: "usr-007", firstName: "Ana", lastName: "Pérez", email: "ana@edugo.test")
    /// The user's context.
    public static let userContext = UserContext(role: "teacher", roleName: "Docente", schoolName: "Colegio Andino")

    /// A screen context with one list row, as a row of materials-list sees it.
    public static let rowContext: DataContext = {
        let root = DataContext.screen(user: user, userContext: userContext, environment: environment)
        return root.item(["title": "Álgebra lineal para principiantes", "subject": "Matemáticas", "grade": 7], index: 3)
    }()

    /// The 3-placeholder template.
    public static let threePlaceholderText = "Hola, {user.firstName}: {item.title} ({item.subject})"
    /// The same template in Mustache syntax.
    public static let threePlaceholderMustache = "Hola, {{user.firstName}}: {{item.title}} ({{item.subject}})"
    /// The Mustache context matching `rowContext`.
    public static func mustacheContext() -> [String: Any] {
        ["user": ["firstName": "Ana"], "item": ["title": "Álgebra lineal para principiantes", "subject": "Matemáticas"]]
    }

    /// `materials-list` compiled once.
    public static let materialsList = try! ScreenCompiler().compile(try! edugo.screen("materials-list"))

    /// `materials-list` lowered with `items` (bound as `data`, as the screen model binds a
    /// list's), asking for the first 20 rows; returns the rows built.
    public static func lowerMaterials(_ items: ListItems) -> Int {
        let context = try! materialsList.context(
            user: user, userContext: userContext, data: .null, items: items, environment: environment)
        let tree = PatternRouter().render(ScreenInputs(screen: materialsList, context: context, items: items))
        return firstRows(of: tree, limit: 20)
    }

    /// The bytes of a materials page, all the way to the first 20 rows of the render tree, as
    /// the screen model reads a page: a document whose items are built as rows are drawn.
    public static func bytesToRows(_ bytes: [UInt8]) -> Int {
        let document = try! JSONReader().document(bytes)
        let items = document.root["items"].flatMap(ListItems.init(array:)) ?? []
        return lowerMaterials(items)
    }

    /// Builds the first `limit` rows of the first list in `node`; returns how many were built.
    public static func firstRows(of node: RenderNode, limit: Int) -> Int {
        if case .list(_, let rows) = node.kind { return rows.rows(limit: limit).count }
        for child in node.children {
            let built = firstRows(of: child, limit: limit)
            if built > 0 { return built }
        }
        return 0
    }

    /// Material items shaped like the catalog's, `count` of them.
    public static func materialItems(_ count: Int) -> [JSONValue] {
        let base = (try? edugo.data("materials").arrayValue) ?? []
        return (0..<count).map { index in
            guard case .object(var object) = base[index % base.count] else { return .null }
            object["id"] = .string("mat-\(index)")
            return .object(object)
        }
    }

    /// 1,000 materials.
    public static let materials1000 = materialItems(1000)
    /// 10,000 materials.
    public static let materials10000 = materialItems(10_000)
    /// The composed `materials-list` screen as the server sends it (compact JSON).
    public static let materialsListBytes = JSONWriter().bytes(from: try! edugo.screenJSON("materials-list"))

    /// The 1,000-item, 8-field list payload (the bytes of one response).
    public static let materials1000Bytes = list1000
}

// MARK: Screens that change in place

/// A dashboard of 50 cards and a materials list of 1,000 rows, each with a patch that changes
/// one element: a full reload (bytes to the drawn screen) against a patch (patch bytes to the
/// screen drawn again), what `Benchmarks/README.md` compares.
public enum LiveInputs {
    /// One dashboard card: a titled container with an icon, two labels reading the data, a
    /// status chip and a button.
    static func card(_ index: Int, status: String) -> JSONValue {
        [
            "id": .string("card-\(index)"), "type": "container", "title": .string("{data.cards.\(index).title}"),
            "slots": [
                ["id": .string("card-\(index)-icon"), "control_type": "icon", "icon": "doc.richtext"],
                [
                    "id": .string("card-\(index)-subject"), "control_type": "label",
                    "value": .string("{data.cards.\(index).subject} · {data.cards.\(index).students} estudiantes"),
                ],
                [
                    "id": .string("card-\(index)-updated"), "control_type": "label",
                    "value": .string("Actualizado {data.cards.\(index).updated_at | date:d MMM}"),
                ],
                ["id": .string("card-\(index)-status"), "control_type": "chip", "value": .string(status)],
                ["id": .string("card-\(index)-open"), "control_type": "text-button", "label": "Abrir"],
            ],
        ]
    }

    /// The 50-card dashboard as the server sends it.
    public static let dashboardBytes: [UInt8] = JSONWriter().bytes(from: [
        "screen_id": "scr_live_dashboard", "screen_key": "live-dashboard", "screen_name": "Panel", "pattern": "dashboard",
        "version": 1, "updated_at": "2026-11-25T00:00:00Z",
        "template": ["zones": .array((0..<50).map { card($0, status: "Procesando") })],
        "actions": [["id": "refresh", "trigger": "PULL_REFRESH", "type": "REFRESH"]],
    ])

    /// The dashboard's data: the 50 cards' values.
    public static let dashboardData: JSONValue = [
        "cards": .array(
            (0..<50).map { index in
                [
                    "title": .string("Material \(index): Álgebra lineal"), "subject": "Matemáticas",
                    "students": .number(JSONNumber(20 + index)), "updated_at": "2026-11-20T10:00:00Z",
                ]
            })
    ]

    /// Patches for card 25: its material finished processing, and back.
    public static let dashboardPatches: [[UInt8]] = ["Listo", "Procesando"].map { status in
        JSONWriter().bytes(from: [
            "screen_key": "live-dashboard", "changes": [["id": "card-25", "items": [card(25, status: status)]]],
        ])
    }

    /// The materials list's data response: 1,000 records.
    public static let listBytes: [UInt8] = JSONWriter().bytes(from: [
        "items": .array(BenchInputs.materials1000), "total": 1000,
    ])

    /// Patches for the sixth record (a shown row): its new title and status, and back.
    public static let listPatches: [[UInt8]] = {
        guard case .object(let original) = BenchInputs.materials1000[5] else { fatalError("materials are objects") }
        var revised = original
        revised["title"] = "Álgebra lineal (revisado)"
        revised["status"] = "published"
        return [revised, original].map { record in
            JSONWriter().bytes(from: ["changes": [["id": record["id"] ?? .null, "items": [.object(record)]]]])
        }
    }()

    /// The app's capabilities (the SDK's own), made once as the screen loader holds them.
    static let capabilities = RequirementResolver(capabilities: .sdk())

    /// A screen as shown: compiled, with its data and the memo of its last render.
    public struct Shown {
        /// The compiled screen.
        public var screen: CompiledScreen
        /// The data (the response) when it is not a list read in place: a dashboard's.
        public var data: JSONValue
        /// The list's records, when the data is a list.
        public var items: ListItems?
        /// What the last render built.
        public let memo = RenderMemo()
    }

    /// Bytes to a drawn screen: the screen decoded, fitted, compiled, its data read and the
    /// screen lowered (with the first 20 rows of a list). Returns what was drawn, and the count
    /// of drawn rows and zones.
    public static func reload(screen bytes: [UInt8], data: [UInt8]?, staticData: JSONValue = .null) -> (Shown, Int) {
        let definition = try! DocumentDecoder().decode(ScreenDefinition.self, from: bytes)
        let (fitted, _) = capabilities.resolve(definition)
        let compiled = try! ScreenCompiler().compile(fitted)
        var shown = Shown(screen: compiled, data: staticData)
        if let data {
            let root = try! JSONReader().document(data).root
            shown.items = root["items"].flatMap(ListItems.init(array:))
            if shown.items == nil { shown.data = root.value }
        }
        return (shown, draw(shown))
    }

    /// Draws `shown` with its memo; returns the first 20 rows built, or the zones drawn.
    public static func draw(_ shown: Shown) -> Int {
        let context = try! shown.screen.context(
            user: BenchInputs.user, userContext: BenchInputs.userContext, data: shown.data, items: shown.items,
            environment: BenchInputs.environment)
        let tree = PatternRouter().render(
            ScreenInputs(screen: shown.screen, context: context, items: shown.items, memo: shown.memo))
        // A list's first 20 rows are built (as a list shows them); a dashboard is drawn already.
        guard shown.items != nil else { return tree.children.first?.children.count ?? 0 }
        return BenchInputs.firstRows(of: tree, limit: 20)
    }

    /// A screen as a person uses it while it changes: a countdown a timer ticks
    /// (`variables.remaining`), a form of two fields, and the 1,000 materials as a list.
    public static let tickingBytes: [UInt8] = JSONWriter().bytes(from: [
        "screen_id": "scr_ticking", "screen_key": "ticking", "screen_name": "Tarea", "pattern": "list", "version": 1,
        "updated_at": "2026-11-27T00:00:00Z", "actions": [],
        "variables": [["name": "remaining", "type": "number", "initial": 600]],
        "template": [
            "zones": [
                [
                    "id": "countdown", "type": "container",
                    "slots": [["id": "left", "control_type": "label", "value": "Quedan {variables.remaining} s"]],
                ],
                [
                    "id": "answer", "type": "form-section",
                    "slots": [
                        ["id": "name", "control_type": "text-input", "label": "Nombre", "required": true],
                        ["id": "note", "control_type": "text-input", "label": "Nota"],
                    ],
                ],
                [
                    "id": "materials", "type": "simple-list",
                    "item_layout": [
                        "slots": [
                            ["id": "title", "control_type": "list-item", "field": "title"],
                            ["id": "subject", "control_type": "label", "field": "subject"],
                        ]
                    ],
                ],
            ]
        ],
    ])

    /// The ticking screen with its 1,000 materials, drawn once: `memo` keeps what it drew.
    public static func ticking() -> Shown {
        let definition = try! DocumentDecoder().decode(ScreenDefinition.self, from: tickingBytes)
        var shown = Shown(screen: try! ScreenCompiler().compile(definition), data: .null)
        shown.items = ListItems(BenchInputs.materials1000)
        return shown
    }

    /// The rows the last draw of a ticking screen showed: SwiftUI asks a list for its ids and
    /// rows again only when its rows are another `LazyRows` (they compare by identity).
    public final class ShownRows: @unchecked Sendable {
        /// The rows drawn last.
        public var rows: LazyRows?
        /// Nothing drawn yet.
        public init() {}
    }

    /// Draws the ticking screen as SwiftUI asks for it: the tree, then, for rows it has not
    /// shown (`shownRows` holds those it has), every row's id and the first 20 rows; `memo` false
    /// draws it all anew (a full lowering).
    public static func drawTicking(
        _ shown: Shown, remaining: Int, note: String, memo: Bool = true, shownRows: ShownRows = ShownRows()
    ) -> Int {
        let context = try! shown.screen.context(
            user: BenchInputs.user, userContext: BenchInputs.userContext, data: .null, items: shown.items,
            form: ["note": .string(note)], variables: ["remaining": .number(JSONNumber(remaining))],
            environment: BenchInputs.environment)
        let tree = PatternRouter().render(
            ScreenInputs(
                screen: shown.screen, context: context, items: shown.items, form: FormSnapshot(values: ["note": note]),
                memo: memo ? shown.memo : nil))
        guard let rows = list(in: tree), rows !== shownRows.rows else { return 1 }
        shownRows.rows = rows
        return rows.ids.count + rows.rows(limit: 20).count
    }

    /// The ticking screen as a node document: a countdown a timer ticks (`$.state.remaining`),
    /// a form of two fields bound to state, and the 1,000 materials as a list.
    public static let tickingDocument: CompiledNode = try! NodeCompiler().compile(
        ViewNode(
            json: [
                "type": "screen",
                "props": [
                    "title": "Tarea",
                    "body": [
                        "type": "vstack",
                        "children": [
                            ["type": "text", "id": "left", "props": ["content": "$.state.remaining"]],
                            ["type": "text_field", "props": ["placeholder": "Nombre", "binding": "$.state.name"]],
                            ["type": "text_field", "props": ["placeholder": "Nota", "binding": "$.state.note"]],
                            [
                                "type": "list", "id": "materials",
                                "props": [
                                    "items": "$.materials",
                                    "itemTemplate": [
                                        "type": "vstack",
                                        "children": [
                                            ["type": "text", "props": ["content": "$.item.title"]],
                                            ["type": "text", "props": ["content": "$.item.subject"]],
                                        ],
                                    ],
                                ],
                            ],
                        ],
                    ],
                ],
            ]))

    /// The renderer of the ticking document (no theme, no components).
    public static let nodeRenderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])

    /// Draws the ticking node document as SwiftUI asks for it (the tree, then, for rows it has
    /// not shown, every row's id and the first 20 rows); without a `memo`, all anew.
    public static func drawTickingDocument(
        remaining: Int, note: String, memo: NodeRenderMemo?, shownRows: ShownRows = ShownRows()
    ) -> Int {
        let state: JSONObject = ["remaining": .number(JSONNumber(remaining)), "name": "Lucía", "note": .string(note)]
        let data: JSONObject = ["materials": .array(BenchInputs.materials1000)]
        let context = DataContext(
            [("env", .object(state)), ("state", .object(state))] + data.map { ($0.key, $0.value) },
            defaultObject: .object(data), environment: BenchInputs.environment)
        let tree =
            (memo.map { nodeRenderer.render(tickingDocument, context: context, name: "ticking", memo: $0) }
            ?? nodeRenderer.render(tickingDocument, context: context, name: "ticking")).root
        guard let rows = list(in: tree), rows !== shownRows.rows else { return 1 }
        shownRows.rows = rows
        return rows.ids.count + rows.rows(limit: 20).count
    }

    /// The first list's rows in `node`.
    static func list(in node: RenderNode) -> LazyRows? {
        if case .list(_, let rows) = node.kind { return rows }
        return node.children.lazy.compactMap(list).first
    }

    /// A patch to the shown screen's zones, as `ScreenLoader.patched` applies it: decoded,
    /// applied with its items fitted, compiled where it changed, and the screen drawn again.
    public static func patchScreen(_ shown: inout Shown, with bytes: [UInt8]) -> Int {
        let patch = try! DocumentDecoder().decode(DocumentPatch.self, from: bytes)
        let definition = try! shown.screen.definition.applying(
            patch, fittedBy: capabilities)
        shown.screen = try! ScreenCompiler().compile(definition, reusing: shown.screen)
        return draw(shown)
    }

    /// A patch to the shown records, as the screen model applies it, and the screen drawn again.
    public static func patchData(_ shown: inout Shown, with bytes: [UInt8]) -> Int {
        let patch = try! DocumentDecoder().decode(DocumentPatch.self, from: bytes)
        if let items = shown.items {
            // A list's records, patched where they are held (the screen model patches the
            // response itself only when it is read).
            shown.items = try! items.applying(patch)
        } else {
            shown.data = try! shown.data.applying(patch)
        }
        return draw(shown)
    }
}
