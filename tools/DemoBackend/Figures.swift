import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// A student's figures, computed in one place from the attempts and progress records, so that
/// the student's dashboard, the guardian's children and the teacher's student detail say the
/// same thing under the same label.
struct StudentFigures: Equatable, Sendable {
    /// Mean score of the attempts, in percent of each attempt's maximum (0 without attempts).
    var averageScore: Double
    /// Mean progress of the assigned materials, in percent.
    var completionRate: Double
    /// Assigned materials finished (100 %).
    var materialsCompleted: Int
    /// Assigned materials begun but not finished.
    var materialsInProgress: Int
    /// Attempts submitted ("Evaluaciones rendidas").
    var assessmentsTaken: Int
    /// Share of the attempts passed, in percent.
    var passRate: Double
    /// Assessments of assigned materials not attempted yet.
    var pendingAssessments: Int
    /// The pass mark, in percent (the attempts' own, 60 without attempts).
    var passMark: Double
    /// When the student last did something (an attempt finished, a material opened).
    var lastActivityAt: String?

    /// Completion below which a student needs attention, in percent.
    static let completionFloor: Double = 40

    /// Whether the figures call for attention: an average below the pass mark, or completion
    /// below the floor.
    var needsAttention: Bool {
        (assessmentsTaken > 0 && averageScore < passMark) || completionRate < Self.completionFloor
    }

    /// The status chip the figures sum up.
    var statusLabel: String { needsAttention ? "Requiere atención" : "Al día" }

    /// The figures of student `user` as the backend's records have them now.
    static func of(user: String, backend: DemoBackend) throws -> StudentFigures {
        let attempts = try backend.records("attempts").filter { $0["user_id"]?.text == user }
        let progress = try backend.records("progress").filter { $0["user_id"]?.text == user }
        let assessed = Set(try backend.records("assessments").compactMap { $0["material_id"]?.stringValue })
        let attempted = Set(attempts.compactMap { $0["material_id"]?.stringValue })
        var scores: [Double] = []
        var marks: [Double] = []
        for attempt in attempts {
            guard let score = attempt["score"]?.doubleValue, let maximum = attempt["max_score"]?.doubleValue, maximum > 0
            else { continue }
            scores.append(min(max(score / maximum * 100, 0), 100))
            if let passing = attempt["passing_score"]?.doubleValue { marks.append(passing / maximum * 100) }
        }
        let percents = progress.map { min(max($0["percent"]?.doubleValue ?? 0, 0), 100) }
        let pending = Set(
            progress.compactMap { $0["material_id"]?.stringValue }.filter { assessed.contains($0) && !attempted.contains($0) })
        let moments =
            attempts.compactMap { $0["finished_at"]?.stringValue } + progress.compactMap { $0["last_activity_at"]?.stringValue }
        return StudentFigures(
            averageScore: rounded(mean(scores)), completionRate: rounded(mean(percents)),
            materialsCompleted: percents.filter { $0 >= 100 }.count,
            materialsInProgress: percents.filter { $0 > 0 && $0 < 100 }.count, assessmentsTaken: attempts.count,
            passRate: rounded(mean(attempts.map { $0["passed"]?.boolValue == true ? 100 : 0 })),
            pendingAssessments: pending.count, passMark: marks.isEmpty ? 60 : mean(marks), lastActivityAt: moments.max())
    }

    /// The figures under the field names of a child's progress record (`children`).
    var progressFields: JSONObject {
        var fields: JSONObject = [
            "average_score": .number(JSONNumber(averageScore)), "completion_rate": .number(JSONNumber(completionRate)),
            "materials_completed": .number(JSONNumber(materialsCompleted)),
            "materials_in_progress": .number(JSONNumber(materialsInProgress)),
            "assessments_taken": .number(JSONNumber(assessmentsTaken)),
            "pending_assessments": .number(JSONNumber(pendingAssessments)), "pass_rate": .number(JSONNumber(passRate)),
            "status_label": .string(statusLabel), "needs_attention": .bool(needsAttention),
        ]
        if let lastActivityAt { fields["last_activity_at"] = .string(lastActivityAt) }
        return fields
    }

    /// The figures under the field names of the dashboard statistics (`stats_global`), for a
    /// student's own dashboard.
    var statsFields: JSONObject {
        [
            "total_attempts": .number(JSONNumber(assessmentsTaken)), "average_score": .number(JSONNumber(averageScore)),
            "pass_rate": .number(JSONNumber(passRate)), "completion_rate": .number(JSONNumber(completionRate)),
            "materials_in_progress": .number(JSONNumber(materialsInProgress)),
            "pending_assessments": .number(JSONNumber(pendingAssessments)),
        ]
    }

    /// `record` (a child's progress) with the figures of the student it is.
    static func applied(to record: JSONValue, backend: DemoBackend) throws -> JSONValue {
        guard case .object(var object) = record, let user = object["id"]?.stringValue else { return record }
        for (key, value) in try backend.figures(of: user).progressFields { object[key] = value }
        return .object(object)
    }

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
