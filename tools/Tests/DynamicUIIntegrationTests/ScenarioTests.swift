import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// The EduGo app as a person uses it, through the host driver (SwiftUI's lifecycle over the
/// runtime, against the demo backend on 127.0.0.1).
@Suite("Scenario: EduGo as a person uses it", .serialized)
@MainActor
struct EduGoScenarioTests {
    /// Runs `body` on an app launched on a new backend and signed in as `email` through the
    /// login screen; the app settles and stops, then the backend, whatever `body` did.
    func scenario(
        as email: String?, _ body: (Live, AppDriver<DynamicUIRuntime>) async throws -> Void
    ) async throws {
        let live = try await Live(start: false)
        let driver = AppDriver(live.sdk, clock: live.clock)
        do {
            await driver.launch()
            if let email { try await signIn(email, with: driver) }
            try await body(live, driver)
        } catch {
            await driver.settle()
            await live.stop()
            throw error
        }
        await driver.settle()
        await live.stop()
    }

    func signIn(_ email: String, with driver: AppDriver<DynamicUIRuntime>) async throws {
        #expect(driver.topScreenKey == driver.runtime.configuration.loginScreenKey)
        driver.enter(email, in: "email")
        driver.enter("edugo123", in: "password")
        driver.tap("submit-login")
        await driver.settle()
        #expect(driver.runtime.isSignedIn)
    }

    @Test func signOutThenSignInAsAnotherUserLeavesNothingOfTheFirst() async throws {
        try await scenario(as: "docente@edugo.test") { live, driver in
            driver.select(tab: "materials-list")
            await driver.settle()
            let teacherList = try #require(driver.top)
            #expect(teacherList.hasData)
            driver.select(tab: "app-settings")
            await driver.settle()
            driver.tap("logout")
            await driver.settle()
            if driver.confirmation != nil {
                driver.confirm()
                await driver.settle()
            }
            #expect(!driver.runtime.isSignedIn)
            try await signIn("estudiante@edugo.test", with: driver)
            await driver.settle()
            for model in driver.visibleModels {
                #expect(model !== teacherList, "a model of the first session is shown to the second")
                #expect(!JSONWriter().string(from: model.data).contains("docente@edugo.test"))
            }
            driver.select(tab: "materials-list")
            await driver.settle()
            #expect(driver.top !== teacherList, "the list is loaded anew for the second user")
            #expect(driver.runtime.session?.user.email == "estudiante@edugo.test")
        }
    }

    /// The example of the DynamicUITesting guide "Driving an app as SwiftUI does".
    @Test func theDriverGuidesExample() async throws {
        try await scenario(as: "docente@edugo.test") { _, driver in
            // snippet: driver
            driver.select(tab: "materials-list")
            await driver.settle()
            driver.search("a")
            await driver.pass(seconds: 0.3)  // the first query's request is on its way
            driver.search("ál")  // typing on cancels it: lifecycle, not an error
            await driver.wait(seconds: 0.3)
            #expect(driver.banner?.kind != .error)
            // snippet: end
        }
    }

    @Test func typePauseTypeInSearchShowsNoErrorAndTheLatestQuerysRows() async throws {
        try await scenario(as: "docente@edugo.test") { live, driver in
            driver.select(tab: "materials-list")
            await driver.settle()
            driver.search("a")
            // The pause passes: the first query's request is on its way when typing goes on.
            await driver.pass(seconds: 0.3)
            driver.search("ál")
            await driver.wait(seconds: 0.3)
            let list = try #require(driver.top)
            #expect(list.banner?.kind != .error, "typing on is not an error: \(String(describing: list.banner))")
            #expect(list.failure == nil)
            #expect(list.searchText == "ál")
        }
    }

