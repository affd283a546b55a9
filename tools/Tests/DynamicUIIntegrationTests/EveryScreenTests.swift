import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import Foundation
import Testing

/// Which account reaches each EduGo screen, and with which route parameters (ids from the demo
/// data). `nil` email: the screen is seen signed out.
let screenVisits: [(key: String, email: String?, params: [String: String])] = {
    // Each account's screens, with the `id` a screen's route takes.
    let byAccount: [(email: String?, screens: KeyValuePairs<String, String?>)] = [
        (nil, ["app-login": nil]),
        (
            "superadmin@edugo.test",
            [
                "dashboard-superadmin": nil, "users-list": nil, "user-detail": "usr-009", "user-create": nil,
                "user-edit": "usr-009", "schools-list": nil, "school-detail": "sch-001", "school-create": nil,
                "school-edit": "sch-001", "roles-list": nil, "role-detail": "rol-001", "resources-list": nil,
                "permissions-list": nil, "role-permissions": "rol-007",
            ]
        ),
        (
            "admin.escuela@edugo.test",
            [
                "dashboard-schooladmin": nil, "units-list": "sch-001", "unit-detail": "unt-001", "unit-create": "sch-001",
                "unit-edit": "unt-001", "memberships-list": nil, "membership-add": nil,
            ]
        ),
        (
            "docente@edugo.test",
            [
                "dashboard-teacher": nil, "materials-list": nil, "material-detail": "mat-002", "material-create": nil,
                "material-edit": "mat-002", "assessments-list": nil, "assessment-results": "mat-002",
                "progress-unit-list": nil, "progress-student-detail": "usr-021", "app-settings": nil,
            ]
        ),
        (
            "estudiante@edugo.test",
            [
                "dashboard-student": nil, "assessment-take": "mat-002", "assessment-result": "att-001",
                "attempts-history": nil, "progress-my": nil,
            ]
        ),
        ("tutor@edugo.test", ["dashboard-guardian": nil, "children-list": nil, "child-progress": "usr-021"]),
    ]
    var visits: [(key: String, email: String?, params: [String: String])] = []
    for (email, screens) in byAccount {
        for (key, id) in screens { visits.append((key, email, id.map { ["id": $0] } ?? [:])) }
    }
    return visits
}()

