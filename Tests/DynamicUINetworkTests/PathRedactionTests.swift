import DynamicUIModels
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUINetwork

@Suite("Redaction of secrets in paths, query items and fragments")
struct PathRedactionTests {
    /// URLs with a secret (`S3CR3T`, or a JWT) and what must survive redaction.
    static let urls: [(String, [String])] = [
        ("https://h.test/v1/auth/reset/S3CR3T", ["/v1/auth/reset/"]),
        ("https://h.test/v1/password/reset/S3CR3T", ["/v1/password/reset/"]),
        ("https://h.test/v1/passwords/S3CR3T/confirm", ["/v1/passwords/", "/confirm"]),
        ("https://h.test/v1/tokens/S3CR3T/revoke", ["/v1/tokens/", "/revoke"]),
        ("https://h.test/v1/verify-email/S3CR3T", ["/v1/verify-email/"]),
        ("https://h.test/v1/invitations/S3CR3T/accept", ["/v1/invitations/", "/accept"]),
        ("https://h.test/v1/api-keys/S3CR3T", ["/v1/api-keys/"]),
        ("https://h.test/v1/sessions/S3CR3T", ["/v1/sessions/"]),
        ("https://h.test/v1/magic-link/S3CR3T?next=%2Fhome", ["/v1/magic-link/", "next=%2Fhome"]),
        ("https://h.test/v1/x?token=S3CR3T&page=2", ["/v1/x", "page=2"]),
        ("https://h.test/v1/x?access_token=S3CR3T&page=2", ["page=2"]),
        ("https://h.test/v1/x?Password=S3CR3T", ["/v1/x?Password="]),
        ("https://h.test/v1/x?passwd=S3CR3T", []), ("https://h.test/v1/x?pwd=S3CR3T", []),
        ("https://h.test/v1/x?X-Amz-Signature=S3CR3T&X-Amz-Credential=S3CR3T&X-Amz-Date=20261127", ["X-Amz-Date=20261127"]),
        ("https://h.test/v1/x?sig=S3CR3T", []), ("https://h.test/v1/x?otp=S3CR3T", []),
        ("https://h.test/v1/x?client_secret=S3CR3T&refresh_token=S3CR3T", []),
        ("https://h.test/callback#access_token=S3CR3T&state=ok", ["/callback", "state=ok"]),
        ("https://user:S3CR3T@h.test/v1/x", ["h.test/v1/x"]),
        ("https://h.test/v1/verify/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3ItMSJ9.S3CR3T", ["/v1/verify/"]),
        ("https://h.test/v1/materials/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3ItMSJ9.S3CR3T", ["/v1/materials/"]),
    ]

    @Test(arguments: urls)
    func secretsAreMasked(url: String, kept: [String]) throws {
        let redacted = Redaction.url(try #require(URL(string: url)))
        #expect(!redacted.contains("S3CR3T"), "\(url) → \(redacted)")
        #expect(redacted.contains("%3Credacted%3E") || redacted.contains(Redaction.mask), "\(url) → \(redacted)")
        for part in kept { #expect(redacted.contains(part), "\(url) → \(redacted) lost \(part)") }
    }

    @Test(arguments: [
        "https://h.test/v1/materials/mat-1", "https://h.test/api/v1/users/usr-9/attempts?page=2&limit=20",
        "https://h.test/v1/keyboard-layouts/es", "https://h.test/v1/auth/refresh", "https://h.test/v1/x?author=ana",
        "https://h.test/v1/search?q=reset%20password",
    ])
    func ordinaryURLsAreUnchanged(url: String) throws {
        #expect(Redaction.url(try #require(URL(string: url))) == url)
    }

    @Test func thePathSecretNeverReachesTheLogOrTheErrorMessage() async throws {
        let capture = LogCapture()
        let transport = FakeTransport([response(404, "{}"), response(200, "{}")])
        let client = APIClient(
            configuration: configuration(retry: .none), transport: transport, clock: ManualClock(), logger: capture.logger)
        do throws(NetworkError) {
            _ = try await client.send(
                APIRequest(.post, "/v1/auth/reset/{token}", pathParameters: ["token": "PATH-SECRET"], body: ["password": "x"]))
            Issue.record("a 404 succeeded")
        } catch {
            #expect(!error.description.contains("PATH-SECRET"))
        }
        _ = try await client.send(APIRequest(.get, "/v1/x", query: [("signature", "QUERY-SECRET"), ("page", "1")]))
        let log = capture.all.joined(separator: "\n")
        #expect(log.contains("/v1/auth/reset/"))
        #expect(log.contains("page=1"))
        for secret in ["PATH-SECRET", "QUERY-SECRET"] { #expect(!log.contains(secret), "\(secret) leaked into the log") }
        #expect(await transport.requests.first?.url.path.hasSuffix("/reset/PATH-SECRET") == true)
    }
}
