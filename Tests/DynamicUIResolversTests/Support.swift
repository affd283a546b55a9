import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// 2026-03-15 10:30:00 UTC.
let fixedNow = Date(timeIntervalSince1970: 1_773_570_600)

func environment(locale: String = "es_ES", limits: ExpressionLimits = .default) -> EvaluationEnvironment {
    EvaluationEnvironment(
        now: fixedNow, locale: Locale(identifier: locale), timeZone: TimeZone(identifier: "UTC")!, limits: limits)
}

let ana = AuthUserInfo(id: "usr-007", firstName: "Ana", lastName: "Pérez", email: "ana@edugo.test")
let anaContext = UserContext(
    role: "teacher", roleName: "Docente", schoolId: "sch-1", schoolName: "Colegio Andino", academicUnitId: "unit-3",
    academicUnitName: "3.º B")

func compile(_ text: String) throws -> DynamicExpression { try ExpressionCompiler().expression(text) }

func evaluate(_ text: String, in context: DataContext) throws -> JSONValue {
    try compile(text).evaluate(in: context)
}

func read(_ text: String) throws -> JSONValue { try JSONReader().read(text) }

/// A context with `data` as default object and the signed-in user.
func screenContext(data: JSONValue = .null, state: JSONObject = [:], locale: String = "es_ES") -> DataContext {
    DataContext.screen(user: ana, userContext: anaContext, data: data, state: state, environment: environment(locale: locale))
}

/// A scoped path expression (`$.a.b`).
func scoped(_ keys: String...) -> DynamicExpression {
    .path(PathExpression(root: .scoped, components: keys.map { .key($0) }))
}
