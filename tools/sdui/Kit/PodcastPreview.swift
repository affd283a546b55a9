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
    /// What the visitor plays, shown as the now-playing bar on each of its pages until stopped.
    private(set) var nowPlaying: NowPlaying?

    /// An episode a visitor plays: its audio, title and page, where it was at the page's last
    /// report, and whether it was playing then.
    struct NowPlaying: Equatable {
        var url: URL
        var title: String
        var page: String
        var position: Double
        var playing: Bool
    }

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
                    timeout: 10, security: URLSecurityPolicy(hosts: ["apple.com", "mzstatic.com"]),
                    // The pages are English (`lang="en"`), whatever the machine's language.
                    locale: Locale(identifier: "en_US")),
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
            case ("POST", 3) where parts[1] == "_" && parts[2] == "player":
                return player(request)
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
        let preamble = bar(here: here, app: app, message: model.banner.map { ($0.message, $0.kind == .error) })
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
        let player = nowPlayingBar(here: here, token: token, players: Self.audioPlayers(in: rendered.root))
        let html = renderer.page(
            rendered.root, navigation: tabs, theme: theme, palette: app.theme, preamble: preamble, postscript: player + live)
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

    /// The audio players a page draws (`media_player` nodes with an https audio URL).
    static func audioPlayers(in node: RenderNode) -> [MediaPlayerComponent.Media] {
        var found: [MediaPlayerComponent.Media] = []
        if case .custom(let custom) = node.kind, custom.type == "media_player" || custom.type == "media-player" {
            let media = MediaPlayerComponent.Media(custom)
            if media.url != nil, !media.isVideo { found.append(media) }
        }
        for child in node.children { found += audioPlayers(in: child) }
        return found
    }

    /// A page's player says what it does (POST `state` play, pause or stop, `position` in
    /// seconds, `src` and `page`): the audio must be one of that page's players or the one that
    /// already plays. Stop ends the bar and goes `back` when a form asked; the rest answer 204.
    private func player(_ request: Incoming) -> Reply {
        let field = { (name: String) in request.form.last { $0.0 == name }?.1 }
        guard let state = field("state"), ["play", "pause", "stop"].contains(state) else {
            return Reply(status: 400, body: "state must be play, pause or stop")
        }
        if state == "stop" {
            nowPlaying = nil
            let back = field("back")?.localPath.flatMap { $0.hasPrefix("/podcasts") ? $0 : nil }
            return back.map { Reply.redirect($0) } ?? Reply(status: 204, body: "")
        }
        // A time from the page, clamped to a day; anything else is the start.
        let reported = field("position").flatMap(Double.init) ?? 0
        let position = reported.isFinite ? min(max(reported, 0), 86_400) : 0
        let src = field("src") ?? ""
        if let token = field("page").flatMap(Int.init), let page = pages[token], let root = drawn[token]?.root,
            let media = Self.audioPlayers(in: root).first(where: { $0.url?.absoluteString == src }), let url = media.url
        {
            nowPlaying = NowPlaying(
                url: url, title: media.title, page: Self.url(page.model.route.document, page.query), position: position,
                playing: state == "play")
        } else if var current = nowPlaying, current.url.absoluteString == src {
            current.position = position
            current.playing = state == "play"
            nowPlaying = current
        } else {
            return Reply(status: 404, body: "no such player")
        }
        return Reply(status: 204, body: "")
    }

    /// The now-playing bar over the tab bar, with its script: what the visitor plays (Play or
    /// Pause, the time, the way to its page and Stop); on a page with an audio player and
    /// nothing playing, the same bar hidden until that player starts. The bar's `<audio>` is
    /// the one the page plays: a player of the same file drives it.
    private func nowPlayingBar(here: String, token: Int, players: [MediaPlayerComponent.Media]) -> String {
        let shown =
            nowPlaying
            ?? players.first.flatMap { media in
                media.url.map { NowPlaying(url: $0, title: media.title, page: here, position: 0, playing: false) }
            }
        guard let shown else { return "" }
        var html = "<style>\(Self.playerStyle)</style>"
        html +=
            "<aside class=\"now-playing\" id=\"now-playing\" aria-label=\"Now playing\" data-page=\"\(token)\""
            + " data-position=\"\(shown.position)\" data-playing=\"\(shown.playing)\"\(nowPlaying == nil ? " hidden=\"hidden\"" : "")>"
        html += "<audio src=\"\(HTMLRenderer.url(shown.url.absoluteString))\" preload=\"none\"></audio>"
        html +=
            "<a class=\"now-playing-title\" href=\"\(HTMLRenderer.url(shown.page))\">\(HTMLRenderer.escape(shown.title.isEmpty ? "Episode" : shown.title))</a>"
        html += "<span class=\"media-time\">\(MediaClock.text(shown.position))</span>"
        html += "<span class=\"media-status\" role=\"status\"></span>"
        html += "<button type=\"button\" class=\"media-toggle\">\(shown.playing ? "❚❚ Pause" : "▶ Play")</button>"
        html += "<form class=\"inline\" method=\"post\" action=\"/podcasts/_/player\">"
        html += "<input type=\"hidden\" name=\"\(PreviewSecurity.formField)\" value=\"\(HTMLRenderer.attribute(formToken))\" />"
        html += "<input type=\"hidden\" name=\"state\" value=\"stop\" />"
        html += "<input type=\"hidden\" name=\"back\" value=\"\(HTMLRenderer.attribute(here))\" />"
        html += "<button type=\"submit\" class=\"media-stop\" aria-label=\"Stop\">✕</button></form></aside>"
        return html + "<script>//<![CDATA[\n" + Self.playerScript + "\n//]]></script>"
    }

    /// The bar over the tab bar (beside the sidebar when wide) and the page's audio player.
    static let playerStyle =
        ".now-playing{position:fixed;left:0;right:0;bottom:calc(50px + env(safe-area-inset-bottom));z-index:10;display:flex;"
        + "align-items:center;gap:8px;padding:4px 8px 4px 16px;background:var(--surface);color:var(--text_primary,var(--text));"
        + "border-top:1px solid var(--separator);box-shadow:0 -2px 8px #0000001f}.now-playing[hidden]{display:none}"
        + ".now-playing-title{flex:1 1 auto;min-width:0;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;"
        + "color:inherit;font-weight:600;text-decoration:none}"
        + ".now-playing button,figure.media-player.audio button{min-height:44px;min-width:44px;background:none;"
        + "color:var(--accent);font-weight:600;white-space:nowrap}.media-time{font-variant-numeric:tabular-nums;"
        + "color:var(--text_secondary,var(--secondary))}.media-status{color:var(--text_primary,var(--text))}.now-playing .media-status:empty{display:none}"
        + "figure.media-player.audio{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:4px 12px}"
        + "body:has(.now-playing:not([hidden])){padding-bottom:128px}"
        + "@media (min-width:900px){.now-playing{left:220px;bottom:0}body:has(.now-playing:not([hidden])){padding-bottom:64px}}"

    /// Plays the bar's audio: its button and a page's player of the same file play and pause
    /// it and show what it does; the time is the audio's own; a file that cannot load says so.
    /// The server hears play and pause (so the next page shows the bar), the tab keeps the
    /// position for the next page, and a page opened while it played goes on playing.
    static let playerScript = """
        (() => {
          const bar = document.getElementById('now-playing');
          if (!bar) return;
          const audio = bar.querySelector('audio');
          const token = bar.querySelector('input[name=_csrf]').value;
          const clock = s => { s = Math.floor(s || 0); const two = n => String(n).padStart(2, '0');
            return s >= 3600 ? Math.floor(s / 3600) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60) : Math.floor(s / 60) + ':' + two(s % 60); };
          const drives = el => el === bar || el.querySelector('audio').src === audio.src;
          const sync = () => {
            const active = !audio.paused && !audio.error;
            for (const el of document.querySelectorAll('#now-playing, figure.media-player.audio')) {
              const own = drives(el);
              el.querySelector('button').textContent = own && active ? '❚❚ Pause' : '▶ Play';
              el.querySelector('.media-time').textContent = own && (active || audio.currentTime > 0) ? clock(audio.currentTime) : '';
              el.querySelector('.media-status').textContent = !own ? '' : audio.error ? 'Can’t play: the episode’s file could not be loaded.'
                : active && audio.readyState < 3 ? 'Loading…' : '';
            }
          };
          let stopped = false;
          const report = (state, position) => stopped || navigator.sendBeacon('/podcasts/_/player', new URLSearchParams(
            {_csrf: token, state, page: bar.dataset.page, src: audio.src, position: String(position)}));
          const keep = () => stopped || sessionStorage.setItem('podcasts-position', JSON.stringify({src: audio.src, at: audio.ended ? 0 : audio.currentTime}));
          bar.querySelector('form').addEventListener('submit', () => { stopped = true; sessionStorage.removeItem('podcasts-position'); });
          audio.addEventListener('playing', () => { bar.hidden = false; report('play', audio.currentTime); sync(); });
          audio.addEventListener('pause', () => { report('pause', audio.ended ? 0 : audio.currentTime); keep(); sync(); });
          for (const name of ['play', 'timeupdate', 'waiting', 'error', 'ended']) audio.addEventListener(name, sync);
          window.addEventListener('pagehide', keep);
          document.addEventListener('click', event => {
            const button = event.target.closest('#now-playing .media-toggle, figure.media-player.audio button');
            if (!button) return;
            event.preventDefault();
            const figure = button.closest('figure');
            if (figure && !drives(figure)) {
              audio.src = figure.querySelector('audio').src;
              const title = bar.querySelector('.now-playing-title');
              title.textContent = figure.getAttribute('aria-label');
              title.href = location.pathname + location.search;
            }
            if (audio.paused || audio.error) {
              if (audio.error) audio.load();
              audio.play().catch(sync);
            } else { audio.pause(); }
            sync();
          });
          const kept = JSON.parse(sessionStorage.getItem('podcasts-position') || 'null');
          audio.currentTime = kept && kept.src === audio.src ? kept.at : Number(bar.dataset.position) || 0;
          if (bar.dataset.playing === 'true') audio.play().catch(sync);
          sync();
        })();
        """

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
        // After what the fields set off (their triggers), as a tap runs on the device.
        model.fire(key)
        await model.firedActionsFinished()
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
