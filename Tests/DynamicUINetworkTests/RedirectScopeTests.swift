import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

@Suite("Redirects: the API's scope and answers from elsewhere")
struct RedirectScopeTests {
    @Test func theScopeComparesSchemeHostPortAndPath() {
        let base = URL(string: "https://api.edugo.test/api")!
        for inside in [
            "https://api.edugo.test/api", "https://API.edugo.test/api/v1/x?y=1", "https://api.edugo.test:443/api/v1/x",
        ] {
            #expect(URLScope.contains(URL(string: inside)!, under: base), "\(inside)")
        }
        for outside in [
            "http://api.edugo.test/api/v1/x", "https://api.edugo.test:8443/api/v1/x", "https://evil.test/api/v1/x",
            "https://api.edugo.test.evil.test/api/v1/x", "https://api.edugo.test/apiother", "https://api.edugo.test/",
            "https://api.edugo.test/api/../x", "https://api.edugo.test/api/%2E%2e/x", "https://api.edugo.test/api/..;/x",
            "https://api.edugo.test/api/v1/..%2fx", "https://api.edugo.test/api/v1/..%5Cx",
        ] {
            #expect(!URLScope.contains(URL(string: outside)!, under: base), "\(outside)")
        }
        for header in ["Authorization", "cookie", "Proxy-Authorization", "X-Api-Key", "Idempotency-Key", "X-Refresh-Token"] {
            #expect(URLScope.isCredential(header), "\(header)")
        }
        for header in ["Accept", "Content-Type", "If-None-Match", "Accept-Language"] {
            #expect(!URLScope.isCredential(header), "\(header)")
        }
    }

    @Test func anAnswerFromOutsideTheAPIsIsNotBelievedWhateverTheTransport() async throws {
        let cache = ResponseCache(clock: ManualClock())
        let transport = FakeTransport(handler: { request, _ throws(TransportError) in
            let elsewhere =
                request.url.path.hasSuffix("/inside") ? "https://mobile.edugo.test/api/v1/moved" : "https://evil.test/x"
            return TransportResponse(status: 200, body: Data("[1]".utf8), url: URL(string: elsewhere)!)
        })
        let client = APIClient(configuration: configuration(), transport: transport, cache: cache, clock: ManualClock())
        do throws(NetworkError) {
            _ = try await client.send(APIRequest(.get, "/v1/outside"))
            Issue.record("an answer from evil.test was used")
        } catch {
            #expect(error.code == .forbiddenURL)
            #expect(error.message.contains("evil.test"))
        }
        #expect(try await client.send(APIRequest(.get, "/v1/inside")).json() == [1])
        #expect(await cache.count == 0)
    }
}
