import DynamicUIModels
import PropertyBased
import Testing

@testable import DynamicUIResolvers

/// Random expression trees, built directly (not from text), so printing is tested against
/// trees the parser did not produce.
enum ExpressionGen {
    static let keyAlphabet: [String] = [
        "a", "item", "title", "ñandú", "x1", "0", "12", "first name", "", "a.b", "'q'", "tab\t", "€", "true", "null",
    ]
    static let stringAlphabet: [Character] = [
        "a", "Z", " ", "'", "\"", "\\", "|", ":", ",", "{", "}", "$", "ñ", "😀", "\n", "\u{1}", ")",
    ]

    static func string(_ rng: inout any SeededRandomNumberGenerator) -> String {
        String((0..<Int.random(in: 0...6, using: &rng)).map { _ in stringAlphabet.randomElement(using: &rng)! })
    }

    static func literal(_ rng: inout any SeededRandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0...5, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(JSONNumber(Int.random(in: -1000...1000, using: &rng)))
        case 3: return .number(JSONNumber(Double(Int.random(in: -4000...4000, using: &rng)) / 8))
        default: return .string(string(&rng))
        }
    }

    static func path(_ rng: inout any SeededRandomNumberGenerator) -> PathExpression {
        let components: [JSONLocation.Component] = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            Bool.random(using: &rng)
                ? .key(keyAlphabet.randomElement(using: &rng)!) : .index(Int.random(in: 0...20, using: &rng))
        }
        return PathExpression(root: .scoped, components: components)
    }

    static func transform(_ rng: inout any SeededRandomNumberGenerator) -> Transform {
        switch Int.random(in: 0...10, using: &rng) {
        case 0: return .date(string(&rng))
        case 1: return .duration(string(&rng))
        case 2: return .uppercase
        case 3: return .lowercase
        case 4: return .join(string(&rng))
        case 5: return .defaultValue(literal(&rng))
        case 6: return .truncate(Int.random(in: 0...40, using: &rng))
        case 7: return .count
        case 8: return .exists
        case 9: return .empty
        default: return .notEmpty
        }
    }

    static func expression(_ rng: inout any SeededRandomNumberGenerator, depth: Int = 0) -> DynamicExpression {
        let leaf = depth >= 4 || Int.random(in: 0...2, using: &rng) == 0
        if leaf {
            return Bool.random(using: &rng) ? .literal(literal(&rng)) : .path(path(&rng))
        }
        switch Int.random(in: 0...4, using: &rng) {
        case 0:
            return .pipe(
                expression(&rng, depth: depth + 1), (0..<Int.random(in: 1...3, using: &rng)).map { _ in transform(&rng) })
        case 1:
            return .not(expression(&rng, depth: depth + 1))
        case 2:
            return .compare(
                ComparisonOperator.allCases.randomElement(using: &rng)!, expression(&rng, depth: depth + 1),
                expression(&rng, depth: depth + 1))
        case 3:
            return .and(expression(&rng, depth: depth + 1), expression(&rng, depth: depth + 1))
        default:
            return .or(expression(&rng, depth: depth + 1), expression(&rng, depth: depth + 1))
        }
    }

    static let expressions = Generator<DynamicExpression, Shrink.None<DynamicExpression>> { rng in expression(&rng) }

    /// Strings made of the language's own tokens, to reach deep into the parser.
    static let tokenSoup = Generator<String, Shrink.None<String>> { rng in
        let tokens = [
            "$", ".", "a", "[", "]", "0", "'", "\"", "x'", "(", ")", "!", "==", "!=", "<", ">=", "&&", "||", "|", " ",
            "uppercase",
            "date:", "join:", "truncate:", "3", "-", "e", "default:", "null", "true", "\\", "{", "}", "ñ", "count", "exists",
            "!empty", ":", ",",
        ]
        return (0..<Int.random(in: 0...24, using: &rng)).map { _ in tokens.randomElement(using: &rng)! }.joined()
    }
}

@Suite("Expression language: properties")
struct PropertyTests {
    @Test func printingThenCompilingGivesTheSameExpression() async {
        await propertyCheck(count: 2000, input: ExpressionGen.expressions) { expression in
            let printed = expression.description
            do {
                let reparsed = try ExpressionCompiler(limits: ExpressionLimits(maxDepth: 64)).expression(printed)
                #expect(reparsed == expression, "printed: \(printed)")
            } catch {
                Issue.record("printed form does not compile: \(printed): \(error)")
            }
        }
    }

    @Test func compilingArbitraryTextNeverCrashes() async {
        await propertyCheck(count: 5000, input: ExpressionGen.tokenSoup) { text in
            do throws(ExpressionError) {
                let expression = try ExpressionCompiler().expression(text)
                // Whatever compiles prints to something that compiles back to the same tree.
                let again = try? ExpressionCompiler().expression(expression.description)
                #expect(again == expression, "\(text)")
            } catch {
                #expect(error.offset >= 0 && error.offset <= text.utf8.count, "\(text): \(error)")
            }
            do throws(ExpressionError) {
                let template = try TextTemplate.compile(text)
                let again = try? TextTemplate.compile(template.description)
                #expect(again == template, "\(text)")
            } catch {
                #expect(error.offset >= 0 && error.offset <= text.utf8.count, "\(text): \(error)")
            }
        }
    }

    @Test func evaluationNeverThrowsForMissingData() async {
        let context = screenContext(data: ["a": [1, "x", nil, ["b": true]], "item": ["title": "t"]])
        await propertyCheck(count: 2000, input: ExpressionGen.expressions) { expression in
            #expect(throws: Never.self) { _ = try expression.evaluate(in: context) }
        }
    }
}
