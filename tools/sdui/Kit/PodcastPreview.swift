import DynamicUI
import DynamicUIActions
import DynamicUIDemoBackend
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIWeb
import Foundation

/// The podcast catalog (node dialect) in the preview, drawn from the SDK's `NodeAppRuntime`
/// against the demo backend. Each visitor (a browser, told apart by its own cookie) has an app
/// of its own, so one visitor's navigation, search and appearance are never another's; at most
/// `capacity` visitors are kept, and a new one beyond that ends the least recently seen.
@MainActor
final class PodcastPreview {
    /// The cookie that names a visitor (sent to the podcast pages only).
    nonisolated static let cookieName = "sdui_podcasts"
    /// The most visitors kept at once.
    nonisolated static let capacity = 64
    private let backend: DemoBackend
    /// The path of the documentation the preview bar links to, when a site is served.
    private let documentation: String?
    private var visitors: [String: PodcastVisitor] = [:]

    nonisolated init(backend: DemoBackend, documentation: String? = nil) {
        self.backend = backend
        self.documentation = documentation
    }

    /// The visitor's cookie for `id`: the podcast pages only, never readable by a script, never
    /// sent with another site's request.
    nonisolated static func cookie(_ id: String) -> String { "\(cookieName)=\(id); Path=/podcasts; HttpOnly; SameSite=Strict" }

    /// The visitor a request's cookie names, if it is still kept.
    private func visitor(for request: Incoming) -> PodcastVisitor? {
        guard let id = request.cookieValue(Self.cookieName), let visitor = visitors[id] else { return nil }
        visitor.lastUsed = Date()
        return visitor
    }

    /// Drops every visitor's app and pages, so the next request loads the documents afresh.
    func reset() {
        for visitor in visitors.values { visitor.reset() }
    }

    /// Answers a podcast page: a POST runs only with its visitor's form token; a request
    /// without a known visitor starts a new one (and sets its cookie).
    func handle(_ request: Incoming) async -> Reply {
        let existing = visitor(for: request)
        let parts = request.segments
        if parts.count > 1, parts[1] == "act", request.method != "POST" {
            return WebPreview.actionPage(request, token: existing?.formToken)
        }
        if request.method == "POST" {
            guard let existing, PreviewSecurity.matches(request.formValue(PreviewSecurity.formField), existing.formToken)
            else { return WebPreview.refusedForm }
        }
        if let existing { return await existing.handle(request) }
        if visitors.count >= Self.capacity {
            for (id, old) in visitors.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }).prefix(
                visitors.count - Self.capacity + 1)
            {
                visitors[id] = nil
                old.close()
            }
        }
        let id = UUID().uuidString
        let visitor = PodcastVisitor(backend: backend, documentation: documentation, formToken: PreviewSecurity.newToken())
        visitors[id] = visitor
        var reply = await visitor.handle(request)
        reply.cookie = Self.cookie(id)
        return reply
    }

    /// The live stream of the page `token` of the visitor named by `cookie`, or `nil` when
    /// either is not known.
    func liveStream(cookie: String, token: Int) -> AsyncStream<[UInt8]>? {
        let request = Incoming(method: "GET", path: "/podcasts/_/live", query: [], form: [], cookie: cookie)
        return visitor(for: request)?.liveStream(token: token)
    }
}

/// One visitor's podcast app: `/podcasts/<document>?params` opens a document with its params
/// (values that hold JSON, such as a podcast record passed by a navigation link, are read back
/// as JSON), runs its `onLoad`, and draws it with the app's theme (light and dark) and tabs;
/// `q` runs the document's search; actions are posted to `/podcasts/act/<page>/<key>` and go
/// where the runtime's navigation went.
@MainActor
final class PodcastVisitor {
    private let backend: DemoBackend
    /// The path of the documentation the preview bar links to, when a site is served.
    private let documentation: String?
    private var app: NodeAppRuntime?
    /// The models of the pages whose actions can be posted, by token (the newest 64).
    private var pages: [Int: (model: NodeScreenModel, query: [(String, String)])] = [:]
    /// How each page was last drawn, for its live stream.
    private var drawn: [Int: DrawnPage] = [:]
    private var nextToken = 1
    /// The page whose model the next GET of the same URL reuses (after an action, so its state shows).
    private var preserved: Int?
    /// The token every form of this visitor's pages carries (`PreviewSecurity`).
    let formToken: String
    /// When this visitor last asked for a page.
    var lastUsed = Date()

    init(backend: DemoBackend, documentation: String?, formToken: String) {
        self.backend = backend
        self.documentation = documentation
        self.formToken = formToken
    }

