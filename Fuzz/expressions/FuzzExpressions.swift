import DynamicUIModels
import DynamicUIResolvers
import Foundation
import FuzzSupport

/// Data with the numbers and strings a hostile server sends, for evaluating fuzzed expressions.
let hostileData: JSONValue = [
    "huge": 1e300, "negative": -1e300, "max": .number(JSONNumber(Int64.max)), "min": .number(JSONNumber(Int64.min)),
    "zero": -0.0, "ms": 1e22, "text": "1e300", "nan": "nan", "date": "2025-05-01T10:00:00Z",
    "list": [1, "a", nil, ["id": 1], [1e300]], "nested": ["a": ["b": ["c": 1]]], "e\u{301}": 1, "\u{e9}": 2,
]

let environment = EvaluationEnvironment(
    now: Date(timeIntervalSince1970: 1_773_570_600), locale: Locale(identifier: "es_ES"),
    limits: ExpressionLimits(maxEvaluationSteps: 10_000))
let context = DataContext([("data", hostileData), ("item", hostileData)], defaultObject: hostileData, environment: environment)

/// libFuzzer entry: any text compiled as an expression, a field, a binding path and a
/// template, then evaluated against hostile data. Compiling and evaluating either succeed or
/// throw their typed errors; a compiled expression prints as text that compiles to an equal
/// expression.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpressions(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let compiler = ExpressionCompiler(limits: ExpressionLimits(maxLength: 1_024))
    if let expression = try? compiler.expression(text) {
        _ = try? expression.evaluate(in: context)
        _ = try? expression.isTrue(in: context)
        _ = expression.representabilityProblems
        let printed = expression.description
        guard
            let reparsed = try? ExpressionCompiler(limits: ExpressionLimits(maxLength: 1 << 16, maxDepth: 128)).expression(
                printed)
        else { fatalError("printed expression does not compile: \(text) → \(printed)") }
        if reparsed != expression { fatalError("printing changed the expression: \(text) → \(printed)") }
    }
    if let field = try? compiler.field(text) { _ = try? field.evaluate(in: context) }
    if let path = try? compiler.bindingPath(text) { _ = path.resolve(in: context) }
    if let template = try? compiler.template(text) {
        _ = try? template.render(in: context)
        _ = try? template.render(in: context, unknown: .empty)
    }
    return 0
}

/// The executable's entry point (SwiftPM names it `fuzz_expressions_main`): libFuzzer's driver on the target above.
@_cdecl("fuzz_expressions_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzExpressions)
}
