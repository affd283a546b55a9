import DynamicUIDemoBackend
import DynamicUIModels
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls one of the demo backend's APIs as an app would: JSON in and out, a bearer token and
/// headers when given.
struct DemoAPI {
    /// The API's base URL.
    let base: URL

    /// What the API answered.
    struct Answer {
        let status: Int
        let json: JSONValue
        let headers: [String: String]
    }

    func call(
        _ method: String, _ path: String, _ body: JSONValue? = nil, token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body.map { JSONWriter().data(from: $0) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Answer(status: http?.statusCode ?? 0, json: data.isEmpty ? .null : try JSONReader().read(data), headers: fields)
    }

    /// Signs in; the access and refresh tokens.
    func signIn(_ email: String, password: String = "edugo123") async throws -> (access: String, refresh: String) {
        let answer = try await call("POST", "/v1/auth/login", ["email": .string(email), "password": .string(password)])
        guard let access = answer.json["access_token"]?.stringValue, let refresh = answer.json["refresh_token"]?.stringValue
        else { throw DemoAPIError.notSignedIn(answer.status) }
        return (access, refresh)
    }
}

enum DemoAPIError: Error { case notSignedIn(Int) }

/// Runs `body` with a demo backend started over loopback (set up by `configure` first) and one
/// of its APIs (`api`: the mobile one unless said), and stops the backend after, also when
/// `body` throws.
func withDemoBackend(
    api: KeyPath<DemoBackend, URL> = \.mobileURL, _ configure: (DemoBackend) -> Void = { _ in },
    _ body: (DemoBackend, DemoAPI) async throws -> Void
) async throws {
    let backend = try DemoBackend()
    configure(backend)
    try await backend.start()
    do {
        try await body(backend, DemoAPI(base: backend[keyPath: api]))
    } catch {
        await backend.stop()
        throw error
    }
    await backend.stop()
}
