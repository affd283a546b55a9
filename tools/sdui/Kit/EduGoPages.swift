import DynamicUI
import DynamicUIActions
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIWeb
import Foundation

/// The pages of a screen-dialect session: `/screen/<key>?params` draws a screen (with `q` a
/// search, `pages` how many pages are loaded, `back=1` one step back); `/act/<page>/<action>`
/// runs an action of a drawn page and redirects to wherever the runtime's navigation went;
/// `/_/connection` switches the connection.
@MainActor
struct EduGoPages {
    let session: PreviewSession
    /// The path of the documentation the preview bar links to, when a site is served.
    var documentation: String? = nil
    /// Query names that are not route params.
    static let reserved: Set<String> = ["q", "pages", "page", "shown", "back", "layout"]

    var runtime: DynamicUIRuntime { session.runtime }

    func handle(_ request: Incoming) async -> Reply {
        let parts = request.segments
        switch (request.method, parts.first) {
        case ("GET", nil):
            return .redirect(currentURL())
        case ("GET", "screen") where parts.count == 2:
            return await page(key: parts[1], request: request)
        case ("POST", "act") where parts.count == 3:
            guard let token = Int(parts[1]) else { return notFound(request.path) }
            return await act(token: token, actionId: parts[2], request: request)
        case ("POST", "_") where parts.count == 2 && parts[1] == "connection":
            await session.set(online: request.form.last { $0.0 == "online" }?.1 == "1")
            return .redirect(request.form.last { $0.0 == "return" }?.1.localPath ?? currentURL())
        case ("POST", "_") where parts.count == 2 && parts[1] == "impression":
            // An element with a log_id came into view (the page's IntersectionObserver).
            if let token = request.form.last(where: { $0.0 == "page" }).flatMap({ Int($0.1) }),
                let logId = request.form.last(where: { $0.0 == "log_id" })?.1, !logId.isEmpty
            {
                session.model(token: token)?.recordImpression(logId)
            }
            return Reply(status: 204, body: "")
        case ("POST", "_") where parts.count == 2 && parts[1] == "visibility":
            // An element with visibility actions shows this share of itself (the live script).
            if let token = request.form.last(where: { $0.0 == "page" }).flatMap({ Int($0.1) }),
                let model = session.model(token: token), let id = request.form.last(where: { $0.0 == "id" })?.1,
                let fraction = request.form.last(where: { $0.0 == "fraction" }).flatMap({ Double($0.1) }),
                let visibility = LiveScreens.visibility(of: id, in: model, drawn: session.drawn[token])
            {
                model.visibilityChanged(of: id, visibility: visibility, fraction: fraction)
            }
            return Reply(status: 204, body: "")
        case ("GET", "_") where parts.count == 2 && parts[1] == "events":
            let after = Int(request.queryValue("after") ?? "") ?? 0
            let entries = session.events.entries(after: after).map { entry -> JSONValue in
                ["sequence": .number(JSONNumber(entry.sequence)), "text": .string(entry.text)]
            }
            return Reply(status: 200, body: JSONWriter().string(from: .array(entries)), contentType: "application/json")
        default:
            return notFound(request.path)
        }
    }

    private func notFound(_ path: String) -> Reply {
        Reply(status: 404, body: WebPreview.errorPage("No existe la página \(path)"))
    }

    // MARK: Pages

    /// The URL of a route.
    static func url(_ route: Route, extra: [(String, String)] = []) -> String {
        pageURL("screen", route.screenKey, route.params.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + extra)
    }

    /// The address of the screen shown; when the next page draws a model kept for it (after an
    /// action, or back to it), with that list's search and the pages it has loaded, so the
    /// address alone gives the same list again.
    private func currentURL() -> String {
        guard runtime.isSignedIn else { return Self.url(Route(screenKey: runtime.configuration.loginScreenKey)) }
        guard let current = runtime.navigation.current else { return "/screen/\(runtime.configuration.loginScreenKey)" }
        if let token = session.preserved, let model = session.model(token: token), model.route.screenKey == current.screenKey,
            model.route.params == current.params
        {
            return Self.url(current, extra: Self.listState(of: model))
        }
        return Self.url(current)
    }

    /// The search field of a screen, if it has one.
    static func searchField(of screen: ScreenDefinition?) -> String? {
        screen?.template.allZones.flatMap { $0.slots ?? [] }.first { $0.controlType == .searchBar }?.formFieldName
    }

