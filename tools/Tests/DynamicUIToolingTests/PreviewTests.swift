import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A minimal browser over loopback: keeps the session cookie, follows redirects itself (so
/// tests see each hop) and returns the final page. As a browser submits a page's form with its
/// hidden fields, every form it posts carries the form token of the last page it opened, and
/// its own origin.
final class TestBrowser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let base: URL
    var cookie: String?
    private(set) var hops: [String] = []
    /// The form token of the last page opened.
    private(set) var formToken: String?
    private lazy var session: URLSession = {
        // The cookie sent is the one the browser keeps itself (a test may set or clear it).
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    init(base: URL) { self.base = base }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// The preview's own origin, as a browser sends it with a form.
    var origin: String { "http://\(base.host ?? ""):\(base.port ?? 80)" }

    /// GETs `path` (or POSTs `form`) and follows redirects; returns the status and body of the last page.
    func open(_ path: String, form: [(String, String)]? = nil) async throws -> (status: Int, body: String, path: String) {
        var method = form == nil ? "GET" : "POST"
        var target = path
        var fields = form
        for _ in 0..<10 {
            let answer = try await send(method, target, form: fields)
            hops.append("\(method) \(target) \(answer.status)")
            if answer.status == 303, let location = answer.headers["location"] {
                target = location
                method = "GET"
                fields = nil
                continue
            }
            return (answer.status, answer.body, target)
        }
        throw PreviewTestError.tooManyRedirects
    }

    /// POSTs `form` to `path` without following the answer: its status and `Location`.
    func submit(_ path: String, form: [(String, String)]) async throws -> (status: Int, location: String?) {
        let answer = try await send("POST", path, form: form)
        return (answer.status, answer.headers["location"])
    }

    /// One request, not followed: a posted form gets the form token (unless `withToken` is
    /// false or the form has one) and the preview's origin; `headers` are added last.
    func send(
        _ method: String, _ path: String, form: [(String, String)]? = nil, withToken: Bool = true,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: String, headers: [String: String]) {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!.absoluteURL)
        request.httpMethod = method
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        if var form {
            if withToken, let formToken, !form.contains(where: { $0.0 == "_csrf" }) { form.append(("_csrf", formToken)) }
            request.httpBody = Data(form.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&").utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.setValue(origin, forHTTPHeaderField: "Origin")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        if let set = fields["set-cookie"] { cookie = String(set.split(separator: ";")[0]) }
        let body = String(decoding: data, as: UTF8.self)
        if let token = body.firstMatch(of: /name="_csrf" value="([0-9a-f]+)"/) { formToken = String(token.1) }
        return (http.statusCode, body, fields)
    }

    private func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }
}

enum PreviewTestError: Error { case tooManyRedirects }

/// A demo backend and the web preview over it, both started.
func startedPreview() async throws -> (DemoBackend, WebPreview) {
    let backend = try DemoBackend()
    try await backend.start()
    let preview = WebPreview(backend: backend)
    try await preview.start()
    return (backend, preview)
}

/// The preview started over its demo backend and a browser signed in to it as `email`;
/// `stop` stops both (call it when the test ends).
func signedInPreview(
    as email: String
) async throws -> (browser: TestBrowser, backend: DemoBackend, preview: WebPreview, stop: @Sendable () -> Void) {
    let (backend, preview) = try await startedPreview()
    let browser = TestBrowser(base: preview.url)
    try await signInToPreview(browser, as: email)
    return (
        browser, backend, preview,
        {
            Task {
                await preview.stop(); await backend.stop()
            }
        }
    )
}

/// Signs `browser` in to the preview with a demo account (password `edugo123`); the page it
/// lands on, which is the account's dashboard.
@discardableResult
func signInToPreview(_ browser: TestBrowser, as email: String) async throws -> (status: Int, body: String, path: String) {
    let login = try await browser.open("/")
    let submit = try #require(link(containing: "submit-login", in: login.body))
    let home = try await browser.open(submit, form: [("email", email), ("password", "edugo123")])
    #expect(home.path.hasPrefix("/screen/dashboard"), "\(browser.hops.suffix(3))")
    return home
}

/// Runs `body` with the preview started over its demo backend, and stops both after, also when
/// `body` throws.
func withStartedPreview(_ body: (DemoBackend, WebPreview) async throws -> Void) async throws {
    let (backend, preview) = try await startedPreview()
    do {
        try await body(backend, preview)
    } catch {
        await preview.stop()
        await backend.stop()
        throw error
    }
    await preview.stop()
    await backend.stop()
}

/// Runs `body` with the preview started and a browser signed in as `email` (or on the login
/// page, for `nil`), and stops both after, also when `body` throws.
func withPreview(signedInAs email: String?, _ body: (DemoBackend, TestBrowser) async throws -> Void) async throws {
    try await withStartedPreview { backend, preview in
        let browser = TestBrowser(base: preview.url)
        if let email { try await signInToPreview(browser, as: email) }
        try await body(backend, browser)
    }
}

/// The first `href`/`action`/`formaction` value in `html` that contains `fragment`, unescaped.
func link(containing fragment: String, in html: String) -> String? {
    for attribute in [" href=\"", " action=\"", " formaction=\""] {
        var rest = html[...]
        while let start = rest.range(of: attribute) {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let value = String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
            if value.contains(fragment) { return value }
        }
    }
    return nil
}

@Suite("Web preview over loopback", .serialized)
struct PreviewTests {
    @Test func signInBrowseCreateOfflineAndSignOut() async throws {
        let (backend, preview) = try await startedPreview()
        let browser = TestBrowser(base: preview.url)

        let login = try await browser.open("/")
        #expect(login.status == 200 && login.path == "/screen/app-login", "\(browser.hops)")
        #expect(login.body.contains("type=\"email\""))
        let submit = try #require(link(containing: "submit-login", in: login.body))
        let dashboard = try await browser.open(
            submit, form: [("email", "docente@edugo.test"), ("password", "edugo123")])
        #expect(dashboard.path == "/screen/dashboard-teacher", "\(browser.hops.suffix(3))")
        #expect(dashboard.body.contains("Lucía") || dashboard.body.contains("Docente"))

        // A list, its next page and a search.
        let list = try await browser.open("/screen/materials-list")
        #expect(list.status == 200)
        let next = try await browser.open("/screen/materials-list?page=next")
        #expect(next.path.contains("pages=2"))
        #expect(
            next.body.components(separatedBy: "class=\"row").count > list.body.components(separatedBy: "class=\"row").count)

        // Create with a missing field: the error shows on the field.
        let form = try await browser.open("/screen/material-create")
        let create = try #require(link(containing: "/submit", in: form.body))
        let invalid = try await browser.open(create, form: [("title", "")])
        #expect(invalid.path == "/screen/material-create")
        #expect(invalid.body.contains("aria-invalid=\"true\""))

        // Offline: pending; online: delivered.
        _ = try await browser.open("/_/connection", form: [("online", "0"), ("return", "/screen/materials-list")])
        let offlineForm = try await browser.open("/screen/material-create")
        let offlineSubmit = try #require(link(containing: "/submit", in: offlineForm.body))
        let fields: [(String, String)] = [
            ("title", "Preview offline"), ("description", "Desde la vista previa"), ("subject", "Historia"), ("grade", "6"),
            ("file_url", "https://edugo.test/p.pdf"), ("file_type", "PDF"), ("unit_id", "unt-001"), ("status", "borrador"),
        ]
        let pending = try await browser.open(offlineSubmit, form: fields)
        #expect(pending.body.contains("1 cambio pendiente"), "\(browser.hops.suffix(3))")
        _ = try await browser.open("/_/connection", form: [("online", "1"), ("return", "/screen/materials-list")])
        let found = try await browser.open("/screen/materials-list?search_field=Preview+offline")
        #expect(found.body.contains("Preview offline"))
        #expect(!found.body.contains("cambio pendiente"))

        // Podcasts: browse and search.
        let browse = try await browser.open("/podcasts")
        #expect(browse.path == "/podcasts/browse" && browse.status == 200)
        let search = try await browser.open("/podcasts/search?q=swift")
        #expect(search.status == 200 && search.body.contains("results for"))
        // One result is one result.
        let one = try await browser.open("/podcasts/search?q=murder")
        #expect(one.body.contains("result for") && !one.body.contains("results for"))

        await preview.stop()
        await backend.stop()
    }
}

