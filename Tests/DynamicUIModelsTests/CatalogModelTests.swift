import DynamicUICatalog
import Foundation
import Testing

@testable import DynamicUIModels

/// The EduGo screen table: screen key, pattern, handler key, data endpoint. Five screens first
/// had no endpoint although their data exists; the catalog names the endpoints that serve it.
let screenTable: [(key: String, pattern: ScreenPattern, handler: String?, endpoint: String?)] = [
    ("app-login", .login, "login", nil),
    ("dashboard-teacher", .dashboard, "dashboard-teacher", "admin:/v1/stats/global"),
    ("dashboard-student", .dashboard, "dashboard-student", "admin:/v1/stats/global"),
    ("dashboard-superadmin", .dashboard, "dashboard-superadmin", "admin:/v1/stats/global"),
    ("dashboard-schooladmin", .dashboard, "dashboard-schooladmin", "admin:/v1/stats/global"),
    ("dashboard-guardian", .dashboard, "dashboard-guardian", "admin:/v1/stats/global"),
    ("materials-list", .list, nil, "mobile:/v1/materials"),
    ("material-detail", .detail, "material-detail", "mobile:/v1/materials/{id}"),
    ("material-create", .form, "material-create", nil),
    ("material-edit", .form, "material-edit", "mobile:/v1/materials/{id}"),
    ("assessments-list", .list, nil, "mobile:/v1/assessments"),
    ("assessment-take", .form, "assessment-take", "mobile:/v1/materials/{id}/assessment"),
    ("assessment-result", .detail, nil, "mobile:/v1/attempts/{id}/results"),
    // Also: what a teacher's "Evaluaciones" tab opens (the attempts at one assessment).
    ("assessment-results", .list, nil, "mobile:/v1/materials/{id}/assessment/results"),
    ("attempts-history", .list, nil, "mobile:/v1/users/me/attempts"),
    ("progress-my", .list, "progress-my", "mobile:/v1/progress"),
    ("progress-unit-list", .list, "progress-unit-list", "mobile:/v1/units/{id}/progress"),
    ("progress-student-detail", .detail, "progress-student-detail", "mobile:/v1/students/{id}/progress"),
    ("users-list", .list, nil, "admin:/v1/users"),
    ("user-detail", .detail, nil, "admin:/v1/users/{id}"),
    ("user-create", .form, "user-create", nil),
    ("user-edit", .form, "user-edit", "admin:/v1/users/{id}"),
    ("schools-list", .list, nil, "admin:/v1/schools"),
    ("school-detail", .detail, nil, "admin:/v1/schools/{id}"),
    ("school-create", .form, "school-create", nil),
    ("school-edit", .form, "school-edit", "admin:/v1/schools/{id}"),
    ("units-list", .list, nil, "admin:/v1/schools/{id}/units"),
    ("unit-detail", .detail, nil, "admin:/v1/units/{id}"),
    ("unit-create", .form, "unit-create", nil),
    ("unit-edit", .form, "unit-edit", "admin:/v1/units/{id}"),
    ("memberships-list", .list, nil, "admin:/v1/memberships"),
    ("membership-add", .form, "membership-add", nil),
    ("children-list", .list, "guardian-children", "mobile:/v1/guardians/me/children"),
    ("child-progress", .detail, "guardian-progress", "mobile:/v1/students/{id}/progress"),
    ("roles-list", .list, nil, "admin:/v1/roles"),
    ("role-detail", .detail, nil, "admin:/v1/roles/{id}"),
    ("resources-list", .list, nil, "admin:/v1/resources"),
    ("permissions-list", .list, nil, "admin:/v1/permissions"),
    ("role-permissions", .list, nil, "admin:/v1/roles/{id}/permissions"),
    ("app-settings", .settings, "settings", nil),
]

/// Decodes `json` through both paths (our reader and models, and Foundation's `JSONDecoder`)
/// and checks that they agree and that every round trip gives the same value.
func assertBothPathsAgree<T: JSONModel>(_ type: T.Type, _ json: JSONValue, _ name: String) throws -> T {
    let bytes = JSONWriter(prettyPrinted: true).bytes(from: json)
    let fast = try DocumentDecoder().decode(T.self, from: bytes)
    let foundation = try JSONDecoder().decode(T.self, from: Data(bytes))
    #expect(fast == foundation, "\(name): fast path and JSONDecoder differ")
    // Model → JSON → model.
    #expect(try T(json: fast.json) == fast, "\(name): json round trip")
    // Model → text → reader → model.
    #expect(try DocumentDecoder().decode(T.self, from: JSONWriter().bytes(from: fast.json)) == fast, "\(name): text round trip")
    // JSONEncoder → JSONDecoder.
    let encoded = try JSONEncoder().encode(fast)
    #expect(try JSONDecoder().decode(T.self, from: encoded) == fast, "\(name): Codable round trip")
    return fast
}

@Suite("Catalog: EduGo screens, navigation and demo data")
struct EduGoCatalogTests {
    let catalog: EduGoCatalog

    init() throws { catalog = try EduGoCatalog() }