    /// Ends the visitor: its pages stop their timers and live work.
    func close() {
        let app = self.app
        reset()
        Task { await app?.scenePhaseChanged(.background) }
    }

    /// The app, started on first use (documents through the backend's document endpoint).
    private func runtime() async throws -> NodeAppRuntime {
        if let app, app.phase == .ready { return app }
        let events = EventHandlerRegistry([
            "openExternalUrl": { payload, _ in
                guard let text = payload["url"]?.stringValue, let url = URL(string: text) else {
                    return .error(message: "No link to open")
                }
                return .openURL(url)
            },
            "shareEpisode": { payload, _ in
                .success(message: "Shared “\(payload["title"]?.text ?? "")”")
            },
        ])
        let app: NodeAppRuntime
        if let existing = self.app {
            app = existing
        } else {
            app = try NodeAppRuntime(
                configuration: NodeAppConfiguration(
                    baseURL: backend.mobileURL, documents: .remote("/v1/documents/{name}"), allowInsecureLoopback: true,
                    timeout: 10, security: URLSecurityPolicy(hosts: ["apple.com", "mzstatic.com"])),
                components: [MediaPlayerComponent()], events: events)
            self.app = app
        }
        await app.start()
        if case .failed(let message) = app.phase { throw PreviewError(message) }
        return app
    }

    /// Drops the runtime and its pages, so the next request loads the documents afresh.
    func reset() {
        app = nil
        pages.removeAll()
        drawn.removeAll()
        preserved = nil
    }

    func handle(_ request: Incoming) async -> Reply {
        let parts = request.segments
        do {
            let app = try await runtime()
            switch (request.method, parts.count) {
            case ("GET", 1):
                return .redirect("/podcasts/\(app.tabs.first?.screen ?? app.configuration.rootDocument)")
            case ("POST", 2) where parts[1] == "appearance":
                let mode = request.form.first { $0.0 == "mode" }?.1
                await app.setDarkMode(mode == "dark" ? true : mode == "light" ? false : nil)
                let back = request.form.first { $0.0 == "back" }?.1.localPath
                return .redirect(back.flatMap { $0.hasPrefix("/podcasts") ? $0 : nil } ?? "/podcasts")
            case ("GET", 2):
                return await page(parts[1], query: request.query, app: app)
            case ("POST", 3) where parts[1] == "_" && parts[2] == "visibility":
                // An element with visibility actions shows this share of itself (the live script).
                if let token = request.form.last(where: { $0.0 == "page" }).flatMap({ Int($0.1) }),
                    let id = request.form.last(where: { $0.0 == "id" })?.1,
                    let fraction = request.form.last(where: { $0.0 == "fraction" }).flatMap({ Double($0.1) })
                {
                    visibility(token: token, id: id, fraction: fraction)
                }
                return Reply(status: 204, body: "")
            case ("POST", 3) where parts[1] == "act", ("POST", 4) where parts[1] == "act":
                return await act(token: Int(parts[2]) ?? 0, key: parts.count == 4 ? parts[3] : nil, request: request, app: app)
            default:
                break
            }
        } catch {
            return Reply(status: 500, body: WebPreview.errorPage("\(error)", english: true))
        }
        return Reply(status: 404, body: WebPreview.errorPage("No page \(request.path)", english: true))
    }

