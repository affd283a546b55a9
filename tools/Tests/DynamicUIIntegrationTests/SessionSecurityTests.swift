import DynamicUI
import DynamicUIActions
import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// What belongs to one account stays with it, and a row's action acts on its row: the SDK's
/// side of the attacker's review, against the demo backend on 127.0.0.1.
@Suite("Security: sessions own their data, rows act on their rows", .serialized)
@MainActor
struct SessionSecurityTests {
    /// A change queued offline by one account is never sent as the next: signing out warns that
    /// it will be discarded, and nothing of it reaches the server with another account's token.
    @Test func aQueuedChangeIsNeverReplayedAsTheNextAccount() async throws {
        let live = try await Live.signedIn(as: "docente@edugo.test")
        let create = await live.loaded("material-create")
        let settings = await live.loaded("app-settings")
        await live.backend.stop()
        await live.connectivity.set(connected: false)
        #expect(await eventually { !live.sdk.isConnected })
        for (field, value) in [
            "title": "De la primera cuenta", "subject": "Historia", "grade": "6", "file_url": "https://edugo.test/o.pdf",
            "file_type": "PDF", "unit_id": "unt-001", "status": "borrador",
        ] {
            create.formState.setValue(value, for: field)
        }
        await create.perform(actionId: "submit")
        #expect(await eventually { live.sdk.pendingChanges == 1 })
        // Signing out says first what will be lost.
        let asked = await settings.perform(actionId: "logout")
        guard case .confirm(let request) = asked else {
            Issue.record("signing out with a pending change asks first: \(asked)")
            return
        }
        #expect(request.message?.contains("1") == true)
        await settings.confirm()
        #expect(live.sdk.session == nil)
        #expect(try live.queue.all().isEmpty, "nothing of the first account stays queued")
        // The next account signs in once the server is back: nothing of the first is sent.
        try await live.backend.restart()
        await live.connectivity.set(connected: true)
        try await live.signIn("estudiante@edugo.test")
        _ = await live.sdk.syncNow()
        #expect(live.sdk.pendingChanges == 0)
        #expect(!live.backend.log.contains("POST mobile:/v1/materials"), "never replayed as the student")
        await live.stop()
    }

