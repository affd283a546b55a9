import DynamicUI
import DynamicUIActions
public import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINetwork
public import DynamicUIRendering
import DynamicUIStorage
import DynamicUIWeb
public import Foundation

/// The web preview: a web server on 127.0.0.1 whose pages are drawn by `HTMLRenderer` from the
/// real runtime. Each browser (a cookie) gets its own `DynamicUIRuntime` talking to the demo
/// backend over loopback, so signing in, paging, searching, forms, confirmations, the offline
/// queue and sign-out behave as in an app. Every page has a URL (`/screen/<key>?params`) and
/// the browser's back button works.
public final class WebPreview: @unchecked Sendable {
    /// The demo backend the runtimes talk to.
    public let backend: DemoBackend
    private let podcasts: PodcastPreview
    private let lock = NSLock()
    private var server: LoopbackHTTPServer?
    private var boundPort: UInt16 = 0
    private let log: @Sendable (String) -> Void
    private let sessions = SessionTable()
    /// The locale of the EduGo sessions' runtimes.
    public let locale: Locale
    private var reload: LiveReload?
    /// The DocC site served under `/docs/` and linked from the preview bar, if any.
    public let documentation: DocumentationSite?
    private var extraHosts: Set<String> = []
    private var extraComponents: [any NativeComponent] = []

    /// Native components the EduGo sessions register beside the media player (a plugin's,
    /// declared by its manifest: `sdui serve --plugin`). Set before `start`.
    public var pluginComponents: [any NativeComponent] {
        get { lock.withLock { extraComponents } }
        set { lock.withLock { extraComponents = newValue } }
    }

    /// Live reload of a catalog folder: pages carry a script that reloads them on a change, and
    /// show the catalog's errors while it has any. Set before `start`.
    public var liveReload: LiveReload? {
        get { lock.withLock { reload } }
        set { lock.withLock { reload = newValue } }
    }

    /// Further names the preview answers to (`name`, with its port, or `name:port`), for a
    /// server reached under another name than 127.0.0.1, localhost or [::1]; requests naming any
    /// other host are refused (a DNS-rebinding page names its own).
    public var allowedHosts: Set<String> {
        get { lock.withLock { extraHosts } }
        set { lock.withLock { extraHosts = newValue } }
    }

    /// A preview over `backend` (already started) in `locale`, serving `documentation` under
    /// `/docs/` when given; `log` receives one line per request.
    public init(
        backend: DemoBackend, locale: Locale = Locale(identifier: "es_ES"), documentation: DocumentationSite? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.backend = backend
        self.locale = locale
        self.documentation = documentation
        self.podcasts = PodcastPreview(
            backend: backend, documentation: documentation.map { _ in DocumentationSite.landingPath })
        self.log = log
    }

    /// The most podcast visitors kept at once; a new one beyond that ends the least recently seen.
    public static let podcastVisitorCapacity = PodcastPreview.capacity

    /// The address to open.
    public var url: URL { URL(string: "http://127.0.0.1:\(lock.withLock { boundPort })/")! }

    /// The address of the documentation (the `DynamicUI` module's page) when a site is served.
    public var documentationURL: URL? {
        documentation.map { _ in URL(string: String(DocumentationSite.landingPath.dropFirst()), relativeTo: url)!.absoluteURL }
    }

    /// Starts listening on `port` (0 picks a free one) of `host`: 127.0.0.1, or `0.0.0.0` for
    /// every interface (`sdui serve --lan`; add the machine's address to `allowedHosts`).
    public func start(port: UInt16 = 0, host: String = "127.0.0.1") async throws {
        // One line per request comes from `log` (silent with --quiet); the server prints nothing.
        let server = LoopbackHTTPServer { [self] request in await self.respond(request) }
        let bound = try await server.start(port: port, host: host)
        lock.withLock {
            self.server = server
            boundPort = bound
        }
    }

    /// Stops the server (and live reload's open event streams, which would otherwise keep it up).
    public func stop() async {
        liveReload?.stop()
        let server = lock.withLock {
            defer { self.server = nil }
            return self.server
        }
        await server?.stop()
    }

    // MARK: Requests

    /// Forgets what the sessions cached of the catalog (screens, navigation, node documents)
    /// after live reload applied a new one.
    @MainActor
    public func catalogChanged() async {
        podcasts.reset()
        for session in sessions.all {
            // Screens and navigation are served with max-age: the response cache would keep them.
            await session.runtime.client.cache?.clearAll()
            await session.runtime.screens.clear()
            await session.runtime.loadNavigation()
        }
    }

    private func respond(_ request: LoopbackRequest) async -> LoopbackResponse {
        var response = await answer(request)
        response.headers += PreviewSecurity.headers
        return response
    }