    /// What a list shows beyond its route, as query items: its search and how many pages it has
    /// loaded (at most the 50 a page asks for).
    static func listState(of model: DynamicScreenViewModel) -> [(String, String)] {
        var state: [(String, String)] = []
        if !model.searchText.isEmpty { state.append((searchField(of: model.compiled?.definition) ?? "q", model.searchText)) }
        if case .success(let items, _, _) = model.dataState,
            let size = model.compiled?.definition.dataConfig?.pagination?.pageSize, size > 0
        {
            let pages = min(50, (items.count + size - 1) / size)
            if pages > 1 { state.append(("pages", String(pages))) }
        }
        return state
    }

    private func page(key: String, request: Incoming) async -> Reply {
        var params: [String: String] = [:]
        for (name, value) in request.query where !Self.reserved.contains(name) { params[name] = value }
        if !runtime.isSignedIn, key != runtime.configuration.loginScreenKey {
            // The page asked for opens after sign-in (a deep link), not the dashboard.
            session.pendingPath = Self.url(Route(screenKey: key, params: params))
            return .redirect(Self.url(Route(screenKey: runtime.configuration.loginScreenKey)))
        }
        if runtime.isSignedIn, key == runtime.configuration.loginScreenKey { return .redirect(currentURL()) }
        if !params.isEmpty, let loaded = try? await runtime.screens.load(key) {
            // A search is not a place: its text is no route parameter, so a query filters the
            // list in place instead of pushing a screen per query.
            for slot in loaded.screen.definition.template.allZones.flatMap({ $0.slots ?? [] })
            where slot.controlType == .searchBar {
                params[slot.formFieldName] = nil
            }
        }
        let route = Route(screenKey: key, params: params)
        if request.queryValue("back") == "1" {
            _ = session.navigate(to: route)
            runtime.navigation.back()
            // The screen below is shown as it was left, as iOS keeps it on the stack: its model
            // (its search, its pages, what was typed) when the session still has it.
            if let below = runtime.navigation.current { session.preserved = session.latestToken(showing: below) }
            return .redirect(currentURL())
        }
        let shown = session.navigate(to: route)
        let (token, model, reused) = session.model(for: shown)
        // The pages left behind are hidden, as a navigation hides the screens it no longer draws.
        await session.pagesLeft(except: model)
        await model.pageDidChange(isShown: true)
        if runtime.pendingChanges == 0 { session.pendingActions.removeAll() }
        let pending = session.pendingActions[Self.url(shown)] ?? []
        var pages = max(1, min(Int(request.queryValue("pages") ?? "") ?? 1, 50))
        // The page is drawn once its data is in; deferred sections fill it in live.
        if !reused { await model.load(waitingForSections: false) } else { await model.reloadIfOutdated() }
        let searchField = Self.searchField(of: model.compiled?.definition)
        let searchText = searchField.flatMap { request.queryValue($0) } ?? request.queryValue("q") ?? ""
        if !reused, !searchText.isEmpty { await model.search(searchText) }
        if request.queryValue("page") == "next" {
            // "Load more": one page more than the rows the link was drawn under (it says how many,
            // `shown`), so paging goes on to the end whatever address it was clicked from.
            let size = max(1, model.compiled?.definition.dataConfig?.pagination?.pageSize ?? 20)
            let drawnRows = max(0, Int(request.queryValue("shown") ?? "") ?? 0)
            pages = min(50, max(pages, (drawnRows + size - 1) / size) + 1)
            var extra = searchText.isEmpty ? [] : [(searchField ?? "q", searchText)]
            extra.append(("pages", String(pages)))
            return .redirect(Self.url(shown, extra: extra))
        }
        if !reused {
            while pages > 1, case .success(_, true, _) = model.dataState {
                await model.loadNextPage()
                pages -= 1
            }
        }
        let regular = request.queryValue("layout") == "regular"
        // A screen that cannot be shown is the SDK's failure state (offline, not allowed, not
        // found), with retry: never an error page or an internal address.
        let options = RenderOptions(sizeClass: regular ? .regular : .compact, platform: .ios)
        var root =
            (try? model.render(options: options))
            ?? LoadFailure.failed(runtime.strings(.screenShowFailed)).screen(
                title: "", canGoBack: false, strings: runtime.strings)
        model.dismissBanner()
        if !pending.isEmpty, case .screen(var chrome) = root.kind, chrome.banner == nil {
            // The form says its change waits for the connection, as long as it waits.
            chrome.banner = Banner(kind: .pending, message: runtime.strings(.changeQueued))
            root.kind = .screen(chrome)
        }
        // A screen presented as a sheet covers the tab bar, as on iOS.
        let tabs =
            runtime.isSignedIn && shown.presentation != .sheet
            ? runtime.navigation.items(regular: regular).map { item in
                (
                    title: item.label, href: session.tabURL(item.screenKey),
                    selected: item.screenKey == runtime.navigation.selectedScreenKey, systemImage: Optional(item.icon)
                )
            } : []
        var renderer = HTMLRenderer(actionPath: "/act/\(token)", screenPath: "/screen")
        renderer.backPath = Self.url(shown, extra: [("back", "1")])
        // The search form keeps the page's own parameters (`?id=`): a query replaces the list.
        renderer.searchParameters = shown.params.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        renderer.formToken = (PreviewSecurity.formField, session.formToken)
        renderer.pendingActions = pending
        renderer.components = runtime.nativeComponents
        let theme: HTMLRenderer.Theme = await session.darkMode() ? .dark : .system
        let live =
            HTMLRenderer.liveScript(
                events: "/_/live?page=\(token)", visibility: "/_/visibility", page: token, formToken: renderer.formToken)
            + PreviewSecurity.linkScript(actions: "/act/", token: session.formToken)
        let html = renderer.page(
            root, navigation: tabs, theme: theme, preamble: previewBar(returnTo: Self.url(shown)) + eventLog(token: token),
            shortcuts: shortcuts(screen: model.compiled?.definition, regular: regular), postscript: live)
        // The live stream draws the screen again as `page` drew it (its words and direction).
        if case .screen(let chrome) = root.kind {
            renderer.strings = chrome.strings
            renderer.language = chrome.strings.language.rawValue
        }
        session.drawn[token] = DrawnPage(root: root, renderer: renderer, options: options)
        return Reply(status: 200, body: html)
    }

