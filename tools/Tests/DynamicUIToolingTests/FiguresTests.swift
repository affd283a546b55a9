import DynamicUIDemoBackend
import DynamicUIModels
import Foundation
import Testing

/// A figure that means one thing is the same in every role's view: a student's completion,
/// average, attempts and pending assessments read the same on the guardian's children, the
/// child's progress and the teacher's student detail as they follow from the student's own
/// attempts and progress, and the status chip agrees with them.
@Suite("Demo backend: a student's figures agree in every view", .serialized)
struct FiguresTests {
    /// The figures of the signed-in student, computed here from his own records as the mobile
    /// API gives them to him.
    struct Expected {
        var average: Double
        var completion: Double
        var completed: Int
        var inProgress: Int
        var taken: Int
        var pending: Int
    }

    func expected(_ api: DemoAPI, student token: String) async throws -> Expected {
        let progress = try await api.call("GET", "/v1/progress?limit=100", token: token).json["data"]?.arrayValue ?? []
        let attempts = try await api.call("GET", "/v1/users/me/attempts?limit=100", token: token).json["data"]?.arrayValue ?? []
        var assessed = Set<String>()
        var offset = 0
        while true {
            let page = try await api.call("GET", "/v1/assessments?limit=100&offset=\(offset)", token: token)
            let items = page.json["data"]?.arrayValue ?? []
            assessed.formUnion(items.compactMap { $0["material_id"]?.stringValue })
            offset += items.count
            if items.isEmpty || offset >= (page.json["total"]?.intValue ?? 0) { break }
        }
        let attempted = Set(attempts.compactMap { $0["material_id"]?.stringValue })
        let percents = progress.compactMap { $0["percent"]?.doubleValue }
        let scores = attempts.compactMap { attempt -> Double? in
            guard let score = attempt["score"]?.doubleValue, let max = attempt["max_score"]?.doubleValue, max > 0 else {
                return nil
            }
            return score / max * 100
        }
        func mean(_ values: [Double]) -> Double {
            values.isEmpty ? 0 : ((values.reduce(0, +) / Double(values.count)) * 10).rounded() / 10
        }
        let pending = Set(progress.compactMap { $0["material_id"]?.stringValue }).filter {
            assessed.contains($0) && !attempted.contains($0)
        }
        return Expected(
            average: mean(scores), completion: mean(percents), completed: percents.filter { $0 >= 100 }.count,
            inProgress: percents.filter { $0 > 0 && $0 < 100 }.count, taken: attempts.count, pending: pending.count)
    }

    /// Whether a child's progress record shows `figures`.
    func check(_ record: JSONValue, _ figures: Expected, _ view: String) {
        #expect(record["average_score"]?.doubleValue == figures.average, "\(view): average")
        #expect(record["completion_rate"]?.doubleValue == figures.completion, "\(view): completion")
        #expect(record["materials_completed"]?.intValue == figures.completed, "\(view): completed")
        #expect(record["materials_in_progress"]?.intValue == figures.inProgress, "\(view): in progress")
        #expect(record["assessments_taken"]?.intValue == figures.taken, "\(view): assessments taken")
        #expect(record["pending_assessments"]?.intValue == figures.pending, "\(view): pending")
    }

    /// The student's figures, as the guardian's list, the guardian's child page and the
    /// teacher's student page show them, before and after a new attempt.
    @Test func theGuardianAndTheTeacherSeeTheStudentsOwnFigures() async throws {
        try await withDemoBackend { _, api in
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let (guardian, _) = try await api.signIn("tutor@edugo.test")
            let (teacher, _) = try await api.signIn("docente@edugo.test")
            for round in 0..<2 {
                let figures = try await expected(api, student: student)
                let children = try await api.call("GET", "/v1/guardians/me/children", token: guardian)
                let row = try #require(children.json["data"]?.arrayValue?.first { $0["id"]?.stringValue == "usr-021" })
                check(row, figures, "round \(round), guardian's children")
                let child = try await api.call("GET", "/v1/students/usr-021/progress", token: guardian)
                check(child.json, figures, "round \(round), guardian's child progress")
                let detail = try await api.call("GET", "/v1/students/usr-021/progress", token: teacher)
                check(detail.json, figures, "round \(round), teacher's student detail")
                if round == 0 {
                    let posted = try await api.call(
                        "POST", "/v1/materials/mat-002/assessment/attempts", ["answers": ["q1": "a"]], token: student)
                    #expect(posted.status == 201, "\(posted.json)")
                    let after = try await expected(api, student: student)
                    #expect(after.taken == figures.taken + 1, "the new attempt counts")
                }
            }
        }
    }

    /// The status chip sums up the figures: a child whose average is below the pass mark is not
    /// "Al día".
    @Test func theStatusChipAgreesWithTheFigures() async throws {
        try await withDemoBackend { _, api in
            let (guardian, _) = try await api.signIn("tutor@edugo.test")
            let children = try await api.call("GET", "/v1/guardians/me/children", token: guardian).json["data"]?.arrayValue ?? []
            #expect(children.count == 2)
            for child in children {
                let average = try #require(child["average_score"]?.doubleValue)
                let completion = try #require(child["completion_rate"]?.doubleValue)
                let onTrack = average >= 60 && completion >= 40
                let label = child["status_label"]?.stringValue
                #expect(
                    label == (onTrack ? "Al día" : "Requiere atención"),
                    "\(child["full_name"]?.stringValue ?? ""): \(label ?? "")")
            }
            let julian = try #require(children.first { $0["id"]?.stringValue == "usr-022" })
            #expect(julian["average_score"]?.doubleValue == 30)
            #expect(julian["status_label"]?.stringValue != "Al día", "an average of 30 is not on track")
        }
    }

    /// The student's own dashboard says what the others say of him.
    @Test func theStudentsDashboardAgrees() async throws {
        try await withDemoBackend { backend, api in
            let admin = DemoAPI(base: backend.adminURL)
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let figures = try await expected(api, student: student)
            let stats = try await admin.call("GET", "/v1/stats/global", token: student)
            #expect(stats.json["completion_rate"]?.doubleValue == figures.completion)
            #expect(stats.json["average_score"]?.doubleValue == figures.average)
            #expect(stats.json["total_attempts"]?.intValue == figures.taken)
            #expect(stats.json["pending_assessments"]?.intValue == figures.pending)
            #expect(stats.json["materials_in_progress"]?.intValue == figures.inProgress)
        }
    }
}