    private func answer(_ request: LoopbackRequest) async -> LoopbackResponse {
        let (port, hosts) = lock.withLock { (boundPort, extraHosts) }
        guard let host = request.header("Host"), PreviewSecurity.isAllowed(host: host, port: port, extra: hosts) else {
            log("\(request.method) \(request.path) 421 refused: host \(request.header("Host") ?? "missing")")
            return LoopbackResponse(
                status: 421, headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: Array("This preview answers at http://127.0.0.1:\(port)/ and http://localhost:\(port)/ only.\n".utf8))
        }
        let isDocumentation = request.path == "/docs" || request.path.hasPrefix(DocumentationSite.prefix)
        if request.path != "/_/health", !isDocumentation, let reason = PreviewSecurity.crossSiteRefusal(request, host: host) {
            log("\(request.method) \(request.path) 403 refused: \(reason)")
            // A link followed from another site gets a link of the preview's own; nothing ran.
            let navigation = request.method == "GET" && request.header("Sec-Fetch-Mode")?.lowercased() == "navigate"
            return LoopbackResponse(
                status: 403,
                headers: [
                    ("Content-Type", navigation ? "text/html; charset=utf-8" : "text/plain; charset=utf-8"),
                    ("Cache-Control", "no-store"),
                ],
                body: Array(
                    (navigation
                        ? PreviewSecurity.crossSitePage(path: request.path, query: request.query) : "Refused: \(reason).\n").utf8)
            )
        }
        let reload = liveReload
        if let reload, request.path == "/_/live-reload" {
            let since = request.queryItems.first { $0.name == "since" }.flatMap { Int($0.value) }
            return LoopbackResponse(
                status: 200,
                headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store")],
                stream: reload.events(since: since))
        }
        if request.path == "/_/follow" { return await follow(request) }
        for (prefix, api) in Self.apiPrefixes where request.path == prefix || request.path.hasPrefix(prefix + "/") {
            return await forward(request, api: api, prefix: prefix)
        }
        if request.path == "/_/live" || request.path == "/podcasts/_/live" { return await liveScreen(request) }
        let started = Date()
        if request.path == "/docs" || request.path.hasPrefix(DocumentationSite.prefix) {
            let response =
                documentation?.response(method: request.method, path: request.path) ?? DocumentationSite.absentPage
            let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            log("\(request.method) \(request.path.removingPercentEncoding ?? request.path) \(response.status) \(milliseconds) ms")
            return response
        }
        let incoming = Incoming(
            method: request.method, path: request.path, query: Incoming.parseForm(request.query),
            form: request.method == "POST" ? Incoming.parseForm(String(decoding: request.body, as: UTF8.self)) : [],
            cookie: request.header("Cookie") ?? "", rawQuery: request.query)
        var reply = await handle(incoming)
        if let reload, reply.contentType.hasPrefix("text/html"), reply.status != 303 {
            // While the catalog has errors every page shows them; otherwise it reloads on a change.
            if let errors = reload.errorPage() {
                reply = Reply(status: 200, body: errors, cookie: reply.cookie)
            } else {
                reply.body = reload.inject(into: reply.body)
            }
        }
        var headers = [(name: "Content-Type", value: reply.contentType), (name: "Cache-Control", value: "no-store")]
        if let location = reply.location { headers.append(("Location", location)) }
        if let cookie = reply.cookie { headers.append(("Set-Cookie", cookie)) }
        headers += reply.headers
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        log("\(incoming.method) \(request.path.removingPercentEncoding ?? request.path) \(reply.status) \(milliseconds) ms")
        return LoopbackResponse(status: reply.status, headers: headers, body: Array(reply.body.utf8))
    }

    /// The demo backend's APIs under the preview's address, for an app that follows it
    /// (`DevelopmentPreview.mobileURL` and `adminURL`).
    static let apiPrefixes = [("/api/mobile", "mobile"), ("/api/admin", "admin")]

    /// A request of a following app to one of the demo backend's APIs, answered in process; the
    /// preview has already checked the host it was sent to.
    private func forward(_ request: LoopbackRequest, api: String, prefix: String) async -> LoopbackResponse {
        let started = Date()
        var forwarded = request
        forwarded.path = request.path == prefix ? "/" : String(request.path.dropFirst(prefix.count))
        forwarded.headers["host"] = "127.0.0.1"
        let response = await backend.respond(to: forwarded, api: api)
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        log("\(request.method) \(request.path.removingPercentEncoding ?? request.path) \(response.status) \(milliseconds) ms")
        return response
    }

