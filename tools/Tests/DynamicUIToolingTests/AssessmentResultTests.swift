import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import Foundation
import Testing

/// The result of an attempt, as the student sees it after submitting: the score follows from the
/// answers for every answer set, the result screen finds every field it shows, and the history
/// lists the newest attempt first.
@Suite("Demo backend: an attempt's result and history are complete")
struct AssessmentResultTests {
    /// The assessment of material `material`, from the catalog.
    func assessment(of material: String) throws -> JSONValue {
        try #require(try EduGoCatalog().data("assessments").arrayValue?.first { $0["material_id"]?.stringValue == material })
    }

    /// Every field the catalog screen `key` reads from its record: the `field` of a slot and each
    /// `{item.…}` it interpolates.
    func boundFields(of key: String) throws -> Set<String> {
        let file = CatalogLocation.root.appendingPathComponent("edugo/screens/\(key).json")
        let text = try String(contentsOf: file, encoding: .utf8)
        var fields = Set<String>()
        for pattern in [#""field": "([a-z_]+)""#, #"\{item\.([a-z_]+)\}"#] {
            let regex = try NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { fields.insert(String(text[range])) }
            }
        }
        return fields
    }

    @Test func everyAnswerSetIsScoredFromItsAnswers() async throws {
        try await withDemoBackend { _, api in
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let assessment = try assessment(of: "mat-002")
            let questions = assessment["questions"]?.arrayValue ?? []
            #expect(questions.count == 5)
            let maxScore = try #require(assessment["max_score"]?.intValue)
            let passing = try #require(assessment["passing_score"]?.intValue)
            let shown = try boundFields(of: "assessment-result")
            #expect(shown.isSuperset(of: ["score", "max_score", "correct_answers", "passing_score", "result_label"]))

            for set in 0..<(1 << questions.count) {
                var answers = JSONObject()
                for (index, question) in questions.enumerated() {
                    let id = try #require(question["id"]?.stringValue)
                    let right = try #require(question["correct"]?.stringValue)
                    let wrong = try #require(
                        question["options"]?.arrayValue?.compactMap { $0["value"]?.stringValue }.first { $0 != right })
                    answers[id] = .string(set & (1 << index) != 0 ? right : wrong)
                }
                let correct = set.nonzeroBitCount
                let score = maxScore * correct / questions.count
                let posted = try await api.call(
                    "POST", "/v1/materials/mat-002/assessment/attempts", ["answers": .object(answers)], token: student)
                #expect(posted.status == 201, "\(posted.json)")
                let id = try #require(posted.json["id"]?.stringValue)
                let result = try await api.call("GET", "/v1/attempts/\(id)/results", token: student)
                #expect(result.status == 200)
                for record in [posted.json, result.json] {
                    #expect(record["score"]?.intValue == score, "set \(set): \(record)")
                    #expect(record["max_score"]?.intValue == maxScore)
                    #expect(record["correct_answers"]?.intValue == correct)
                    #expect(record["total_questions"]?.intValue == questions.count)
                    #expect(record["passing_score"]?.intValue == passing)
                    #expect(record["passed"]?.boolValue == (score >= passing))
                    #expect(record["result_label"]?.stringValue == (score >= passing ? "Aprobado" : "No aprobado"))
                }
                let missing = shown.filter { field in
                    guard let value = result.json[field] else { return true }
                    return value == .null || value == .string("")
                }
                #expect(missing.isEmpty, "set \(set): the result screen finds no \(missing.sorted())")
            }
        }
    }

    @Test func theHistoryListsTheNewestAttemptFirst() async throws {
        try await withDemoBackend { _, api in
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            var posted: [String] = []
            for material in ["mat-002", "mat-002"] {
                let answer = try await api.call(
                    "POST", "/v1/materials/\(material)/assessment/attempts", ["answers": .object([:])], token: student)
                posted.append(try #require(answer.json["id"]?.stringValue))
            }
            let history = try await api.call("GET", "/v1/users/me/attempts?limit=100", token: student)
            let rows = history.json["data"]?.arrayValue ?? []
            #expect(rows.count > 2)
            let ids = rows.compactMap { $0["id"]?.stringValue }
            #expect(Array(ids.prefix(2)) == posted.reversed(), "the history begins \(ids.prefix(3))")
            let finished = rows.map { $0["finished_at"]?.stringValue ?? "" }
            #expect(finished == finished.sorted(by: >), "not newest first: \(finished)")
            let shown = try boundFields(of: "attempts-history")
            for row in rows {
                let missing = shown.filter { row[$0] == nil || row[$0] == .null || row[$0] == .string("") }
                #expect(missing.isEmpty, "\(row["id"] ?? .null) lacks \(missing.sorted())")
            }
        }
    }

    @Test func theDeadlineIsFixedWhenTheAttemptStarts() async throws {
        try await withDemoBackend { _, api in
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let limit = try #require(try assessment(of: "mat-002")["time_limit_minutes"]?.intValue) * 60_000
            let opened = try await api.call("GET", "/v1/materials/mat-002/assessment", token: student)
            let deadline = try #require(opened.json["deadline"]?.stringValue, "no deadline: \(opened.json)")
            let started = try #require(opened.json["started_at"]?.stringValue)
            let remaining = try #require(opened.json["remaining_ms"]?.intValue)
            #expect(remaining > limit - 5_000 && remaining <= limit, "\(remaining) of \(limit)")

            // A reload, or the page drawn again after a refused submit, keeps the deadline.
            try await Task.sleep(for: .milliseconds(1_100))
            let reloaded = try await api.call("GET", "/v1/materials/mat-002/assessment", token: student)
            #expect(reloaded.json["deadline"]?.stringValue == deadline && reloaded.json["started_at"]?.stringValue == started)
            #expect((reloaded.json["remaining_ms"]?.intValue ?? .max) < remaining, "the time left goes down")

            // The attempt recorded began when the assessment was opened; a new one starts afresh.
            let posted = try await api.call(
                "POST", "/v1/materials/mat-002/assessment/attempts", ["answers": .object([:])], token: student)
            #expect(posted.json["started_at"]?.stringValue == started, "\(posted.json)")
            #expect(posted.json["deadline"]?.stringValue == deadline)
            let again = try await api.call("GET", "/v1/materials/mat-002/assessment", token: student)
            #expect(again.json["started_at"]?.stringValue ?? "" >= posted.json["finished_at"]?.stringValue ?? "~")

            // A teacher reviewing the assessment starts nothing.
            let (teacher, _) = try await api.signIn("docente@edugo.test")
            let review = try await api.call("GET", "/v1/materials/mat-002/assessment", token: teacher)
            #expect(review.status == 200 && review.json["deadline"] == nil)
        }
    }
}