    /// The keyboard shortcuts of the page, from the same `MenuCommands` a Mac's menu bar shows:
    /// ⌘/Ctrl+1…9 and ⌘, select navigation items, ⌘N runs the create action, ⌘R reloads.
    private func shortcuts(screen: ScreenDefinition?, regular: Bool) -> [String: String] {
        guard runtime.isSignedIn else { return [:] }
        let groups = MenuCommands.groups(
            items: runtime.navigation.items(regular: regular), screen: screen,
            capabilities: PlatformCapabilities(platform: .mac, sizeClass: .regular), strings: runtime.strings)
        var map: [String: String] = [:]
        for item in groups.flatMap(\.items) where item.isEnabled {
            guard let key = item.shortcut?.key, item.shortcut?.modifiers == [.command] else { continue }
            switch item.command {
            case .select(let screenKey): map[key] = "href:" + session.tabURL(screenKey)
            case .perform(let actionId): map[key] = "action:" + actionId
            case .refresh: map[key] = "reload"
            }
        }
        return map
    }

    /// The live event log: the runtime's latest events, new ones fetched every two seconds, and
    /// the script that reports impressions of elements with a `log_id` as they come into view.
    private func eventLog(token: Int) -> String {
        let recent = session.events.entries(after: 0).suffix(12)
        var out = "<details id=\"preview-events\" style=\"padding:4px 16px;font-size:12px;background:var(--surface)\">"
        out += "<summary>Eventos</summary><ol id=\"preview-event-list\" style=\"margin:4px 0;max-height:12em;overflow:auto\">"
        for entry in recent { out += "<li data-sequence=\"\(entry.sequence)\">\(HTMLRenderer.escape(entry.text))</li>" }
        out += "</ol></details>"
        out += "<script>(() => {const page = \(token); const list = document.getElementById('preview-event-list');"
        out += "let last = \(recent.last?.sequence ?? 0); const seen = new Set();"
        out += "const refresh = () => fetch('/_/events?after=' + last).then(r => r.json()).then(entries => {"
        out += "for (const e of entries) {if (e.sequence <= last) continue; const li = document.createElement('li');"
        out += "li.dataset.sequence = e.sequence;"
        out += "li.textContent = e.text; list.appendChild(li); last = e.sequence;} list.scrollTop = list.scrollHeight;"
        out += "}).catch(() => {}); setInterval(refresh, 2000);"
        out += "document.addEventListener('DOMContentLoaded', () => {const io = new IntersectionObserver(items => {"
        out +=
            "for (const item of items) {const id = item.target.dataset.logId; if (!item.isIntersecting || seen.has(id)) continue;"
        out += "seen.add(id); const body = new URLSearchParams({page: page, log_id: id});"
        out += "body.append('\(PreviewSecurity.formField)', '\(session.formToken)');"
        out += "fetch('/_/impression', {method: 'POST', body: body})"
        out += ".then(refresh).catch(() => {});}});"
        out += "document.querySelectorAll('[data-log-id]').forEach(el => io.observe(el));});})();</script>"
        return out
    }

