import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

/// What a screen shows fits the record it is about and the person who opens it, in the web
/// preview over the demo backend: a role's own permissions, a student's result as his teacher
/// reads it, a new record without empty rows.
@Suite("Demo backend: a screen fits its record and who opens it", .serialized)
struct ScreenFitsViewerTests {
    /// The titles of the list rows a page draws, in order.
    static func rowTitles(in html: String) -> [String] {
        html.matches(of: /<span class="row-title">([^<]*)<\/span>/).map { unescaped(String($0.1)) }
    }

    /// The text of the screen itself (its `<main>`, not the preview's bar or event log), tags
    /// removed.
    static func screenText(_ html: String) -> String {
        let start = html.range(of: "<main")?.lowerBound ?? html.startIndex
        let end = html.range(of: "</main>")?.upperBound ?? html.endIndex
        return unescaped(String(html[start..<end]).replacing(/<[^>]*>/, with: " "))
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A role's detail lists its permissions as rows, and "Ver permisos" opens those of the
    /// role, not the whole catalogue.
    @Test func aRolesPermissionsAreItsOwnAndListedAsRows() async throws {
        let catalog = try EduGoCatalog()
        let roles = try catalog.data("roles").arrayValue ?? []
        let permissions = try catalog.data("permissions").arrayValue ?? []
        let names = Dictionary(
            permissions.compactMap { permission in
                permission["id"]?.stringValue.map { ($0, permission["name"]?.stringValue ?? "") }
            }, uniquingKeysWith: { first, _ in first })
        try await withPreview(signedInAs: "superadmin@edugo.test") { _, browser in
            for role in roles {
                let id = try #require(role["id"]?.stringValue)
                let own = (role["permissions"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { names[$0] } }
                #expect(!own.isEmpty, "\(id) has permissions")
                let detail = try await browser.open("/screen/role-detail?id=\(id)")
                let rows = Self.rowTitles(in: detail.body)
                #expect(rows == own, "\(id): the detail's rows are the role's permissions")
                #expect(!Self.screenText(detail.body).contains(own.prefix(2).joined(separator: ", ")), "no paragraph of names")
                let button = try #require(link(containing: "view-permissions", in: detail.body), "\(id) offers Ver permisos")
                let page = try await browser.open(button, form: [])
                #expect(page.path.contains(id), "the permissions page is the role's: \(page.path)")
                // The list shows its first page (20 rows), every one of them the role's.
                let listed = Self.rowTitles(in: page.body)
                #expect(
                    Set(listed).isSubset(of: own) && listed.count == min(own.count, 20),
                    "\(id): Ver permisos lists the role's \(own.count), not \(listed.count) of the catalogue's")
            }
        }
    }

    /// A teacher opening a student's result reads about the student, by name, and is offered
    /// the student's progress, not the student's own retry and history; the student still is.
    @Test func aStudentsResultSpeaksOfTheStudentToHisTeacher() async throws {
        let attempts = try EduGoCatalog().data("attempts").arrayValue ?? []
        // Alejandro's passed attempt and his brother Julián's failed one, both of the teacher's school.
        for (id, passed) in [("att-030", true), ("att-040", false)] {
            let attempt = try #require(attempts.first { $0["id"]?.stringValue == id })
            #expect(attempt["passed"]?.boolValue == passed)
            let student = try #require(attempt["user_name"]?.stringValue)
            try await withPreview(signedInAs: "docente@edugo.test") { _, browser in
                let page = try await browser.open("/screen/assessment-result?id=\(id)")
                let text = Self.screenText(page.body)
                #expect(text.contains(student), "\(id): the student's name is shown")
                for word in ["Aprobaste", "Obtuviste", "Reintentar", "Ver historial", "Felicitaciones"] {
                    #expect(!text.contains(word), "\(id): a teacher is not offered or told «\(word)»")
                }
                #expect(
                    link(containing: "/retry", in: page.body) == nil && link(containing: "view-history", in: page.body) == nil)
                let progress = try #require(link(containing: "view-student", in: page.body), "the student's progress is offered")
                let opened = try await browser.open(progress, form: [])
                #expect(opened.path.hasPrefix("/screen/progress-student-detail"), "\(opened.path)")
                #expect(Self.screenText(opened.body).contains(student) && !opened.body.contains("No tienes acceso"))
            }
        }
        try await withPreview(signedInAs: "estudiante@edugo.test") { _, browser in
            let page = try await browser.open("/screen/assessment-result?id=att-030")
            let text = Self.screenText(page.body)
            #expect(text.contains("Aprobaste") && text.contains("Reintentar") && text.contains("Ver historial"))
            #expect(link(containing: "view-student", in: page.body) == nil, "no progress of another student to offer")
        }
        try await withPreview(signedInAs: "superadmin@edugo.test") { _, browser in
            let text = Self.screenText(try await browser.open("/screen/assessment-result?id=att-030").body)
            #expect(!text.contains("Reintentar") && !text.contains("Aprobaste"), "an admin takes no student's assessment")
        }
    }

