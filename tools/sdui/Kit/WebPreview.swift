import DynamicUI
import DynamicUIActions
public import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUIRendering
import DynamicUIWeb
import FlyingFox
import FlyingSocks
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
    private var server: HTTPServer?
    private var task: Task<Void, any Error>?
    private var boundPort: UInt16 = 0
    private let log: @Sendable (String) -> Void
    private let sessions = SessionTable()
    /// The locale of the EduGo sessions' runtimes.
    public let locale: Locale

    /// A preview over `backend` (already started) in `locale`; `log` receives one line per request.
    public init(
        backend: DemoBackend, locale: Locale = Locale(identifier: "es_ES"), log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.backend = backend
        self.locale = locale
        self.podcasts = PodcastPreview(backend: backend)
        self.log = log
    }

    /// The address to open.
    public var url: URL { URL(string: "http://127.0.0.1:\(lock.withLock { boundPort })/")! }

    /// Starts listening on `port` (0 picks a free one).
    public func start(port: UInt16 = 0) async throws {
        // One line per request comes from `log` (silent with --quiet); the server library prints nothing.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 60, logger: .disabled)
        for method in ["GET", "POST"] {
            await server.appendRoute(HTTPRoute("\(method) *")) { [self] request in await self.respond(request) }
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, port: let bound)? = await server.listeningAddress else { throw PreviewError("no port") }
        lock.withLock {
            self.server = server
            self.task = task
            boundPort = bound
        }
    }

    /// Stops the server.
    public func stop() async {
        let server = lock.withLock { self.server }
        await server?.stop(timeout: 1)
        lock.withLock {
            task?.cancel()
            self.server = nil
        }
    }

    // MARK: Requests

    private func respond(_ request: HTTPRequest) async -> HTTPResponse {
        let started = Date()
        let body = (try? await request.bodyData) ?? Data()
        let incoming = Incoming(
            method: request.method.rawValue, path: request.target.path(percentEncoded: true),
            query: Incoming.parseForm(request.target.query(percentEncoded: true)),
            form: request.method == .POST ? Incoming.parseForm(String(decoding: body, as: UTF8.self)) : [],
            cookie: request.headers[HTTPHeader("Cookie")] ?? "")
        let reply = await handle(incoming)
        var headers = HTTPHeaders()
        headers[HTTPHeader("Content-Type")] = reply.contentType
        headers[HTTPHeader("Cache-Control")] = "no-store"
        if let location = reply.location { headers[HTTPHeader("Location")] = location }
        if let cookie = reply.cookie { headers[HTTPHeader("Set-Cookie")] = cookie }
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        log("\(incoming.method) \(request.path) \(reply.status) \(milliseconds) ms")
        return HTTPResponse(
            statusCode: HTTPStatusCode(reply.status, phrase: Reply.phrase(reply.status)), headers: headers,
            body: Data(reply.body.utf8))
    }

    @MainActor
    private func handle(_ request: Incoming) async -> Reply {
        if request.path == "/_/health" { return Reply(status: 200, body: "ok", contentType: "text/plain; charset=utf-8") }
        if request.path == "/favicon.ico" { return Reply(status: 204, body: "") }
        if request.path == "/podcasts" || request.path.hasPrefix("/podcasts/") { return await podcasts.handle(request) }
        var newCookie: String?
        let session: PreviewSession
        do {
            if let existing = sessions.session(for: request.cookieValue("sdui")) {
                session = existing
            } else {
                let id = UUID().uuidString
                session = try PreviewSession(backend: backend.mobileURL, admin: backend.adminURL, locale: locale)
                await session.runtime.start()
                sessions.insert(session, id: id)
                newCookie = "sdui=\(id); Path=/; HttpOnly; SameSite=Lax"
            }
        } catch {
            return Reply(status: 500, body: Self.errorPage("No se pudo crear la sesión: \(error)"))
        }
        var reply = await EduGoPages(session: session).handle(request)
        if reply.cookie == nil { reply.cookie = newCookie }
        return reply
    }

    static func errorPage(_ message: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"es\"><head><meta charset=\"utf-8\" /><title>Error</title></head><body><main><h1>Error</h1><p>"
            + HTMLRenderer.escape(message) + "</p><p><a href=\"/\">Volver</a></p></main></body></html>\n"
    }
}

/// A preview failure.
struct PreviewError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The sessions by cookie, oldest evicted past 64.
@MainActor
final class SessionTable {
    private var sessions: [String: PreviewSession] = [:]

    func session(for id: String?) -> PreviewSession? {
        guard let id, let session = sessions[id] else { return nil }
        session.lastUsed = Date()
        return session
    }

    func insert(_ session: PreviewSession, id: String) {
        if sessions.count >= 64, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            sessions[oldest.key] = nil
            Task { await oldest.value.runtime.stop() }
        }
        sessions[id] = session
    }
}

/// A request as the pages see it.
struct Incoming: Sendable {
    let method: String
    let path: String
    let query: [(String, String)]
    let form: [(String, String)]
    let cookie: String

    /// The path's segments, each percent-decoded (a segment may itself contain an encoded `/`).
    var segments: [String] {
        path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }

    func queryValue(_ name: String) -> String? { query.last { $0.0 == name }?.1 }

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

    /// A `303 See Other` to `location` (after a POST, or to normalise a URL).
    static func redirect(_ location: String) -> Reply { Reply(status: 303, body: "", location: location) }

    static func phrase(_ status: Int) -> String {
        [200: "OK", 204: "No Content", 303: "See Other", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error"][
            status] ?? "Status"
    }
}

/// Percent-encoding for a query component.
func queryEncode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
}

/// `/<prefix>/<name>?query`, every part percent-encoded.
func pageURL(_ prefix: String, _ name: String, _ query: [(String, String)]) -> String {
    "/\(prefix)/\(queryEncode(name))"
        + (query.isEmpty ? "" : "?" + query.map { "\(queryEncode($0.0))=\(queryEncode($0.1))" }.joined(separator: "&"))
}