    @Test func switchTabDuringTheFirstLoadAndComeBackShowsContent() async throws {
        try await scenario(as: nil) { _, driver in
            driver.enter("docente@edugo.test", in: "email")
            driver.enter("edugo123", in: "password")
            driver.tap("submit-login")
            // The dashboard starts loading as soon as it shows; the person taps another tab at once.
            #expect(await eventually { driver.runtime.isSignedIn && !driver.runtime.isLoadingNavigation })
            driver.redraw()
            let first = try #require(driver.topScreenKey)
            driver.select(tab: "materials-list")
            driver.select(tab: first)
            await driver.settle()
            let shown = try #require(driver.top)
            #expect(shown.failure == nil && shown.dataErrorMessage == nil, "cancelled is not an error")
            #expect(shown.isScreenReady)
            if shown.compiled?.definition.dataEndpoint != nil { #expect(shown.hasData) }
        }
    }

    @Test func scrollToTheEndAndAwayWhileTheNextPageLoadsKeepsPaging() async throws {
        try await scenario(as: "docente@edugo.test") { live, driver in
            driver.select(tab: "materials-list")
            await driver.settle()
            let list = try #require(driver.top)
            guard case .success(let items, true, _) = list.dataState else {
                Issue.record("the list has one page: \(list.dataState)")
                return
            }
            driver.scroll(toRow: items.count - 1)
            // Away before the page arrives: its task is cancelled.
            for _ in 0..<3 { await Task.yield() }
            driver.scrollToTop()
            await driver.settle()
            #expect(!list.nextPageFailed, "a cancelled page is not a failed one")
            driver.scroll(toRow: items.count - 1)
            await driver.settle()
            guard case .success(let more, _, _) = list.dataState else {
                Issue.record("\(list.dataState)")
                return
            }
            #expect(more.count > items.count, "the next page loads when the last row shows again")
            // Away and back before the cancelled request has even wound down: the page is still
            // wanted, and loads once the cancelled one ends.
            driver.scroll(toRow: more.count - 1)
            for _ in 0..<3 { await Task.yield() }
            driver.scrollToTop()
            driver.scroll(toRow: more.count - 1)
            await driver.settle()
            #expect(!list.nextPageFailed)
            guard case .success(let most, _, false) = list.dataState else {
                Issue.record("\(list.dataState)")
                return
            }
            #expect(most.count > more.count, "the last row showed again while the page was cancelled")
        }
    }

    @Test func launchOfflineThenTheConnectionReturnsContentLoadsAndChangesAreSentOnce() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        // A first launch online: signed in, the create form seen once (its definition is kept).
        let first = try await Live(cacheDirectory: cache)
        try await first.signIn("docente@edugo.test")
        _ = await first.loaded("material-create")
        await first.sdk.stop()
        await first.backend.stop()
        // The next launch has no connection.
        let live = try await first.relaunch(start: false, cacheDirectory: cache)
        await live.connectivity.set(connected: false)
        let driver = AppDriver(live.sdk, clock: live.clock)
        await driver.launch()
        #expect(live.sdk.isSignedIn)
        let route = Route(screenKey: "material-create", presentation: .sheet)
        live.navigation.push(route)
        driver.redraw()
        await driver.settle()
        #expect(driver.topScreenKey == "material-create")
        for (field, value) in [
            "title": "Sin conexión", "subject": "Historia", "grade": "6", "file_url": "https://edugo.test/o.pdf",
            "file_type": "PDF", "unit_id": "unt-001", "status": "borrador",
        ] {
            driver.enter(value, in: field)
        }
        driver.tap("submit")
        await driver.settle()
        #expect(live.sdk.pendingChanges == 1, "the change waits in the queue")
        // The connection returns.
        try await live.backend.restart()
        await live.connectivity.set(connected: true)
        #expect(await eventually { live.sdk.pendingChanges == 0 })
        await driver.settle()
        let shown = try #require(driver.top)
        #expect(shown.failure == nil && !shown.isShowingSavedData, "the screen shows fresh content")
        #expect(live.backend.log.filter { $0 == "POST mobile:/v1/materials" }.count == 1, "sent once")
        await driver.settle()
        await live.stop()
    }

    @Test func aDestinationThatIsNotATabLandsOnAVisibleStack() async throws {
        try await scenario(as: "docente@edugo.test") { live, driver in
            driver.runtime.navigation.show("app-about")
            driver.redraw()
            await driver.settle()
            #expect(driver.topScreenKey == "app-about", "the screen is drawn, above a tab")
            #expect(driver.runtime.navigation.visibleRootKeys.contains(driver.runtime.navigation.selectedScreenKey ?? ""))
            #expect(driver.back())
            #expect(driver.topScreenKey != "app-about")
        }
    }

    @Test func aDeepLinkArrivingWhileTheNavigationLoadsOpens() async throws {
        let first = try await Live.signedIn(as: "docente@edugo.test")
        await first.sdk.stop()
        let live = try await first.relaunch(start: false)
        let driver = AppDriver(live.sdk, clock: live.clock)
        // Cold start: the session is restored, and the link arrives while the navigation loads.
        let launch = Task { await driver.launch() }
        // The main actor is free while the navigation request is on the wire: the link lands then.
        var arrived = false
        for _ in 0..<200_000 where !arrived {
            await Task.yield()
            arrived = live.sdk.isLoadingNavigation
        }
        let accepted = driver.open(deepLink: URL(string: "edugo://screen/material-detail?id=mat-002")!)
        await launch.value
        await driver.settle()
        #expect(arrived && accepted)
        #expect(driver.topScreenKey == "material-detail")
        #expect(driver.visibleRoutes.last?.params == ["id": "mat-002"])
        await live.stop()
    }

