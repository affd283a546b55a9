import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import Foundation
import Testing

/// What the quiz screen hides must be the server's to keep: a student never receives the
/// answer key, and an attempt's score is worked out by the server from the answers alone.
@Suite("Demo backend: assessments are graded by the server")
struct AssessmentGradingTests {
    /// The answer key of the assessment of material `material`, from the catalog.
    func key(of material: String) throws -> [(question: String, answer: String)] {
        let assessment = try #require(
            try EduGoCatalog().data("assessments").arrayValue?.first { $0["material_id"]?.stringValue == material })
        return (assessment["questions"]?.arrayValue ?? []).compactMap { question in
            guard let id = question["id"]?.stringValue, let answer = question["correct"]?.stringValue else { return nil }
            return (id, answer)
        }
    }

    /// Every question in `json` (an assessment, or a list of them) that carries its answer.
    func answered(in json: JSONValue) -> [String] {
        var found: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                if object["correct"] != nil { found.append(object["id"]?.stringValue ?? "?") }
                for (_, child) in object { walk(child) }
            case .array(let array): array.forEach(walk)
            default: break
            }
        }
        walk(json)
        return found
    }

    @Test func aStudentNeverReceivesTheAnswerKey() async throws {
        try await withDemoBackend { _, api in
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let quiz = try await api.call("GET", "/v1/materials/mat-002/assessment", token: student)
            #expect(quiz.status == 200)
            #expect(quiz.json["questions"]?.arrayValue?.count == 5, "the questions and their options are there")
            #expect(quiz.json["questions"]?[0]?["options"]?.arrayValue?.isEmpty == false)
            #expect(answered(in: quiz.json).isEmpty, "answers sent to a student: \(answered(in: quiz.json))")
            let all = try await api.call("GET", "/v1/assessments?limit=100", token: student)
            #expect(all.status == 200 && all.json["data"]?.arrayValue?.isEmpty == false)
            #expect(answered(in: all.json).isEmpty, "answers in the list: \(answered(in: all.json).count)")
            // The teacher who reviews results still sees the key.
            let (teacher, _) = try await api.signIn("docente@edugo.test")
            let review = try await api.call("GET", "/v1/materials/mat-002/assessment", token: teacher)
            #expect(answered(in: review.json).count == 5)
        }
    }

    @Test func anAttemptIsGradedFromItsAnswersAlone() async throws {
        try await withDemoBackend { _, api in
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let attempts = "/v1/materials/mat-002/assessment/attempts"
            let key = try key(of: "mat-002")
            #expect(key.count == 5)
            let wrong = key[0].answer == "a" ? "b" : "a"

            // What the client says about its result is ignored.
            let forged = try await api.call(
                "POST", attempts,
                [
                    "answers": .object([key[0].question: .string(wrong)]), "passed": true, "max_score": 1, "score": 100,
                    "percentage": 100, "status": "graded", "user_id": "usr-OTHER",
                ], token: student)
            #expect(forged.status == 201, "\(forged.json)")
            #expect(forged.json["score"]?.intValue == 0 && forged.json["passed"]?.boolValue == false, "\(forged.json)")
            #expect(forged.json["max_score"]?.intValue == 100 && forged.json["correct_answers"]?.intValue == 0)
            #expect(forged.json["percentage"] == nil && forged.json["status"] == nil)
            #expect(forged.json["user_id"] != "usr-OTHER")

            // The quiz form posts one field per question: three of five right is 60, which passes.
            var fields = JSONObject()
            for (index, entry) in key.enumerated() { fields[entry.question] = .string(index < 3 ? entry.answer : wrong) }
            let posted = try await api.call("POST", attempts, .object(fields), token: student)
            #expect(posted.status == 201)
            #expect(posted.json["score"]?.intValue == 60 && posted.json["passed"]?.boolValue == true, "\(posted.json)")
            #expect(posted.json["correct_answers"]?.intValue == 3 && posted.json["total_questions"]?.intValue == 5)
            #expect(posted.json["answers"]?[key[0].question] == .string(key[0].answer))

            // Stored as graded.
            let stored = try await api.call("GET", attempts, token: student)
            let ids = [forged.json["id"], posted.json["id"]]
            let mine = (stored.json["data"]?.arrayValue ?? []).filter { ids.contains($0["id"]) }
            #expect(mine.count == 2 && mine.allSatisfy { $0["max_score"]?.intValue == 100 }, "\(mine)")
        }
    }
}
