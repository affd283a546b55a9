import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// What a person walking the preview meets, over loopback against the real preview: each
/// podcast visitor has a state of its own, search filters in place, refusals and unknown pages
/// say so in the app's words.
@Suite("Web preview: the walk's findings", .serialized)
struct PreviewWalkTests {
    /// The `href` of the page's back link, unescaped, if it has one.
    static func backLink(in html: String) -> String? {
        html.firstMatch(of: /<a class="back" href="([^"]*)"/).map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") }
    }

    @Test func eachPodcastVisitorHasItsOwnState() async throws {
        try await withStartedPreview { _, preview in
            let first = TestBrowser(base: preview.url)
            let second = TestBrowser(base: preview.url)
            let answer = try await first.send("GET", "/podcasts/search?q=murder")
            #expect(answer.body.contains("Murder"), "the search found the show")
            let cookie = try #require(answer.headers["set-cookie"], "a visitor gets a cookie of its own")
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/podcasts"))

            // A new browser sees an empty search, not the last visitor's.
            let fresh = try await second.open("/podcasts/search")
            #expect(fresh.status == 200)
            #expect(!fresh.body.contains("Murder") && !fresh.body.contains("murder"), "another visitor's search shows")
            #expect(second.cookie != nil && second.cookie != first.cookie)

            // Back leads to the visitor's own screen below, never to another visitor's.
            _ = try await first.open("/podcasts/genre?genreId=1303&title=Comedy")
            let news = try await second.open("/podcasts/genre?genreId=1489&title=News")
            let back = try #require(Self.backLink(in: news.body))
            #expect(!back.contains("1303"), "back goes to the other visitor's genre: \(back)")

            // One visitor's Dark is not everyone's.
            _ = try await first.open("/podcasts/browse")
            let dark = try await first.submit("/podcasts/appearance", form: [("mode", "dark"), ("back", "/podcasts/browse")])
            #expect(dark.status == 303)
            #expect(try await first.open("/podcasts/browse").body.contains("data-theme=\"dark\""))
            #expect(!(try await second.open("/podcasts/browse").body.contains("data-theme=\"dark\"")))
            let third = TestBrowser(base: preview.url)
            #expect(!(try await third.open("/podcasts/browse").body.contains("data-theme=\"dark\"")))

            // A visitor's form token is its own: another visitor's page cannot post for it.
            let foreign = try await second.send(
                "POST", "/podcasts/appearance", form: [("mode", "dark"), ("_csrf", try #require(first.formToken))])
            #expect(foreign.status == 403)
        }
    }

    @Test func podcastVisitorsAreBounded() async throws {
        try await withStartedPreview { _, preview in
            let kept = TestBrowser(base: preview.url)
            _ = try await kept.open("/podcasts/search?q=murder")
            let cookie = try #require(kept.cookie)
            #expect(try await kept.open("/podcasts/search").body.contains("Murder"), "the visitor's search is kept")
            // A crawler without cookies: each request is a new visitor; the oldest go.
            let crawler = TestBrowser(base: preview.url)
            for _ in 0..<WebPreview.podcastVisitorCapacity {
                crawler.cookie = nil
                #expect(try await crawler.send("GET", "/podcasts").status == 303)
            }
            let again = try await kept.send("GET", "/podcasts/search")
            #expect(again.headers["set-cookie"] != nil, "the oldest visitor was not ended")
            #expect(kept.cookie != cookie)
            #expect(!again.body.contains("Murder"))
        }
    }

    /// The GET address the page's search form submits for `text`: its action with its fields.
    static func search(_ text: String, on page: (status: Int, body: String, path: String)) throws -> String {
        let form = try #require(page.body.firstMatch(of: /<form class="search" role="search" method="get"[^>]*>(.*?)<\/form>/))
        var fields: [(String, String)] = []
        for input in String(form.1).matches(of: /<input type="(hidden|search)"[^>]* name="([^"]*)"(?: value="([^"]*)")?/) {
            let name = String(input.2).replacingOccurrences(of: "&amp;", with: "&")
            let value = input.1 == "search" ? text : String(input.3 ?? "").replacingOccurrences(of: "&amp;", with: "&")
            fields.append((name, value))
        }
        let path = String(page.path.prefix { $0 != "?" })
        return path + "?" + fields.map { "\(HTMLQuery.encode($0.0))=\(HTMLQuery.encode($0.1))" }.joined(separator: "&")
    }

    @Test func aSearchFiltersTheListInPlace() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "docente@edugo.test")
        defer { stop() }
        let list = try await browser.open("/screen/materials-list")
        #expect(Self.backLink(in: list.body) == nil, "a tab's list has no back")
        let found = try await browser.open(try Self.search("Fracciones", on: list))
        #expect(found.body.contains("Fracciones"))
        #expect(Self.backLink(in: found.body) == nil, "a search pushed a page: \(Self.backLink(in: found.body) ?? "")")
        let none = try await browser.open(try Self.search("zzzqqq", on: found))
        #expect(none.body.contains("zzzqqq"))
        #expect(Self.backLink(in: none.body) == nil, "a second search pushed a page")

        // Back from a result leaves for the list, not for an earlier query.
        let again = try await browser.open(try Self.search("Fracciones", on: none))
        let open = try #require(link(containing: "open-item?item=", in: again.body))
        let detail = try await browser.open(open, form: [])  // a row posts its action, as the page's script does
        #expect(detail.path.hasPrefix("/screen/material-detail"), "\(browser.hops.suffix(2))")
        let back = try await browser.open(try #require(Self.backLink(in: detail.body)))
        #expect(back.path == "/screen/materials-list?search_field=Fracciones", "back went to \(back.path)")
        #expect(Self.backLink(in: back.body) == nil)

        // The page's script replaces the history entry of a search rather than adding one.
        #expect(list.body.contains("location.replace(url.toString())"))
    }

    @Test func aSearchOnAPushedListKeepsItsParametersAndItsBack() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "superadmin@edugo.test")
        defer { stop() }
        _ = try await browser.open("/screen/schools-list")
        _ = try await browser.open("/screen/school-detail?id=sch-001")
        let units = try await browser.open("/screen/units-list?id=sch-001")
        let below = try #require(Self.backLink(in: units.body))
        let searched = try await browser.open(try Self.search("A", on: units))
        #expect(searched.path.contains("id=sch-001"), "the search dropped the page's id: \(searched.path)")
        #expect(Self.backLink(in: searched.body) == below, "the search changed where back goes")
        let back = try await browser.open(try #require(Self.backLink(in: searched.body)))
        #expect(back.path == "/screen/school-detail?id=sch-001", "back went to \(back.path)")
    }

    @Test func refusalsAndUnknownPagesSaySoInTheAppsWords() async throws {
        try await withStartedPreview { _, preview in
            // Podcasts (English): an unknown document is the app's own "Not found", styled, with its tabs.
            let visitor = TestBrowser(base: preview.url)
            let unknown = try await visitor.open("/podcasts/nosuchscreen")
            #expect(unknown.status == 404)
            #expect(unknown.body.contains("<html lang=\"en\""))
            #expect(unknown.body.contains("name=\"viewport\""))
            #expect(unknown.body.contains("<div class=\"empty\"") && unknown.body.contains("Not found"))
            #expect(!unknown.body.contains("Volver") && !unknown.body.contains("Error"))
            #expect(unknown.body.contains("<nav class=\"tabs\""), "the app's tabs stay, to go on from there")
            // An unknown document is no place on the navigation: back from the next page skips it.
            let genre = try await visitor.open("/podcasts/genre?genreId=1303&title=Comedy")
            #expect(!(Self.backLink(in: genre.body) ?? "").contains("nosuchscreen"))

            // EduGo (Spanish): a screen the role may not open, and one that does not exist.
            let student = TestBrowser(base: preview.url)
            try await signInToPreview(student, as: "estudiante@edugo.test")
            // Refused by its data, and refused as a screen the role's navigation does not reach.
            for path in ["/screen/users-list", "/screen/dashboard-teacher", "/screen/membership-add"] {
                let refused = try await student.open(path)
                #expect(refused.body.contains("No tienes acceso"), "\(path): a refused screen says so")
                #expect(!refused.body.contains("No encontrado"), "\(path)")
            }
            let missing = try await student.open("/screen/nosuchscreen")
            #expect(missing.body.contains("No encontrado"))
            #expect(!missing.body.contains("No tienes acceso"))
        }
    }

    /// Every form control of `html` that is not named: no `<label for>` with text, no
    /// `aria-label`, and not inside a `<label>`.
    static func unlabelledControls(in html: String) -> [String] {
        var labels: [String: String] = [:]
        for match in html.matches(of: /<label[^>]*for="([^"]*)"[^>]*>(.*?)<\/label>/.dotMatchesNewlines()) {
            labels[String(match.1)] = String(match.2).replacing(/<[^>]+>/, with: "").trimmingCharacters(in: .whitespaces)
        }
        var unnamed: [String] = []
        for match in html.matches(of: /<(input|select|textarea)\b[^>]*>/) {
            let tag = String(match.0)
            if tag.contains("type=\"hidden\"") || tag.contains("type=\"submit\"") { continue }
            if tag.firstMatch(of: /aria-label="[^"]+"/) != nil { continue }
            if let id = tag.firstMatch(of: /\sid="([^"]*)"/).map({ String($0.1) }), labels[id]?.isEmpty == false { continue }
            // Wrapped in a label with text of its own.
            let before = html[..<match.range.lowerBound]
            if let open = before.range(of: "<label", options: .backwards),
                !before[open.upperBound...].contains("</label>"),
                let close = html[match.range.upperBound...].range(of: "</label>"),
                !html[match.range.upperBound..<close.lowerBound].replacing(/<[^>]+>/, with: "").trimmingCharacters(
                    in: .whitespaces
                ).isEmpty
            {
                continue
            }
            unnamed.append(tag)
        }
        return unnamed
    }

    /// Every switch of `html` that does not say whether it is on.
    static func switchesWithoutState(in html: String) -> [String] {
        html.matches(of: /<input[^>]*role="switch"[^>]*>/).map { String($0.0) }.filter {
            let checked = $0.contains("checked=\"checked\"")
            return !$0.contains("aria-checked=\"\(checked)\"")
        }
    }

    @Test func everyControlOfEveryScreenIsNamedAndEverySwitchSaysItsState() async throws {
        try await withStartedPreview { _, preview in
            var pages: [(String, String)] = []
            let anonymous = TestBrowser(base: preview.url)
            pages.append(("app-login", try await anonymous.open("/").body))
            // Each screen as the roles that may open it, with a record of their own where it takes one.
            let visits: [(String, [String])] = [
                (
                    "superadmin@edugo.test",
                    try EduGoCatalog().screenKeys.map { "/screen/\($0)" } + [
                        "/screen/user-edit?id=usr-021", "/screen/school-edit?id=sch-001", "/screen/unit-edit?id=unt-001",
                        "/screen/material-edit?id=mat-092", "/screen/units-list?id=sch-001",
                    ]
                ),
                (
                    "docente@edugo.test",
                    [
                        "/screen/material-edit?id=mat-092", "/screen/material-create", "/screen/assessment-take?id=mat-002",
                        "/screen/materials-list?search_field=Fracciones", "/screen/app-settings",
                    ]
                ),
                ("estudiante@edugo.test", ["/screen/assessment-take?id=mat-002", "/screen/app-settings"]),
            ]
            for (account, paths) in visits {
                let browser = TestBrowser(base: preview.url)
                try await signInToPreview(browser, as: account)
                for path in paths { pages.append(("\(account) \(path)", try await browser.open(path).body)) }
            }
            let listener = TestBrowser(base: preview.url)
            for path in [
                "/podcasts/browse", "/podcasts/search", "/podcasts/search?q=swift",
                "/podcasts/genre?genreId=1318&title=Technology",
            ] {
                pages.append((path, try await listener.open(path).body))
            }
            var controls = 0
            var switches = 0
            for (name, html) in pages {
                controls += html.matches(of: /<(input|select|textarea)\b/).count
                switches += html.matches(of: /role="switch"/).count
                let unnamed = Self.unlabelledControls(in: html)
                #expect(unnamed.isEmpty, "\(name): \(unnamed.prefix(3))")
                let stateless = Self.switchesWithoutState(in: html)
                #expect(stateless.isEmpty, "\(name): \(stateless.prefix(3))")
            }
            #expect(controls > 100 && switches >= 4, "\(controls) controls, \(switches) switches")
        }
    }

    @Test func aSymbolIsDrawnNotAnEmptyBand() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            let login = try await browser.open("/")
            // The brand's logo is a drawing, not an empty element in a 200 px band.
            let logo = try #require(
                login.body.firstMatch(
                    of: /<(svg|span) class="symbol"[^>]*data-symbol="graduationcap.fill"[^>]*>(.*?)<\/(svg|span)>/))
            #expect(logo.1 == "svg" && logo.2.contains("<path d=\""), "\(logo.0)")
            // No symbol the catalogs' screens name is left as an empty element taking room.
            for match in login.body.matches(of: /<span class="symbol"[^>]*><\/span>/) {
                #expect(match.0.contains("aria-hidden=\"true\"") || match.0.contains("role=\"img\""))
            }
        }
    }

    @Test func eachTabKeepsItsStackAndTheSelectedTabFollowsTheScreen() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "docente@edugo.test")
        defer { stop() }
        let list = try await browser.open("/screen/materials-list")
        let open = try #require(link(containing: "open-item?item=", in: list.body))
        // A row posts its action, as the page's script does.
        let detail = try await browser.open(open, form: [])
        #expect(detail.path.hasPrefix("/screen/material-detail"))
        #expect(Self.selectedTab(in: detail.body)?.contains("materials-list") == true, "the detail's tab is Materiales")
        // To another tab and back: the Materiales tab returns to the detail.
        let home = try await browser.open("/screen/dashboard-teacher")
        let tab = try #require(Self.tabLinks(in: home.body).first { $0.contains("material") }, "\(Self.tabLinks(in: home.body))")
        #expect(tab == detail.path, "the tab link goes to \(tab), not the tab's last screen \(detail.path)")
        let back = try await browser.open(tab)
        #expect(back.path == detail.path)
        #expect(Self.selectedTab(in: back.body)?.contains("materials-list") == true)
        // The shown tab's own link goes to its root.
        #expect(Self.tabLinks(in: back.body).contains("/screen/materials-list"))

        // A page of another tab's stack, opened again (the browser's back): that tab is selected.
        let settings = try await browser.open("/screen/app-settings")
        #expect(Self.selectedTab(in: settings.body)?.contains("app-settings") == true)
        let again = try await browser.open(detail.path)
        #expect(
            Self.selectedTab(in: again.body)?.contains("materials-list") == true, "\(Self.selectedTab(in: again.body) ?? "none")")
    }

    /// The `href`s of the page's tab bar.
    static func tabLinks(in html: String) -> [String] {
        guard let nav = html.firstMatch(of: /<nav class="tabs"[^>]*>(.*?)<\/nav>/) else { return [] }
        return String(nav.1).matches(of: /href="([^"]*)"/).map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") }
    }

    /// The `href` of the tab marked as the current page.
    static func selectedTab(in html: String) -> String? {
        html.firstMatch(of: /<nav class="tabs"[^>]*>.*?<a href="([^"]*)"[^>]*aria-current="page"/).map { String($0.1) }
    }

    @Test func aRowMenuIsATrailingButtonWithTheDestructiveActionLast() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "docente@edugo.test")
        defer { stop() }
        let list = try await browser.open("/screen/materials-list?search_field=Gu%C3%ADa+de+estudio%3A+%C3%81reas")
        let menu = try #require(
            list.body.firstMatch(of: /<div class="row-with-menu"([^>]*)>.*?<summary([^>]*)>([^<]*)<\/summary>(.*?)<\/details>/),
            "the teacher's own material has a row menu")
        #expect(menu.1.contains("display:flex"), "the menu button trails the row on its line")
        #expect(menu.2.contains("list-style:none") && menu.3 == "…", "a … button, not a disclosure triangle")
        let items = String(menu.4).matches(of: /role="menuitem"[^>]*>([^<]*)<\/button>/).map { String($0.1) }
        #expect(items == ["Editar", "Eliminar"], "\(items)")

        // The list screen is on the plain background; only its rows are in the inset group.
        #expect(list.body.contains("<section class=\"screen list\"") && list.body.contains("style=\"background:transparent"))
    }

    @Test func podcastRowsAreNotUnderlinedLinks() async throws {
        try await withStartedPreview { _, preview in
            let browse = try await TestBrowser(base: preview.url).open("/podcasts/browse")
            let links = browse.body.matches(of: /<a class="link"[^>]*>/).map { String($0.0) }
            #expect(!links.isEmpty)
            #expect(
                links.allSatisfy { $0.contains("text-decoration:none") && $0.contains("color:inherit") }, "\(links.prefix(2))")
        }
    }
}

/// Percent-encoding of a query component, as a browser sends a form.
enum HTMLQuery {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
