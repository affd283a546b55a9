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

/// A stored reply is one account's answer to one request: looked up only once the caller is
/// known, never for another account or another request, and a refusal is never stored.
@Suite("Demo backend idempotency belongs to an account")
struct IdempotencyOwnerTests {
    @Test func aRefusalIsNotRememberedUnderItsKey() async throws {
        try await withDemoBackend { _, api in
            let body: JSONValue = ["title": "Tras iniciar sesión", "subject": "Historia"]
            let refused = try await api.call("POST", "/v1/materials", body, headers: ["Idempotency-Key": "k-signed-out"])
            #expect(refused.status == 401)
            let (token, _) = try await api.signIn("docente@edugo.test")
            let delivered = try await api.call(
                "POST", "/v1/materials", body, token: token, headers: ["Idempotency-Key": "k-signed-out"])
            #expect(delivered.status == 201, "the signed-in retry is applied, not answered with the old 401")
            #expect(delivered.json["title"] == "Tras iniciar sesión")
        }
    }

    @Test func anotherCallerNeverGetsTheStoredReply() async throws {
        try await withDemoBackend { _, api in
            let (teacher, _) = try await api.signIn("docente@edugo.test")
            let draft: JSONValue = ["title": "DRAFT-SECRET", "subject": "Historia", "status": "borrador"]
            let key = ["Idempotency-Key": "k-draft"]
            let created = try await api.call("POST", "/v1/materials", draft, token: teacher, headers: key)
            #expect(created.status == 201)
            let id = try #require(created.json["id"]?.stringValue)

            // Without a token, on any path: nothing of the teacher's record.
            let anonymous = try await api.call("DELETE", "/v1/anything/else", nil, headers: key)
            #expect(anonymous.status != 201 && !"\(anonymous.json)".contains("DRAFT-SECRET"), "\(anonymous.json)")
            let unsigned = try await api.call("POST", "/v1/materials", draft, headers: key)
            #expect(unsigned.status == 401 && !"\(unsigned.json)".contains(id))
            // Another account with the same key: its own answer (a student may not create materials).
            let (student, _) = try await api.signIn("estudiante@edugo.test")
            let other = try await api.call("POST", "/v1/materials", draft, token: student, headers: key)
            #expect(other.status == 403 && !"\(other.json)".contains(id), "\(other.status) \(other.json)")

            // The teacher's own retry is answered from the store; the key on another request is refused.
            let again = try await api.call("POST", "/v1/materials", draft, token: teacher, headers: key)
            #expect(again.status == 201 && again.json["id"]?.stringValue == id)
            let reused = try await api.call("DELETE", "/v1/materials/\(id)", nil, token: teacher, headers: key)
            #expect(reused.status == 422, "a key names one request: \(reused.status) \(reused.json)")
            let still = try await api.call("GET", "/v1/materials/\(id)", token: teacher)
            #expect(still.status == 200, "the record was not deleted under a reused key")
        }
    }
}
