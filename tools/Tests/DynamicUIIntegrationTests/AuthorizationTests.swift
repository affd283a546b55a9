import DynamicUI
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import Foundation
import Testing

@Suite("The demo backend enforces roles per endpoint, as a real EduGo backend", .serialized)
@MainActor
struct AuthorizationTests {
    /// Each demo account and its dashboard group.
    nonisolated static let accounts = [
        ("superadmin@edugo.test", "superadmin"), ("admin.escuela@edugo.test", "schooladmin"),
        ("docente@edugo.test", "teacher"), ("estudiante@edugo.test", "student"), ("tutor@edugo.test", "guardian"),
    ]

    /// An id that exists for each `{id}` endpoint.
    nonisolated static let ids: [String: String] = [
        "mobile:/v1/materials/{id}": "mat-002", "mobile:/v1/materials/{id}/assessment": "mat-002",
        "mobile:/v1/materials/{id}/assessment/attempts": "mat-002",
        "mobile:/v1/materials/{id}/assessment/results": "mat-002", "mobile:/v1/attempts/{id}/results": "att-001",
        "mobile:/v1/units/{id}/progress": "unt-001", "mobile:/v1/students/{id}/progress": "usr-021",
        "admin:/v1/users/{id}": "usr-009", "admin:/v1/schools/{id}": "sch-001", "admin:/v1/schools/{id}/units": "sch-001",
        "admin:/v1/units/{id}": "unt-001", "admin:/v1/memberships/{id}": "mem-001", "admin:/v1/roles/{id}": "rol-001",
        "admin:/v1/roles/{id}/permissions": "rol-001",
    ]

    @Test(arguments: accounts.map(\.0))
    func everyEndpointAnswersByRole(email: String) async throws {
        let group = try #require(Self.accounts.first { $0.0 == email }?.1)
        let runtime = try await Live.signedIn(as: email)
        defer { Task { await runtime.stop() } }
        let table = try EduGoCatalog().data("endpoints").objectValue ?? [:]
        #expect(table.count == 28)
        for (endpoint, entry) in table {
            let allowed = entry["roles"]?.arrayValue?.contains(.string(group)) ?? false
            let target = Endpoint(endpoint)
            var parameters: [String: String] = [:]
            for name in target.parameterNames { parameters[name] = Self.ids[endpoint] ?? "x" }
            var request = APIRequest(.get, target, pathParameters: parameters, useCache: false)
            request.queueWhenOffline = false
            do throws(NetworkError) {
                _ = try await runtime.client.send(request)
                #expect(allowed, "\(group) read \(endpoint)")
            } catch {
                if allowed {
                    Issue.record("\(group) was refused \(endpoint): \(error)")
                } else {
                    #expect(error.code == .forbidden, "\(group) on \(endpoint): \(error)")
                    #expect(error.body?["message"]?.stringValue?.isEmpty == false, "a 403 says why")
                }
            }
        }
    }

    @Test func aGuardianReadsOnlyTheirOwnChildrensProgress() async throws {
        let runtime = try await Live.signedIn(as: "tutor@edugo.test")
        defer { Task { await runtime.stop() } }
        for (id, own) in [("usr-021", true), ("usr-022", true), ("usr-023", false)] {
            do throws(NetworkError) {
                _ = try await runtime.client.send(
                    APIRequest(.get, "mobile:/v1/students/{id}/progress", pathParameters: ["id": id], useCache: false))
                #expect(own, "\(id) is not the guardian's child")
            } catch {
                // Another family's child does not exist for this guardian.
                #expect(!own && error.code == .notFound, "\(id): \(error)")
            }
        }
    }

    @Test func aCreatedMaterialHasItsDerivedFieldsAndLinksAreChecked() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let fields: JSONObject = [
            "title": "Fracciones", "subject": "Matemáticas", "grade": "5", "unit_id": "unt-001", "status": "borrador",
            "file_type": "PDF", "file_url": "https://edugo.test/f.pdf",
        ]
        let created = try await runtime.client.send(APIRequest(.post, "mobile:/v1/materials", body: .object(fields))).json()
        #expect(created["grade_label"] == "5º grado")
        #expect(created["unit_name"] == "7º A · Secundaria")
        #expect(created["school_name"] == "Colegio San Martín de Porres")
        #expect(created["status_label"] == "Borrador")
        #expect(created["author"]?["name"] == "Jorge Castro Chávez")
        #expect(created["mime_type"] == "application/pdf")
        var bad = fields
        bad["file_url"] = "no es un enlace"
        do throws(NetworkError) {
            _ = try await runtime.client.send(APIRequest(.post, "mobile:/v1/materials", body: .object(bad)))
            Issue.record("a non-URL link was accepted")
        } catch {
            #expect(error.code == .validation && error.body?["errors"]?["file_url"] != nil, "\(error)")
        }
    }

    @Test func aRefusedScreenIsANotAllowedStateWithNothingOfTheData() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let users = await runtime.loaded("users-list")
        #expect(users.failure == .notAllowed)
        let tree = try users.render(options: RenderOptions())
        let texts = visibleTexts(tree)
        #expect(texts.contains(LoadFailure.notAllowed.title(.spanish)))
        #expect(!texts.contains { $0.contains("@edugo.test") }, "no user's e-mail leaks")
        #expect(!TextRenderer().render(tree).contains(LoadFailure.retryActionId), "retrying cannot help a refusal")
    }

    @Test func anUnknownScreenIsANotFoundState() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let missing = await runtime.loaded("no-such-screen")
        #expect(missing.failure == .notFound)
        #expect(visibleTexts(try missing.render(options: RenderOptions())).contains(LoadFailure.notFound.title(.spanish)))
    }

    @Test func anUnreachableScreenIsAnOfflineStateThatRetries() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        await runtime.backend.stop()
        let screen = await runtime.loaded("assessments-list")
        #expect(screen.failure == .offline)
        let text = TextRenderer().render(try screen.render(options: RenderOptions()))
        #expect(text.contains(LoadFailure.offline.title(.spanish)) && text.contains(LoadFailure.retryActionId))
        #expect(!text.contains("127.0.0.1") && !text.contains("http"), "no internal address: \(text)")
        try await runtime.backend.restart()
        await screen.perform(actionId: LoadFailure.retryActionId)
        #expect(screen.failure == nil)
        guard case .success(let items, _, _) = screen.dataState else {
            Issue.record("\(screen.dataState)")
            return
        }
        #expect(!items.isEmpty)
    }
}
