import DynamicUIModels
import PropertyBased
import Synchronization
import Testing

@testable import DynamicUIResolvers

/// Text for the expression language made of the characters that trip a reader that walks by
/// grapheme instead of by scalar: combining marks after quotes, braces, backslashes and
/// brackets, invalid UTF-8 (replaced by U+FFFD), emoji sequences and CR LF.
enum CanonicalTextGen {
    /// Scalars that join the character before them, or join it to the next.
    static let joiners: [String] = ["\u{0346}", "\u{0301}", "\u{20DD}", "\u{200D}", "\u{FE0F}", "\u{1F3FD}", "\u{0308}"]
    /// Pieces of keys and string literals.
    static let keyPieces: [String] =
        joiners + [
            "x", "a", "ñ", "e\u{301}", "é", "'", "\"", "\\", "{", "}", "{{", "}}", "[", "]", "$", ".", "|", " ", "😀",
            "👩‍👩‍👧", "\r\n", "\n", "\t", "\u{1}", "0", "&&", ":", invalidUTF8(),
        ]

    /// Bytes that are not UTF-8, read as a `String` does: each bad sequence is U+FFFD.
    static func invalidUTF8() -> String {
        String(decoding: [0x61, 0xC3, 0x28, 0xE2, 0x82, 0xFF, 0xED, 0xA0, 0x80, 0xF0, 0x9F, 0x98], as: UTF8.self)
    }

