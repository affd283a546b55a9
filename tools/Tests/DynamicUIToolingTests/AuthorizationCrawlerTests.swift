import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

/// Every demo account against the demo backend over loopback HTTP: every screen of the catalog
/// and every data endpoint those screens read, with ids of its own scope and of others (other
/// schools' records, other students' attempts, other guardians' children). Each answer is either
/// a refusal or within the account's scope, and every person it names is one the account may
/// see, as the demo data says (school, membership, children), not as a list written here.
@Suite("Authorization crawler: every screen and its data, for every account")
struct AuthorizationCrawlerTests {
    /// The demo data the scopes are computed from.
    struct Demo {
        let users: [JSONValue]
        let schools: [JSONValue]
        let units: [JSONValue]
        let materials: [JSONValue]
        let attempts: [JSONValue]
        let children: [JSONValue]
        let memberships: [JSONValue]
        let accounts: [JSONValue]
        let endpoints: JSONObject

        init(_ catalog: EduGoCatalog) throws {
            func records(_ name: String) throws -> [JSONValue] { try catalog.data(name).arrayValue ?? [] }
            users = try records("users")
            schools = try records("schools")
            units = try records("units")
            materials = try records("materials")
            attempts = try records("attempts")
            children = try records("children")
            memberships = try records("memberships")
            accounts = try records("accounts")
            endpoints = try catalog.data("endpoints").objectValue ?? [:]
        }

        func school(ofUser id: String) -> String? {
            users.first { $0["id"]?.stringValue == id }?["school_id"]?.stringValue
        }
    }

    /// What one account may see, computed from the demo data.
    struct Scope {
        let email: String
        let group: String
        /// Ids of the people the account may see.
        let people: Set<String>
        /// Ids of the attempts the account may see.
        let attempts: Set<String>
        /// Schools whose figures the account may see.
        let schools: [JSONValue]
        /// Units of those schools.
        let units: Int
        /// Materials the account may read.
        let materials: Int

        init(account: JSONValue, demo: Demo) {
            email = account["email"]?.stringValue ?? ""
            let me = account["user_id"]?.stringValue ?? ""
            let school = account["school_id"]?.stringValue ?? ""
            let group = Self.group(of: account["role"]?.stringValue ?? "")
            self.group = group
            let ids = { (records: [JSONValue]) in Set(records.compactMap { $0["id"]?.stringValue }) }
            let mine = demo.children.filter { $0["guardian_id"]?.stringValue == me }
            let childIds = ids(mine)
            // Authors of published materials are credited to every reader of the library.
            let authors = Set(
                demo.materials.filter { $0["status"]?.stringValue == "publicado" }.compactMap { $0["author"]?["id"]?.stringValue }
            )
            let schoolUnits = Set(
                demo.units.filter { $0["school_id"]?.stringValue == school }.compactMap { $0["id"]?.stringValue })
            let staff = { (schools: Set<String>) in
                ids(
                    demo.users.filter {
                        schools.contains($0["school_id"]?.stringValue ?? "")
                            && !["student", "guardian"].contains($0["role"]?.stringValue ?? "")
                    })
            }
            let visibleSchools: Set<String>
            switch group {
            case "superadmin":
                people = ids(demo.users)
                visibleSchools = ids(demo.schools)
            case "schooladmin", "teacher":
                // The people of the school: its users and the members of its units.
                let members = demo.memberships.filter { schoolUnits.contains($0["unit_id"]?.stringValue ?? "") }
                people = ids(demo.users.filter { $0["school_id"]?.stringValue == school })
                    .union(members.compactMap { $0["user_id"]?.stringValue }).union(authors).union([me])
                visibleSchools = [school]
            case "guardian":
                let schools = Set(mine.compactMap { $0["school_id"]?.stringValue })
                people = childIds.union(staff(schools)).union([me])
                visibleSchools = schools
            default:
                // A student: themself, their guardians, the staff of their school.
                let guardians = demo.children.filter { $0["id"]?.stringValue == me }.compactMap { $0["guardian_id"]?.stringValue }
                people = Set(guardians).union(staff([school])).union(authors).union([me])
                visibleSchools = [school]
            }
            attempts = ids(
                demo.attempts.filter { attempt in
                    let user = attempt["user_id"]?.stringValue ?? ""
                    switch group {
                    case "superadmin": return true
                    case "schooladmin", "teacher": return demo.school(ofUser: user) == school
                    case "guardian": return childIds.contains(user)
                    default: return user == me
                    }
                })
            schools = demo.schools.filter { visibleSchools.contains($0["id"]?.stringValue ?? "") }
            units = demo.units.filter { visibleSchools.contains($0["school_id"]?.stringValue ?? "") }.count
            materials =
                group == "superadmin"
                ? demo.materials.count
                : demo.materials.filter {
                    $0["status"]?.stringValue == "publicado" || $0["author"]?["id"]?.stringValue == me
                        || (group == "schooladmin" && $0["school_id"]?.stringValue == school)
                }.count
        }

