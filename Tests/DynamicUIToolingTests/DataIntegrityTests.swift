import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

/// The demo backend keeps its records consistent whatever the forms send: a unit is created
/// under the school its list shows, an e-mail belongs to one user, a school goes with its
/// units, derived names follow the ids they come from, a temporary password signs in and search
/// ignores accents and case.
@Suite("Demo backend: records stay consistent", .serialized)
struct DataIntegrityTests {
    /// A backend and a preview signed in as `email`; `body` runs with the browser.
    func withPreview(
        signedInAs email: String, _ body: (DemoBackend, TestBrowser) async throws -> Void
    ) async throws {
        let backend = try DemoBackend()
        try await backend.start()
        let preview = WebPreview(backend: backend)
        try await preview.start()
        let browser = TestBrowser(base: preview.url)
        let login = try await browser.open("/")
        let submit = try #require(link(containing: "submit-login", in: login.body))
        _ = try await browser.open(submit, form: [("email", email), ("password", "edugo123")])
        do {
            try await body(backend, browser)
        } catch {
            await preview.stop()
            await backend.stop()
            throw error
        }
        await preview.stop()
        await backend.stop()
    }

    /// A backend started over loopback; `body` runs with its admin API.
    func withBackend(_ body: (DemoBackend, DemoAPI) async throws -> Void) async throws {
        let backend = try DemoBackend()
        try await backend.start()
        do {
            try await body(backend, DemoAPI(base: backend.adminURL))
        } catch {
            await backend.stop()
            throw error
        }
        await backend.stop()
    }

    /// The "+" of a school's units opens the form for that school, and the form saves a unit
    /// under it.
    @Test func theUnitsPlusCreatesAUnitOfThatSchool() async throws {
        try await withPreview(signedInAs: "admin.escuela@edugo.test") { backend, browser in
            let units = try await browser.open("/screen/units-list?id=sch-001")
            let plus = try #require(link(containing: "/create", in: units.body), "the list offers +")
            let form = try await browser.open(plus, form: [])
            #expect(form.path.hasPrefix("/screen/unit-create"), "\(form.path)")
            let submit = try #require(link(containing: "/submit", in: form.body), "the form has a submit")
            _ = try await browser.open(
                submit,
                form: [
                    ("name", "8º C · Secundaria"), ("level", "Secundaria"), ("grade", "8"), ("section", "C"),
                    ("academic_year", "2025"), ("shift", "tarde"), ("teacher_id", "usr-009"), ("status", "activa"),
                ])
            #expect(
                backend.log.contains("POST admin:/v1/schools/sch-001/units"),
                "the form posts to the school's units: \(backend.log.filter { $0.hasPrefix("POST") })")
            let api = DemoAPI(base: backend.adminURL)
            let (token, _) = try await api.signIn("admin.escuela@edugo.test")
            let list = try await api.call("GET", "/v1/schools/sch-001/units?limit=100", token: token)
            let names = list.json["items"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            #expect(names.contains("8º C · Secundaria"), "\(names)")
        }
    }

    /// A unit posted without its school (the route's `{id}` left unfilled) is refused with a
    /// 400 naming the missing field, never stored under a school that does not exist.
    @Test func aMissingRouteParameterIsAClear400() async throws {
        try await withBackend { _, api in
            let (token, _) = try await api.signIn("superadmin@edugo.test")
            for path in ["/v1/schools/%7Bid%7D/units", "/v1/schools/%20/units"] {
                let answer = try await api.call("POST", path, ["name": "9º B"], token: token)
                #expect(answer.status == 400, "\(path): \(answer.status) \(answer.json)")
                let message = answer.json["message"]?.stringValue ?? ""
                #expect(message.contains("school_id"), "the message names the field: \(message)")
            }
            let missing = try await api.call("POST", "/v1/schools/sch-999/units", ["name": "9º B"], token: token)
            #expect(missing.status == 404, "no unit under a school that does not exist: \(missing.json)")
        }
    }
}
