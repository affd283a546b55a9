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
        try await withDemoBackend(api: \.adminURL) { _, api in
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

    /// A new user's fields, with `email`.
    func newUser(_ email: String, role: String = "teacher", school: String = "sch-001") -> JSONValue {
        [
            "first_name": "Lucía", "last_name": "Ramos Paz", "email": .string(email), "role": .string(role),
            "school_id": .string(school), "status": "activo", "password": "Temporal2025",
        ]
    }

    /// An e-mail belongs to one user: creating or editing another with it, in any case and with
    /// spaces around, is refused with a message that says so.
    @Test func anEmailBelongsToOneUser() async throws {
        try await withDemoBackend(api: \.adminURL) { _, api in
            let (token, _) = try await api.signIn("superadmin@edugo.test")
            for email in ["docente@edugo.test", "  DOCENTE@EduGo.test "] {
                let created = try await api.call("POST", "/v1/users", newUser(email), token: token)
                #expect([409, 422].contains(created.status), "\(email): \(created.status) \(created.json)")
                #expect(created.json["message"]?.stringValue == "Ya existe un usuario con ese correo")
            }
            let other = try await api.call("POST", "/v1/users", newUser("lucia.ramos@edugo.test"), token: token)
            #expect(other.status == 201, "\(other.json)")
            let id = try #require(other.json["id"]?.stringValue)
            let edited = try await api.call("PUT", "/v1/users/\(id)", ["email": " Docente@edugo.test"], token: token)
            #expect([409, 422].contains(edited.status), "\(edited.json)")
            #expect(edited.json["message"]?.stringValue == "Ya existe un usuario con ese correo")
            let own = try await api.call("PUT", "/v1/users/\(id)", ["email": "LUCIA.ramos@edugo.test"], token: token)
            #expect(own.status == 200, "a user keeps his own e-mail: \(own.json)")
            let list = try await api.call("GET", "/v1/users?limit=100", token: token)
            let emails = list.json["items"]?.arrayValue?.compactMap { $0["email"]?.stringValue.map { $0.lowercased() } } ?? []
            #expect(emails.count == Set(emails).count, "no e-mail twice: \(emails.count) rows, \(Set(emails).count) e-mails")
        }
    }

    /// A school's web site is a link: "notaurl" is refused on create and on edit, naming the
    /// field; an https address is kept.
    @Test func aSchoolsWebSiteIsALink() async throws {
        try await withDemoBackend(api: \.adminURL) { _, api in
            let (token, _) = try await api.signIn("superadmin@edugo.test")
            let school: JSONValue = ["name": "Escuela Enlace", "code": "EE-01", "city": "Lima", "website": "notaurl"]
            let created = try await api.call("POST", "/v1/schools", school, token: token)
            #expect(created.status == 422 && created.json["errors"]?["website"] != nil, "\(created.status) \(created.json)")
            let edited = try await api.call("PUT", "/v1/schools/sch-001", ["website": "www sin esquema"], token: token)
            #expect(edited.status == 422 && edited.json["errors"]?["website"] != nil, "\(edited.status) \(edited.json)")
            let good = try await api.call("PUT", "/v1/schools/sch-001", ["website": "https://colegio.edu.pe"], token: token)
            #expect(good.status == 200 && good.json["website"]?.stringValue == "https://colegio.edu.pe")
        }
    }

    /// The ids of the records an admin list answers (every page).
    func ids(_ api: DemoAPI, _ path: String, token: String) async throws -> [String] {
        let separator = path.contains("?") ? "&" : "?"
        let answer = try await api.call("GET", "\(path)\(separator)limit=100", token: token)
        return answer.json["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    /// A deleted school takes its units and their memberships with it, and its confirmation
    /// says so.
    @Test func aSchoolGoesWithItsUnitsAndMemberships() async throws {
        try await withPreview(signedInAs: "superadmin@edugo.test") { backend, browser in
            let detail = try await browser.open("/screen/school-detail?id=sch-008")
            let delete = try #require(link(containing: "/delete", in: detail.body), "the admin may delete the school")
            let asked = try await browser.open(delete, form: [])
            #expect(asked.body.contains("<dialog open"), "the confirmation shows")
            #expect(asked.body.contains("3 unidades académicas"), "the confirmation says what goes with it")

            let api = DemoAPI(base: backend.adminURL)
            let (token, _) = try await api.signIn("superadmin@edugo.test")
            let units = try await ids(api, "/v1/schools/sch-008/units", token: token)
            #expect(units.count == 3)
            let members = try await api.call("GET", "/v1/memberships?limit=100&q=Porvenir", token: token)
            #expect((members.json["total"]?.intValue ?? 0) > 0, "the school has memberships before")
            let deleted = try await api.call("DELETE", "/v1/schools/sch-008", token: token)
            #expect(deleted.status == 204)
            for unit in units {
                let gone = try await api.call("GET", "/v1/units/\(unit)", token: token)
                #expect(gone.status == 404, "\(unit) went with its school: \(gone.json)")
            }
            let left = try await api.call("GET", "/v1/memberships?limit=100&q=Porvenir", token: token)
            #expect(left.json["total"]?.intValue == 0, "no membership of the school is left: \(left.json)")
        }
    }

    /// Names copied from another record follow it on every write: a unit's new teacher shows in
    /// its detail and its list, a renamed teacher in his units, and new users, schools and
    /// memberships show their role, school, status and person.
    @Test func derivedNamesFollowTheIdsTheyComeFrom() async throws {
        try await withDemoBackend(api: \.adminURL) { _, api in
            let (admin, _) = try await api.signIn("admin.escuela@edugo.test")
            let unit = try await api.call("GET", "/v1/units/unt-004", token: admin)
            let teacher = try #require(unit.json["teacher_id"]?.stringValue)
            let other = teacher == "usr-009" ? "usr-010" : "usr-009"
            let changed = try await api.call("PUT", "/v1/units/unt-004", ["teacher_id": .string(other)], token: admin)
            #expect(changed.status == 200, "\(changed.json)")
            let person = try await api.call("GET", "/v1/users/\(other)", token: admin)
            let name = try #require(person.json["full_name"]?.stringValue)
            let detail = try await api.call("GET", "/v1/units/unt-004", token: admin)
            #expect(detail.json["teacher_name"]?.stringValue == name, "\(detail.json)")
            let list = try await api.call("GET", "/v1/schools/sch-001/units?limit=100", token: admin)
            let row = list.json["items"]?.arrayValue?.first { $0["id"]?.stringValue == "unt-004" }
            #expect(row?["teacher_name"]?.stringValue == name)

            let renamed = try await api.call("PUT", "/v1/users/\(other)", ["last_name": "Quispe Mamani"], token: admin)
            #expect(renamed.status == 200, "\(renamed.json)")
            let again = try await api.call("GET", "/v1/units/unt-004", token: admin)
            #expect(again.json["teacher_name"]?.stringValue?.hasSuffix("Quispe Mamani") == true, "\(again.json)")

            let (root, _) = try await api.signIn("superadmin@edugo.test")
            let user = try await api.call("POST", "/v1/users", newUser("nuevo.docente@edugo.test"), token: root)
            #expect(user.status == 201, "\(user.json)")
            #expect(user.json["role_name"]?.stringValue == "Docente")
            #expect(user.json["school_name"]?.stringValue == "Colegio San Martín de Porres")
            #expect(user.json["status_label"]?.stringValue == "Activo")
            #expect(user.json["full_name"]?.stringValue == "Lucía Ramos Paz")
            let school = try await api.call(
                "POST", "/v1/schools", ["name": "Escuela Nueva", "code": "EN-1", "city": "Quito", "status": "activa"],
                token: root)
            #expect(school.status == 201, "\(school.json)")
            #expect(school.json["status_label"]?.stringValue == "Activa")
            #expect(school.json["unit_count"]?.intValue == 0)
            let userId = try #require(user.json["id"]?.stringValue)
            let member = try await api.call(
                "POST", "/v1/memberships", ["user_id": .string(userId), "unit_id": "unt-001", "role": "teacher"], token: root)
            #expect(member.status == 201, "\(member.json)")
            #expect(member.json["user_name"]?.stringValue == "Lucía Ramos Paz")
            #expect(member.json["role_name"]?.stringValue == "Docente")
            #expect(member.json["school_name"]?.stringValue == "Colegio San Martín de Porres")
        }
    }

    /// A user created with a temporary password signs in with it; no answer carries it.
    @Test func aTemporaryPasswordSignsIn() async throws {
        try await withDemoBackend(api: \.adminURL) { backend, api in
            let (root, _) = try await api.signIn("superadmin@edugo.test")
            let created = try await api.call("POST", "/v1/users", newUser("temporal@edugo.test"), token: root)
            #expect(created.status == 201, "\(created.json)")
            #expect(created.json["password"] == nil, "the password is not echoed")
            let id = try #require(created.json["id"]?.stringValue)
            let read = try await api.call("GET", "/v1/users/\(id)", token: root)
            #expect(read.json["password"] == nil)
            let mobile = DemoAPI(base: backend.mobileURL)
            let login = try await mobile.call(
                "POST", "/v1/auth/login", ["email": "temporal@edugo.test", "password": "Temporal2025"])
            #expect(login.status == 200, "\(login.json)")
            #expect(login.json["user"]?["id"]?.stringValue == id)
            #expect(login.json["context"]?["role"]?.stringValue == "teacher")
            #expect(!"\(login.json)".contains("Temporal2025"))
            let wrong = try await mobile.call(
                "POST", "/v1/auth/login", ["email": "temporal@edugo.test", "password": "otra-cosa1"])
            #expect(wrong.status == 401)
            let short = try await api.call("POST", "/v1/users", newUser("corta@edugo.test").with("password", "abc"), token: root)
            #expect(short.status == 422, "\(short.json)")
        }
    }

    /// Search ignores accents and case: "perez" and "PEREZ" find every "Pérez", "cronica" finds
    /// "Crónica".
    @Test func searchIgnoresAccentsAndCase() async throws {
        try await withDemoBackend(api: \.adminURL) { backend, api in
            let (root, _) = try await api.signIn("superadmin@edugo.test")
            let accented = try await ids(api, "/v1/users?q=P%C3%A9rez", token: root)
            #expect(accented.count >= 8, "\(accented)")
            for term in ["perez", "PEREZ", "pérez", "PÉREZ"] {
                let found = try await ids(
                    api, "/v1/users?q=\(term.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", token: root)
                #expect(found == accented, "\(term): \(found.count) of \(accented.count)")
            }
            let podcasts = DemoAPI(base: backend.mobileURL)
            let answer = try await podcasts.call("GET", "/search?term=cronica&media=podcast")
            let names = answer.json["results"]?.arrayValue?.compactMap { $0["trackName"]?.stringValue } ?? []
            #expect(names.contains { $0.contains("Crónica") }, "\(names)")
        }
    }

    /// Minor texts and order: counts agree in number ("1 usuario"), a unit's shift reads as its
    /// label, lists follow the screen's sort (numbers by value), and a new material is first
    /// among the newest.
    @Test func countsShiftsAndOrderReadRight() async throws {
        try await withDemoBackend(api: \.adminURL) { backend, api in
            let (root, _) = try await api.signIn("superadmin@edugo.test")
            let roles = try await api.call("GET", "/v1/roles?limit=100", token: root).json["items"]?.arrayValue ?? []
            let admin = try #require(roles.first { $0["code"]?.stringValue == "super_admin" })
            #expect(admin["user_count_label"]?.stringValue == "1 usuario", "\(admin)")
            let teacher = try #require(roles.first { $0["code"]?.stringValue == "teacher" })
            #expect(teacher["user_count_label"]?.stringValue == "12 usuarios")
            let resources = try await api.call("GET", "/v1/resources?limit=100", token: root).json["items"]?.arrayValue ?? []
            let single = try #require(resources.first { $0["permission_count"]?.intValue == 1 })
            #expect(single["permission_count_label"]?.stringValue == "1 permiso")

            let units = try await api.call("GET", "/v1/schools/sch-001/units?sort=name&limit=100", token: root)
            let rows = units.json["items"]?.arrayValue ?? []
            let grades = rows.compactMap { $0["grade"]?.intValue }
            #expect(grades == grades.sorted(), "units by name read in grade order: \(grades)")
            for row in rows {
                let shift = try #require(row["shift"]?.stringValue)
                #expect(row["shift_label"]?.stringValue == (shift == "tarde" ? "Tarde" : "Mañana"))
            }

            let mobile = DemoAPI(base: backend.mobileURL)
            let (teacherToken, _) = try await mobile.signIn("docente@edugo.test")
            let created = try await mobile.call(
                "POST", "/v1/materials",
                ["title": "Fracciones en la cocina", "subject": "Matemáticas", "unit_id": "unt-001", "status": "publicado"],
                token: teacherToken)
            #expect(created.status == 201, "\(created.json)")
            let list = try await mobile.call("GET", "/v1/materials?sort=-created_at&limit=20", token: teacherToken)
            let first = list.json["data"]?.arrayValue?.first?["id"]?.stringValue
            #expect(first == created.json["id"]?.stringValue, "the new material comes first")
        }
    }
}

extension JSONValue {
    /// The object with `key` set to `value`.
    func with(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}