        static func group(of role: String) -> String {
            switch role {
            case "super_admin", "platform_admin": "superadmin"
            case "school_admin", "school_director": "schooladmin"
            case "teacher", "guardian": role
            default: "student"
            }
        }
    }

    /// Every text of an answer.
    static func texts(_ value: JSONValue, into out: inout [String]) {
        switch value {
        case .string(let text): out.append(text)
        case .array(let items): for item in items { texts(item, into: &out) }
        case .object(let object):
            for (key, item) in object {
                out.append(key)
                texts(item, into: &out)
            }
        default: break
        }
    }

    /// Ids of `records`, one per owner (a school, a student), ids of the demo accounts' own
    /// records first, and one id that names nothing.
    static func sample(_ records: [JSONValue], owner: (JSONValue) -> String?, own: (JSONValue) -> Bool) -> [String] {
        var perOwner: [String: Int] = [:]
        var ids: [String] = records.filter(own).prefix(3).compactMap { $0["id"]?.stringValue }
        for record in records {
            let key = owner(record) ?? "-"
            guard perOwner[key, default: 0] < 1, let id = record["id"]?.stringValue else { continue }
            perOwner[key, default: 0] += 1
            if !ids.contains(id) { ids.append(id) }
        }
        return ids + ["zzz-000"]
    }

    /// The ids to try for an endpoint's `{id}`: of the collection it reads by id, of its parent
    /// (`parent`), or of the collection its `{id}` filter names (`unit_id` → units).
    static func idKinds(of entry: JSONObject) -> String? {
        // A list under a record that names its members (a role's permissions): that record's.
        if let parent = entry["parent"]?["collection"]?.stringValue { return parent }
        if entry["kind"]?.stringValue == "item" {
            guard let key = entry["key"]?.stringValue, key != "id" else { return entry["collection"]?.stringValue }
            return String(key.dropLast(3)) + "s"
        }
        let filter = entry["filter"]?.objectValue ?? [:]
        guard let field = filter.first(where: { $0.value.stringValue == "{id}" })?.key else { return nil }
        return String(field.dropLast(3)) + "s"
    }

    /// The data endpoints a screen reads: its own and its sections'.
    static func dataEndpoints(of screen: JSONValue) -> [String] {
        var found: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for (key, item) in object {
                    if key == "data_endpoint", let endpoint = item.stringValue { found.append(endpoint) } else { walk(item) }
                }
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        walk(screen)
        return found
    }

