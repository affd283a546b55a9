import DynamicUIModels
import Testing

@testable import DynamicUIResolvers

@Suite("Expression language: parsing and printing")
struct ParserTests {
    @Test(arguments: [
        ("data.isEmpty", "$.data.isEmpty"),
        ("data.isNotEmpty", "$.data.isNotEmpty"),
        ("title != null", "$.title != null"),
        ("$.podcast.trackName", "$.podcast.trackName"),
        ("$.results[0].artistName", "$.results[0].artistName"),
        ("$.item", "$.item"),
        ("$.index", "$.index"),
        ("$.env.searchQuery", "$.env.searchQuery"),
        ("$.item.title | uppercase | truncate:20", "$.item.title | uppercase | truncate:20"),
        ("$.d | date:MMM d, yyyy", "$.d | date:'MMM d, yyyy'"),
        ("$.t | duration:mm:ss", "$.t | duration:'mm:ss'"),
        ("$.t | duration", "$.t | duration"),
        ("$.g | join:, ", "$.g | join:', '"),
        ("$.g | join:', ' | uppercase", "$.g | join:', ' | uppercase"),
        ("$.c | default:0", "$.c | default:0"),
        ("$.c | default:N/A | lowercase", "$.c | default:'N/A' | lowercase"),
        ("$.c | default:'0'", "$.c | default:'0'"),
        ("$.r | count > 3", "($.r | count) > 3"),
        ("$.r | exists", "$.r | exists"),
        ("$.r | empty", "$.r | empty"),
        ("$.r | !empty", "$.r | !empty"),
        ("a && b || !c", "($.a && $.b) || (!$.c)"),
        ("a || b && c", "$.a || ($.b && $.c)"),
        ("!(a || b)", "!($.a || $.b)"),
        ("(a)", "$.a"),
        ("$.x['first name'][0]", "$.x['first name'][0]"),
        ("$.q.0.text", "$.q.0.text"),
        ("$.rating == 'Explicit'", "$.rating == 'Explicit'"),
        (#"$.s == "dq""#, "$.s == 'dq'"),
        ("'it\\'s' == $.x", "'it\\'s' == $.x"),
        ("$.n >= -2.5e1", "$.n >= -25"),
        ("$.ok == true && $.bad == false", "($.ok == true) && ($.bad == false)"),
        ("$", "$"),
        ("user.firstName", "$.user.firstName"),
        ("  $.a  |  uppercase  ", "$.a | uppercase"),
        ("$.ñandú.año", "$.ñandú.año"),
    ])
    func canonicalForm(input: String, printed: String) throws {
        let expression = try ExpressionCompiler().expression(input)
        #expect(expression.description == printed)
        #expect(try ExpressionCompiler().expression(printed) == expression)
    }

    @Test func precedenceBuildsTheExpectedTree() throws {
        let expression = try compile("a == 1 || b < 2 && !c")
        let expected = DynamicExpression.or(
            .compare(.equal, scoped("a"), .literal(1)),
            .and(.compare(.less, scoped("b"), .literal(2)), .not(scoped("c"))))
        #expect(expression == expected)
    }

    @Test func transformArgumentsKeepSpacesCommasAndColons() throws {
        #expect(try compile("$.d | date:MMM d, yyyy") == DynamicExpression.pipe(scoped("d"), [.date("MMM d, yyyy")]))
        _ = try compile("$.d | date:EEEE, d 'de' MMMM | uppercase")
        #expect(try compile("$.t | duration:h:mm:ss") == DynamicExpression.pipe(scoped("t"), [.duration("h:mm:ss")]))
        // Padding before a following pipe is dropped; at the end the argument is kept as written.
        #expect(try compile("$.g | join:, | uppercase") == DynamicExpression.pipe(scoped("g"), [.join(","), .uppercase]))
        #expect(try compile("$.g | join:, ") == DynamicExpression.pipe(scoped("g"), [.join(", ")]))
        #expect(try compile("$.g | join:' | '") == DynamicExpression.pipe(scoped("g"), [.join(" | ")]))
        _ = try compile("($.d | date:yyyy) == '2025'")
        #expect(try compile("$.x | default:true") == DynamicExpression.pipe(scoped("x"), [.defaultValue(true)]))
        #expect(try compile("$.x | join") == DynamicExpression.pipe(scoped("x"), [.join(", ")]))
    }

    @Test(arguments: [
        ("$.a |", ExpressionError.Code.syntax, 5),
        ("$.a | shout", .unknownTransform, 6),
        ("$.a | truncate:x", .invalidArgument, 6),
        ("$.a | truncate:-1", .invalidArgument, 6),
        ("$.a | truncate", .invalidArgument, 6),
        ("$.a | date", .invalidArgument, 6),
        ("$.a | default", .invalidArgument, 6),
        ("$.a | uppercase:1", .invalidArgument, 6),
        ("$.a | !full", .unknownTransform, 6),
        ("(a", .syntax, 2),
        ("a ==", .syntax, 4),
        ("a == b == c", .syntax, 9),
        ("'abc", .syntax, 0),
        ("$.a[", .syntax, 4),
        ("$.a[x]", .syntax, 4),
        ("$.a[0", .syntax, 5),
        ("$.a.", .syntax, 4),
        ("a b", .syntax, 2),
        ("", .syntax, 0),
        ("#", .syntax, 0),
        ("a &&", .syntax, 4),
        ("1.2.3", .syntax, 0),
        ("'\\u{zz}'", .syntax, 4),
    ])
    func errorsHaveCodeAndOffset(text: String, code: ExpressionError.Code, offset: Int) throws {
        do {
            _ = try ExpressionCompiler().expression(text, at: "template.zones[1].condition")
            Issue.record("\(text.debugDescription) compiled")
        } catch {
            #expect(error.code == code, "\(text.debugDescription): \(error)")
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
            #expect(error.location?.description == "template.zones[1].condition")
            #expect(error.description.hasPrefix("template.zones[1].condition: "))
        }
    }

    @Test func hostileExpressionsHitLimitsNotTheStack() throws {
        func code(_ text: String) -> ExpressionError.Code? {
            do {
                _ = try ExpressionCompiler().expression(text)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code(String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)) == .limitExceeded)
        #expect(code(String(repeating: "!", count: 100) + "a") == .limitExceeded)
        #expect(code(String(repeating: "(", count: 32) + "a" + String(repeating: ")", count: 32)) == nil)
        #expect(code("$.a" + String(repeating: " | uppercase", count: 16)) == nil)
        #expect(code("$.a" + String(repeating: " | uppercase", count: 17)) == .limitExceeded)
        #expect(code("'" + String(repeating: "x", count: 1 << 20) + "'") == .limitExceeded)
        #expect(code(String(repeating: "a || ", count: 2000) + "a") == .limitExceeded)
        let tiny = ExpressionCompiler(limits: ExpressionLimits(maxLength: 10))
        #expect(throws: ExpressionError.self) { try tiny.template(String(repeating: "x", count: 11)) }
    }

    @Test func fieldAndBindingPaths() throws {
        let compiler = ExpressionCompiler()
        #expect(
            try compiler.field("author.name")
                == DynamicExpression.path(PathExpression(root: .relative, components: [.key("author"), .key("name")])))
        #expect(try compiler.field("$.item.x") == scoped("item", "x"))
        #expect(try compiler.bindingPath("$.env.searchQuery").components == [.key("env"), .key("searchQuery")])
        #expect(throws: ExpressionError.self) { try compiler.field("a == b") }
        #expect(throws: ExpressionError.self) { try compiler.field("") }
    }

