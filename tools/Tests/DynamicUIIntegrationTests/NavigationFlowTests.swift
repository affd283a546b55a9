import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import Foundation
import Testing

@Suite("Navigation: back with parameters, deep links by role and after sign-in", .serialized)
@MainActor
struct NavigationFlowTests {
    @Test func backPopsToTheScreenBelowWithItsParameters() {
        let navigation = NavigationModel(role: "teacher", fallback: EduGoCatalog.fallbackNavigation)
        navigation.select("materials-list")
        navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-003"]))
        navigation.push(Route(screenKey: "material-edit", params: ["id": "mat-003"], presentation: .sheet))
        #expect(navigation.back())
        #expect(navigation.current?.screenKey == "material-detail")
        #expect(navigation.current?.params == ["id": "mat-003"])
        #expect(navigation.back())
        #expect(navigation.current?.screenKey == "materials-list" && navigation.current?.params == [:])
        #expect(!navigation.back(), "nothing below a tab's root")
    }

    @Test func eachTabKeepsItsPlaceAndTappingTheShownTabGoesToItsRoot() {
        let navigation = NavigationModel(role: "teacher", fallback: EduGoCatalog.fallbackNavigation)
        navigation.select("materials-list")
        navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-003"]))
        navigation.select("app-settings")
        #expect(navigation.stack.isEmpty && navigation.current?.screenKey == "app-settings")
        navigation.push(Route(screenKey: "app-about"))
        navigation.select("materials-list")
        #expect(navigation.current?.screenKey == "material-detail", "the materials tab kept its detail")
        #expect(navigation.current?.params == ["id": "mat-003"])
        navigation.select("app-settings")
        #expect(navigation.current?.screenKey == "app-about", "and settings kept its own")
        navigation.select("app-settings")
        #expect(navigation.stack.isEmpty && navigation.current?.screenKey == "app-settings", "the shown tab again: its root")
        navigation.select("materials-list")
        navigation.reset(to: "materials-list")
        #expect(navigation.stack.isEmpty, "a reset shows the root")
        navigation.apply(nil, role: "teacher")
        #expect(navigation.stacks.isEmpty, "a new navigation forgets every stack")
    }

    @Test func viewModelsAreKeptPerRouteAndReleasedWhenTheRouteGoes() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let start = runtime.sdk.keptModelCount
        let dashboard = try #require(runtime.navigation.current)
        #expect(dashboard.id == Route.root("dashboard-teacher").id, "a root has the same id on every redraw")
        #expect(runtime.sdk.model(for: dashboard) === runtime.sdk.model(for: Route.root("dashboard-teacher")))
        weak var released: DynamicScreenViewModel?
        do {
            let detail = Route(screenKey: "material-detail", params: ["id": "mat-001"])
            runtime.navigation.push(detail)
            runtime.navigation.push(Route(screenKey: "material-edit", params: ["id": "mat-001"], presentation: .sheet))
            #expect(runtime.sdk.keptModelCount == start + 2)
            released = runtime.sdk.model(for: detail)
            #expect(runtime.sdk.model(for: detail) === released, "the same model on every redraw")
        }
        runtime.navigation.select("materials-list")
        runtime.navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-002"]))
        #expect(runtime.sdk.keptModelCount == start + 3, "another tab's stack is kept too")
        _ = runtime.navigation.back()
        runtime.navigation.select("dashboard-teacher")
        _ = runtime.navigation.back()
        _ = runtime.navigation.back()
        #expect(runtime.sdk.keptModelCount == start, "back where it started")
        #expect(released == nil, "the popped screen's model is gone")
    }

    @Test func aDeepLinkThatLaunchesTheAppOpensOnceTheSessionIsRestored() async throws {
        let first = try await Live.signedIn(as: "docente@edugo.test")
        await first.sdk.stop()
        // Cold start: the system hands the link over before `start()` has restored the session.
        let second = try await first.relaunch(start: false)
        defer { Task { await second.stop() } }
        #expect(second.sdk.open(deepLink: URL(string: "edugo://screen/material-detail?id=mat-002")!))
        #expect(second.sdk.pendingDeepLink != nil)
        await second.sdk.start()
        #expect(second.sdk.pendingDeepLink == nil)
        #expect(second.navigation.current?.screenKey == "material-detail", "opened at start, not at the next tap")
        #expect(second.navigation.current?.params == ["id": "mat-002"])
        #expect(second.navigation.selectedScreenKey == "dashboard-teacher")
    }

    @Test func aDeepLinkOpensWhatTheRoleMayOpen() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        // A screen of the teacher's navigation is selected as its tab.
        #expect(runtime.sdk.open(deepLink: URL(string: "edugo://screen/progress-unit-list")!))
        #expect(runtime.navigation.selectedScreenKey == "progress-unit-list" && runtime.navigation.stack.isEmpty)
        // A record is pushed; the server decides on its data.
        #expect(runtime.sdk.open(deepLink: URL(string: "edugo://screen/material-detail?id=mat-002")!))
        #expect(runtime.navigation.current?.params == ["id": "mat-002"])
        // An admin's list is not in a teacher's navigation.
        #expect(!runtime.sdk.open(deepLink: URL(string: "edugo://screen/users-list")!))
        #expect(runtime.navigation.current?.screenKey == "material-detail")
    }

    @Test func signingInFromADeepLinkLandsOnThePageAskedFor() async throws {
        let runtime = try await Live()
        defer { Task { await runtime.stop() } }
        #expect(runtime.sdk.open(deepLink: URL(string: "edugo://screen/material-detail?id=mat-002")!))
        #expect(runtime.sdk.pendingDeepLink != nil && !runtime.sdk.isSignedIn)
        try await runtime.signIn("docente@edugo.test")
        #expect(runtime.sdk.pendingDeepLink == nil)
        #expect(runtime.navigation.current?.screenKey == "material-detail")
        #expect(runtime.navigation.current?.params == ["id": "mat-002"])
        #expect(runtime.navigation.selectedScreenKey == "dashboard-teacher", "back from it goes to the dashboard")
    }

    @Test func hostileDeepLinksAreRefusedWithoutTrapping() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        defer { Task { await runtime.stop() } }
        let before = runtime.navigation.current
        let many = (0..<5_000).map { "p\($0)=\($0)" }.joined(separator: "&")
        for text in [
            "edugo://screen/", "edugo://screen//", "edugo://screen/%00", "edugo://screen/USERS-LIST",
            "edugo://other/materials-list",
            "edugo://screen/" + String(repeating: "a", count: 65), "edugo://screen/../app-settings",
        ] {
            let url = try #require(URL(string: text), "\(text)")
            #expect(!runtime.sdk.open(deepLink: url), "\(text)")
        }
        #expect(runtime.navigation.current?.screenKey == before?.screenKey)
        // A record link with thousands of parameters opens with the one the screen declares.
        #expect(runtime.sdk.open(deepLink: try #require(URL(string: "edugo://screen/material-detail?" + many + "&id=mat-1"))))
        #expect(runtime.navigation.current?.params == ["id": "mat-1"], "undeclared parameters are dropped")
    }
}
