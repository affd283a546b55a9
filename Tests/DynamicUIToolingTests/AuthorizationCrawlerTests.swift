import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

/// The scope fixes one by one, over loopback HTTP against one demo backend: which screens a role
/// opens, whose figures its dashboard shows, what its pickers offer, and which records a write
/// may name.
@Suite("Demo backend: screens, figures, pickers and writes within the account's scope")
struct ScopedAccessTests {
    /// The suite's backend; no test changes what another one reads.
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

}