    @Test func everyAnswerIsRefusedOrWithinScope() async throws {
        let catalog = try EduGoCatalog()
        let demo = try Demo(catalog)
        let backend = try DemoBackend()
        try await backend.start()
        defer { Task { await backend.stop() } }
        let mobile = DemoAPI(base: backend.mobileURL)
        let admin = DemoAPI(base: backend.adminURL)

        // Records are sampled per owner: the accounts' own school, or any other one (and per
        // status, role or student within it), so every kind of scope is tried.
        let accountUsers = Set(demo.accounts.compactMap { $0["user_id"]?.stringValue })
        let accountSchools = Set(demo.accounts.compactMap { $0["school_id"]?.stringValue })
        let place = { (school: String?) in school.map { accountSchools.contains($0) ? $0 : "elsewhere" } ?? "platform" }
        let schoolOfRecord = { (record: JSONValue) -> String in
            place(record["school_id"]?.stringValue ?? demo.school(ofUser: record["user_id"]?.stringValue ?? ""))
        }
        let candidates: [String: [String]] = [
            "materials": Self.sample(
                demo.materials, owner: { "\(schoolOfRecord($0)) \($0["status"]?.stringValue ?? "")" },
                own: { accountUsers.contains($0["author"]?["id"]?.stringValue ?? "") }),
            "attempts": Self.sample(
                demo.attempts,
                owner: { schoolOfRecord($0) == "elsewhere" ? "elsewhere" : $0["user_id"]?.stringValue },
                own: { accountUsers.contains($0["user_id"]?.stringValue ?? "") }),
            "users": Self.sample(
                demo.users, owner: { "\(schoolOfRecord($0)) \($0["role"]?.stringValue ?? "")" },
                own: { accountUsers.contains($0["id"]?.stringValue ?? "") }),
            "children": Self.sample(
                demo.children, owner: { schoolOfRecord($0) == "elsewhere" ? "elsewhere" : $0["guardian_id"]?.stringValue },
                own: { _ in false })
                + demo.users.filter { $0["role"]?.stringValue != "student" }.prefix(3).compactMap { $0["id"]?.stringValue },
            "units": Self.sample(demo.units, owner: schoolOfRecord, own: { _ in false }),
            "schools": Self.sample(demo.schools, owner: { place($0["id"]?.stringValue) }, own: { _ in false }),
            "memberships": Self.sample(demo.memberships, owner: schoolOfRecord, own: { _ in false }),
            "roles": Self.sample(
                try catalog.data("roles").arrayValue ?? [], owner: { $0["id"]?.stringValue }, own: { _ in false }),
        ]
        let platform = try catalog.data("stats_global")

        // The accounts are crawled side by side (a deferred section answers after a delay).
        let crawled = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for account in demo.accounts {
                group.addTask {
                    var requests = 0
                    var failures: [String] = []
                    let scope = Scope(account: account, demo: demo)
                    let (token, _) = try await mobile.signIn(scope.email)
                    let hidden = demo.users.filter { !scope.people.contains($0["id"]?.stringValue ?? "") }

                    /// Checks one answer: a refusal, or within scope.
                    func check(_ label: String, _ answer: DemoAPI.Answer) {
                        requests += 1
                        guard answer.status == 200 else {
                            if ![403, 404].contains(answer.status) {
                                failures.append("\(scope.email) \(label): status \(answer.status)")
                            }
                            return
                        }
                        var texts: [String] = []
                        Self.texts(answer.json, into: &texts)
                        let text = texts.joined(separator: "\n")
                        for person in hidden {
                            for field in ["full_name", "email"] {
                                if let value = person[field]?.stringValue, text.contains(value) {
                                    failures.append(
                                        "\(scope.email) \(label): shows \(value) (\(person["id"]?.stringValue ?? ""))")
                                }
                            }
                        }
                        for id in Set(texts.filter { $0.hasPrefix("att-") }) where !scope.attempts.contains(id) {
                            failures.append("\(scope.email) \(label): shows attempt \(id)")
                        }
                        // Figures: never more than the account's scope holds.
                        guard scope.group != "superadmin", answer.json["total_schools"] != nil else { return }
                        let sum = { (field: String) in scope.schools.compactMap { $0[field]?.intValue }.reduce(0, +) }
                        let bounds: [(String, Int)] = [
                            ("total_schools", scope.schools.count), ("active_schools", scope.schools.count),
                            ("total_students", sum("student_count")), ("total_teachers", sum("teacher_count")),
                            ("total_units", scope.units), ("total_users", scope.people.count),
                            ("total_materials", scope.materials),
                        ]
                        for (field, bound) in bounds {
                            if let value = answer.json[field]?.intValue, value > bound, value == platform[field]?.intValue {
                                failures.append("\(scope.email) \(label): \(field) \(value), platform-wide (scope \(bound))")
                            }
                        }
                    }

                    check("navigation", try await mobile.call("GET", "/v1/screens/navigation", token: token))
                    var fetched = Set<String>()
                    for key in catalog.screenKeys {
                        let screen = try await mobile.call("GET", "/v1/screens/\(key)", token: token)
                        check("screen \(key)", screen)
                        for endpoint in Self.dataEndpoints(of: try catalog.screenJSON(key)) {
                            let name = endpoint.contains(":") ? endpoint : "mobile:\(endpoint)"
                            guard fetched.insert(name).inserted, let entry = demo.endpoints[name]?.objectValue else { continue }
                            let api = name.hasPrefix("admin:") ? admin : mobile
                            let path = String(name.drop { $0 != ":" }.dropFirst())
                            let ids = path.contains("{id}") ? candidates[Self.idKinds(of: entry) ?? ""] ?? ["zzz-000"] : [""]
                            for id in ids {
                                let concrete = path.replacingOccurrences(of: "{id}", with: id)
                                var offset = 0
                                repeat {
                                    let paged =
                                        entry["kind"]?.stringValue == "list" ? "\(concrete)?limit=100&offset=\(offset)" : concrete
                                    let answer = try await api.call("GET", paged, token: token)
                                    check("\(key) GET \(paged)", answer)
                                    offset += 100
                                    guard answer.status == 200, let total = answer.json["total"]?.intValue, offset < total else {
                                        break
                                    }
                                } while true
                            }
                        }
                    }
                    return (requests, failures)
                }
            }
            return try await group.reduce(into: (0, [String]())) {
                $0.0 += $1.0; $0.1 += $1.1
            }
        }
        let (requests, failures) = (crawled.0, crawled.1.sorted())
        let summary = "\(requests) requests, \(failures.count) findings out of scope"
        print("authorization crawler: \(summary)")
        let screens = demo.accounts.count * catalog.screenKeys.count
        #expect(requests > 2 * screens, "every screen and the data of each, for every account: \(summary)")
        // One line per answer: how many findings, and the first.
        var byAnswer: [(String, [String])] = []
        for failure in failures {
            let answer = String(failure.prefix { $0 != ":" })
            if let index = byAnswer.firstIndex(where: { $0.0 == answer }) {
                byAnswer[index].1.append(failure)
            } else {
                byAnswer.append((answer, [failure]))
            }
        }
        let lines = byAnswer.map { "\($0.1.count)× \($0.1[0])" }
        #expect(failures.isEmpty, "\(summary) in \(byAnswer.count) answers:\n\(lines.joined(separator: "\n"))")
    }
}

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
        try await signInToPreview(browser, as: "estudiante@edugo.test")
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
        // The platform's figures, counted from its records: every user, every school's students.
        let students = try records("schools").compactMap { $0["student_count"]?.intValue }.reduce(0, +)
        #expect(all["total_users"]?.intValue == (try records("users")).count && all["total_students"]?.intValue == students)
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
