import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUIResolvers

@Suite("Evaluation: placeholders and slot bindings")
struct PlaceholderEvaluationTests {
    @Test func seedPlaceholders() throws {
        let resolver = PlaceholderResolver(user: ana, context: anaContext, environment: environment())
        #expect(resolver.resolve("{user.firstName} {user.lastName} <{user.email}>") == "Ana Pérez <ana@edugo.test>")
        #expect(resolver.resolve("{user.fullName}") == "Ana Pérez")
        #expect(
            resolver.resolve("{context.roleName} · {context.schoolName} · {context.academicUnitName}")
                == "Docente · Colegio Andino · 3.º B")
        #expect(resolver.resolve("Hoy es {today_date}") == "Hoy es 15 de marzo de 2026")
        #expect(resolver.resolve("© {current_year}") == "© 2026")
        let item: JSONValue = ["title": "Álgebra", "author": ["name": "Luis"], "count": 3]
        #expect(resolver.resolve("{item.title} de {item.author.name} ({item.count})", itemData: item) == "Álgebra de Luis (3)")
        #expect(resolver.resolve("[{item.missing}]", itemData: item) == "[]")
        #expect(resolver.resolve("{unknown.root}") == "{unknown.root}")
        let empty = PlaceholderResolver(user: ana, context: anaContext, environment: environment(), policy: .empty)
        #expect(empty.resolve("a{unknown.root}b") == "ab")
        #expect(resolver.resolve("broken {") == "broken {")
    }

    @Test func todayDateFollowsTheInjectedLocaleAndClock() {
        let english = PlaceholderResolver(user: ana, context: anaContext, environment: environment(locale: "en_US"))
        #expect(english.resolve("{today_date}") == "March 15, 2026")
    }

    @Test func slotBindingPriority() throws {
        let resolver = SlotBindingResolver(environment: environment())
        let data: JSONValue = ["title": "Desde datos", "empty": nil]
        let slotData: [String: JSONValue] = ["title": "Desde slot_data"]
        let all = Slot(id: "s", controlType: .label, bind: "slot:title", field: "title", value: "Literal")
        #expect(resolver.resolve(slot: all, data: data, slotData: slotData) == "Desde datos")
        let noField = Slot(id: "s", controlType: .label, bind: "slot:title", value: "Literal")
        #expect(resolver.resolve(slot: noField, data: data, slotData: slotData) == "Desde slot_data")
        let onlyValue = Slot(id: "s", controlType: .label, value: "Literal")
        #expect(resolver.resolve(slot: onlyValue, data: data, slotData: slotData) == "Literal")
        // A source that yields null falls through to the next.
        let nullField = Slot(id: "s", controlType: .label, bind: "slot:title", field: "empty", value: "Literal")
        #expect(resolver.resolve(slot: nullField, data: data, slotData: slotData) == "Desde slot_data")
        let missingEverything = Slot(id: "s", controlType: .label, bind: "slot:nope", field: "nope")
        #expect(resolver.resolve(slot: missingEverything, data: data, slotData: slotData) == nil)
        let nested = Slot(id: "s", controlType: .label, field: "author.name")
        #expect(resolver.resolve(slot: nested, data: ["author": ["name": "Luis"]], slotData: nil) == "Luis")
        let unsupported = Slot(id: "s", controlType: .label, bind: "api:x")
        #expect(throws: ExpressionError.self) { try SlotValueSource(slot: unsupported, compiler: ExpressionCompiler()) }
    }
}

@Suite("Evaluation: JSONPath bindings and transforms")
struct TransformTests {
    let context = screenContext(
        data: [
            "podcast": ["trackName": "Radio Ambulante", "genres": ["Noticias", "Historia"], "trackCount": 0, "explicit": nil],
            "results": [["artistName": "NPR"], ["artistName": "Sonoro"]],
            "releaseDate": "2025-05-01T10:00:00Z", "day": "2025-05-01", "offset": "2025-05-01T23:30:00-05:00",
            "ms": 3_723_000, "long": 4_500_000, "text": "Hello world", "price": 12345, "none": nil,
        ], state: ["searchQuery": "historia"])