    /// A following app's question (`DevelopmentPreview`): the catalog's generation and errors,
    /// now or once it changes. Without a watched folder nothing changes: the answer waits.
    private func follow(_ request: LoopbackRequest) async -> LoopbackResponse {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        let since = query["since"].flatMap { Int($0) }
        let answer: (generation: Int, errors: [String])
        if let reload = liveReload {
            let follower = LiveReload.Follower(
                app: String((query["app"] ?? "app").prefix(80)), dialect: query["dialect"] == "nodes" ? "nodes" : "screens",
                screen: query["screen"].map { String($0.prefix(80)) }, seen: Date())
            let client = String((query["client"] ?? "").prefix(64))
            let raw = await reload.follow(since: since, client: client, follower: follower)
            answer = (raw.generation, reload.shown(raw.errors))
        } else {
            if since != nil { try? await Task.sleep(nanoseconds: 10_000_000_000) }
            answer = (0, [])
        }
        let body: JSONValue = .object([
            "generation": .number(JSONNumber(answer.generation)), "errors": .array(answer.errors.map(JSONValue.string)),
        ])
        return LoopbackResponse(
            status: 200, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
            body: JSONWriter().bytes(from: body))
    }

    /// The event stream of a screen page that changes in place (`LiveScreens`); `reload` when
    /// the page is no longer known (its session or view model is gone).
    @MainActor
    private func liveScreen(_ request: LoopbackRequest) -> LoopbackResponse {
        let cookie = Incoming(method: "GET", path: request.path, query: [], form: [], cookie: request.header("Cookie") ?? "")
        let token = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) }
        let headers = [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store")]
        if request.path.hasPrefix("/podcasts/"), let token,
            let stream = podcasts.liveStream(cookie: request.header("Cookie") ?? "", token: token)
        {
            return LoopbackResponse(status: 200, headers: headers, stream: stream)
        }
        guard !request.path.hasPrefix("/podcasts/"), let session = sessions.session(for: cookie.cookieValue("sdui")), let token,
            let model = session.model(token: token), let drawn = session.drawn[token]
        else {
            let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
            continuation.yield(LiveScreens.event("reload", "gone"))
            continuation.finish()
            return LoopbackResponse(status: 200, headers: headers, stream: stream)
        }
        return LoopbackResponse(status: 200, headers: headers, stream: LiveScreens.stream(model: model, drawn: drawn))
    }

    @MainActor
    private func handle(_ request: Incoming) async -> Reply {
        if request.path == "/_/health" { return Reply(status: 200, body: "ok", contentType: "text/plain; charset=utf-8") }
        if request.path == "/favicon.ico" { return Reply(status: 204, body: "") }
        let parts = request.segments
        if request.path == "/podcasts" || request.path.hasPrefix("/podcasts/") { return await podcasts.handle(request) }
        let existing = sessions.session(for: request.cookieValue("sdui"))
        // A form of the preview carries its session's token; a POST without it is another
        // site's (or a page from before the session changed), and runs nothing.
        if request.method == "POST" {
            guard let existing, PreviewSecurity.matches(request.formValue(PreviewSecurity.formField), existing.formToken)
            else { return Self.refusedForm }
        }
        if parts.first == "act", request.method != "POST" { return Self.actionPage(request, token: existing?.formToken) }
        var newCookie: String?
        let session: PreviewSession
        do {
            if let existing {
                session = existing
            } else {
                let id = UUID().uuidString
                session = try PreviewSession(
                    backend: backend.mobileURL, admin: backend.adminURL, locale: locale, components: pluginComponents)
                await session.runtime.start()
                sessions.insert(session, id: id)
                newCookie = Self.cookie(id)
            }
        } catch {
            return Reply(status: 500, body: Self.errorPage("No se pudo crear la sesión: \(error)"))
        }
        let wasSignedIn = session.runtime.isSignedIn
        var reply = await EduGoPages(session: session, documentation: documentation.map { _ in DocumentationSite.landingPath })
            .handle(request)
        if session.runtime.isSignedIn != wasSignedIn {
            // Signed in or out: a new session id and form token (an id someone fixed before the
            // sign-in, or a page of the session before, is worth nothing now), and the pages
            // drawn before go.
            reply.cookie = Self.cookie(sessions.renew(session))
            session.formToken = PreviewSecurity.newToken()
            session.forgetPages()
        } else if reply.cookie == nil {
            reply.cookie = newCookie
        }
        return reply
    }

    /// The session cookie for `id`.
    static func cookie(_ id: String) -> String { "sdui=\(id); Path=/; HttpOnly; SameSite=Strict" }

    /// The answer to a POST without its session's form token.
    static let refusedForm = Reply(
        status: 403,
        body: errorPage(
            "El formulario no es de esta sesión (caducó o vino de otro sitio); no se hizo nada. Vuelve a abrir la página."))

    /// The answer to an action's address opened with GET: `405`, and a button that runs it.
    static func actionPage(_ request: Incoming, token: String?) -> Reply {
        let action = request.path + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery)
        return Reply(
            status: 405, body: PreviewSecurity.actionPage(action: action, token: token), headers: [("Allow", "POST")])
    }

    /// A page for a failure outside any screen, readable on a phone, in Spanish or English.
    static func errorPage(_ message: String, english: Bool = false) -> String {
        "<!DOCTYPE html>\n<html lang=\"\(english ? "en" : "es")\"><head><meta charset=\"utf-8\" />"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" /><title>Error</title>"
            + "<style>body{font:17px/1.4 -apple-system,system-ui,sans-serif;margin:0;padding:24px 16px;"
            + "color-scheme:light dark}main{max-width:40em;margin:0 auto;text-align:center}h1{font-size:22px}"
            + "</style></head><body><main><h1>Error</h1><p>" + HTMLRenderer.escape(message)
            + "</p><p><a href=\"\(english ? "/podcasts" : "/")\">\(english ? "Back" : "Volver")</a></p></main></body></html>\n"
    }
}