    /// The preview's own strip: who is signed in, the connection switch and pending changes.
    private func previewBar(returnTo: String) -> String {
        let online = session.isOnline
        let english = runtime.strings.language == .english
        var out = "<div class=\"preview-bar\" role=\"region\" aria-label=\"Vista previa\" style=\"display:flex;gap:12px;"
        out += "align-items:center;flex-wrap:wrap;padding:6px 16px;font-size:13px;background:var(--surface);"
        out += "border-bottom:1px solid var(--separator)\"><strong>DynamicUI</strong>"
        if let session = runtime.session {
            out += "<span id=\"preview-user\">\(HTMLRenderer.escape(session.user.fullName)) · "
            out += "\(HTMLRenderer.escape(session.context.roleName))</span>"
        } else {
            out += "<span id=\"preview-user\">"
            out += english ? "Signed out · demo accounts: " : "Sin sesión · cuentas de demostración: "
            out += "superadmin@, admin.escuela@, docente@, estudiante@, tutor@edugo.test ("
            out += english ? "password edugo123)</span>" : "contraseña edugo123)</span>"
        }
        out += "<form method=\"post\" action=\"/_/connection\" style=\"margin:0\">"
        out += "<input type=\"hidden\" name=\"\(PreviewSecurity.formField)\" value=\"\(session.formToken)\" />"
        out += "<input type=\"hidden\" name=\"online\" value=\"\(online ? "0" : "1")\" />"
        out += "<input type=\"hidden\" name=\"return\" value=\"\(HTMLRenderer.attribute(returnTo))\" />"
        let connection =
            english
            ? (online ? "Connection: on" : "Connection: offline") : (online ? "Conexión: activa" : "Conexión: sin conexión")
        out += "<button type=\"submit\" id=\"preview-connection\">\(connection)"
        out += "</button></form>"
        if runtime.pendingChanges > 0 {
            let count = runtime.pendingChanges
            let text = count == 1 ? runtime.strings(.pendingChange) : runtime.strings(.pendingChanges, String(count))
            out += "<span id=\"preview-pending\" role=\"status\">\(HTMLRenderer.escape(text))</span>"
        }
        out += "<a href=\"/podcasts\">Podcasts</a>"
        if let documentation {
            out += "<a href=\"\(HTMLRenderer.attribute(documentation))\" id=\"preview-docs\">"
            out += english ? "Documentation</a>" : "Documentación</a>"
        }
        out += "</div>"
        if let link = session.externalLink {
            session.externalLink = nil
            let host = HTMLRenderer.escape(link.host ?? link.absoluteString)
            out += "<div class=\"external-link\" id=\"preview-external\" role=\"status\" style=\"padding:10px 16px;"
            out += "font-size:15px;background:var(--surface);border-bottom:1px solid var(--separator)\">"
            if online {
                out += english ? "This link opens outside the app: " : "Este enlace se abre fuera de la app: "
                out += "<a href=\"\(HTMLRenderer.attribute(link.absoluteString))\" target=\"_blank\" rel=\"noopener noreferrer\">"
                out += (english ? "Open " : "Abrir ") + "\(host)</a>"
            } else {
                out +=
                    english
                    ? "You are offline: \(host) can be opened once you are connected again."
                    : "Sin conexión: \(host) se podrá abrir cuando vuelvas a tener conexión."
            }
            out += "</div>"
        }
        return out
    }

    // MARK: Actions