    @Test func bindingsAndEscapes() throws {
        let compiler = ExpressionCompiler()
        #expect(try compiler.binding("plain text") == .literal("plain text"))
        #expect(try compiler.binding("\\$0 — free") == .literal("$0 — free"))
        #expect(try compiler.binding("$.a") == ValueTemplate.expression(scoped("a")))
        #expect(try compiler.binding(42) == .literal(42))
        let nested = try compiler.binding(["id": "$.item.trackId", "fixed": "x", "list": ["$.a", 1]])
        guard case .object(let keys, let values) = nested else {
            Issue.record("expected an object template")
            return
        }
        #expect(keys == ["id", "fixed", "list"])
        #expect(values[1] == .literal("x"))
        do {
            _ = try compiler.binding(["p": ["$.a | nope"]], at: "props.parameters")
            Issue.record("compiled an unknown transform")
        } catch {
            #expect(error.location?.description == "props.parameters.p[0]")
        }
    }
}

@Suite("Expression language: templates")
struct TemplateTests {
    @Test func segmentsAndEscapes() throws {
        let template = try TextTemplate.compile("Hola, {user.firstName}! {{literal}} {item.n | default:0}")
        #expect(template.segments.count == 4)
        #expect(template.segments[2] == .text("! {literal} "))
        #expect(template.description == "Hola, {$.user.firstName}! {{literal}} {$.item.n | default:0}")
        #expect(try TextTemplate.compile(template.description) == template)
        #expect(try TextTemplate.compile("sin marcadores").isConstant)
    }