/// Whether `text` is a link to a web page (a school's site), which a detail may show as its
/// value; pictures and files are never text.
func isWebPageLink(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("https://") && !lower.contains(" ")
        && ![".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".pdf"].contains { lower.hasSuffix($0) }
}

/// Every text a person sees or hears in a tree (list rows included, all of them), except input
/// hints and a labeled value that is a web page's address.
func visibleTexts(_ node: RenderNode) -> [String] {
    var texts: [String] = []
    func visit(_ node: RenderNode) {
        switch node.kind {
        case .screen(let chrome): texts.append(chrome.title)
        case .section(let header): texts += header.map { [$0] } ?? []
        case .text(let text, _, _): texts.append(text)
        case .metric(let label, let value, _): texts += [label, value]
        case .labeledContent(let label, let value):
            texts.append(label)
            if isWebPageLink(value) { return }
            texts.append(value)
        case .row(let row): texts += [row.title] + row.subtitles + (row.badge.map { [$0] } ?? [])
        case .chip(let text, _): texts.append(text)
        case .avatar(_, let initials): texts.append(initials)
        case .emptyState(let title, let message, _): texts += [title] + (message.map { [$0] } ?? [])
        case .control(let control): texts += [control.label, control.error].compactMap { $0 }
        case .list(_, let rows): for index in 0..<rows.count { visit(rows.row(at: index)) }
        default: break
        }
        if let label = node.accessibility?.label { texts.append(label) }
        node.children.forEach(visit)
    }
    visit(node)
    return texts
}

/// The number of list rows in a tree, and whether it shows an empty state.
func listShape(_ node: RenderNode) -> (rows: Int, empty: Bool) {
    var rows = 0
    var empty = false
    func visit(_ node: RenderNode) {
        if case .list(_, let lazy) = node.kind { rows += lazy.count }
        if case .emptyState = node.kind { empty = true }
        node.children.forEach(visit)
    }
    visit(node)
    return (rows, empty)
}

@Suite("Every EduGo screen with the demo data, for the account that reaches it", .serialized)
@MainActor
struct EveryScreenTests {
    /// A placeholder left unresolved: `{item.title}`, `{user.fullName}`.
    static let placeholder = try! Regex(#"\{[A-Za-z_][A-Za-z0-9_.\[\]]*\}"#)

    @Test func theTableCoversEveryScreen() throws {
        #expect(Set(screenVisits.map(\.key)) == Set(try EduGoCatalog().screenKeys))
        #expect(screenVisits.count == 40)
    }

    @Test(arguments: screenVisits.map(\.key))
    func screenShowsItsData(key: String) async throws {
        let visit = try #require(screenVisits.first { $0.key == key })
        let runtime = try await Live()
        defer { Task { await runtime.stop() } }
        if let email = visit.email {
            try await runtime.signIn(email)
            #expect(runtime.session?.user.email == email)
        }
        let model = await runtime.loaded(key, params: visit.params)
        let definition = try #require(model.compiled?.definition, "\(key): \(model.screenState)")
        if definition.dataEndpoint != nil {
            guard case .success(let items, _, _) = model.dataState else {
                Issue.record("\(key): data \(model.dataState)")
                return
            }
            #expect(!items.isEmpty, "\(key): the demo data has records for this screen")
        }
        for options in [RenderOptions(sizeClass: .compact, platform: .ios), RenderOptions(sizeClass: .regular, platform: .ipad)] {
            let tree = try model.render(options: options)
            let texts = visibleTexts(tree)
            for text in texts {
                #expect(text.firstMatch(of: Self.placeholder) == nil, "\(key): raw placeholder in \"\(text)\"")
                #expect(!text.contains("://"), "\(key): a URL as visible text: \"\(text)\"")
            }
            let shape = listShape(tree)
            if [.list, .search].contains(definition.pattern) {
                #expect(shape.rows > 0 && !shape.empty, "\(key): an empty list although the demo data has rows")
            }
        }
    }

    @Test func guardianSeesTheirTwoChildrenAndTheirProgress() async throws {
        let runtime = try await Live.signedIn(as: "tutor@edugo.test")
        defer { Task { await runtime.stop() } }
        let children = await runtime.loaded("children-list")
        let tree = try children.render(options: RenderOptions())
        let names = visibleTexts(tree)
        #expect(listShape(tree).rows == 2)
        #expect(names.contains("Alejandro Pérez Zúñiga") && names.contains("Julián Pérez Zúñiga"))
        // The row opens the child's progress with the child's id.
        guard case .success(let items, _, _) = children.dataState else { return }
        await children.perform(actionId: "open-item", item: items[0])
        let route = try #require(runtime.navigation.current)
        #expect(route.screenKey == "child-progress" && route.params["id"] == items[0]["id"]?.text)
        let progress = await runtime.loaded(route.screenKey, params: route.params)
        let texts = visibleTexts(try progress.render(options: RenderOptions()))
        #expect(texts.contains(items[0]["full_name"]?.text ?? "?"))
        #expect(!texts.contains("—"), "every metric of the child has a value")
    }

    @Test func teachersProgressTabShowsTheirUnit() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        // Selected as a tab: no `id` in the route; the screen's handler completes it.
        runtime.navigation.select("progress-unit-list")
        let model = await runtime.loaded("progress-unit-list")
        guard case .success(let rows, _, _) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        let unit = try #require(runtime.session?.context.academicUnitId)
        #expect(!rows.isEmpty && rows.allSatisfy { $0["unit_id"]?.text == unit })
    }

    /// The value a switch shows in a tree.
    static func switchValue(_ field: String, in tree: RenderNode) -> String? {
        for node in flattenAll(tree) {
            if case .control(let control) = node.kind, control.field == field { return control.value.text }
        }
        return nil
    }

    @Test func settingsSwitchesSaveWhatTheUserSetAndShowItWhenTheyComeBack() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let settings = await runtime.loaded("app-settings")
        #expect(Self.switchValue("dark_mode", in: try settings.render(options: RenderOptions())) == "false")
        #expect(Self.switchValue("email_notifications", in: try settings.render(options: RenderOptions())) == "true")
        // The switch is turned on, then its action runs: the value is saved, not flipped.
        settings.formState.setValue("true", for: "dark_mode")
        await settings.perform(actionId: "toggle-theme")
        settings.formState.setValue("false", for: "email_notifications")
        await settings.perform(actionId: "email-notifications")
        // Running the action again with the same switch state keeps it (a flip would undo it).
        await settings.perform(actionId: "email-notifications")
        #expect(runtime.sdk.darkMode == true)
        #expect(await runtime.settings.value(for: "email_notifications") == .bool(false))
        // Coming back: a new screen shows the saved values, not the screen's defaults.
        let again = await runtime.loaded("app-settings")
        let tree = try again.render(options: RenderOptions())
        #expect(Self.switchValue("dark_mode", in: tree) == "true")
        #expect(Self.switchValue("email_notifications", in: tree) == "false")
    }

    @Test func aSettingChangedOfflineIsPendingThenDeliveredAndKept() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let settings = await runtime.loaded("app-settings")
        await runtime.backend.stop()
        await runtime.connectivity.set(connected: false)
        settings.formState.setValue("false", for: "email_notifications")
        await settings.perform(actionId: "email-notifications")
        #expect(settings.banner?.kind == .pending, "\(String(describing: settings.banner))")
        #expect(runtime.sdk.pendingChanges == 1)
        #expect(await runtime.settings.value(for: "email_notifications") == .bool(false), "kept on the device meanwhile")
        try await runtime.backend.restart()
        await runtime.connectivity.set(connected: true)
        #expect(await eventually { runtime.sdk.pendingChanges == 0 })
        let stored = try await runtime.client.send(
            APIRequest(.get, "/v1/users/me/preferences", useCache: false)
        ).json()
        #expect(stored["email_notifications"] == false)
        let again = await runtime.loaded("app-settings")
        #expect(Self.switchValue("email_notifications", in: try again.render(options: RenderOptions())) == "false")
    }

    @Test func aColdStartOfflineShowsTheLastDataMarkedSaved() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dynamicui-cold-\(UUID().uuidString)")
        let first = try await Live(cacheDirectory: directory)
        try await first.signIn("docente@edugo.test")
        let online = await first.loaded("materials-list")
        guard case .success(let rows, _, _) = online.dataState else {
            Issue.record("\(online.dataState)")
            return
        }
        #expect(!online.isShowingSavedData, "fresh from the network")
        await first.sdk.stop()
        await first.backend.stop()
        // A new process: same stores and caches on disk, no server.
        let second = try await first.relaunch(start: false, cacheDirectory: directory)
        await second.connectivity.set(connected: false)
        second.clock.advance(by: 3600)  // an hour later: nothing is fresh any more
        await second.sdk.start()
        #expect(second.sdk.isSignedIn)
        let offline = await second.loaded("materials-list")
        guard case .success(let saved, _, _) = offline.dataState else {
            Issue.record("a cold start offline shows no data: \(offline.dataState)")
            return
        }
        #expect(saved.map { $0["id"] } == rows.map { $0["id"] })
        #expect(offline.isShowingSavedData)
        #expect(offline.banner?.kind == .pending)
        #expect(offline.failure == nil)
        // Signing out deletes the saved responses: they belong to this user.
        let responses = directory.appendingPathComponent("responses")
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: responses.path)) ?? []).isEmpty)
        await second.sdk.signOut()
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: responses.path)) ?? []).isEmpty)
        await second.sdk.stop()
    }

    @Test func aSavedSessionIsRestoredBeforeAnythingIsShown() async throws {
        let first = try await Live.signedIn(as: "docente@edugo.test")
        await first.sdk.stop()
        // A cold start with the same stores: restoring until `start()` has found the session.
        let second = try await first.relaunch(start: false)
        defer { Task { await second.stop() } }
        #expect(second.sdk.isRestoring)
        #expect(!second.sdk.isSignedIn)
        await second.sdk.start()
        #expect(!second.sdk.isRestoring)
        #expect(second.sdk.session?.user.email == "docente@edugo.test")
        #expect(second.navigation.selectedScreenKey == "dashboard-teacher")
    }
}

/// Every node of a tree, depth first, list rows included.
func flattenAll(_ node: RenderNode) -> [RenderNode] {
    var nodes = [node]
    if case .list(_, let rows) = node.kind { for index in 0..<rows.count { nodes += flattenAll(rows.row(at: index)) } }
    return nodes + node.children.flatMap(flattenAll)
}