    private func page(_ name: String, query: [(String, String)], app: NodeAppRuntime) async -> Reply {
        let here = Self.url(name, query)
        guard NodeAppRuntime.isDocumentName(name), name != app.configuration.rootDocument else {
            return failurePage(.notFound, status: 404, here: here, app: app)
        }
        do {
            // Before it goes on the navigation: an unknown document is no place to go back to.
            _ = try await app.document(name)
        } catch {
            let missing = error.message.hasPrefix("not found")
            return failurePage(
                missing ? .notFound : .failed(error.description), status: missing ? 404 : 502, here: here, app: app)
        }
        let model: NodeScreenModel
        let token: Int
        if let kept = preserved, let page = pages[kept], page.model.route.document == name,
            page.query.elementsEqual(query, by: ==)
        {
            (model, token) = (page.model, kept)
        } else {
            var params = JSONObject()
            for (key, value) in query where key != "q" && key != "layout" {
                if value.hasPrefix("{") || value.hasPrefix("["), let json = try? JSONReader().read(value) {
                    params[key] = json
                } else {
                    params[key] = .string(value)
                }
            }
            model = app.model(for: Self.navigate(app, to: name, params: params))
            await model.load()
            if let text = query.last(where: { $0.0 == "q" })?.1, let (binding, submit) = Self.search(in: model) {
                model.setValue(.string(text), for: binding)
                await model.perform(submit)
            }
            token = nextToken
            nextToken += 1
        }
        preserved = nil
        pages[token] = (model, query)
        pages[token - 64] = nil
        drawn[token - 64] = nil
        if case .failed(let message) = model.phase {
            return failurePage(.failed(message), status: 502, here: here, app: app)
        }
        let sizeClass: SizeClass = query.contains { $0 == ("layout", "regular") } ? .regular : .compact
        let options = RenderOptions(sizeClass: sizeClass, showUnknownMarkers: true)
        let rendered = model.render(options: options)
        let tabs = app.tabs.map {
            (title: $0.title, href: "/podcasts/\($0.screen)", selected: $0.screen == name, systemImage: $0.icon)
        }
        let preamble = bar(here: here, app: app, message: model.message.map { ($0, model.messageIsError) })
        var renderer = HTMLRenderer(actionPath: "/podcasts/act/\(token)", screenPath: "/podcasts", language: "en")
        // Back goes to the page below on the stack (or the tab's root), with its params.
        if let index = app.stack.firstIndex(where: { $0.id == model.route.id }) {
            let below = index > 0 ? app.stack[index - 1] : app.tabRoute(app.selectedDocument ?? app.configuration.rootDocument)
            renderer.backPath =
                below.params.isEmpty && index == 0
                ? "/podcasts/\(below.document)" : Self.url(below.document, Self.query(below.params))
        }
        renderer.components = app.nativeComponents
        renderer.searchParameter = "q"
        renderer.formToken = (PreviewSecurity.formField, formToken)
        let theme: HTMLRenderer.Theme = app.darkMode.map { $0 ? .dark : .light } ?? .system
        // The live stream draws the document again as `page` drew it (its timers tick in place).
        let live =
            HTMLRenderer.liveScript(
                events: "/podcasts/_/live?page=\(token)", visibility: "/podcasts/_/visibility", page: token,
                formToken: renderer.formToken) + PreviewSecurity.linkScript(actions: "/podcasts/act/", token: formToken)
        let html = renderer.page(
            rendered.root, navigation: tabs, theme: theme, palette: app.theme, preamble: preamble, postscript: live)
        renderer.language = "en"
        drawn[token] = DrawnPage(root: rendered.root, renderer: renderer, options: options)
        return Reply(status: 200, body: html)
    }