    @Test func aSaveThatReturnsAfterTheUserWentBackNavigatesNothingElsewhere() async throws {
        try await scenario(as: "docente@edugo.test") { live, driver in
            driver.select(tab: "materials-list")
            await driver.settle()
            driver.runtime.navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-001"]))
            driver.redraw()
            await driver.settle()
            let detail = try #require(driver.top)
            // The screen's back arrives after the person already went back: it pops nothing else.
            #expect(driver.back())
            await detail.apply(.navigateBack)
            await driver.settle()
            #expect(driver.topScreenKey == "materials-list")
            #expect(driver.runtime.navigation.stack.isEmpty)
            // And a navigation result from a screen no longer shown opens nothing.
            await detail.apply(.navigateTo(screenKey: "material-edit", params: [:], presentation: .push))
            #expect(driver.runtime.navigation.stack.isEmpty)
        }
    }

    @Test func goingToTheBackgroundPausesAndInactiveDoesNot() async throws {
        try await scenario(as: "docente@edugo.test") { _, driver in
            // The teacher's dashboard polls while shown.
            let dashboard = try #require(driver.top)
            #expect(dashboard.isPolling)
            // Control Center pulled down: inactive, nothing pauses.
            await driver.scenePhase(.inactive)
            #expect(driver.runtime.scenePhase == .inactive)
            #expect(dashboard.isPolling, "inactive is not the background")
            await driver.scenePhase(.active)
            #expect(dashboard.isPolling)
            await driver.scenePhase(.inactive)
            await driver.scenePhase(.background)
            #expect(!dashboard.isPolling, "the background pauses polling")
            await driver.scenePhase(.inactive)
            await driver.scenePhase(.active)
            #expect(dashboard.isPolling, "and it resumes when the app is active again")
        }
    }

    @Test func aSheetWithUnsavedEditsRefusesASwipe() async throws {
        try await scenario(as: "docente@edugo.test") { live, driver in
            driver.select(tab: "materials-list")
            await driver.settle()
            driver.runtime.navigation.push(Route(screenKey: "material-edit", params: ["id": "mat-001"], presentation: .sheet))
            driver.redraw()
            await driver.settle()
            #expect(driver.topScreenKey == "material-edit")
            driver.enter("Otro título", in: "title")
            #expect(!driver.swipeDownSheet(), "a swipe never throws away what was typed")
            #expect(driver.topScreenKey == "material-edit")
        }
    }
}