    /// The store only ever shows the signed-in account's changes.
    @Test func theQueueBelongsToItsAccount() throws {
        let store = try OfflineQueueStore()
        store.setOwner("usr-a")
        try store.enqueue(
            NewQueuedRequest(method: "POST", url: "https://x.test/v1/a", body: Data(#"{"t":1}"#.utf8), idempotencyKey: "k1"),
            at: Date())
        store.setOwner("usr-b")
        #expect(try store.pending().isEmpty && store.count() == 0, "another account's change is not B's to send")
        store.setOwner("usr-a")
        #expect(try store.pending().map(\.idempotencyKey) == ["k1"])
        #expect(try store.removeAll(ownedBy: "usr-a").count == 1)
        #expect(try store.all().isEmpty)
    }

    /// A delivered change's bytes do not stay in the database file's free pages.
    @Test func removedChangesAreOverwrittenOnDisk() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("queue-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let store = try OfflineQueueStore(path: file.path)
        #expect(try store.erasesRemovedChanges())
        let queued = try store.enqueue(
            NewQueuedRequest(
                method: "POST", url: "https://x.test/v1/notes", body: Data(#"{"note":"PRIVATE-NOTE-TEXT"}"#.utf8),
                idempotencyKey: "k"), at: Date())
        try store.remove(id: queued.id)
        let bytes = try Data(contentsOf: file)
        #expect(bytes.range(of: Data("PRIVATE-NOTE-TEXT".utf8)) == nil, "the body is gone from the file")
    }

    /// A request carrying a password is sent now or not at all: never written to the queue.
    @Test(arguments: [#"{"password":"s3cret"}"#, #"{"user":{"new_password":"x"}}"#, #"[{"client_secret":"x"}]"#])
    func aRequestCarryingAPasswordIsNeverQueued(body: String) throws {
        let store = try OfflineQueueStore()
        #expect(throws: StorageError.self) {
            try store.enqueue(
                NewQueuedRequest(method: "POST", url: "https://x.test/v1/users", body: Data(body.utf8), idempotencyKey: "k"),
                at: Date())
        }
        #expect(try store.all().isEmpty)
    }

    /// One account's cached answers are gone before another account's first request.
    @Test func theResponseCacheHoldsOneAccount() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResponseCache(directory: folder)
        await cache.setAccount("usr-a")
        await cache.store(Data(#"{"me":"a"}"#.utf8), for: "https://x.test/v1/users/me")
        // The app starts again (a new process) and another account signs in.
        let again = ResponseCache(directory: folder)
        #expect(await again.account == "usr-a")
        await again.setAccount("usr-b")
        #expect(await again.entry(for: "https://x.test/v1/users/me") == nil, "A's /me is never served to B")
        await again.setAccount("usr-b")
        await again.store(Data(#"{"me":"b"}"#.utf8), for: "https://x.test/v1/users/me")
        #expect(await again.entry(for: "https://x.test/v1/users/me") != nil, "the same account keeps its own")
    }

    /// A link's `?id=` never picks the record a row's action touches: deleting row X deletes X,
    /// the one the confirmation names.
    @Test func aRowsActionActsOnItsRowWhateverTheLinkSaid() async throws {
        let live = try await Live.signedIn(as: "superadmin@edugo.test")
        let list = live.model("materials-list")
        await list.load()
        guard case .success(let items, _, _) = list.dataState, items.count >= 2 else {
            Issue.record("\(list.dataState)")
            return
        }
        let row = items[0]
        let victim = try #require(items[1]["id"]?.stringValue)
        let rowId = try #require(row["id"]?.stringValue)
        // The same list opened by a link naming another record.
        let linked = live.model("materials-list", params: ["id": victim])
        await linked.load()
        let asked = await linked.perform(actionId: "delete-item", item: row)
        guard case .confirm(let request) = asked else {
            Issue.record("\(asked)")
            return
        }
        #expect(request.message?.contains(row["title"]?.stringValue ?? "?") == true)
        await linked.confirm()
        #expect(live.backend.log.contains("DELETE mobile:/v1/materials/\(rowId)"), "the row's record")
        #expect(!live.backend.log.contains("DELETE mobile:/v1/materials/\(victim)"), "never the link's")
        await live.stop()
    }

    /// Whatever asked to open a URL (a plugin, a custom handler), only the policy's are opened.
    @Test func aURLOutsideThePolicyIsNeverOpened() async throws {
        let live = try await Live.signedIn(as: "docente@edugo.test")
        let screen = await live.loaded("app-settings")
        await screen.apply(.openURL(URL(string: "https://evil.example/steal")!))
        #expect(screen.urlToOpen == nil)
        #expect(screen.banner?.kind == .error)
        await screen.apply(.openURL(URL(string: "https://edugo.test/help")!))
        #expect(screen.urlToOpen?.host == "edugo.test")
        await live.stop()
    }

    /// The reference backend routes on the path as sent: a parameter holding `/` names one
    /// record, never a sibling resource (the assessment with its answer key).
    @Test func anEncodedSlashNeverReachesASiblingResource() async throws {
        let live = try await Live.signedIn(as: "estudiante@edugo.test")
        do throws(NetworkError) {
            let response = try await live.client.send(
                APIRequest(.get, "mobile:/v1/materials/{id}", pathParameters: ["id": "mat-002/assessment"]))
            Issue.record("answered \(response.status): \(String(decoding: response.body, as: UTF8.self).prefix(80))")
        } catch {
            #expect(error.code == .notFound, "\(error)")
        }
        await live.stop()
    }

    /// A deep link reaches only what the app declares: undeclared screens are refused and
    /// undeclared parameters dropped.
    @Test func deepLinksReachOnlyDeclaredScreensAndParameters() async throws {
        let live = try await Live.signedIn(as: "docente@edugo.test")
        #expect(!live.sdk.open(deepLink: URL(string: "edugo://screen/material-edit?id=mat-001")!), "not declared")
        #expect(live.sdk.open(deepLink: URL(string: "edugo://screen/materials-list?id=mat-666")!))
        #expect(live.navigation.current?.screenKey == "materials-list" && live.navigation.current?.params == [:])
        #expect(live.sdk.open(deepLink: URL(string: "edugo://screen/material-detail?id=mat-001&role=admin")!))
        #expect(live.navigation.current?.params == ["id": "mat-001"])
        await live.stop()
    }
}
