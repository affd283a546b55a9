import DynamicUIDemoBackend
import DynamicUIModels
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Found by the fault proxy (tools/faults), which sends a mutation to the backend twice at once:
/// the idempotency lookup, the change and the stored reply were three transactions, so both
/// copies found no stored reply and both applied.
@Suite("Demo backend idempotency")
struct IdempotencyTests {
    func call(_ url: URL, _ method: String, _ body: JSONValue?, headers: [String: String] = [:]) async throws -> (Int, JSONValue)
    {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { JSONWriter().data(from: $0) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONReader().read(data))
    }

    @Test func copiesOfOneMutationSentAtOnceApplyOnce() async throws {
        let backend = try DemoBackend()
        backend.logsMutations = true
        try await backend.start()
        defer { Task { await backend.stop() } }
        let (_, session) = try await call(
            backend.mobileURL.appending(path: "v1/auth/login"), "POST",
            ["email": "docente@edugo.test", "password": "edugo123"])
        let token = try #require(session["access_token"]?.stringValue)
        let url = backend.mobileURL.appending(path: "v1/materials")
        let headers = ["Authorization": "Bearer \(token)", "Idempotency-Key": "same-key"]
        let body: JSONValue = ["title": "Una vez", "subject": "Historia"]
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { try await call(url, "POST", body, headers: headers).1["id"]?.stringValue } }
            var ids: Set<String> = []
            for try await id in group { id.map { _ = ids.insert($0) } }
            return ids
        }
        #expect(ids.count == 1, "every copy answered with the one record created")
        let (_, list) = try await call(
            URL(string: url.absoluteString + "?q=Una%20vez")!, "GET", nil, headers: ["Authorization": "Bearer \(token)"])
        #expect(list["data"]?.arrayValue?.count == 1)
    }
}
