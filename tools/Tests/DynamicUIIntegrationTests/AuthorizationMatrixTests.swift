import DynamicUI
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import Foundation
import Testing

/// Every role against the demo backend over real HTTP, with its own records, other users' and
/// other schools': what it reads, and what it may change. Hiding a button is never the only guard.
@Suite("Authorization matrix: each role reads and changes only what it owns", .serialized)
@MainActor
struct AuthorizationMatrixTests {
    /// The status the backend answers (0 for a transport failure).
    func status(
        _ runtime: Live, _ method: RequestMethod, _ endpoint: String, id: String? = nil, body: JSONValue? = nil
    ) async -> Int {
        var request = APIRequest(
            method, Endpoint(endpoint), pathParameters: id.map { ["id": $0] } ?? [:], body: body, useCache: false)
        request.queueWhenOffline = false
        do throws(NetworkError) {
            return try await runtime.client.send(request).status
        } catch {
            return error.status ?? 0
        }
    }

    func total(_ runtime: Live, _ endpoint: String) async throws -> Int {
        var request = APIRequest(.get, Endpoint(endpoint), query: [("limit", "100")], useCache: false)
        request.queueWhenOffline = false
        return try await runtime.client.send(request).json()["total"]?.intValue ?? -1
    }

    func records(_ name: String) throws -> [JSONValue] { try catalog.data(name).arrayValue ?? [] }

    @Test func materialsDraftsAreTheirAuthorsAndTheirSchoolAdmins() async throws {
        let materials = try records("materials")
        let published = materials.filter { $0["status"] == "publicado" }.count
        let schoolDrafts = materials.filter { $0["status"] != "publicado" && $0["school_id"] == "sch-001" }.count
        for (email, draftOfOtherSchool, draftOfOwnSchool, visible) in [
            ("superadmin@edugo.test", 200, 200, materials.count),
            ("admin.escuela@edugo.test", 404, 200, published + schoolDrafts),
            ("docente@edugo.test", 404, 404, published),
            ("estudiante@edugo.test", 404, 404, published),
        ] {
            let runtime = try await Live.signedIn(as: email)
            #expect(await status(runtime, .get, "mobile:/v1/materials/{id}", id: "mat-004") == draftOfOtherSchool, "\(email)")
            #expect(await status(runtime, .get, "mobile:/v1/materials/{id}", id: "mat-025") == draftOfOwnSchool, "\(email)")
            #expect(await status(runtime, .get, "mobile:/v1/materials/{id}", id: "mat-002") == 200, "\(email): published")
            #expect(try await total(runtime, "mobile:/v1/materials") == visible, "\(email)")
            await runtime.stop()
        }
    }

    @Test func aTeacherChangesOnlyTheirOwnMaterialsAndAStudentNone() async throws {
        let teacher = try await Live.signedIn(as: "docente@edugo.test")
        #expect(await status(teacher, .put, "mobile:/v1/materials/{id}", id: "mat-020", body: ["title": "x"]) == 403)
        #expect(await status(teacher, .delete, "mobile:/v1/materials/{id}", id: "mat-020") == 403)
        #expect(await status(teacher, .delete, "mobile:/v1/materials/{id}", id: "mat-004") == 404, "a draft it cannot see")
        #expect(await status(teacher, .put, "mobile:/v1/materials/{id}", id: "mat-045", body: ["title": "Mía"]) == 200)
        #expect(await status(teacher, .delete, "mobile:/v1/materials/{id}", id: "mat-045") == 204)
        await teacher.stop()
        let student = try await Live.signedIn(as: "estudiante@edugo.test")
        let fields: JSONValue = ["title": "x", "subject": "Historia", "unit_id": "unt-001"]
        #expect(await status(student, .post, "mobile:/v1/materials", body: fields) == 403)
        #expect(await status(student, .delete, "mobile:/v1/materials/{id}", id: "mat-020") == 403)
        await student.stop()
    }