    /// A header holding text grows with it: no hero or profile header has a fixed height that a
    /// two-line title or a long school name overflows (the status chip drawn under the metrics).
    @Test func aHeaderWithTextGrowsWithIt() async throws {
        try await withPreview(signedInAs: "docente@edugo.test") { _, browser in
            for path in [
                "/screen/assessment-result?id=att-030", "/screen/progress-student-detail?id=usr-021",
                "/screen/material-detail?id=mat-092", "/screen/app-settings",
            ] {
                let page = try await browser.open(path)
                #expect(page.status == 200 && !page.body.contains("No tienes acceso"), "\(path) opens")
                let fixed = page.body.matches(of: /id="(n-zone_[a-z_]*)" style="height:[0-9]+px"/).map { String($0.1) }
                #expect(fixed.isEmpty, "\(path): \(fixed) have a fixed height")
            }
        }
    }

    /// The rows of a detail whose value the record does not have, drawn as a bare label (a hole
    /// in the section). Phone, e-mail and web rows, which the SDK draws as links, aside.
    static func holes(in html: String) -> [String] {
        html.matches(of: /<p class="text[^"]*" id="n-zone_[a-z_]*?_((?:info|file)_[a-z_]+)">/).map { String($0.1) }
            .filter { !["phone", "email", "website"].contains(String($0.split(separator: "_").last ?? "")) }
    }

    /// A record just created, with only the fields its form requires, shows every row of its
    /// detail with a value or "—", never an empty row.
    @Test func aNewRecordsDetailHasNoEmptyRows() async throws {
        try await withPreview(signedInAs: "superadmin@edugo.test") { backend, browser in
            let admin = DemoAPI(base: backend.adminURL)
            let mobile = DemoAPI(base: backend.mobileURL)
            let (token, _) = try await mobile.signIn("superadmin@edugo.test")
            let (teacher, _) = try await mobile.signIn("docente@edugo.test")
            let created: [(screen: String, answer: DemoAPI.Answer)] = [
                (
                    "user-detail",
                    try await admin.call(
                        "POST", "/v1/users",
                        [
                            "first_name": "Lucía", "last_name": "Nueva", "email": "lucia.nueva@edugo.test", "role": "teacher",
                            "school_id": "sch-001",
                        ], token: token)
                ),
                (
                    "school-detail",
                    try await admin.call(
                        "POST", "/v1/schools", ["name": "Escuela Nueva", "code": "EN-01", "city": "Cusco", "country": "Perú"],
                        token: token)
                ),
                (
                    "unit-detail",
                    try await admin.call(
                        "POST", "/v1/schools/sch-001/units", ["name": "8º C · Secundaria", "grade": 8, "section": "C"],
                        token: token)
                ),
                (
                    "material-detail",
                    try await mobile.call(
                        "POST", "/v1/materials",
                        [
                            "title": "Guía nueva", "subject": "Matemáticas", "grade": 5, "file_type": "PDF",
                            "file_url": "https://cdn.edugo.test/guia.pdf", "unit_id": "unt-001", "status": "publicado",
                        ], token: teacher)
                ),
            ]
            for (screen, answer) in created {
                let id = try #require(answer.json["id"]?.stringValue, "\(screen): created (\(answer.status))")
                let page = try await browser.open("/screen/\(screen)?id=\(id)")
                #expect(page.status == 200 && Self.screenText(page.body).contains("Editar"), "\(screen) opens")
                #expect(Self.holes(in: page.body).isEmpty, "\(screen): rows without a value: \(Self.holes(in: page.body))")
            }
        }
    }

