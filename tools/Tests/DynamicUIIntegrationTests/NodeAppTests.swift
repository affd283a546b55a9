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

/// Collects what custom-event handlers receive.
actor EventLog {
    private(set) var events: [(String, JSONObject)] = []
    func record(_ event: String, _ payload: JSONObject) { events.append((event, payload)) }
}

/// Every node of a tree, depth first, with the first `rows` rows of each list.
@MainActor
func nodes(_ node: RenderNode, rows: Int = 3) -> [RenderNode] {
    var result = [node]
    for child in node.children { result += nodes(child, rows: rows) }
    if case .list(_, let lazy) = node.kind {
        for index in 0..<min(rows, lazy.count) { result += nodes(lazy.row(at: index), rows: rows) }
    }
    return result
}

@MainActor
func texts(_ node: RenderNode) -> [String] {
    nodes(node).compactMap { if case .text(let text, _, _) = $0.kind { text } else { nil } }
}

/// The title of a screen's bar, if `node` is a screen.
func screenTitle(_ node: RenderNode) -> String? {
    if case .screen(let chrome) = node.kind { chrome.title } else { nil }
}

@Suite("Node app runtime: the podcast app through the SDK alone", .serialized)
@MainActor
struct NodeAppTests {
    func makeApp(_ backend: DemoBackend, log: EventLog, components: [any NativeComponent] = []) throws -> NodeAppRuntime {
        let events = EventHandlerRegistry([
            "openExternalUrl": { payload, _ in
                await log.record("openExternalUrl", payload)
                return .success(message: nil)
            }
        ])
        return try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: backend.mobileURL, documents: .remote("/v1/documents/{name}"), allowInsecureLoopback: true,
                timeout: 5, retryPolicy: .none),
            components: components, events: events)
    }

    @Test func tabsBrowseSearchDetailEpisodeBackAndACustomEvent() async throws {
        let backend = try DemoBackend()
        try await backend.start()
        let log = EventLog()
        let app = try makeApp(backend, log: log, components: [MediaPlayerComponent()])
        await app.start()
        #expect(app.phase == .ready)
        #expect(app.tabs.map(\.screen) == ["browse", "search"])
        #expect(app.theme.colors["accent"] == "#872EC4")
        #expect(app.theme.darkColors["accent"] != nil)

        // Browse: onLoad fills five genre sections; each row is a button that navigates.
        let browseRoute = try #require(app.current)
        #expect(browseRoute.document == "browse")
        let browse = app.model(for: browseRoute)
        await browse.load()
        #expect(browse.phase == .ready)
        for genre in ["genre_1303", "genre_1489", "genre_1318", "genre_1488", "genre_1304"] {
            #expect(browse.data[genre]?["results"]?.arrayValue?.isEmpty == false, "\(genre) was not loaded")
        }
        let browseTree = browse.render(options: RenderOptions()).root
        guard case .screen(let chrome) = browseTree.kind else {
            Issue.record("browse is not a screen: \(browseTree.kind)")
            return
        }
        #expect(chrome.title == "Browse")
        let lists = nodes(browseTree).filter { if case .list = $0.kind { true } else { false } }
        #expect(lists.count == 5)
        let firstCard = try #require(
            nodes(browseTree).first { if case .button = $0.kind { true } else { false } }, "no podcast card")
        guard case .button(let openPodcast) = firstCard.kind else { return }
        await browse.perform(openPodcast)
        let detailRoute = try #require(app.stack.last)
        #expect(detailRoute.document == "podcast_detail")
        #expect(detailRoute.params["podcast"] == nil, "the link carries the id, not the record")
        let podcastId = try #require(detailRoute.params["podcastId"])
        let shown = browse.data.values.flatMap { $0["results"]?.arrayValue ?? [] }
        let podcastName = try #require(shown.first { $0["trackId"]?.text == podcastId.text }?["trackName"]?.stringValue)

        // Podcast detail: onLoad looks up the episodes; the title is the podcast's name.
        let detail = app.model(for: detailRoute)
        await detail.load()
        let detailTree = detail.render(options: RenderOptions()).root
        guard case .screen(let detailChrome) = detailTree.kind else { return }
        #expect(detailChrome.title == podcastName)
        #expect((detail.data["episodes"]?["results"]?.arrayValue?.count ?? 0) > 1)
        let episodeLink = try #require(
            nodes(detailTree, rows: 5).first {
                if case .navigationLink(let screen, _) = $0.kind { screen == "episode_detail" } else { false }
            }, "no episode link")
        guard case .navigationLink(let screen, let params) = episodeLink.kind else { return }
        detail.open(screen: screen, params: params)

        // Episode detail and its custom event.
        let episodeRoute = try #require(app.stack.last)
        #expect(episodeRoute.document == "episode_detail")
        let episode = app.model(for: episodeRoute)
        await episode.load()
        let episodeTree = episode.render(options: RenderOptions()).root
        #expect(episodeRoute.params["episode"] == nil, "the link carries ids, not the record")
        let picked = try #require(episode.data["episode"], "the page looks its episode up")
        #expect(picked["trackId"]?.text == episodeRoute.params["episodeId"]?.text)
        let episodeName = try #require(picked["trackName"]?.stringValue)
        #expect(screenTitle(episodeTree) == episodeName, "the page is titled by its episode")
        let openButtons = nodes(episodeTree).compactMap { node -> String? in
            guard case .button(let key) = node.kind, let (action, _) = episode.actions.action(for: key) else { return nil }
            if case .custom("openExternalUrl", _) = action { return key }
            return nil
        }
        let open = try #require(openButtons.first, "no custom-event button")
        await episode.perform(open)
        let events = await log.events
        #expect(events.count == 1)
        #expect(events.first?.0 == "openExternalUrl")
        #expect(events.first?.1["url"] == picked["trackViewUrl"])

        // The episode's native component: drawn only because the host registered it.
        let player = try #require(
            nodes(episodeTree).compactMap { node -> CustomNode? in
                if case .custom(let custom) = node.kind { return custom }
                return nil
            }.first, "no media player")
        #expect(player.type == "media-player")
        #expect(player.props["url"] == picked["episodeUrl"])
        let onPlay = try #require(player.actions["onPlay"])
        #expect(!texts(episode.render(options: RenderOptions()).root).contains("Now playing"))
        await episode.perform(onPlay)
        #expect(episode.state["nowPlaying"]?.stringValue == episodeName)
        #expect(texts(episode.render(options: RenderOptions()).root).contains("Now playing"))

        // Back twice: the browse tab again, with its data kept.
        #expect(app.back())
        #expect(app.current?.document == "podcast_detail")
        #expect(app.back())
        #expect(app.current?.id == browseRoute.id)
        #expect(app.model(for: browseRoute).data["genre_1303"] != nil)
        #expect(!app.back())

        // Search tab: type, submit, results.
        app.select("search")
        let search = app.model(for: try #require(app.current))
        await search.load()
        let searchTree = search.render(options: RenderOptions()).root
        let field = try #require(
            nodes(searchTree).first { if case .searchField = $0.kind { true } else { false } }, "no search field")
        guard case .searchField(_, let binding?, _, let submit?) = field.kind else {
            Issue.record("search field without binding or action: \(field.kind)")
            return
        }
        search.setValue("science", for: binding)
        await search.perform(submit)
        let results = search.data["searchResults"]?["results"]?.arrayValue ?? []
        #expect(!results.isEmpty)
        let resultTree = search.render(options: RenderOptions()).root
        let firstResult = try #require(results.first?["trackName"]?.stringValue)
        #expect(TextRenderer(rowLimit: 50).render(resultTree).contains(firstResult))
        await backend.stop()
    }

    @Test func backFollowsTheStackAndAGenreHeaderOpensItsList() async throws {
        let backend = try DemoBackend()
        try await backend.start()
        let app = try makeApp(backend, log: EventLog())
        await app.start()
        let browse = app.model(for: try #require(app.current))
        await browse.load()
        func showsBack(_ model: NodeScreenModel) -> Bool {
            if case .screen(let chrome) = model.render(options: RenderOptions()).root.kind { return chrome.showsBack }
            return true
        }
        #expect(!showsBack(browse), "a tab's root has no back")
        // The Comedy header is a link to the genre's list, with the genre's id and title.
        let links = nodes(browse.render(options: RenderOptions()).root).compactMap { node -> JSONObject? in
            if case .navigationLink("genre", let params) = node.kind { return params }
            return nil
        }
        #expect(links.count == 5)
        let comedy = try #require(links.first { $0["title"] == "Comedy" })
        #expect(comedy["genreId"] == "1303")
        browse.open(screen: "genre", params: comedy)
        let genreRoute = try #require(app.current)
        #expect(genreRoute.document == "genre")
        let genre = app.model(for: genreRoute)
        await genre.load()
        #expect(genre.phase == .ready)
        #expect(genre.data["shows"]?["results"]?.arrayValue?.count == 25)
        #expect(showsBack(genre), "a pushed document has back")
        guard case .screen(let chrome) = genre.render(options: RenderOptions()).root.kind else { return }
        #expect(chrome.title == "Comedy" && chrome.strings.language == .english)
        await backend.stop()
    }

    @Test func aFolderSourceAndDarkModeSetting() async throws {
        let settings = InMemorySettingsStore()
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://itunes.apple.com")!, documents: .folder(PodcastsCatalog().folder)),
            transport: ScriptedTransport(), settings: settings)
        await app.start()
        #expect(app.phase == .ready)
        #expect(app.darkMode == nil)
        await app.setDarkMode(true)
        #expect(await settings.value(for: "dark_mode") == true)
        await app.start()
        #expect(app.darkMode == true)
        // A document name never leaves its folder.
        await #expect(throws: NodeAppError.self) { try await app.document("../theme") }
        await #expect(throws: NodeAppError.self) { try await app.document("missing") }
    }

    @Test func aBrokenRootIsAFailedPhaseThatSaysWhere() async throws {
        let transport = ScriptedTransport()
        await transport.on(.get, "/v1/documents/app", .json(200, ["type": "screen", "props": ["title": "$.a |"]]))
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://api.example.com")!, documents: .remote("/v1/documents/{name}")),
            transport: transport)
        await app.start()
        guard case .failed(let message) = app.phase else {
            Issue.record("\(app.phase)")
            return
        }
        #expect(message.contains("document 'app'") && message.contains("props.title"), "\(message)")
    }
}

