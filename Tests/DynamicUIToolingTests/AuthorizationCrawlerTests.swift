import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

/// The scope fixes one by one, over loopback HTTP against one demo backend: which screens a role
/// opens, whose figures its dashboard shows, what its pickers offer, and which records a write
/// may name.
@Suite("Demo backend: screens, figures, pickers and writes within the account's scope", .serialized)
struct ScopedAccessTests {
    /// The suite's backend; its tests run one after another, as one of them writes.
    static let started = Task { () throws -> DemoBackend in
        let backend = try DemoBackend()
        try await backend.start()
        return backend
    }

    let catalog: EduGoCatalog

    init() throws { catalog = try EduGoCatalog() }

    func records(_ name: String) throws -> [JSONValue] { try catalog.data(name).arrayValue ?? [] }

    /// The option values of the pickers bound to `field` in `screen`.
    static func options(_ field: String, in screen: JSONValue) -> [String] {
        switch screen {
        case .object(let object):
            let own =
                object["field"]?.stringValue == field
                ? (object["options"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue } : []
            return own + object.values.flatMap { options(field, in: $0) }
        case .array(let items): return items.flatMap { options(field, in: $0) }
        default: return []
        }
    }

    /// Every `screen_key` a navigation names.
    static func screenKeys(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let object):
            return object.reduce(into: Set<String>()) { keys, member in
                if member.key == "screen_key", let key = member.value.stringValue { keys.insert(key) }
                keys.formUnion(screenKeys(in: member.value))
            }
        case .array(let items): return items.reduce(into: Set<String>()) { $0.formUnion(screenKeys(in: $1)) }
        default: return []
        }
    }

    @Test func eachRoleOpensOnlyTheScreensItsNavigationReaches() async throws {
        let backend = try await Self.started.value
        let api = DemoAPI(base: backend.mobileURL)
        #expect(try await api.call("GET", "/v1/screens/app-login").status == 200, "the sign-in is served before signing in")
        #expect(try await api.call("GET", "/v1/screens/dashboard-student").status == 401)
        let refusals: [(String, [String])] = [
            (
                "estudiante@edugo.test",
                [
                    "dashboard-guardian", "dashboard-schooladmin", "dashboard-superadmin", "dashboard-teacher", "membership-add",
                    "user-create", "material-create", "material-edit", "school-create", "unit-create", "units-list",
                ]
            ),
            (
                "tutor@edugo.test",
                [
                    "dashboard-student", "dashboard-schooladmin", "dashboard-superadmin", "dashboard-teacher", "membership-add",
                    "user-create", "material-create", "material-edit", "school-create", "materials-list",
                ]
            ),
            (
                "docente@edugo.test",
                ["dashboard-schooladmin", "dashboard-superadmin", "membership-add", "user-create", "assessment-take"]
            ),
            ("admin.escuela@edugo.test", ["dashboard-superadmin", "dashboard-teacher", "school-create", "roles-list"]),
            ("superadmin@edugo.test", []),
        ]
        for (email, refused) in refusals {
            let (token, _) = try await api.signIn(email)
            let navigation = try await api.call("GET", "/v1/screens/navigation", token: token).json
            let reached = Self.screenKeys(in: navigation).union(["app-login", "app-settings"])
            #expect(reached.count > 3, "\(email): \(reached)")
            for key in reached.sorted() {
                #expect(try await api.call("GET", "/v1/screens/\(key)", token: token).status == 200, "\(email) opens \(key)")
            }
            for key in refused {
                let answer = try await api.call("GET", "/v1/screens/\(key)", token: token)
                #expect(answer.status == 403, "\(email) may not open \(key)")
                #expect(answer.json["message"]?.stringValue?.hasPrefix("No tienes acceso") == true, "\(email) \(key)")
            }
        }
    }

    @Test func aRefusedScreenShowsNoTienesAccesoInThePreview() async throws {
        let backend = try await Self.started.value
        let preview = WebPreview(backend: backend)
        try await preview.start()
        defer { Task { await preview.stop() } }
        let browser = TestBrowser(base: preview.url)
        let login = try await browser.open("/")
        let submit = try #require(link(containing: "submit-login", in: login.body))
        _ = try await browser.open(submit, form: [("email", "estudiante@edugo.test"), ("password", "edugo123")])
        for key in ["units-list", "dashboard-guardian", "membership-add", "dashboard-schooladmin", "user-create"] {
            let page = try await browser.open("/screen/\(key)")
            #expect(page.body.contains("No tienes acceso"), "\(key)")
            #expect(!page.body.contains("No encontrado"), "\(key)")
            #expect(!page.body.contains("Julián Pérez Zúñiga") && !page.body.contains("Rosa Peña Jiménez"), "\(key)")
        }
    }

    @Test func dashboardsShowTheAccountsOwnScope() async throws {
        let backend = try await Self.started.value
        let mobile = DemoAPI(base: backend.mobileURL)
        let admin = DemoAPI(base: backend.adminURL)
        let platform = try catalog.data("stats_global")

        let (schoolAdmin, _) = try await mobile.signIn("admin.escuela@edugo.test")
        let stats = try await admin.call("GET", "/v1/stats/global", token: schoolAdmin).json
        let school = try await admin.call("GET", "/v1/schools/sch-001", token: schoolAdmin).json
        let units = try await admin.call("GET", "/v1/schools/sch-001/units?limit=100", token: schoolAdmin).json
        #expect(stats["total_students"] == school["student_count"], "the school's students, as its detail says")
        #expect(stats["total_teachers"] == school["teacher_count"])
        #expect(stats["total_units"] == school["unit_count"] && stats["total_units"] == units["total"])
        #expect(stats["total_schools"]?.intValue == 1)
        let schoolUsers = try records("users").filter { $0["school_id"]?.stringValue == "sch-001" }.count
        #expect(stats["total_users"]?.intValue == schoolUsers)

        let (teacher, _) = try await mobile.signIn("docente@edugo.test")
        let teacherStats = try await admin.call("GET", "/v1/stats/global", token: teacher).json
        let authored = try records("materials").filter { $0["author"]?["id"]?.stringValue == "usr-009" }
        let assessed = Set(try records("assessments").compactMap { $0["material_id"]?.stringValue })
        #expect(teacherStats["total_materials"]?.intValue == authored.count, "his own materials")
        #expect(
            teacherStats["total_assessments"]?.intValue
                == authored.filter { assessed.contains($0["id"]?.stringValue ?? "") }.count)
        let taught = try records("units").filter { $0["teacher_id"]?.stringValue == "usr-009" }
        #expect(teacherStats["total_units"]?.intValue == taught.count)

        for email in ["estudiante@edugo.test", "tutor@edugo.test"] {
            let (token, _) = try await mobile.signIn(email)
            let own = try await admin.call("GET", "/v1/stats/global", token: token).json
            #expect(own["total_schools"]?.intValue == 1, "\(email)")
            #expect(
                own["total_users"] != platform["total_users"] && own["total_materials"] != platform["total_materials"], "\(email)"
            )
        }
        let children = try records("children").filter { $0["guardian_id"]?.stringValue == "usr-039" }
        let (guardian, _) = try await mobile.signIn("tutor@edugo.test")
        #expect(
            try await admin.call("GET", "/v1/stats/global", token: guardian).json["total_students"]?.intValue == children.count)

        let (superadmin, _) = try await mobile.signIn("superadmin@edugo.test")
        let all = try await admin.call("GET", "/v1/stats/global", token: superadmin).json
        #expect(all["total_users"] == platform["total_users"] && all["total_students"] == platform["total_students"])
    }

    @Test func pickersOfferOnlyWhatTheAccountMayChoose() async throws {
        let backend = try await Self.started.value
        let api = DemoAPI(base: backend.mobileURL)
        let users = try records("users")
        let school = { (id: String) in users.first { $0["id"]?.stringValue == id }?["school_id"]?.stringValue }
        let ownUnits = Set(
            try records("units").filter { $0["school_id"]?.stringValue == "sch-001" }.compactMap { $0["id"]?.stringValue })

        let (teacher, _) = try await api.signIn("docente@edugo.test")
        let edit = try await api.call("GET", "/v1/screens/material-edit", token: teacher).json
        #expect(Set(Self.options("unit_id", in: edit)) == ownUnits, "a teacher picks a unit of his school")

        let (schoolAdmin, _) = try await api.signIn("admin.escuela@edugo.test")
        let unit = try await api.call("GET", "/v1/screens/unit-create", token: schoolAdmin).json
        let teachers = Self.options("teacher_id", in: unit)
        let catalogTeachers = Self.options("teacher_id", in: try catalog.screenJSON("unit-create"))
        #expect(!teachers.isEmpty && teachers == catalogTeachers.filter { school($0) == "sch-001" }, "\(teachers)")
        let add = try await api.call("GET", "/v1/screens/membership-add", token: schoolAdmin).json
        let people = Self.options("user_id", in: add)
        #expect(!people.isEmpty && people.allSatisfy { school($0) == "sch-001" }, "\(people)")
        #expect(Set(Self.options("unit_id", in: add)) == ownUnits)
        for key in ["user-create", "user-edit"] {
            let form = try await api.call("GET", "/v1/screens/\(key)", token: schoolAdmin).json
            let roles = Self.options("role", in: form)
            #expect(!roles.isEmpty && !roles.contains("super_admin") && !roles.contains("platform_admin"), "\(key): \(roles)")
            #expect(Self.options("school_id", in: form) == ["sch-001"], "\(key)")
        }

        let (superadmin, _) = try await api.signIn("superadmin@edugo.test")
        let everyone = try await api.call("GET", "/v1/screens/membership-add", token: superadmin).json
        #expect(Self.options("user_id", in: everyone) == Self.options("user_id", in: try catalog.screenJSON("membership-add")))
    }

    @Test func aWriteNamingARecordOutsideTheScopeIsRefused() async throws {
        let backend = try await Self.started.value
        let mobile = DemoAPI(base: backend.mobileURL)
        let admin = DemoAPI(base: backend.adminURL)

        let (teacher, _) = try await mobile.signIn("docente@edugo.test")
        let moved = try await mobile.call("PUT", "/v1/materials/mat-092", ["unit_id": "unt-005"], token: teacher)
        #expect(moved.status == 403, "a unit of another school")
        #expect(moved.json["message"]?.stringValue?.contains("unidad académica") == true, "\(moved.json)")
        #expect(try await mobile.call("GET", "/v1/materials/mat-092", token: teacher).json["unit_id"] == "unt-003")
        #expect(try await mobile.call("PUT", "/v1/materials/mat-092", ["unit_id": "unt-002"], token: teacher).status == 200)
        #expect(try await mobile.call("PUT", "/v1/materials/mat-092", ["unit_id": "unt-003"], token: teacher).status == 200)
        let created = try await mobile.call(
            "POST", "/v1/materials", ["title": "Otra escuela", "subject": "Historia", "unit_id": "unt-005"], token: teacher)
        #expect(created.status == 403)

        let (schoolAdmin, _) = try await mobile.signIn("admin.escuela@edugo.test")
        let stranger = try await admin.call(
            "POST", "/v1/memberships", ["user_id": "usr-018", "unit_id": "unt-001", "role": "teacher"], token: schoolAdmin)
        #expect(stranger.status == 403, "a person of another school")
        #expect(stranger.json["message"]?.stringValue?.contains("persona") == true, "\(stranger.json)")
        let colleague = try await admin.call(
            "POST", "/v1/memberships", ["user_id": "usr-010", "unit_id": "unt-001", "role": "teacher"], token: schoolAdmin)
        #expect(colleague.status == 201, "\(colleague.json)")
        let reassigned = try await admin.call("PUT", "/v1/units/unt-004", ["teacher_id": "usr-018"], token: schoolAdmin)
        #expect(reassigned.status == 403, "a teacher of another school")
        #expect(try await admin.call("PUT", "/v1/units/unt-004", ["teacher_id": "usr-009"], token: schoolAdmin).status == 200)
        #expect(try await admin.call("PUT", "/v1/units/unt-004", ["teacher_id": "usr-010"], token: schoolAdmin).status == 200)
        let unit = try await admin.call(
            "POST", "/v1/schools/sch-001/units", ["name": "12º Z", "teacher_id": "usr-011"], token: schoolAdmin)
        #expect(unit.status == 403, "a new unit with a teacher of another school")
    }
}
