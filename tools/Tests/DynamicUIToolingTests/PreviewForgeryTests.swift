import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Another site's page cannot drive a signed-in preview: actions run only on a POST that
/// carries the session's form token, from the preview's own pages, under its own host name;
/// and no page may be framed.
@Suite("Web preview: no request forgery", .serialized)
struct PreviewForgeryTests {
    /// A started backend and preview, and a browser signed in as the teacher on the settings page.
    func signedIn() async throws -> (DemoBackend, WebPreview, TestBrowser, settings: String) {
        let (backend, preview) = try await startedPreview()
        let browser = TestBrowser(base: preview.url)
        try await signInToPreview(browser, as: "docente@edugo.test")
        let settings = try await browser.open("/screen/app-settings")
        return (backend, preview, browser, settings.body)
    }

    func isDark(_ browser: TestBrowser) async throws -> Bool {
        try await browser.send("GET", "/screen/app-settings").body.contains("data-theme=\"dark\"")
    }

    @Test func anActionRunsOnlyOnAPostWithTheSessionsToken() async throws {
        let (backend, preview, browser, settings) = try await signedIn()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
        let toggle = try #require(link(containing: "/toggle-theme", in: settings))
        #expect(!(try await isDark(browser)))

        // A link, an image or a top-level navigation: GET runs nothing.
        let viaGet = try await browser.send("GET", toggle)
        #expect(viaGet.status == 405 && viaGet.headers["allow"] == "POST", "\(viaGet.status)")
        #expect(!(try await isDark(browser)), "GET ran the action")
        // A form posted by another site: no token, or the token but another origin or site.
        _ = try await browser.open("/screen/app-settings")
        let noToken = try await browser.send("POST", toggle, form: [("dark_mode", "true")], withToken: false)
        #expect(noToken.status == 403)
        let wrongToken = try await browser.send(
            "POST", toggle, form: [("dark_mode", "true"), ("_csrf", String(repeating: "0", count: 64))])
        #expect(wrongToken.status == 403)
        for headers in [
            ["Origin": "http://evil.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"],
            ["Sec-Fetch-Site": "same-site"],
        ] {
            let forged = try await browser.send("POST", toggle, form: [("dark_mode", "true")], headers: headers)
            #expect(forged.status == 403, "\(headers)")
        }
        #expect(!(try await isDark(browser)), "a forged POST ran the action")

        // The page's own form, as the browser sends it (under `no-referrer`, with `Origin: null`).
        let own = try await browser.send(
            "POST", toggle, form: [("dark_mode", "true")], headers: ["Sec-Fetch-Site": "same-origin", "Origin": "null"])
        #expect(own.status == 303)
        #expect(try await isDark(browser))
    }

    @Test func everyFormThatPostsCarriesTheToken() async throws {
        let (backend, preview, browser, settings) = try await signedIn()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
        let token = try #require(browser.formToken)
        let list = try await browser.open("/screen/materials-list?search_field=Guía+de+estudio")
        let podcasts = try await browser.open("/podcasts/browse")
        for page in [settings, list.body, podcasts.body] {
            let forms = page.matches(of: /<form [^>]*method="post"[^>]*>/).count
            let tokens = page.matches(of: /<form [^>]*method="post"[^>]*><input type="hidden" name="_csrf" value="/).count
            #expect(forms > 0 && tokens == forms, "\(forms) forms, \(tokens) tokens")
        }
        #expect(settings.contains("name=\"_csrf\" value=\"\(token)\""))
        #expect(!podcasts.body.contains(token), "the shared podcast preview has its own token")
        // The live script's reports and the link script carry it too.
        #expect(settings.contains("const FORM_TOKEN = [\"_csrf\", \"\(token)\"]"))
        #expect(settings.contains("const TOKEN = \"\(token)\""))
    }

    @Test func pagesAreNeverFramedAndOtherHostsAndSitesAreRefused() async throws {
        let (backend, preview, browser, _) = try await signedIn()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
        let page = try await browser.send("GET", "/screen/app-settings")
        #expect(page.status == 200)
        #expect(page.headers["x-frame-options"] == "DENY")
        #expect(page.headers["content-security-policy"] == "frame-ancestors 'none'")
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.headers["referrer-policy"] == "no-referrer")

        // A name that is not the preview's (a DNS-rebinding page's own) is refused.
        let port = try #require(preview.url.port)
        let rebound = try await browser.send("GET", "/screen/app-settings", headers: ["Host": "rebind.attacker.example:\(port)"])
        #expect(rebound.status == 421, "\(rebound.status)")
        let otherPort = try await browser.send("GET", "/screen/app-settings", headers: ["Host": "127.0.0.1:1"])
        #expect(otherPort.status == 421)
        let localhost = try await browser.send("GET", "/screen/app-settings", headers: ["Host": "localhost:\(port)"])
        #expect(localhost.status == 200)
        // So is the demo API's.
        let api = DemoAPI(base: backend.mobileURL)
        let apiPort = try #require(backend.mobileURL.port)
        let login: JSONValue = ["email": "docente@edugo.test", "password": "edugo123"]
        let reboundAPI = try await api.call(
            "POST", "/v1/auth/login", login, headers: ["Host": "rebind.attacker.example:\(apiPort)"])
        #expect(reboundAPI.status == 421 && reboundAPI.json["access_token"] == nil)
        #expect(try await api.call("POST", "/v1/auth/login", login, headers: ["Host": "localhost:\(apiPort)"]).status == 200)

        // Another site's image or script gets nothing; its link opens a page of the preview's own
        // without running or starting anything (no session is made for it).
        let image = try await browser.send(
            "GET", "/screen/app-settings", headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"])
        #expect(image.status == 403 && !image.body.contains("<html"))
        let fresh = TestBrowser(base: preview.url)
        let followed = try await fresh.send(
            "GET", "/screen/material-detail?id=mat-002",
            headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"])
        #expect(followed.status == 403 && followed.headers["set-cookie"] == nil)
        #expect(followed.body.contains("href=\"/screen/material-detail?id=mat-002\""), "\(followed.body)")
    }
}