    @Test func aTeacherIsOfferedEditAndDeleteOnlyOnTheirOwnMaterials() async throws {
        let teacher = try await Live.signedIn(as: "docente@edugo.test")
        func shown(_ id: String) async throws -> String {
            let model = await teacher.loaded("material-detail", params: ["id": id])
            return TextRenderer().render(try model.render(options: RenderOptions()))
        }
        let own = try await shown("mat-045")
        #expect(own.contains("Editar") && own.contains("Eliminar"), "\(own)")
        let colleagues = try await shown("mat-020")
        #expect(!colleagues.contains("Editar") && !colleagues.contains("Eliminar"), "\(colleagues)")
        await teacher.stop()
    }

    @Test func aTeachersAssessmentsTabOpensResultsAndAStudentsTheQuiz() async throws {
        for (email, opens) in [("docente@edugo.test", "assessment-results"), ("estudiante@edugo.test", "assessment-take")] {
            let runtime = try await Live.signedIn(as: email)
            let list = await runtime.loaded("assessments-list")
            let rows = flattenAll(try list.render(options: RenderOptions())).compactMap { node -> RowNode? in
                if case .row(let row) = node.kind { return row }
                return nil
            }
            let row = try #require(rows.first, "\(email): no assessments")
            guard case .success(let items, _, _) = list.dataState, let item = items.first else {
                Issue.record("\(email): \(list.dataState)")
                return
            }
            _ = await list.perform(actionId: try #require(row.actionId), item: item)
            #expect(runtime.navigation.stack.last?.screenKey == opens, "\(email): \(row.actionId ?? "")")
            if opens == "assessment-results" {
                let results = await runtime.loaded("assessment-results", params: ["id": item["material_id"]?.stringValue ?? ""])
                guard case .success(let attempts, _, _) = results.dataState else {
                    Issue.record("results: \(results.dataState)")
                    return
                }
                #expect(!attempts.isEmpty)
                let shown = TextRenderer().render(try results.render(options: RenderOptions()))
                #expect(!shown.contains("{"), "\(shown)")
            }
            await runtime.stop()
        }
    }

    @Test func aSchoolAdminManagesTheirSchoolAndNoHigherRole() async throws {
        let users = try records("users")
        let ownSchool = users.filter {
            $0["school_id"] == "sch-001" && !["super_admin", "platform_admin"].contains($0["role"]?.stringValue ?? "")
        }.count
        let runtime = try await Live.signedIn(as: "admin.escuela@edugo.test")
        defer { Task { await runtime.stop() } }
        #expect(try await total(runtime, "admin:/v1/users") == ownSchool)
        #expect(await status(runtime, .get, "admin:/v1/users/{id}", id: "usr-010") == 200, "a teacher of the school")
        #expect(await status(runtime, .get, "admin:/v1/users/{id}", id: "usr-001") == 404, "the super admin")
        #expect(await status(runtime, .get, "admin:/v1/users/{id}", id: "usr-004") == 404, "another school's")
        // The escalation seen in the preview: deleting the super admin.
        #expect(await status(runtime, .delete, "admin:/v1/users/{id}", id: "usr-001") == 404)
        #expect(await status(runtime, .delete, "admin:/v1/users/{id}", id: "usr-004") == 404)
        #expect(await status(runtime, .put, "admin:/v1/users/{id}", id: "usr-010", body: ["role": "super_admin"]) == 403)
        #expect(await status(runtime, .put, "admin:/v1/users/{id}", id: "usr-010", body: ["school_id": "sch-002"]) == 403)
        let newcomer: JSONValue = ["first_name": "Ana", "email": "ana@edugo.test", "role": "teacher", "school_id": "sch-002"]
        #expect(await status(runtime, .post, "admin:/v1/users", body: newcomer) == 403, "a user of another school")
        let promoted: JSONValue = ["first_name": "Ana", "email": "ana@edugo.test", "role": "super_admin"]
        #expect(await status(runtime, .post, "admin:/v1/users", body: promoted) == 403, "a higher role")
        // Schools, units and memberships: theirs only; no deleting their school.
        #expect(try await total(runtime, "admin:/v1/schools") == 1)
        #expect(await status(runtime, .get, "admin:/v1/schools/{id}", id: "sch-002") == 404)
        #expect(await status(runtime, .put, "admin:/v1/schools/{id}", id: "sch-001", body: ["phone": "555"]) == 200)
        #expect(await status(runtime, .delete, "admin:/v1/schools/{id}", id: "sch-001") == 403)
        #expect(await status(runtime, .get, "admin:/v1/schools/{id}/units", id: "sch-002") == 403)
        #expect(await status(runtime, .get, "admin:/v1/memberships/{id}", id: "mem-005") == 404)
        #expect(await status(runtime, .delete, "admin:/v1/memberships/{id}", id: "mem-005") == 404)
        #expect(await status(runtime, .get, "mobile:/v1/units/{id}/progress", id: "unt-005") == 403)
        #expect(await status(runtime, .get, "mobile:/v1/units/{id}/progress", id: "unt-002") == 200)
        // And the super admin is still there.
        let superadmin = try await Live(backend: runtime.backend, start: true)
        try await superadmin.signIn("superadmin@edugo.test")
        #expect(await status(superadmin, .get, "admin:/v1/users/{id}", id: "usr-001") == 200)
        await superadmin.sdk.stop()
    }

    @Test func studentsAndGuardiansSeeTheirOwnResultsAndActivity() async throws {
        let attempts = try records("attempts").filter { $0["user_id"] == "usr-021" }
        let scores = attempts.compactMap { attempt -> Double? in
            guard let score = attempt["score"]?.doubleValue, let max = attempt["max_score"]?.doubleValue else { return nil }
            return score / max * 100
        }
        let average = ((scores.reduce(0, +) / Double(scores.count)) * 10).rounded() / 10
        let student = try await Live.signedIn(as: "estudiante@edugo.test")
        #expect(await status(student, .get, "mobile:/v1/attempts/{id}/results", id: "att-001") == 200)
        #expect(await status(student, .get, "mobile:/v1/attempts/{id}/results", id: "att-003") == 404, "a classmate's")
        #expect(await status(student, .get, "mobile:/v1/units/{id}/progress", id: "unt-001") == 403)
        var request = APIRequest(.get, "admin:/v1/stats/global", useCache: false)
        request.queueWhenOffline = false
        let stats = try await student.client.send(request).json()
        let activity = stats["recent_activity"]?.arrayValue ?? []
        #expect(!activity.isEmpty && activity.allSatisfy { $0["title"]?.stringValue?.hasPrefix("Completaste") == true })
        #expect(stats["average_score"]?.doubleValue == average, "his own figures, not the school's")
        await student.stop()
        let guardian = try await Live.signedIn(as: "tutor@edugo.test")
        #expect(await status(guardian, .get, "mobile:/v1/students/{id}/progress", id: "usr-021") == 200)
        #expect(await status(guardian, .get, "mobile:/v1/students/{id}/progress", id: "usr-023") == 404, "not theirs")
        // Results are read through the child's progress; the endpoint is not a guardian's.
        #expect(await status(guardian, .get, "mobile:/v1/attempts/{id}/results", id: "att-001") == 403)
        await guardian.stop()
    }

    @Test func aTeachersDashboardShowsTheirSchoolsActivityOnly() async throws {
        let teacher = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await teacher.stop() } }
        var request = APIRequest(.get, "admin:/v1/stats/global", useCache: false)
        request.queueWhenOffline = false
        let stats = try await teacher.client.send(request).json()
        let all = try catalog.data("stats_global")["recent_activity"]?.arrayValue ?? []
        let shown = stats["recent_activity"]?.arrayValue ?? []
        #expect(shown.count < all.count && !shown.isEmpty, "\(shown.count) of \(all.count)")
    }
}