    @Test func jsonPathBindings() throws {
        #expect(try evaluate("$.podcast.trackName", in: context) == "Radio Ambulante")
        #expect(try evaluate("$.results[0].artistName", in: context) == "NPR")
        #expect(try evaluate("$.results.1.artistName", in: context) == "Sonoro")
        #expect(try evaluate("$.results[5].artistName", in: context) == nil)
        #expect(try evaluate("$.env.searchQuery", in: context) == "historia")
        let row = context.item(["trackId": 7], index: 3)
        #expect(try evaluate("$.item.trackId", in: row) == 7)
        #expect(try evaluate("$.index", in: row) == 3)
        #expect(try evaluate("$.item", in: row) == ["trackId": 7])
        #expect(try evaluate("$.nothing.deeper", in: context) == nil)
        #expect(try evaluate("$.podcast.trackName.length", in: context) == nil)
    }

    @Test func date() throws {
        let english = screenContext(data: ["d": "2025-05-01T10:00:00Z", "day": "2025-05-01"], locale: "en_US")
        #expect(try evaluate("$.d | date:MMM d, yyyy", in: english) == "May 1, 2025")
        #expect(try evaluate("$.d | date:HH:mm", in: english) == "10:00")
        #expect(try evaluate("$.day | date:d/M/yyyy", in: context) == "1/5/2025")
        #expect(try evaluate("$.offset | date:yyyy-MM-dd HH:mm", in: context) == "2025-05-02 04:30")
        #expect(try evaluate("$.releaseDate | date:d 'de' MMMM", in: context) == "1 de mayo")
        #expect(try evaluate("$.text | date:yyyy", in: context) == nil)
        #expect(try evaluate("$.none | date:yyyy | default:—", in: context) == "—")
        let numeric = screenContext(data: ["s": 1_746_093_600, "ms": 1_746_093_600_000])
        #expect(try evaluate("$.s | date:yyyy-MM-dd", in: numeric) == "2025-05-01")
        #expect(try evaluate("$.ms | date:yyyy-MM-dd", in: numeric) == "2025-05-01")
        #expect(try evaluate("'2025-02-30T25:00:00Z' | date:yyyy", in: context) == nil)
        #expect(try evaluate("'2025-05-01T10:00:00.250+02:00' | date:HH:mm", in: context) == "08:00")
    }

    @Test func duration() throws {
        #expect(try evaluate("$.ms | duration:h:mm:ss", in: context) == "1:02:03")
        #expect(try evaluate("$.long | duration:mm:ss", in: context) == "75:00")
        #expect(try evaluate("'61000' | duration:mm:ss", in: context) == "01:01")
        #expect(try evaluate("0 | duration:m:ss", in: context) == "0:00")
        #expect(try evaluate("-5 | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.text | duration:mm:ss", in: context) == nil)
        #expect(try evaluate("$.ms | duration:s 'sec'", in: context) == "3723 sec")
        // Without a format: as a player shows it, the same in a list and on a detail page.
        #expect(try evaluate("$.ms | duration", in: context) == "1:02:03")
        #expect(try evaluate("5333000 | duration", in: context) == "1:28:53")
        #expect(try evaluate("2527000 | duration", in: context) == "42:07")
        #expect(try evaluate("59000 | duration", in: context) == "0:59")
        #expect(try evaluate("$.ms | duration:h 'h' m 'min'", in: context) == "1 h 2 min")
    }

    @Test func caseTransforms() throws {
        #expect(try evaluate("'ñandú' | uppercase", in: context) == "ÑANDÚ")
        #expect(try evaluate("'ÁRBOL' | lowercase", in: context) == "árbol")
        #expect(try evaluate("5 | uppercase", in: context) == "5")
        #expect(try evaluate("true | uppercase", in: context) == "TRUE")
        #expect(try evaluate("$.none | uppercase", in: context) == nil)
        #expect(try evaluate("$.podcast.genres | uppercase", in: context) == ["Noticias", "Historia"])
    }