/// A preview failure.
struct PreviewError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The sessions by cookie. Signed-out and signed-in sessions are kept apart: a new session
/// (made by any request without a cookie) may only push out the least recently used signed-out
/// one, so requests nobody signed in to never end someone's signed-in session; signed-in ones
/// are pushed out only by another sign-in.
@MainActor
final class SessionTable {
    /// The most signed-out sessions kept.
    static let signedOutCapacity = 64
    /// The most signed-in sessions kept.
    static let signedInCapacity = 256
    private var sessions: [String: PreviewSession] = [:]

    /// Every open session.
    var all: [PreviewSession] { Array(sessions.values) }

    func session(for id: String?) -> PreviewSession? {
        guard let id, let session = sessions[id] else { return nil }
        session.lastUsed = Date()
        return session
    }

    /// Keeps a new (signed-out) session under `id`.
    func insert(_ session: PreviewSession, id: String) {
        evict(signedIn: false, keeping: Self.signedOutCapacity - 1)
        sessions[id] = session
    }

    /// Keeps `session` under a new id, which it returns (someone signed in or out): the old id
    /// opens nothing from now on.
    func renew(_ session: PreviewSession) -> String {
        sessions = sessions.filter { $0.value !== session }
        evict(
            signedIn: session.runtime.isSignedIn,
            keeping: session.runtime.isSignedIn ? Self.signedInCapacity - 1 : Self.signedOutCapacity - 1)
        let id = UUID().uuidString
        sessions[id] = session
        return id
    }

    /// Ends the least recently used sessions that are `signedIn` (or not) until `limit` are left.
    private func evict(signedIn: Bool, keeping limit: Int) {
        let group = sessions.filter { $0.value.runtime.isSignedIn == signedIn }
        guard group.count > limit else { return }
        for (id, session) in group.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }).prefix(group.count - limit) {
            sessions[id] = nil
            Task { await session.runtime.stop() }
        }
    }
}

/// A request as the pages see it.
struct Incoming: Sendable {
    let method: String
    let path: String
    let query: [(String, String)]
    let form: [(String, String)]
    let cookie: String
    /// The query as sent (percent-encoded).
    var rawQuery = ""

    /// The path's segments, each percent-decoded (a segment may itself contain an encoded `/`).
    var segments: [String] {
        path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }

    func queryValue(_ name: String) -> String? { query.last { $0.0 == name }?.1 }

    func formValue(_ name: String) -> String? { form.last { $0.0 == name }?.1 }

    func cookieValue(_ name: String) -> String? {
        for part in cookie.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }

    /// `application/x-www-form-urlencoded` pairs, in order.
    static func parseForm(_ text: String) -> [(String, String)] {
        text.split(separator: "&").compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pair[0]), !name.isEmpty else { return nil }
            return (name, pair.count > 1 ? decode(pair[1]) ?? "" : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// What a page handler answers.
struct Reply: Sendable {
    var status: Int
    var body: String
    var contentType = "text/html; charset=utf-8"
    var location: String?
    var cookie: String?
    /// Further headers.
    var headers: [(String, String)] = []

    /// A `303 See Other` to `location` (after a POST, or to normalise a URL).
    static func redirect(_ location: String) -> Reply { Reply(status: 303, body: "", location: location) }
}

/// Percent-encoding for a query component.
func queryEncode(_ text: String) -> String { HTMLRenderer.query(text) }

/// `/<prefix>/<name>?query`, every part percent-encoded.
func pageURL(_ prefix: String, _ name: String, _ query: [(String, String)]) -> String {
    "/\(prefix)/\(queryEncode(name))"
        + (query.isEmpty ? "" : "?" + query.map { "\(queryEncode($0.0))=\(queryEncode($0.1))" }.joined(separator: "&"))
}