@Suite("Node app navigation and recovery: per-tab stacks, sheets, retry, released models", .serialized)
@MainActor
struct NodeAppNavigationTests {
    func folderApp(transport: ScriptedTransport = ScriptedTransport()) throws -> NodeAppRuntime {
        try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://itunes.apple.com")!, documents: .folder(PodcastsCatalog().folder)),
            transport: transport)
    }

    @Test func eachTabKeepsItsStackAndASheetHasItsOwn() async throws {
        let app = try folderApp()
        await app.start()
        let start = app.modelCount
        app.select("browse")
        _ = app.model(for: try #require(app.current))
        app.push(NodeRoute(document: "podcast_detail", params: ["id": "1"]))
        _ = app.model(for: try #require(app.current))
        app.select("search")
        #expect(app.stack.isEmpty)
        app.select("browse")
        #expect(app.stack.map(\.document) == ["podcast_detail"], "browse kept its place")
        // A sheet; a link inside it opens in the sheet, not under it.
        app.present(NodeRoute(document: "episode_detail", params: ["id": "2"]))
        _ = app.model(for: try #require(app.current))
        app.push(NodeRoute(document: "podcast_detail", params: ["id": "3"]))
        #expect(app.current?.params["id"] == "3" && app.sheetStack.count == 1)
        #expect(app.stack.count == 1, "nothing was pushed under the sheet")
        #expect(app.back() && app.current?.document == "episode_detail", "back inside the sheet first")
        app.dismissSheet()
        #expect(app.sheet == nil && app.sheetStack.isEmpty)
        #expect(app.current?.document == "podcast_detail")
        #expect(app.back())
        #expect(app.modelCount == start + 1, "only the tab root keeps its model; the sheet's and the popped ones are gone")
        app.select("browse")
        #expect(app.stack.isEmpty, "the shown tab again: its root")
    }

    @Test func anUnknownPodcastIdSaysNotFoundWithoutInventedValues() async throws {
        let transport = ScriptedTransport()
        await transport.setFallback(.json(200, ["resultCount": 0, "results": []]))
        let app = try folderApp(transport: transport)
        await app.start()
        app.push(NodeRoute(document: "podcast_detail", params: ["podcastId": "1"]))
        let model = app.model(for: try #require(app.current))
        await model.load()
        let shown = texts(model.render(options: RenderOptions()).root)
        #expect(shown.contains("Podcast not found"), "\(shown)")
        #expect(!shown.contains("Free") && !shown.contains("Clean") && !shown.contains("Episodes"), "\(shown)")
    }

    @Test func anUnknownEpisodeIdSaysNotFound() async throws {
        let transport = ScriptedTransport()
        await transport.setFallback(
            .json(
                200,
                [
                    "resultCount": 2,
                    "results": [
                        ["wrapperType": "track", "trackId": 1, "trackName": "Show"],
                        ["wrapperType": "podcastEpisode", "trackId": 2, "trackName": "Pilot", "collectionName": "Show"],
                    ],
                ]))
        let app = try folderApp(transport: transport)
        await app.start()
        for (episodeId, expected) in [("2", "Pilot"), ("3", "Episode not found")] {
            app.push(NodeRoute(document: "episode_detail", params: ["podcastId": "1", "episodeId": .string(episodeId)]))
            let model = app.model(for: try #require(app.current))
            await model.load()
            let root = model.render(options: RenderOptions()).root
            let shown = texts(root) + [screenTitle(root) ?? ""]
            #expect(shown.contains(expected), "\(episodeId): \(shown)")
            #expect(shown.contains("Episode not found") == (episodeId == "3"), "\(shown)")
            _ = app.back()
        }
    }

    @Test func buttonsFireInOrderAndAClosedDocumentDropsWhatWaits() async throws {
        let app = try folderApp()
        await app.start()
        func shareButton(_ model: NodeScreenModel) throws -> String {
            let keys = nodes(model.render(options: RenderOptions()).root).compactMap { node -> String? in
                if case .button(let key) = node.kind { return key }
                return nil
            }
            return try #require(keys.first { $0.contains(".toolbar/0.") }, "\(keys)")
        }
        app.push(NodeRoute(document: "episode_detail", params: ["id": "2"]))
        let model = app.model(for: try #require(app.current))
        await model.load()
        let share = try shareButton(model)
        model.fire(share)
        model.fire(share)
        #expect(model.firedActionCount == 2)
        await model.firedActionsFinished()
        #expect(model.state["showShareSheet"] == true)
        #expect(model.firedActionCount == 0, "finished actions are not kept")
        // Closed before its turn came: the action is dropped with the document.
        #expect(app.back())
        app.push(NodeRoute(document: "episode_detail", params: ["id": "3"]))
        let next = app.model(for: try #require(app.current))
        await next.load()
        next.fire(try shareButton(next))
        #expect(app.back())
        await next.firedActionsFinished()
        #expect(next.state["showShareSheet"] == nil)
    }

    /// The folder app started, and its root document loaded and drawn once.
    func shownRoot() async throws -> (NodeAppRuntime, NodeScreenModel) {
        // Browse's onLoad asks the search API: an empty answer, so the document is ready.
        let transport = ScriptedTransport()
        await transport.setFallback(.json(200, ["resultCount": 0, "results": []]))
        let app = try folderApp(transport: transport)
        await app.start()
        let model = app.model(for: try #require(app.current))
        model.renderOptions = RenderOptions()
        await model.load()
        await settle()
        return (app, model)
    }

    @Test func aDocumentKeepsItsTreeAndRebuildsItOnlyWhenItsStateChanges() async throws {
        let (app, model) = try await shownRoot()
        #expect(model.rendered != nil && model.renderCount == 1)
        for _ in 0..<10 { _ = model.rendered }
        app.push(NodeRoute(document: "podcast_detail", params: ["id": "1"]))
        _ = app.back()
        await settle()
        #expect(model.renderCount == 1, "a redraw or a push elsewhere builds nothing")
        model.setValue("comedy", for: "$.env.searchQuery")
        await settle()
        #expect(model.renderCount == 2, "its state changed: one rebuild")
    }

    @Test func signingInOrOutRedrawsWhatTheUserMaySee() async throws {
        let (app, model) = try await shownRoot()
        #expect(model.renderCount == 1)
        app.permissions = ["podcasts.read"]
        await settle()
        #expect(model.renderCount == 2, "the kept tree depends on what the user may do")
        #expect(app.renderer(options: RenderOptions()).permissions == ["podcasts.read"])
    }

    @Test func anOfflineLaunchRecoversWithRetryAndCancellingIsNotFailing() async throws {
        let transport = ScriptedTransport()
        await transport.setFallback(.failure(.noConnection))
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://api.example.com")!, documents: .remote("/v1/documents/{name}"),
                retryPolicy: .none),
            transport: transport)
        await app.startIfNeeded()
        guard case .failed = app.phase else {
            Issue.record("\(app.phase)")
            return
        }
        // Back online: the retry starts it.
        for name in ["app", "theme", "components"] {
            await transport.on(
                .get, "/v1/documents/\(name)",
                name == "app" ? .json(200, ["type": "screen", "props": ["title": "Hola"]]) : .json(404, nil))
        }
        await app.start()
        #expect(app.phase == .ready)
        // A document whose load is cancelled (its tab was left) is idle again, not failed.
        let route = try #require(app.current)
        let model = app.model(for: route)
        let task = Task { await model.load() }
        task.cancel()
        await task.value
        #expect(model.phase == .idle || model.phase == .ready, "\(model.phase)")
        await model.loadIfNeeded()
        #expect(model.phase == .ready)
    }
}

@Suite("Appearance of the screen-dialect runtime")
@MainActor
struct RuntimeAppearanceTests {
    @Test func theRuntimeFollowsTheDarkModeSetting() async throws {
        let settings = InMemorySettingsStore(["dark_mode": true])
        let runtime = try DynamicUIRuntime(
            configuration: DynamicUIConfiguration(
                adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL, retryPolicy: .none),
            plugins: [], tokens: InMemoryTokenStore(), settings: settings, transport: ScriptedTransport(),
            connectivity: ManualConnectivityMonitor())
        #expect(runtime.darkMode == nil)
        await runtime.start()
        #expect(runtime.darkMode == true)
        await settings.set(false, for: "dark_mode")
        await runtime.reloadAppearance()
        #expect(runtime.darkMode == false)
        await settings.set(nil, for: "dark_mode")
        await runtime.reloadAppearance()
        #expect(runtime.darkMode == nil)
        await runtime.stop()
    }
}

@Suite("Node app: component bodies are fitted like documents")
@MainActor
struct NodeComponentFittingTests {
    @Test func aComponentBodyTheAppCannotDrawUsesItsFallback() async throws {
        let transport = ScriptedTransport()
        await transport.on(
            .get, "/v1/documents/app",
            .json(
                200,
                ["type": "screen", "props": ["title": "Inicio", "body": ["type": "component", "props": ["name": "badge"]]]]))
        await transport.on(
            .get, "/v1/documents/components",
            .json(
                200,
                [
                    "components": [
                        "badge": [
                            "parameters": [],
                            "body": [
                                "type": "sparkle", "props": ["level": 3],
                                "fallback": ["type": "text", "props": ["content": "Sin destellos"]],
                            ],
                        ]
                    ]
                ]))
        await transport.on(.get, "/v1/documents/theme", .json(404, ["error": "none"]))
        let recorder = RecordingObserver()
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://api.example.com")!, documents: .remote("/v1/documents/{name}"),
                retryPolicy: .none, observers: [recorder]),
            transport: transport)
        await app.start()
        #expect(app.phase == .ready)
        let model = app.model(for: try #require(app.current))
        await model.load()
        #expect(texts(model.render(options: RenderOptions()).root).contains("Sin destellos"))
        let fallback = try #require(recorder.errors.first { $0.kind == .fallbackUsed })
        #expect(fallback.screen == "components.badge" && fallback.path == "$" && fallback.message.contains("node:sparkle"))
    }
}