    @Test func join() throws {
        #expect(try evaluate("$.podcast.genres | join:, ", in: context) == "Noticias, Historia")
        #expect(try evaluate("$.podcast.genres | join:,", in: context) == "Noticias,Historia")
        #expect(try evaluate("$.podcast.genres | join:' | '", in: context) == "Noticias | Historia")
        #expect(try evaluate("$.results | join:;", in: context) == #"{"artistName":"NPR"};{"artistName":"Sonoro"}"#)
        let mixed = screenContext(data: ["m": [1, true, nil, "x"], "e": []])
        #expect(try evaluate("$.m | join:-", in: mixed) == "1-true--x")
        #expect(try evaluate("$.e | join:-", in: mixed) == "")
        #expect(try evaluate("$.text | join:-", in: context) == "Hello world")
        #expect(try evaluate("$.none | join:-", in: context) == nil)
    }

    @Test func defaultValue() throws {
        #expect(try evaluate("$.none | default:0", in: context) == 0)
        #expect(try evaluate("$.missing | default:N/A", in: context) == "N/A")
        #expect(try evaluate("'' | default:vacío", in: context) == "vacío")
        #expect(try evaluate("$.podcast.trackCount | default:5", in: context) == 0)
        #expect(try evaluate("$.none | default:'0'", in: context) == "0")
        #expect(try evaluate("$.none | default:false", in: context) == false)
    }

    @Test func truncate() throws {
        #expect(try evaluate("$.text | truncate:5", in: context) == "Hello…")
        #expect(try evaluate("$.text | truncate:0", in: context) == "…")
        #expect(try evaluate("$.text | truncate:11", in: context) == "Hello world")
        #expect(try evaluate("$.text | truncate:50", in: context) == "Hello world")
        #expect(try evaluate("'' | truncate:0", in: context) == "")
        #expect(try evaluate("'👩‍👩‍👧 familia' | truncate:1", in: context) == "👩‍👩‍👧…")
        #expect(try evaluate("'ñandú' | truncate:3", in: context) == "ñan…")
        #expect(try evaluate("$.price | truncate:2", in: context) == "12…")
        #expect(try evaluate("$.none | truncate:2", in: context) == nil)
        #expect(
            try evaluate(
                "$.item.title | uppercase | truncate:20",
                in: context.item(["title": "una historia muy larga de contar"], index: 0)) == "UNA HISTORIA MUY LAR…")
    }

    @Test func count() throws {
        #expect(try evaluate("$.podcast.genres | count", in: context) == 2)
        #expect(try evaluate("'ñé' | count", in: context) == 2)
        #expect(try evaluate("$.podcast | count", in: context) == 4)
        #expect(try evaluate("$.none | count", in: context) == 0)
        #expect(try evaluate("$.price | count", in: context) == nil)
        #expect(try evaluate("$.podcast.genres.count", in: context) == 2)
    }

    @Test func escapedDollarIsALiteral() throws {
        let template = try ExpressionCompiler().binding("\\$0 — free")
        #expect(try template.evaluate(in: context) == "$0 — free")
    }
}

@Suite("Evaluation: conditions")
struct ConditionTests {
    let context = screenContext(data: [
        "title": "Álgebra", "count": 3, "rating": "Explicit", "flag": true, "none": nil, "list": [1], "empty": [],
        "obj": [:], "zero": 0, "decimal": 2.5,
    ])

    func holds(_ text: String, in context: DataContext? = nil) throws -> Bool {
        try compile(text).isTrue(in: context ?? self.context)
    }

    @Test func seedForms() throws {
        #expect(try holds("data.isEmpty", in: screenContext(data: [])))
        #expect(try holds("data.isEmpty", in: screenContext(data: nil)))
        #expect(try !holds("data.isEmpty", in: screenContext(data: [1])))
        #expect(try holds("data.isNotEmpty", in: screenContext(data: [["id": 1]])))
        #expect(try holds("title != null"))
        #expect(try !holds("subtitle != null"))
        #expect(try holds("$.rating == 'Explicit'"))
        #expect(try holds("$.count > 2") && holds("$.count >= 3") && holds("$.count <= 3") && !holds("$.count < 3"))
        #expect(try holds("$.decimal > 2") && holds("$.decimal < 3"))
        #expect(try holds("$.flag == true") && holds("$.flag != false"))
        #expect(try holds("$.none == null") && holds("$.missing == null"))
        #expect(try holds("$.title | exists") && !holds("$.missing | exists") && !holds("$.none | exists"))
        #expect(try holds("$.empty | empty") && holds("$.obj | empty") && holds("$.none | empty") && holds("'' | empty"))
        #expect(try holds("$.list | !empty") && !holds("$.list | empty"))
        #expect(try holds("'b' > 'a'") && holds("'Zeta' < 'alfa'"))
    }

