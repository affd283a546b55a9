import DynamicUIActions
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUIWeb
import Foundation

/// The podcast catalog (node dialect) in the preview: `/podcasts/<document>?params` draws a
/// document after running its `onLoad` against the demo backend's recorded iTunes API; params
/// that hold JSON (a podcast record passed by a navigation link) are read back as JSON; `q`
/// runs the document's search. The app document's tabs are the navigation.
@MainActor
final class PodcastPreview {
    private let backend: DemoBackend
    private var loaded: Loaded?
    /// The pages whose actions can be posted, by token (the newest 256).
    private var pages: [Int: (document: String, query: [(String, String)], actions: NodeActionTable)] = [:]
    private var nextToken = 1

    private struct Loaded {
        let documents: [String: CompiledNode]
        let renderer: (SizeClass) -> NodeRenderer
        let tabs: [TabItem]
        let executor: NodeActionExecutor
    }

    nonisolated init(backend: DemoBackend) { self.backend = backend }

    private func load() throws -> Loaded {
        if let loaded { return loaded }
        let catalog = backend.podcastCatalog
        var documents: [String: CompiledNode] = [:]
        for name in PodcastsCatalog.documentNames { documents[name] = try NodeCompiler().compile(try catalog.document(name)) }
        let library = try catalog.components()
        let components = try NodeCompiler().compile(library)
        let theme = try catalog.theme()
        var tabs: [TabItem] = []
        if case .tabView(let items) = try catalog.document("app").props { tabs = items }
        let client = APIClient(
            configuration: APIConfiguration(
                adminBaseURL: backend.adminURL, mobileBaseURL: backend.mobileURL, allowInsecureLoopback: true, timeout: 10),
            transport: URLSessionTransport(), cache: ResponseCache())
        let services = ActionServices(
            api: client, tokens: InMemoryTokenStore(), settings: InMemorySettingsStore(),
            security: URLSecurityPolicy(hosts: ["apple.com", "mzstatic.com"]))
        let result = Loaded(
            documents: documents,
            renderer: {
                NodeRenderer(theme: theme, library: library, components: components, options: RenderOptions(sizeClass: $0))
            },
            tabs: tabs, executor: NodeActionExecutor(services: services))
        loaded = result
        return result
    }

    func handle(_ request: Incoming) async -> Reply {
        let parts = request.segments
        do {
            let loaded = try load()
            switch (request.method, parts.count) {
            case ("GET", 1):
                return .redirect("/podcasts/\(loaded.tabs.first?.screen ?? "browse")")
            case ("GET", 2):
                return try await page(parts[1], query: request.query, loaded: loaded)
            case (_, 3) where parts[1] == "act", (_, 4) where parts[1] == "act":
                return await act(
                    token: Int(parts[2]) ?? 0, key: parts.count == 4 ? parts[3] : nil, request: request, loaded: loaded)
            default:
                break
            }
        } catch {
            return Reply(status: 500, body: WebPreview.errorPage("\(error)"))
        }
        return Reply(status: 404, body: WebPreview.errorPage("No existe la página \(request.path)"))
    }

    private func page(_ name: String, query: [(String, String)], loaded: Loaded) async throws -> Reply {
        guard let document = loaded.documents[name], name != "app" else {
            return Reply(status: 404, body: WebPreview.errorPage("No existe el documento \(name)"))
        }
        var data: JSONObject = [:]
        var state: JSONObject = [:]
        for (key, value) in query where key != "layout" {
            if key == "q" {
                state["searchQuery"] = .string(value)
                state["lastQuery"] = .string(value)
            } else if value.hasPrefix("{") || value.hasPrefix("["), let json = try? JSONReader().read(value) {
                data[key] = json
            } else {
                data[key] = .string(value)
            }
        }
        let sizeClass: SizeClass = query.contains { $0 == ("layout", "regular") } ? .regular : .compact
        func context() -> DataContext {
            DataContext(
                [("env", .object(state)), ("state", .object(state))] + data.map { ($0.key, $0.value) },
                defaultObject: .object(data), environment: EvaluationEnvironment(now: Date()))
        }
        var rendered = loaded.renderer(sizeClass).render(document, context: context(), name: name)
        var loads: [(CompiledNodeAction, DataContext)] = []
        if let onLoad = rendered.actions.action(for: "onLoad") { loads.append(onLoad) }
        if state["searchQuery"] != nil, let submit = rendered.actions.keys.first(where: { $0.hasSuffix("onSubmit") }),
            let action = rendered.actions.action(for: submit)
        {
            loads.append(action)
        }
        var failure: String?
        for (action, scope) in loads {
            let result = await loaded.executor.execute(action, in: scope, screen: name)
            for step in Self.flatten(result) {
                switch step {
                case .stateChanged(let changes): for (key, value) in changes { data[key] = value }
                case .error(let message): failure = message
                default: break
                }
            }
        }
        if !loads.isEmpty { rendered = loaded.renderer(sizeClass).render(document, context: context(), name: name) }
        let token = nextToken
        nextToken += 1
        pages[token] = (name, query, rendered.actions)
        pages[token - 256] = nil
        let tabs = loaded.tabs.map { (title: $0.title, href: "/podcasts/\($0.screen)", selected: $0.screen == name) }
        var preamble = "<div class=\"preview-bar\" style=\"padding:6px 16px;font-size:13px\"><a href=\"/\">EduGo</a> · Podcasts"
        if let failure { preamble += " · <span role=\"alert\">\(HTMLRenderer.escape(failure))</span>" }
        preamble += "</div>"
        let html = HTMLRenderer(actionPath: "/podcasts/act/\(token)", screenPath: "/podcasts")
            .page(rendered.root, navigation: tabs, preamble: preamble)
        return Reply(status: 200, body: html)
    }

    /// Runs a posted action (a button, or the search form submitted with its text) and goes where
    /// it leads.
    private func act(token: Int, key: String?, request: Incoming, loaded: Loaded) async -> Reply {
        guard let page = pages[token] else { return .redirect("/podcasts") }
        let here = Self.url(page.document, page.query)
        // The search form: its field is named by the binding (`$.env.searchQuery`); the page
        // runs the search for `q`.
        if let text = request.form.first(where: { $0.0.hasSuffix("searchQuery") })?.1 {
            return .redirect(Self.url(page.document, page.query.filter { $0.0 != "q" } + [("q", text)]))
        }
        guard let key else { return .redirect(here) }
        guard let (action, scope) = page.actions.action(for: key) else { return .redirect(here) }
        let result = await loaded.executor.execute(action, in: scope, screen: page.document)
        for step in Self.flatten(result) {
            switch step {
            case .navigateTo(let screen, let params, _), .present(let screen, let params):
                return .redirect(Self.url(screen, params.map { ($0.key, $0.value.text) }))
            case .dismiss, .navigateBack:
                return .redirect("/podcasts")
            default: break
            }
        }
        return .redirect(here)
    }

    static func url(_ document: String, _ query: [(String, String)]) -> String {
        pageURL("podcasts", document, query)
    }

    static func flatten(_ result: ActionResult) -> [ActionResult] {
        if case .sequence(let steps) = result { return steps.flatMap(flatten) }
        return [result]
    }
}
