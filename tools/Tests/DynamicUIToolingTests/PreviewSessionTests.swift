import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// A preview session changes hands safely: its id and form token are new after sign-in and
/// sign-out, a password is never drawn back, the pages of the session before go, and requests
/// without a cookie never end a signed-in session.
@Suite("Web preview: sessions", .serialized)
struct PreviewSessionTests {
    /// Signs `browser` in as the teacher; the dashboard's body.
    func signIn(_ browser: TestBrowser) async throws -> String {
        let dashboard = try await signInToPreview(browser, as: "docente@edugo.test")
        #expect(dashboard.path == "/screen/dashboard-teacher")
        return dashboard.body
    }

    /// Signs `browser` out from the settings screen, confirming.
    func signOut(_ browser: TestBrowser) async throws {
        let settings = try await browser.open("/screen/app-settings")
        let logout = try #require(link(containing: "/logout", in: settings.body))
        let confirm = try await browser.open(logout, form: [])
        let confirmed = try #require(link(containing: "/logout", in: confirm.body))
        let login = try await browser.open(confirmed, form: [("confirmed", "1")])
        #expect(login.path == "/screen/app-login")
    }

    @Test func signingInAndOutRenewsTheSessionIdAndFormToken() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            _ = try await browser.open("/")
            let (before, tokenBefore) = (try #require(browser.cookie), try #require(browser.formToken))
            _ = try await signIn(browser)
            let signedIn = try #require(browser.cookie)
            #expect(signedIn != before, "the id fixed before sign-in is not the signed-in session's")
            #expect(browser.formToken != tokenBefore)

            // The id from before sign-in (say, one another local site set) opens no signed-in page.
            let fixed = TestBrowser(base: preview.url)
            fixed.cookie = before
            #expect(try await fixed.open("/screen/dashboard-teacher").path == "/screen/app-login")
            #expect(try await browser.open("/screen/dashboard-teacher").path == "/screen/dashboard-teacher")

            try await signOut(browser)
            #expect(browser.cookie != signedIn)
            let stolen = TestBrowser(base: preview.url)
            stolen.cookie = signedIn
            #expect(try await stolen.open("/screen/dashboard-teacher").path == "/screen/app-login")
        }
    }

    @Test func aPasswordIsNeverDrawnBack() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            let login = try await browser.open("/")
            let submit = try #require(link(containing: "submit-login", in: login.body))
            let failed = try await browser.open(
                submit, form: [("email", "docente@edugo.test"), ("password", "WrongSecret</script>\"x")])
            #expect(failed.path == "/screen/app-login")
            #expect(failed.body.contains("docente@edugo.test"), "the e-mail stays")
            #expect(!failed.body.contains("WrongSecret"), "the password is in the page")
            #expect(failed.body.contains("type=\"password\" autocomplete=\"current-password\" value=\"\""))
            #expect(!(try await browser.open("/screen/app-login").body.contains("WrongSecret")))
        }
    }

    @Test func signingOutDropsThePagesDrawnBefore() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            let dashboard = try await signIn(browser)
            let page = try #require(dashboard.firstMatch(of: /\/_\/live\?page=(\d+)/).map { String($0.1) })
            try await signOut(browser)
            // The teacher's dashboard no longer streams (nor runs its timers) for this browser.
            let stream = EventStreamReader()
            stream.open(URL(string: "/_/live?page=\(page)", relativeTo: preview.url)!.absoluteURL, cookie: browser.cookie)
            let arrived = await stream.text(until: { $0.contains("event:") || $0.contains(": live screen") }, seconds: 10)
            stream.close()
            #expect(arrived.contains("event: reload"), "\(arrived.prefix(200))")
        }
    }

    @Test func requestsWithoutACookieNeverEndASignedInSession() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            _ = try await signIn(browser)
            // What 70 `<img>` tags on any page (or a script) would send: each makes a new session.
            let anonymous = TestBrowser(base: preview.url)
            for _ in 0..<70 {
                anonymous.cookie = nil
                _ = try await anonymous.send("GET", "/screen/app-login")
            }
            #expect(try await browser.open("/screen/dashboard-teacher").path == "/screen/dashboard-teacher")
        }
    }
}