    /// The guardian's dashboard lists his children from the server, each with the status and
    /// average his other screens show (Julián, below the pass mark, is not "Al día"), each row
    /// opening that child's progress; its figures are the children's.
    @Test func theGuardiansDashboardShowsEachChildAsTheServerSeesHim() async throws {
        try await withPreview(signedInAs: "tutor@edugo.test") { backend, browser in
            let mobile = DemoAPI(base: backend.mobileURL)
            let (token, _) = try await mobile.signIn("tutor@edugo.test")
            let children = try await mobile.call("GET", "/v1/guardians/me/children", token: token).json["data"]?.arrayValue ?? []
            #expect(children.count == 2)
            let dashboard = try await browser.open("/screen/dashboard-guardian")
            #expect(Self.rowTitles(in: dashboard.body) == children.compactMap { $0["full_name"]?.stringValue })
            // Each row as it is read out: name, detail, status.
            let rows = dashboard.body.matches(of: /<a class="row[^"]*"[^>]*aria-label="([^"]*)"/).map {
                Self.unescaped(String($0.1))
            }
            for child in children {
                let id = try #require(child["id"]?.stringValue)
                let name = try #require(child["full_name"]?.stringValue)
                let status = try #require(child["status_label"]?.stringValue)
                let row = try #require(rows.first { $0.hasPrefix(name) }, "\(name) is a row")
                #expect(row.hasSuffix(status), "\(name): the dashboard says \(row), his record \(status)")
                let open = try #require(link(containing: "item=\(id)", in: dashboard.body), "\(name)'s row opens")
                let progress = try await browser.open(open, form: [])
                #expect(progress.path.hasPrefix("/screen/child-progress") && Self.screenText(progress.body).contains(name))
            }
            let julian = try #require(children.first { $0["id"]?.stringValue == "usr-022" })
            #expect(julian["status_label"]?.stringValue == "Requiere atención")
            let stats = try await DemoAPI(base: backend.adminURL).call("GET", "/v1/stats/global", token: token).json
            let text = Self.screenText(dashboard.body)
            for field in ["total_students", "pending_assessments"] {
                let value = try #require(stats[field]?.intValue)
                #expect(text.contains("\(value) "), "\(field) \(value) is on the dashboard")
            }
        }
    }

    /// A school admin removes a person from a unit from the memberships list, after a
    /// confirmation that names them; the person stays.
    @Test func aMembershipCanBeRemovedFromItsList() async throws {
        try await withPreview(signedInAs: "admin.escuela@edugo.test") { backend, browser in
            let admin = DemoAPI(base: backend.adminURL)
            let (token, _) = try await DemoAPI(base: backend.mobileURL).signIn("admin.escuela@edugo.test")
            let membership = try #require(
                try await admin.call("GET", "/v1/memberships?limit=1", token: token).json["items"]?[0], "one of his school")
            let id = try #require(membership["id"]?.stringValue)
            let person = try #require(membership["user_name"]?.stringValue)
            let list = try await browser.open("/screen/memberships-list")
            let remove = try #require(link(containing: "delete-item?item=\(id)", in: list.body), "the row offers Quitar")
            let asked = try await browser.open(remove, form: [])
            #expect(asked.body.contains("<dialog open") && Self.screenText(asked.body).contains("«\(person)»"))
            let confirm = try #require(link(containing: "delete-item.confirmed", in: asked.body), "the dialog confirms")
            let after = try await browser.open(confirm, form: [("confirmed", "1")])
            #expect(Self.screenText(after.body).contains("Miembro quitado"), "\(after.path)")
            #expect(try await admin.call("GET", "/v1/memberships/\(id)", token: token).status == 404, "the membership is gone")
            let user = try #require(membership["user_id"]?.stringValue)
            #expect(try await admin.call("GET", "/v1/users/\(user)", token: token).status == 200, "the person stays")
        }
    }

    /// The super admin's dashboard counts the platform's records as they are now (a user or a
    /// school created or deleted shows), and greets a platform account with no school of its own.
    @Test func theSuperadminsDashboardCountsTheRecordsAsTheyAre() async throws {
        try await withPreview(signedInAs: "superadmin@edugo.test") { backend, browser in
            let admin = DemoAPI(base: backend.adminURL)
            let (token, _) = try await DemoAPI(base: backend.mobileURL).signIn("superadmin@edugo.test")
            func figures() async throws -> (users: Int?, schools: Int?, active: Int?) {
                let stats = try await admin.call("GET", "/v1/stats/global", token: token).json
                return (stats["total_users"]?.intValue, stats["total_schools"]?.intValue, stats["active_schools"]?.intValue)
            }
            let before = try await figures()
            let users = try await admin.call("GET", "/v1/users?limit=1", token: token).json["total"]?.intValue
            #expect(before.users == users, "the users counted are the users listed")
            let user = try await admin.call(
                "POST", "/v1/users", ["first_name": "Lucía", "email": "lucia.cuenta@edugo.test", "role": "teacher"], token: token)
            let school = try await admin.call(
                "POST", "/v1/schools", ["name": "Escuela Cuenta", "code": "EC-01", "city": "Quito"], token: token)
            #expect(user.status == 201 && school.status == 201)
            let after = try await figures()
            #expect(after.users == before.users.map { $0 + 1 }, "a new user counts: \(before) → \(after)")
            #expect(after.schools == before.schools.map { $0 + 1 } && after.active == before.active.map { $0 + 1 })
            let id = try #require(school.json["id"]?.stringValue)
            #expect(try await admin.call("DELETE", "/v1/schools/\(id)", token: token).status == 204)
            #expect(try await figures().schools == before.schools, "a deleted school no longer counts")
            let dashboard = Self.screenText(try await browser.open("/screen/dashboard-superadmin").body)
            #expect(dashboard.contains("Superadministrador · Plataforma EduGo"), "a platform role belongs to no school")
            #expect(!dashboard.contains("Superadministrador · Colegio"))
        }
    }
}