    static func piece(_ rng: inout any SeededRandomNumberGenerator, from pieces: [String], upTo length: Int) -> String {
        (0..<Int.random(in: 0...length, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// `text` quoted with `quote` as the language writes it: backslash before the quote itself
    /// and before a backslash.
    static func quoted(_ text: String, with quote: Character) -> String {
        var result = String(quote)
        for scalar in text.unicodeScalars {
            if scalar == "\\" || Character(scalar) == quote { result.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        result.append(quote)
        return result
    }

    /// A path: `$`, then names and quoted keys whose characters are the pieces above.
    static func path(_ rng: inout any SeededRandomNumberGenerator) -> String {
        var text = ["$", "$.item", "item", "$.data", "user"].randomElement(using: &rng)!
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            switch Int.random(in: 0...3, using: &rng) {
            case 0: text += ".a\(joiners.randomElement(using: &rng)!)"
            case 1: text += "[\(Int.random(in: 0...9, using: &rng))]"
            default:
                let key = piece(&rng, from: keyPieces, upTo: 5)
                text += "[" + quoted(key, with: Bool.random(using: &rng) ? "'" : "\"") + "]"
            }
        }
        return text
    }

    /// A condition or a binding: paths, quoted literals, comparisons, pipes, `!`, `&&`, `||`.
    static func expression(_ rng: inout any SeededRandomNumberGenerator, depth: Int = 0) -> String {
        let literal = { (rng: inout any SeededRandomNumberGenerator) -> String in
            quoted(piece(&rng, from: keyPieces, upTo: 4), with: Bool.random(using: &rng) ? "'" : "\"")
        }
        if depth > 2 || Int.random(in: 0...2, using: &rng) == 0 {
            return Bool.random(using: &rng) ? path(&rng) : literal(&rng)
        }
        switch Int.random(in: 0...5, using: &rng) {
        case 0: return "\(expression(&rng, depth: depth + 1)) == \(literal(&rng))"
        case 1: return "!(\(expression(&rng, depth: depth + 1)))"
        case 2: return "\(path(&rng)) | default:\(literal(&rng)) | uppercase"
        case 3: return "\(path(&rng)) | join:\(literal(&rng))"
        case 4: return "(\(expression(&rng, depth: depth + 1))) && \(expression(&rng, depth: depth + 1))"
        default: return "\(expression(&rng, depth: depth + 1)) || \(expression(&rng, depth: depth + 1))"
        }
    }

    /// A template: literal text with the pieces above, doubled braces, placeholders.
    static func template(_ rng: inout any SeededRandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            switch Int.random(in: 0...3, using: &rng) {
            case 0: return piece(&rng, from: joiners + ["{{", "}}", "a", "'", "\"", "\\", " ", "é", invalidUTF8()], upTo: 4)
            case 1: return "{\(path(&rng))}"
            default: return "{\(expression(&rng))}"
            }
        }.joined()
    }

    /// Text that is mostly structured but sometimes cut, doubled or spliced: some of it
    /// compiles, some of it does not.
    static let texts = Generator<String, Shrink.None<String>> { rng in
        let whole: String
        switch Int.random(in: 0...2, using: &rng) {
        case 0: whole = template(&rng)
        case 1: whole = expression(&rng)
        default: whole = path(&rng)
        }
        guard Int.random(in: 0...4, using: &rng) == 0, !whole.isEmpty else { return whole }
        // Cut at a random scalar, or insert one of the pieces there.
        var scalars = Array(whole.unicodeScalars)
        let at = Int.random(in: 0...scalars.count, using: &rng)
        if Bool.random(using: &rng) {
            scalars.removeSubrange(at...)
        } else {
            scalars.insert(contentsOf: keyPieces.randomElement(using: &rng)!.unicodeScalars, at: at)
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}

/// Every template, condition and binding that compiles prints a canonical form that compiles to
/// the same program and prints the same bytes again.
@Suite("Expression language: canonical forms compile back, whatever the characters")
struct CanonicalFormTests {
    /// A quote followed by a combining mark is a quote: the key starts with the mark.
    @Test func aQuoteBeforeACombiningMarkIsAQuote() throws {
        let template = try TextTemplate.compile("{$.item['\u{0346}x']}")
        let expected = DynamicExpression.path(PathExpression(root: .scoped, components: [.key("item"), .key("\u{0346}x")]))
        #expect(template.segments == [.expression(expected)])
        expectExactlyEqual(template.segments, [.expression(expected)])
        // A brace, a backslash and a bracket followed by a mark are what they are too.
        let marked = try TextTemplate.compile("a{{\u{0301}{$.item[\"}\u{0301}\\\"\u{0301}\"] | default:'{\u{0301}'}}}\u{0301}")
        let printed = "a{{\u{0301}{$.item['}\u{0301}\"\u{0301}'] | default:'{\u{0301}'}}}\u{0301}"
        #expect(marked.description == printed)
        expectCanonical(template: marked.description)
        for broken in ["{$.item['x'\u{0301}]}", "}\u{0301}"] {
            #expect(throws: ExpressionError.self) { try TextTemplate.compile(broken) }
        }
    }

    /// A binding's `$`, its escape `\$` and a slot's `slot:` are read by scalar: a combining
    /// mark after them belongs to what follows.
    @Test func bindingPrefixesAreReadByScalar() throws {
        let compiler = ExpressionCompiler()
        let escaped = try compiler.binding(.string("\\$\u{0301}5"))
        #expect(escaped == .literal(.string("$\u{0301}5")))
        expectExactlyEqual(escaped, .literal(.string("$\u{0301}5")))
        // A `$` and a mark is a binding, and not a valid one.
        #expect(throws: ExpressionError.self) { try compiler.binding(.string("$\u{0301}")) }
        let binding = try compiler.binding(.string("$['\u{0301}']"))
        expectExactlyEqual(binding, .expression(.path(PathExpression(root: .scoped, components: [.key("\u{0301}")]))))
        let slot = Slot(id: "s", controlType: .label, bind: "slot:\u{0301}x")
        let source = try SlotValueSource(slot: slot, compiler: compiler)
        #expect(Array(source.slotKey?.unicodeScalars ?? "".unicodeScalars) == Array("\u{0301}x".unicodeScalars))
    }

    /// A field whose first key is not a plain name prints as a bracketed key, which compiles.
    @Test func aFieldOfAnyKeyPrintsAFieldThatCompiles() throws {
        for key in ["a-b", "first name", "x\u{0301}", "\u{0346}x", "", "'", "[0]"] {
            let field = DynamicExpression.path(PathExpression(root: .relative, components: [.key(key), .index(2)]))
            let printed = field.description
            let compiled = try ExpressionCompiler().field(printed)
            #expect(compiled == field, "\(printed)")
            expectExactlyEqual(compiled, field)
        }
    }

    @Test func generatedTextCompilesBackFromItsCanonicalForm() async {
        let templates = Counter()
        let expressions = Counter()
        let bindings = Counter()
        await propertyCheck(count: 6000, input: CanonicalTextGen.texts) { text in
            templates.add(expectCanonical(template: text))
            expressions.add(expectCanonical(expression: text))
            bindings.add(expectCanonical(binding: text))
        }
        // A good part of the generated text compiles as each of the three.
        #expect(templates.value > 1500 && expressions.value > 1500 && bindings.value > 1500)
    }

    /// The generated keys and literals read as written: a placeholder whose key has the pieces
    /// of the generator holds exactly that key.
    @Test func generatedKeysReadAsWritten() async {
        await propertyCheck(
            count: 3000,
            input: Generator<String, Shrink.None<String>> { rng in
                CanonicalTextGen.piece(&rng, from: CanonicalTextGen.keyPieces, upTo: 8)
            }
        ) { key in
            for quote: Character in ["'", "\""] {
                let text = "<{$.item[\(CanonicalTextGen.quoted(key, with: quote))]}>"
                let expected = DynamicExpression.path(PathExpression(root: .scoped, components: [.key("item"), .key(key)]))
                do {
                    let template = try TextTemplate.compile(text)
                    expectExactlyEqual(template.segments, [.text("<"), .expression(expected), .text(">")])
                    expectCanonical(template: text)
                } catch {
                    Issue.record("\(text.debugDescription) does not compile: \(error)")
                }
            }
        }
    }

    /// Compiles `text` as a template; when it compiles, its canonical form compiles to the same
    /// template. Returns whether it compiled.
    @discardableResult
    private func expectCanonical(template text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let template = try? TextTemplate.compile(text) else { return false }
        let printed = template.description
        do {
            let again = try TextTemplate.compile(printed)
            #expect(
                again == template, "\(text.debugDescription) printed \(printed.debugDescription)", sourceLocation: sourceLocation)
            expectExactlyEqual(again.segments, template.segments, sourceLocation: sourceLocation)
            #expect(Array(again.description.utf8) == Array(printed.utf8), sourceLocation: sourceLocation)
        } catch {
            Issue.record(
                "\(text.debugDescription) printed \(printed.debugDescription), which does not compile: \(error)",
                sourceLocation: sourceLocation)
        }
        return true
    }

    /// The same for a condition (a general expression).
    @discardableResult
    private func expectCanonical(expression text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let expression = try? ExpressionCompiler().expression(text) else { return false }
        expectCanonical(
            expression, compile: { try ExpressionCompiler().expression($0) }, from: text, sourceLocation: sourceLocation)
        return true
    }

    /// The same for a node-dialect binding (a string starting with `$`), a two-way binding
    /// target and a slot's field.
    @discardableResult
    private func expectCanonical(binding text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var compiled = false
        let compiler = ExpressionCompiler()
        if case .expression(let expression)? = try? compiler.binding(.string(text)) {
            compiled = true
            expectCanonical(expression, compile: { try compiler.expression($0) }, from: text, sourceLocation: sourceLocation)
        }
        if let path = try? compiler.bindingPath(text) {
            compiled = true
            expectCanonical(
                DynamicExpression.path(path), compile: { .path(try compiler.bindingPath($0)) }, from: text,
                sourceLocation: sourceLocation)
        }
        if let field = try? compiler.field(text) {
            compiled = true
            expectCanonical(field, compile: { try compiler.field($0) }, from: text, sourceLocation: sourceLocation)
        }
        return compiled
    }

    private func expectCanonical(
        _ expression: DynamicExpression, compile: (String) throws -> DynamicExpression, from text: String,
        sourceLocation: SourceLocation
    ) {
        let printed = expression.description
        do {
            let again = try compile(printed)
            #expect(
                again == expression, "\(text.debugDescription) printed \(printed.debugDescription)",
                sourceLocation: sourceLocation)
            expectExactlyEqual(again, expression, sourceLocation: sourceLocation)
            #expect(Array(again.description.utf8) == Array(printed.utf8), sourceLocation: sourceLocation)
        } catch {
            Issue.record(
                "\(text.debugDescription) printed \(printed.debugDescription), which does not compile: \(error)",
                sourceLocation: sourceLocation)
        }
    }
}

/// `==` on strings is canonical equivalence (`"é" == "e\u{301}"`); programs are equal here only
/// when every string in them has the same scalars.
private func expectExactlyEqual<T>(_ lhs: T, _ rhs: T, sourceLocation: SourceLocation = #_sourceLocation) {
    var left = ""
    var right = ""
    dump(lhs, to: &left)
    dump(rhs, to: &right)
    #expect(Array(left.unicodeScalars) == Array(right.unicodeScalars), "\(left) vs \(right)", sourceLocation: sourceLocation)
}

/// A count shared by the checks of a property test.
private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add(_ compiled: Bool) { if compiled { count.withLock { $0 += 1 } } }
}