    /// The preview's strip over a page at `here`: the way back to EduGo, the appearance
    /// switch, the documentation and the page's message.
    private func bar(here: String, app: NodeAppRuntime, message: (String, Bool)?) -> String {
        var preamble = "<div class=\"preview-bar\" style=\"padding:6px 16px;font-size:13px\"><a href=\"/\">EduGo</a> · Podcasts"
        preamble += " · <form class=\"inline\" method=\"post\" action=\"/podcasts/appearance\">"
        preamble += "<input type=\"hidden\" name=\"\(PreviewSecurity.formField)\" value=\"\(formToken)\" />"
        preamble += "<input type=\"hidden\" name=\"back\" value=\"\(HTMLRenderer.attribute(here))\" />"
        for (mode, title) in [("system", "Auto"), ("light", "Light"), ("dark", "Dark")] {
            let current =
                (app.darkMode == nil && mode == "system") || (app.darkMode == true && mode == "dark")
                || (app.darkMode == false && mode == "light")
            preamble +=
                "<button type=\"submit\" name=\"mode\" value=\"\(mode)\"\(current ? " aria-pressed=\"true\"" : "")>\(title)</button>"
        }
        preamble += "</form>"
        if let documentation {
            preamble +=
                " · <a href=\"\(HTMLRenderer.attribute(documentation))\" id=\"preview-docs\">Documentation</a>"
        }
        if let (text, isError) = message {
            preamble += " · <span role=\"\(isError ? "alert" : "status")\">\(HTMLRenderer.escape(text))</span>"
        }
        preamble += "</div>"
        return preamble
    }

    /// A page that says what went wrong in the app's words, drawn as the app (its theme, tabs
    /// and bar) rather than a bare error page: an unknown document is "Not found".
    private func failurePage(_ failure: LoadFailure, status: Int, here: String, app: NodeAppRuntime) -> Reply {
        let strings = DynamicUIStrings(identifier: "en")
        let root = failure.screen(title: "Podcasts", canGoBack: false, strings: strings)
        var renderer = HTMLRenderer(actionPath: "/podcasts/act/0", screenPath: "/podcasts", language: "en")
        renderer.formToken = (PreviewSecurity.formField, formToken)
        let tabs = app.tabs.map {
            (title: $0.title, href: "/podcasts/\($0.screen)", selected: false, systemImage: $0.icon)
        }
        let theme: HTMLRenderer.Theme = app.darkMode.map { $0 ? .dark : .light } ?? .system
        let html = renderer.page(
            root, navigation: tabs, theme: theme, palette: app.theme, preamble: bar(here: here, app: app, message: nil))
        return Reply(status: status, body: html)
    }

    /// The live stream of the page `token` (`LiveScreens`), or `nil` when it is not known.
    func liveStream(token: Int) -> AsyncStream<[UInt8]>? {
        guard let page = pages[token], let drawn = drawn[token] else { return nil }
        return LiveScreens.stream(model: page.model, drawn: drawn)
    }

    /// A page reports the visible share of an element with visibility actions.
    func visibility(token: Int, id: String, fraction: Double) {
        guard let model = pages[token]?.model,
            let visibility = LiveScreens.visibility(of: id, in: model, drawn: drawn[token])
        else { return }
        model.visibilityChanged(of: id, visibility: visibility, fraction: fraction)
    }

    /// The binding and submit action of a document's search field, if it has one.
    private static func search(in model: NodeScreenModel) -> (String, String)? {
        func find(_ node: RenderNode) -> (String, String)? {
            if case .searchField(_, let binding?, _, let submit?) = node.kind { return (binding, submit) }
            for child in node.children { if let found = find(child) { return found } }
            return nil
        }
        return find(model.render(options: RenderOptions()).root)
    }

    /// Runs a posted action (a button, or the search form submitted with its text) and goes where
    /// it leads.
    private func act(token: Int, key: String?, request: Incoming, app: NodeAppRuntime) async -> Reply {
        guard let page = pages[token] else { return .redirect("/podcasts") }
        let model = page.model
        let here = Self.url(model.route.document, page.query)
        // The search form: its field is named by the binding (`$.env.searchQuery`); the page
        // runs the search for `q`, so the results have a URL.
        if let text = request.form.first(where: { $0.0.hasSuffix("searchQuery") })?.1 {
            return .redirect(Self.url(model.route.document, page.query.filter { $0.0 != "q" } + [("q", text)]))
        }
        guard let key else { return .redirect(here) }
        for (name, value) in request.form where name != PreviewSecurity.formField { model.setValue(.string(value), for: name) }
        let before = (stack: (app.stack + app.sheetStack).map(\.id), sheet: app.sheet?.id)
        await model.perform(key)
        if let url = model.urlToOpen {
            model.didOpenURL()
            return .redirect(url.absoluteString)
        }
        if let sheet = app.sheet, sheet.id != before.sheet {
            return .redirect(Self.url(sheet.document, Self.query(sheet.params) + [("presented", "true")]))
        }
        if let top = app.sheetStack.last ?? app.stack.last, !before.stack.contains(top.id) {
            return .redirect(Self.url(top.document, Self.query(top.params)))
        }
        if app.stack.count < before.stack.count || (before.sheet != nil && app.sheet == nil) {
            // Back: to the page below (the sheet's presenter or the previous document), else the tab.
            if let below = app.stack.last { return .redirect(Self.url(below.document, Self.query(below.params))) }
            return .redirect("/podcasts/\(app.selectedDocument ?? "")")
        }
        preserved = token
        return .redirect(here)
    }

    /// Makes the app's navigation show a page as a person got there: a tab's root is selected,
    /// a document already on the stack is returned to (the browser's back), anything else is
    /// pushed; so back follows the stack.
    private static func navigate(_ app: NodeAppRuntime, to name: String, params: JSONObject) -> NodeRoute {
        if params.isEmpty, app.tabs.contains(where: { $0.screen == name }) {
            // Selecting another tab keeps its place; selecting the shown one goes to its root.
            if app.selectedDocument != name { app.select(name) }
            if !app.stack.isEmpty || app.sheet != nil { app.select(name) }
            return app.tabRoute(name)
        }
        // Compared as the URL wrote them (a number param comes back from a URL as text).
        let written = query(params).sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
        let matches: (NodeRoute) -> Bool = {
            $0.document == name && query($0.params).sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" } == written
        }
        if let index = app.sheetStack.lastIndex(where: matches) {
            while app.sheetStack.count > index + 1 { app.back() }
            return app.sheetStack[index]
        }
        if let index = app.stack.lastIndex(where: matches) {
            while app.sheetStack.count + app.stack.count > index + 1 { app.back() }
            return app.stack[index]
        }
        let route = NodeRoute(document: name, params: params)
        app.push(route)
        return route
    }

    /// Params as query items: strings as they are, anything else as JSON.
    static func query(_ params: JSONObject) -> [(String, String)] {
        params.map { ($0.key, $0.value.stringValue ?? JSONWriter().string(from: $0.value)) }
    }

    static func url(_ document: String, _ query: [(String, String)]) -> String {
        pageURL("podcasts", document, query)
    }
}