/// The Podcasts app (node dialect) as a person uses it, through the host driver, against the
/// demo backend's recorded iTunes answers.
@Suite("Scenario: Podcasts as a person uses it", .serialized)
@MainActor
struct PodcastScenarioTests {
    /// Runs `body` on the app launched against a new demo backend, which stops after it.
    func scenario(
        components: [any NativeComponent] = [], launch: Bool = true,
        _ body: (NodeAppDriver<NodeAppRuntime>) async throws -> Void
    ) async throws {
        let backend = try DemoBackend()
        try await backend.start()
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: backend.mobileURL, documents: .folder(PodcastsCatalog().folder), allowInsecureLoopback: true,
                timeout: 5),
            transport: URLSessionTransport(), components: components)
        let driver = NodeAppDriver(app)
        do {
            if launch { await driver.launch() }
            try await body(driver)
        } catch {
            await driver.settle()
            await backend.stop()
            throw error
        }
        await driver.settle()
        await backend.stop()
    }

    /// Whether `node` or a node below it shows `text`.
    func shows(_ text: String) -> (RenderNode) -> Bool {
        { node in node.first { if case .text(let shown, _, _) = $0.kind { shown == text } else { false } } != nil }
    }

    @Test func tapAShowGoBackTapAnotherItOpens() async throws {
        try await scenario { driver in
            #expect(driver.topDocument == "browse")
            #expect(driver.tapButton { _ in true }, "a show card on Browse")
            await driver.settle()
            #expect(driver.topDocument == "podcast_detail")
            let firstShow = driver.visibleRoutes.last?.params
            #expect(driver.back())
            await driver.settle()
            var seen = 0
            let tapped = driver.tapButton { _ in
                seen += 1
                return seen == 2
            }
            #expect(tapped, "a second show card")
            await driver.settle()
            #expect(driver.topDocument == "podcast_detail", "the second show opens")
            #expect(driver.visibleRoutes.last?.params != firstShow)
        }
    }

    @Test func shareThenCancelClosesTheSheetAndKeepsThePage() async throws {
        try await scenario { driver in
            let app = driver.app
            app.push(NodeRoute(document: "episode_detail", params: ["episodeId": 1_000_650_000_001, "podcastId": 1_200_361_736]))
            driver.redraw()
            await driver.settle()
            #expect(driver.topDocument == "episode_detail")
            let page = try #require(driver.top)
            #expect(driver.tapButton { node in node.first { if case .image = $0.kind { true } else { false } } != nil })
            await driver.settle()
            #expect(
                page.rendered?.root.first { if case .sheet = $0.kind { true } else { false } } != nil, "the share sheet shows")
            #expect(driver.tapButton(where: shows("Cancel")))
            await driver.settle()
            #expect(driver.topDocument == "episode_detail", "Cancel closes the sheet, not the page")
            #expect(page.rendered?.root.first { if case .sheet = $0.kind { true } else { false } } == nil)
            // Share again: the sheet shows again.
            #expect(driver.tapButton { node in node.first { if case .image = $0.kind { true } else { false } } != nil })
            await driver.settle()
            #expect(page.rendered?.root.first { if case .sheet = $0.kind { true } else { false } } != nil)
        }
    }

    @Test func playThenTheNowPlayingBarAppearsAndThePlayerKeepsItsIdentity() async throws {
        try await scenario(components: [MediaPlayerComponent()]) { driver in
            driver.app.push(
                NodeRoute(document: "episode_detail", params: ["episodeId": 1_000_741_872_141, "podcastId": 1_055_662_569]))
            driver.redraw()
            await driver.settle()
            let page = try #require(driver.top)
            @MainActor func player() -> RenderNode? {
                page.rendered?.root.first { if case .custom(let node) = $0.kind { node.type == "media-player" } else { false } }
            }
            @MainActor func nowPlaying() -> RenderNode? { page.rendered?.root.first { $0.id.hasSuffix("#now_playing") } }
            let before = try #require(player())
            #expect(nowPlaying() == nil)
            guard case .custom(let node) = before.kind, let play = node.actions["onPlay"] else {
                Issue.record("the player has no onPlay action")
                return
            }
            driver.tap(play)
            await driver.settle()
            #expect(nowPlaying() != nil, "the now-playing bar appears")
            #expect(player()?.id == before.id, "the player keeps its identity beside the bar that came")
        }
    }

    @Test func leavingBrowseDuringItsOnLoadLoadsItAgainOnReturn() async throws {
        try await scenario(launch: false) { driver in
            await driver.app.startIfNeeded()
            driver.redraw()
            let browse = try #require(driver.top)
            // Browse's onLoad makes five requests in a row; the person leaves during them.
            for _ in 0..<100_000 where browse.state.isEmpty && browse.phase != .ready {
                await Task.yield()
                if browse.rendered != nil || browse.phase == .loading { break }
            }
            driver.select(tab: "search")
            driver.select(tab: "browse")
            await driver.settle()
            #expect(browse.phase == .ready)
            let model = try #require(driver.top)
            #expect(model === browse)
            let loaded = ["genre_1303", "genre_1489", "genre_1318", "genre_1488", "genre_1304"]
            #expect(loaded.allSatisfy { (model as NodeScreenModel).data[$0] != nil }, "every genre loaded")
        }
    }

    @Test func aRefreshKeepsTheTreeWhileItReloads() async throws {
        try await scenario { driver in
            let browse = try #require(driver.top)
            let before = browse.rendered
            #expect(before != nil)
            let refresh = Task { await browse.refresh() }
            await Task.yield()
            #expect(browse.phase == .ready && browse.rendered != nil, "the document stays on screen while it reloads")
            await refresh.value
            #expect(browse.phase == .ready)
        }
    }

    @Test func switchingTabDuringOnLoadLoadsItAgainOnReturn() async throws {
        try await scenario { driver in
            let browse = try #require(driver.top)
            // Reopen Browse from scratch and leave before its onLoad ends.
            await browse.load()
            driver.select(tab: "search")
            driver.select(tab: "browse")
            await driver.settle()
            #expect(browse.phase == .ready)
        }
    }
}
