import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

@Suite("Endpoints stay under their base URL's path")
struct EndpointPathTests {
    /// Templates that would leave `/api` once a server or proxy normalises the path, or that
    /// carry path parameters (`;`) some servers read as a path change.
    static let escapingTemplates = [
        "/../other-app/x", "/v1/../../other-app/x", "/..;/admin", "/v1/..;/admin", "/./v1/x", "/v1/.", "/v1/..",
        "/%2e%2e/other-app/x", "/%2E%2E/x", "/.%2e/x", "/%2e./x", "/%2e/v1", "/v1/materials;jsessionid=1",
        "mobile:/../x", "admin:/v1/%2e%2E/%2e%2e/x",
    ]

    @Test(arguments: escapingTemplates)
    func aTemplateWithDotSegmentsOrSemicolonsIsRefused(template: String) async throws {
        let transport = FakeTransport([response(200, "{}"), response(200, "{}")])
        let client = APIClient(configuration: configuration(), transport: transport, clock: ManualClock())
        do throws(NetworkError) {
            let url = try await client.url(for: Endpoint(template))
            Issue.record("\(template) built \(url)")
        } catch {
            #expect(error.code == .invalidRequest, "\(template): \(error)")
        }
        for method in [RequestMethod.get, .delete] {
            do throws(NetworkError) {
                _ = try await client.send(APIRequest(method, Endpoint(template)))
                Issue.record("\(method) \(template) was sent")
            } catch {
                #expect(error.code == .invalidRequest, "\(template): \(error)")
            }
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test(arguments: [".", "..", "%2e%2e"])
    func aPathParameterCannotBecomeADotSegment(value: String) async throws {
        let transport = FakeTransport([response(200, "{}")])
        let client = APIClient(configuration: configuration(), transport: transport, clock: ManualClock())
        do throws(NetworkError) {
            let url = try await client.url(for: "/v1/materials/{id}/x", parameters: ["id": value])
            // A value is encoded (`%` becomes `%25`), so it may only build a URL that stays a segment.
            #expect(url.absoluteString == "https://mobile.edugo.test/api/v1/materials/%252e%252e/x", "\(value)")
        } catch {
            #expect(error.code == .invalidRequest, "\(value): \(error)")
            #expect(value != "%2e%2e")
        }
    }

    @Test func templatesThatStayUnderTheBaseAreKept() async throws {
        let client = APIClient(configuration: configuration(), transport: FakeTransport(), clock: ManualClock())
        #expect(
            try await client.url(for: "/v1/materials/{id}", parameters: ["id": "a.b"]).absoluteString
                == "https://mobile.edugo.test/api/v1/materials/a.b")
        #expect(
            try await client.url(for: "/v1/files/report.v2.pdf", query: [("page", "..")]).absoluteString
                == "https://mobile.edugo.test/api/v1/files/report.v2.pdf?page=..")
        #expect(try await client.url(for: "admin:/v1/...x").absoluteString == "https://admin.edugo.test/v1/...x")
    }

    @Test func theGuardRefusesAPathOutsideTheBaseURLsPath() throws {
        let guardian = SecurityGuardInterceptor(origins: [mobileURL, adminURL], allowInsecureLoopback: false)
        for allowed in [
            "https://mobile.edugo.test/api", "https://mobile.edugo.test/api/", "https://mobile.edugo.test/api/v1/x?y=1",
            "https://admin.edugo.test/anything",
        ] {
            do throws(NetworkError) {
                try guardian.check(URL(string: allowed)!)
            } catch {
                Issue.record("\(allowed): \(error)")
            }
        }
        for refused in [
            "https://mobile.edugo.test/other-app/x", "https://mobile.edugo.test/apiother/x", "https://mobile.edugo.test/",
            "https://mobile.edugo.test/api/../other-app/x", "https://mobile.edugo.test/api/%2e%2e/other-app/x",
            "https://mobile.edugo.test/api/..;/admin", "https://admin.edugo.test/v1/../x",
        ] {
            #expect(throws: NetworkError.self, "\(refused)") { try guardian.check(URL(string: refused)!) }
        }
    }
}