    @Test func mismatchedTypesHaveDocumentedSemantics() throws {
        #expect(try !holds("1 == '1'"))
        #expect(try holds("1 != '1'"))
        #expect(try holds("1 == 1.0"))
        #expect(try !holds("'b' > 1") && !holds("'b' < 1") && !holds("'b' >= 1"))
        #expect(try !holds("null < 1") && !holds("null >= 0"))
        #expect(try !holds("$.flag > false"))
        #expect(try !holds("$.list == [1]".replacingOccurrences(of: "[1]", with: "1")))
    }

    @Test func logicAndTruthiness() throws {
        #expect(try holds("$.flag && $.count > 2"))
        #expect(try holds("$.missing || $.title"))
        #expect(try holds("!$.missing"))
        #expect(try holds("!($.flag && $.missing)"))
        #expect(try !holds("$.zero") && !holds("$.empty") && !holds("$.obj") && !holds("''") && !holds("null"))
        #expect(try holds("$.decimal") && holds("$.list") && holds("'x'"))
        #expect(try holds("($.count > 5 || $.count == 3) && !($.rating != 'Explicit')"))
    }

    @Test func shortCircuitSkipsTheRightSide() throws {
        // The right side would exceed the step limit if it were evaluated.
        let huge = JSONValue.array(Array(repeating: "x", count: 200_000))
        let limited = DataContext.screen(data: ["huge": huge, "yes": true], environment: environment())
        #expect(try compile("$.yes || ($.huge | join:,)").isTrue(in: limited))
        #expect(try !compile("!$.yes && ($.huge | join:,)").isTrue(in: limited))
        #expect(throws: EvaluationError.self) { try compile("$.huge | join:,").evaluate(in: limited) }
    }
}

@Suite("Data context: scopes")
struct DataContextTests {
    @Test func listItemsAreChildContextsThatShareTheParent() throws {
        let root = screenContext(data: ["items": [["title": "A"], ["title": "B"]]])
        let row = root.item(["title": "B", "user": "shadow"], index: 1)
        #expect(row.parent === root)
        #expect(try ExpressionCompiler().field("title").evaluate(in: row) == "B")
        #expect(try evaluate("$.item.title", in: row) == "B")
        #expect(try evaluate("$.user.firstName", in: row) == "Ana")
        #expect(try ExpressionCompiler().field("user").evaluate(in: row) == "shadow")
        #expect(try evaluate("$.item", in: root) == nil)
        #expect(try ExpressionCompiler().field("items[1].title").evaluate(in: root) == "B")
    }

    @Test func componentParametersAreScoped() throws {
        let root = screenContext(data: ["podcast": "screen-level"], state: ["searchQuery": "x"])
        let row = root.item(["trackName": "Row"], index: 0)
        let body = row.component(parameters: [("podcast", ["trackName": "Param"])])
        #expect(try evaluate("$.podcast.trackName", in: body) == "Param")
        // The caller's local names do not leak into the component.
        #expect(try evaluate("$.item", in: body) == nil)
        #expect(try evaluate("$.index", in: body) == nil)
        // The screen's own scopes stay visible.
        #expect(try evaluate("$.env.searchQuery", in: body) == "x")
        #expect(try evaluate("$.user.firstName", in: body) == "Ana")
        // Nested components see only their own parameters too.
        let inner = body.component(parameters: [("episode", ["n": 1])])
        #expect(try evaluate("$.podcast", in: inner) == "screen-level")
        #expect(try evaluate("$.episode.n", in: inner) == 1)
    }
}