    @Test func exactlyTheSeedScreens() throws {
        #expect(catalog.screenKeys == screenTable.map(\.key).sorted())
        for row in screenTable {
            let screen = try catalog.screen(row.key)
            #expect(screen.screenKey == row.key)
            #expect(screen.pattern == row.pattern, "\(row.key) pattern")
            #expect(screen.handlerKey == row.handler, "\(row.key) handler")
            #expect(screen.dataEndpoint == row.endpoint, "\(row.key) endpoint")
        }
    }

    @Test(arguments: screenTable.map(\.key))
    func screenDecodesThroughBothPaths(key: String) throws {
        let screen = try assertBothPathsAgree(ScreenDefinition.self, try catalog.screenJSON(key), key)
        // Every known value is known: the catalog's only type beyond the built-in ones is the
        // shipped native component, which declares its requirement and a fallback.
        #expect(screen.pattern.isKnown)
        for zone in screen.template.allZones {
            #expect(zone.type.isKnown, "\(key): zone \(zone.id)")
            for slot in (zone.slots ?? []) + (zone.itemLayout?.slots ?? []) {
                let declared = slot.requires == ["component:\(slot.controlType.rawValue)"] && slot.fallback != nil
                #expect(slot.controlType.isKnown || declared, "\(key): slot \(slot.id)")
            }
        }
        for action in screen.actions {
            #expect(action.type.isKnown && action.trigger.isKnown, "\(key): action \(action.id)")
        }
    }

    @Test func navigationForEveryRole() throws {
        let roles = try catalog.navigationRoles()
        #expect(Set(roles) == ["superadmin", "schooladmin", "teacher", "student", "guardian"])
        let keys = Set(screenTable.map(\.key))
        for role in roles {
            let json = try JSONReader().read(Data(contentsOf: catalog.folder.appendingPathComponent("navigation/\(role).json")))
            let navigation = try assertBothPathsAgree(NavigationDefinition.self, json, role)
            #expect(!navigation.bottomNav.isEmpty && navigation.bottomNav.count <= 5)
            func check(_ items: [NavItem]) {
                for item in items {
                    #expect(keys.contains(item.screenKey), "\(role): \(item.key) → \(item.screenKey)")
                    check(item.children ?? [])
                }
            }
            check(navigation.bottomNav)
            check(navigation.drawerItems ?? [])
            #expect(navigation.bottomNav.first?.screenKey == "dashboard-\(role)")
        }
    }

    @Test func demoDataReadsIdenticallyThroughBothReaders() throws {
        let files = try catalog.dataFiles()
        #expect(files.contains("materials") && files.contains("users") && files.contains("endpoints"))
        for name in files {
            let url = catalog.folder.appendingPathComponent("data/\(name).json")
            let data = try Data(contentsOf: url)
            let ours = try JSONReader().read(data)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: data)
            #expect(ours == foundation, "\(name)")
        }
        #expect(try catalog.data("materials").arrayValue?.count == 137)
        #expect(try catalog.data("users").arrayValue?.count == 45)
    }

    @Test func everyDataEndpointHasDemoData() throws {
        let endpoints = try #require(try catalog.data("endpoints").objectValue)
        for row in screenTable {
            guard let endpoint = row.endpoint else { continue }
            #expect(endpoints[endpoint] != nil, "no demo data for \(endpoint)")
        }
    }
}

@Suite("Catalog: podcasts")
struct PodcastsCatalogTests {
    let catalog = PodcastsCatalog()

    @Test(arguments: PodcastsCatalog.documentNames)
    func documentDecodesThroughBothPaths(name: String) throws {
        let node = try assertBothPathsAgree(ViewNode.self, try catalog.json(name), name)
        func check(_ node: ViewNode) {
            // `media_player` is the shipped native component (DynamicUIMediaPlayer), not a built-in type.
            #expect(node.type.isKnown || node.type.rawValue == "media_player", "\(name): \(node.type)")
            node.children.forEach(check)
            switch node.props {
            case .list(_, let template, _): check(template)
            case .button(let label, _): label.map(check)
            case .navigationLink(_, let label): label.map(check)
            case .navigationStack(let root): root.map(check)
            case .screen(_, let body, let toolbar, _, _):
                body.map(check)
                toolbar.map(check)
            case .sheet(let content): content.map(check)
            default: break
            }
        }
        check(node)
    }

    @Test func appIsATabView() throws {
        let app = try catalog.document("app")
        guard case .tabView(let tabs) = app.props else {
            Issue.record("app.json is not a tab_view")
            return
        }
        #expect(tabs.map(\.screen) == ["browse", "search"])
    }

    @Test func themeAndComponents() throws {
        let theme = try assertBothPathsAgree(Theme.self, try catalog.json("theme"), "theme")
        #expect(theme.colors["primary"] != nil)
        #expect(theme.presets["title"]?.font != nil)
        let library = try assertBothPathsAgree(ComponentLibrary.self, try catalog.json("components"), "components")
        #expect(library.components["podcast_card"]?.parameters == ["podcast"])
    }

    @Test func recordingsAreIndexedAndReadable() throws {
        let index = try catalog.recordingIndex()
        #expect(index.count > 10)
        for (request, file) in index {
            let response = try catalog.recording(file)
            #expect(response["resultCount"]?.intValue == response["results"]?.arrayValue?.count, "\(request)")
        }
    }
}