    private func act(token: Int, actionId: String, request: Incoming) async -> Reply {
        guard let model = session.model(token: token) else { return .redirect(currentURL()) }
        if actionId == HTMLRenderer.cancelConfirmationActionId {
            // Cancel: the dialog closes and nothing else changes (the page, its parameters and
            // what was typed stay).
            model.cancelConfirmation()
            session.preserved = token
            return .redirect(currentURL())
        }
        if runtime.pendingChanges > 0, session.pendingActions[Self.url(model.route)]?.contains(actionId) == true {
            // The same change already waits for the connection (a form posted again from the
            // browser's history): nothing is queued twice; the form shows it pending.
            session.preserved = token
            return .redirect(Self.url(model.route))
        }
        let inputs =
            model.compiled?.definition.template.allZones.flatMap { $0.slots ?? [] }.filter { $0.controlType.isInput }
            ?? []
        if request.method == "POST", request.form.last(where: { $0.0 == "confirmed" })?.1 != "1" {
            let posted = Dictionary(request.form, uniquingKeysWith: { $1 })
            for slot in inputs {
                let name = slot.formFieldName
                if slot.controlType == .switch || slot.controlType == .checkbox {
                    model.setFieldValue(posted[name] == "true" ? "true" : "false", for: name)
                } else if let value = posted[name] {
                    model.setFieldValue(value, for: name)
                }
            }
        }
        if request.form.last(where: { $0.0 == "confirmed" })?.1 == "1", model.confirmation?.action.id == actionId {
            await model.confirm()
        } else {
            let item = request.queryValue("item").flatMap { Self.item($0, in: model) }
            let before = runtime.pendingChanges
            await model.perform(actionId: actionId, item: item)
            if runtime.pendingChanges > before || (model.banner?.kind == .pending && runtime.pendingChanges > 0) {
                // The change waits offline: its page draws the action pending until it is sent.
                session.pendingActions[Self.url(model.route), default: []].insert(actionId)
            }
        }
        if let current = runtime.navigation.current, current.screenKey == model.route.screenKey,
            current.params == model.route.params, runtime.isSignedIn
        {
            session.preserved = token
        } else if runtime.isSignedIn, let live = runtime.liveModel(for: runtime.navigation.current),
            let liveToken = session.token(of: live)
        {
            // The screen below a closed one: the runtime reloaded its changed data and gave it
            // the closed screen's message; show that same model.
            session.preserved = liveToken
        }
        if !runtime.isSignedIn, model.route.screenKey == runtime.configuration.loginScreenKey { session.preserved = token }
        if let url = model.urlToOpen {
            // Outside the app, as iOS opens a link in Safari: offered in another tab.
            model.didOpenURL()
            session.externalLink = url
        }
        if runtime.isSignedIn, model.route.screenKey == runtime.configuration.loginScreenKey, let next = session.pendingPath {
            session.pendingPath = nil
            return .redirect(next)
        }
        return .redirect(currentURL())
    }

    /// The item a row link names: the record whose `id` is `key`, anywhere in the page's data,
    /// or `zone[index]` for records without ids.
    static func item(_ key: String, in model: DynamicScreenViewModel) -> JSONValue? {
        var candidates: [JSONValue] = []
        if case .success(let items, _, _) = model.dataState { candidates += items }
        candidates.append(model.data)
        var budget = 10_000
        func find(_ value: JSONValue) -> JSONValue? {
            budget -= 1
            guard budget > 0 else { return nil }
            switch value {
            case .object(let object):
                if object["id"]?.text == key { return value }
                for (_, child) in object { if let found = find(child) { return found } }
            case .array(let array):
                for child in array { if let found = find(child) { return found } }
            default: break
            }
            return nil
        }
        for candidate in candidates { if let found = find(candidate) { return found } }
        if key.hasSuffix("]"), let open = key.lastIndex(of: "["),
            let index = Int(key[key.index(after: open)..<key.index(before: key.endIndex)]),
            case .success(let items, _, _) = model.dataState, items.indices.contains(index)
        {
            return items[index]
        }
        return nil
    }
}

extension String {
    /// `self` when it is a path on this server, else `nil`, so a redirect to it stays on the
    /// preview: a `/` not followed by another `/` or `\`, and no `\` or control character
    /// anywhere. Browsers read `//host`, `/\host` and `/<tab>/host` (a tab is dropped) as
    /// another site.
    var localPath: String? {
        guard utf8.first == UInt8(ascii: "/"), utf8.dropFirst().first != UInt8(ascii: "/"),
            !utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F })
        else { return nil }
        return self
    }
}
