public import DynamicUIModels

extension Transform {
    /// Why this transform cannot show `value` faithfully, or `nil` when it can: a `duration`
    /// beyond `Int.max` seconds is clamped, a negative one shows nothing, and a `date` more
    /// than 10^13 seconds from 1970 (about 300,000 years) shows nothing.
    public func representabilityProblem(of value: JSONValue) -> String? {
        let number: Double
        switch value {
        case .number(let value): number = value.doubleValue
        case .string(let text):
            guard let parsed = Double(text) else { return nil }
            number = parsed
        default: return nil
        }
        switch self {
        case .duration:
            if !number.isFinite { return "duration of \(value.text) ms shows nothing" }
            if number < 0 { return "a negative duration (\(value.text) ms) shows nothing" }
            if number / 1000 >= 9_223_372_036_854_775_808 { return "duration of \(value.text) ms is clamped to Int.max seconds" }
            return nil
        case .date:
            if case .string = value { return nil }  // a string is read as ISO 8601, not a number
            let seconds = abs(number) > 1e11 ? number / 1000 : number
            return abs(seconds) > 1e13 ? "timestamp \(value.text) is beyond any calendar and shows nothing" : nil
        default:
            return nil
        }
    }
}

extension DynamicExpression {
    /// Constants of this expression that a transform applied to them cannot show faithfully
    /// (`1e22 | duration:mm:ss`), for validators.
    public var representabilityProblems: [String] {
        switch self {
        case .literal, .path:
            return []
        case .pipe(let base, let transforms):
            var problems = base.representabilityProblems
            if case .literal(let value) = base, let first = transforms.first,
                let problem = first.representabilityProblem(of: value)
            {
                problems.append(problem)
            }
            return problems
        case .not(let operand):
            return operand.representabilityProblems
        case .compare(_, let lhs, let rhs), .and(let lhs, let rhs), .or(let lhs, let rhs):
            return lhs.representabilityProblems + rhs.representabilityProblems
        }
    }
}

extension TextTemplate {
    /// The representability problems of every placeholder.
    public var representabilityProblems: [String] {
        segments.flatMap { segment -> [String] in
            if case .expression(let expression) = segment { return expression.representabilityProblems }
            return []
        }
    }
}
