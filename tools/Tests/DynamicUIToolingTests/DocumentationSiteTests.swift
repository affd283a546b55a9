import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One response read off a raw connection: the request target goes out exactly as written (a
/// URL type would resolve `..` before sending).
struct RawResponse {
    let status: Int
    let headers: [String: String]
    let body: String
}

extension RawConnection {
    /// Sends `method target` with `Connection: close` and reads the response until the server
    /// closes the connection.
    static func fetch(port: UInt16, _ target: String, method: String = "GET") throws -> RawResponse {
        let connection = try #require(RawConnection(port: port))
        connection.send(
            "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let count = read(connection.descriptor, &buffer, buffer.count)
            if count == 0 { break }
            if count > 0 { bytes += buffer[0..<count] }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return RawResponse(status: status, headers: headers, body: body)
    }
}

@Suite("The documentation site in the web preview", .serialized)
struct DocumentationSiteTests {
    /// A tiny DocC-like site in a temporary folder, beside a secret file it must never serve.
    static func makeSite() throws -> (site: URL, secret: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("docs-site-\(UUID().uuidString)")
        let site = base.appendingPathComponent("site")
        let files = FileManager.default
        for folder in ["css", "nested", "data/documentation", "outside"] {
            let url = folder == "outside" ? base.appendingPathComponent(folder) : site.appendingPathComponent(folder)
            try files.createDirectory(at: url, withIntermediateDirectories: true)
        }
        func write(_ text: String, _ path: String, in folder: URL) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(path))
        }
        try write("<html><script>var baseUrl = \"/docs/\"</script>SITE-INDEX</html>", "index.html", in: site)
        try write("body { color: red }", "css/site.css", in: site)
        try write("<p>NESTED-INDEX</p>", "nested/index.html", in: site)
        try write("{\"kind\":\"symbol\"}", "nested/page.json", in: site)
        try write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "nested/logo.svg", in: site)
        try write("SECRET", "outside/secret.txt", in: base)
        // Links: one to a file outside, one to a folder outside, one inside.
        try files.createSymbolicLink(
            atPath: site.appendingPathComponent("escape.txt").path, withDestinationPath: "../outside/secret.txt")
        try files.createSymbolicLink(atPath: site.appendingPathComponent("escape-folder").path, withDestinationPath: "../outside")
        try files.createSymbolicLink(atPath: site.appendingPathComponent("inner.css").path, withDestinationPath: "css/site.css")
        return (site, base.appendingPathComponent("outside/secret.txt"))
    }

    /// A preview serving `site` under /docs/, started on a free port, and that port.
    static func serve(_ site: URL) async throws -> (WebPreview, UInt16) {
        let backend = try DemoBackend()
        try await backend.start()
        let preview = WebPreview(backend: backend, documentation: DocumentationSite(folder: site))
        try await preview.start()
        return (preview, try #require(preview.url.port.flatMap { UInt16(exactly: $0) }))
    }

    @Test func servesTheSiteUnderDocsWithContentTypesAndItsIndexForPages() async throws {
        let (site, _) = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let (preview, port) = try await Self.serve(site)
        defer { Task { await preview.stop() } }
        #expect(preview.documentationURL?.absoluteString == "http://127.0.0.1:\(port)/docs/documentation/dynamicui/")

        let css = try RawConnection.fetch(port: port, "/docs/css/site.css")
        #expect(css.status == 200 && css.body == "body { color: red }")
        #expect(css.headers["content-type"] == "text/css; charset=utf-8")
        let json = try RawConnection.fetch(port: port, "/docs/nested/page.json")
        #expect(json.status == 200 && json.headers["content-type"] == "application/json")
        let svg = try RawConnection.fetch(port: port, "/docs/nested/logo.svg")
        #expect(svg.status == 200 && svg.headers["content-type"] == "image/svg+xml")
        let head = try RawConnection.fetch(port: port, "/docs/css/site.css", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)

        // The site's index, a folder's index, and a folder named without its slash.
        let root = try RawConnection.fetch(port: port, "/docs/")
        #expect(root.status == 200 && root.body.contains("SITE-INDEX"))
        #expect(root.headers["content-type"] == "text/html; charset=utf-8")
        let bare = try RawConnection.fetch(port: port, "/docs")
        #expect(bare.status == 301 && bare.headers["location"] == "/docs/")
        let nested = try RawConnection.fetch(port: port, "/docs/nested/")
        #expect(nested.status == 200 && nested.body.contains("NESTED-INDEX"))
        let slashless = try RawConnection.fetch(port: port, "/docs/nested")
        #expect(slashless.status == 301 && slashless.headers["location"] == "/docs/nested/")

        // A documentation page without a file of its own: the site's index draws it.
        for page in ["/docs/documentation/x/", "/docs/documentation/dynamicui/jsonvalue", "/docs/tutorials/start/"] {
            let answer = try RawConnection.fetch(port: port, page)
            #expect(answer.status == 200 && answer.body.contains("SITE-INDEX"), "\(page): \(answer.status)")
        }
        // The theme the site's script asks for is the default one when the site has none.
        let theme = try RawConnection.fetch(port: port, "/docs/theme-settings.json")
        #expect(theme.status == 200 && theme.body == "{}" && theme.headers["content-type"] == "application/json")
        // Anything else missing is not found; a link inside the site is followed; only GET and HEAD.
        #expect(try RawConnection.fetch(port: port, "/docs/css/missing.css").status == 404)
        #expect(try RawConnection.fetch(port: port, "/docs/css/site.css/").status == 404)
        let inner = try RawConnection.fetch(port: port, "/docs/inner.css")
        #expect(inner.status == 200 && inner.body == "body { color: red }")
        #expect(try RawConnection.fetch(port: port, "/docs/css/site.css", method: "POST").status == 405)
    }

    @Test func neverServesAFileOutsideTheFolder() async throws {
        let (site, secret) = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let (preview, port) = try await Self.serve(site)
        defer { Task { await preview.stop() } }
        #expect(FileManager.default.fileExists(atPath: secret.path))

        let attempts = [
            "/docs/../outside/secret.txt", "/docs/nested/../../outside/secret.txt", "/docs/%2e%2e/outside/secret.txt",
            "/docs/%2E%2E/outside/secret.txt", "/docs/nested/%2e%2e/%2e%2e/outside/secret.txt",
            "/docs/%2e%2e%2foutside%2fsecret.txt", "/docs/..%2foutside%2fsecret.txt", "/docs/..%5coutside%5csecret.txt",
            "/docs/documentation/%2e%2e/%2e%2e/outside/secret.txt", "/docs/%2fetc%2fpasswd", "/docs//etc/passwd",
            "/docs/escape.txt", "/docs/escape-folder/secret.txt", "/docs/escape-folder/", "/docs/./index.html",
            "/docs/%00", "/docs/%zz",
            "/docs/" + secret.path.split(separator: "/").map { "%2f" + $0 }.joined(),
        ]
        for attempt in attempts {
            let answer = try RawConnection.fetch(port: port, attempt)
            #expect(answer.status == 404 || answer.status == 400, "\(attempt): \(answer.status)")
            #expect(!answer.body.contains("SECRET") && !answer.body.contains("root:"), "\(attempt) served a file outside")
        }
    }

    @Test func thePreviewLinksTheDocumentationOnlyWhenItIsServed() async throws {
        let (site, _) = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let backend = try DemoBackend()
        try await backend.start()
        let link = "href=\"/docs/documentation/dynamicui/\""

        let served = WebPreview(backend: backend, documentation: DocumentationSite(folder: site))
        try await served.start()
        let browser = TestBrowser(base: served.url)
        let login = try await browser.open("/")
        #expect(login.status == 200 && login.body.contains(link))
        let podcasts = try await browser.open("/podcasts")
        #expect(podcasts.status == 200 && podcasts.body.contains(link))
        await served.stop()

        let bare = WebPreview(backend: backend)
        try await bare.start()
        #expect(bare.documentationURL == nil)
        let other = TestBrowser(base: bare.url)
        let page = try await other.open("/")
        #expect(page.status == 200 && !page.body.contains("/docs/"))
        let podcastPage = try await other.open("/podcasts")
        #expect(podcastPage.status == 200 && !podcastPage.body.contains("/docs/"))
        // /docs/ says how to build the site.
        let absent = try await other.open("/docs/")
        #expect(absent.status == 404 && absent.body.contains("docs.sh --site"))
        await bare.stop()
    }

    @Test func saysWhatKeepsAFolderFromShowingAsLinked() throws {
        let (site, _) = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        #expect(DocumentationSite(folder: site).problem?.contains("DynamicUI module") == true)
        try Data("{}".utf8).write(to: site.appendingPathComponent("data/documentation/dynamicui.json"))
        #expect(DocumentationSite(folder: site).problem == nil)
        try Data("<script>var baseUrl = \"/\"</script>".utf8).write(to: site.appendingPathComponent("index.html"))
        #expect(DocumentationSite(folder: site).problem?.contains("--hosting-base-path docs") == true)
        #expect(DocumentationSite(folder: site.appendingPathComponent("css")).problem?.contains("no index.html") == true)
    }
}