    @Test(arguments: [
        ("Hola {user.firstName", 5),
        ("a } b", 2),
        ("{}", 1),
        ("x {user.| x}", 8),
        ("{'}", 0),
    ])
    func templateErrorsPointIntoTheWholeText(text: String, offset: Int) {
        do {
            _ = try TextTemplate.compile(text)
            Issue.record("\(text.debugDescription) compiled")
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
            #expect(error.expression == text)
        }
    }

    @Test func unknownPlaceholdersAreRecordedAndRenderedByPolicy() throws {
        let template = try TextTemplate.compile("{greeting} {user.nickname} {user.firstName} {context.schoolName}")
        #expect(template.unknownPlaceholders == ["{greeting}", "{user.nickname}"])
        let context = screenContext()
        #expect(try template.render(in: context) == "{greeting} {user.nickname} Ana Colegio Andino")
        #expect(try template.render(in: context, unknown: .empty) == "  Ana Colegio Andino")
    }

    /// A rendering is made from its parts' bytes without validating them again: it has the
    /// bytes, equality, hash and characters of the same text joined by `String`, whether it is
    /// ASCII or not, short or 20,000 bytes long, and compares equal to a canonically equivalent
    /// spelling as any `String` does.
    @Test func aRenderingIsTheStringOfItsJoinedParts() throws {
        let parts: [String] = ["", "a", "x7", "é", "e\u{301}", "日本語", "😊", String(repeating: "ab", count: 10_000)]
        for first in parts {
            for second in parts {
                let context = screenContext().item(["first": .string(first), "second": .string(second)], index: 0)
                let rendered = try TextTemplate.compile("<{item.first}|{item.second}>").render(in: context)
                let joined = "<" + first + "|" + second + ">"
                #expect(Array(rendered.utf8) == Array(joined.utf8))
                #expect(rendered == joined)
                #expect(rendered.hashValue == joined.hashValue)
                #expect(rendered.count == joined.count)
            }
        }
        let context = screenContext().item(["word": "café"], index: 0)
        #expect(try TextTemplate.compile("{item.word}!").render(in: context) == "cafe\u{301}!")
    }

    /// Literal text is copied in place beside the evaluated values: small and large strings,
    /// non-ASCII, empty and missing values, numbers, doubled braces, and an error after some
    /// values were already evaluated.
    @Test func renderJoinsLiteralsAndValuesOfEverySize() throws {
        let long = "Álgebra lineal para principiantes — ñandú"
        let context = screenContext().item(["title": .string(long), "short": "¿sí?", "empty": "", "grade": 7], index: 0)
        let template = try TextTemplate.compile(
            "¡Hola, {user.firstName}! {item.title}|{item.short}|{item.empty}|{item.missing}|{item.grade} {{ok}} €")
        #expect(try template.render(in: context) == "¡Hola, Ana! \(long)|¿sí?|||7 {ok} €")
        #expect(try TextTemplate.compile("{item.title}{item.title}").render(in: context) == long + long)
        #expect(try TextTemplate.compile("{{}}").render(in: context) == "{}")
        #expect(try TextTemplate.compile("").render(in: context) == "")

        let tight = DataContext(
            [("item", .object(["title": .string(long), "n": 3]))],
            environment: environment(limits: ExpressionLimits(maxEvaluationSteps: 3)))
        let failing = try TextTemplate.compile("{item.title} {item.n > 1 && item.n < 5 && item.n != 4} end")
        #expect(throws: EvaluationError.self) { try failing.render(in: tight) }
        #expect(try TextTemplate.compile("{item.title} end").render(in: tight) == long + " end")
    }

    @Test func singlePlaceholderKeepsItsType() throws {
        let context = screenContext().item(["id": 42, "tags": ["a"]], index: 0)
        #expect(try TextTemplate.compile("{item.id}").value(in: context) == 42)
        #expect(try TextTemplate.compile("#{item.id}").value(in: context) == "#42")
        #expect(try TextTemplate.compile("{item.tags}").value(in: context) == ["a"])
    }
}
