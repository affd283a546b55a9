import DynamicUIActions
import Foundation
import Testing

@Suite("OPEN_URL policy judges the host as written")
struct URLSecurityPolicyTests {
    let policy = URLSecurityPolicy(hosts: ["edugo.app"])

    /// Hosts that decode to something else, user info, and names that are not DNS names.
    static let refused = [
        // Percent-encoded bytes in the host: the opener may see another host than the one judged.
        "https://evil.com%2F.edugo.app/", "https://evil.com%2f.edugo.app/", "https://evil.com%23.edugo.app/",
        "https://evil.com%5C.edugo.app", "https://evil.com%00.edugo.app/", "https://127.0.0.1%2f.edugo.app",
        "https://%65dugo.app/", "https://edugo.app%2e/", "https://evil.com%40edugo.app/",
        // User info, with or without a password, on an allowed host or another.
        "https://edugo.app@evil.com/", "https://:@evil.com/", "https://edugo.app:@evil.com/", "https://user@edugo.app/",
        "https://:secret@edugo.app/", "https://user:pw@www.edugo.app/", "https://@edugo.app/", "https://edugo.app:443@evil.com/",
        // Other hosts, and names outside [a-z0-9.-].
        "https://evil.com\\@edugo.app/", "https://edugo.app.evil.com/", "https://xn--edgo-0ra.app/", "https://evil.com/",
        "https:/evil.com", "https:///evil.com", "https://evil.com#.edugo.app", "https://EDUGO.APP./", "https://edugo.app./",
        "https://.edugo.app/", "https://www..edugo.app/", "https://ed_ugo.edugo.app/", "https://[::1]/",
        "https://edugo.app\u{0}.evil.com/", "http://edugo.app/", "javascript://edugo.app/%0Aalert(1)",
    ]

    static let allowed = [
        "https://edugo.app/", "https://edugo.app", "https://www.edugo.app/x?y=1#z", "https://EDUGO.app/path",
        "https://a-b.edugo.app:8443/x", "https://edugo.app/path%2Fwith%20escapes?q=%40",
    ]

    @Test(arguments: refused)
    func refusedURLs(text: String) {
        // A string Foundation cannot parse is refused before the policy (OPEN_URL reports it).
        guard let url = URL(string: text) else { return }
        #expect(!policy.allows(url), "\(text) was allowed (host \(url.host ?? "none"))")
    }

    @Test(arguments: allowed)
    func allowedURLs(text: String) throws {
        #expect(policy.allows(try #require(URL(string: text))), "\(text) was refused")
    }
}