/// The preview's redirects stay on the preview: a `return` address that a browser would read as
/// another site is not followed.
@Suite("Web preview: no open redirect", .serialized)
struct PreviewRedirectTests {
    @Test func theConnectionSwitchReturnsOnlyToAPathOfThePreview() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            _ = try await browser.open("/")
            for hostile in [
                "/\\evil.example/x", "/\t/evil.example", "//evil.example/x", "/\\/evil.example", "/\n/evil.example",
                "http://evil.example/", "evil.example", "/ok/\\..\\evil", "/\u{7F}/evil.example",
            ] {
                let answer = try await browser.submit("/_/connection", form: [("online", "1"), ("return", hostile)])
                #expect(answer.status == 303)
                #expect(answer.location == "/screen/app-login", "\(hostile.debugDescription) → \(answer.location ?? "none")")
            }
            let local = try await browser.submit("/_/connection", form: [("online", "1"), ("return", "/screen/app-login?x=1")])
            #expect(local.location == "/screen/app-login?x=1")
            _ = try await browser.open("/podcasts/browse")
            let podcasts = try await browser.submit(
                "/podcasts/appearance", form: [("mode", "dark"), ("back", "/podcasts\\evil")])
            #expect(podcasts.location == "/podcasts")
            _ = try await browser.submit("/podcasts/appearance", form: [("mode", "system"), ("back", "/podcasts/browse")])
        }
    }
}
