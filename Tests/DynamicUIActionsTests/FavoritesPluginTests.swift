// The tests of Modules/Testing/DynamicUITesting.docc/WritingAHandlerPlugin.md and of the offline
// behaviour in Modules/DynamicUI/DynamicUI.docc/OfflineFirst.md. Each region between snippet
// lines is a guide's code block (GuideSnippetTests); the imports are what a test target needs.

// snippet: test
import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork  // RequestMethod (.post)
import DynamicUIStorage  // AuthTokens
import DynamicUITesting  // HandlerHarness, ScriptedTransport (.json)
import FavoritesPlugin
import Foundation
import Testing

@Test func favoritePostsTheSelectedMaterial() async throws {
    let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
    await harness.transport.on(.post, "/v1/favorites", .json(201, ["ok": true]))

    let action = ActionDefinition(id: "fav", trigger: .buttonClick, type: .custom)
    let context = ActionContext(
        screenKey: "favorites-list", handlerKey: "favorites-list", actionId: "fav",
        config: ["event": "favorite"], selectedItem: ["id": "mat-7"])
    let result = try await harness.run(FavoritesPlugin(), action, context: context)

    #expect(result == .success(message: "Añadido a favoritos"))
    let request = try #require(await harness.transport.requests.first)
    #expect(request.url.absoluteString == "https://mobile.api.test/v1/favorites")
    #expect(request.headers["Authorization"] == "Bearer token")
    #expect(ScriptedTransport.body(of: request) == ["material_id": "mat-7"])
    #expect(await harness.invalidator.screens == ["favorites-list"])
}
// snippet: end

// snippet: offline
@Test func aFavoriteMadeOfflineWaitsInTheQueue() async throws {
    let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
    await harness.transport.setFallback(.failure(.noConnection))

    let action = ActionDefinition(id: "fav", trigger: .buttonClick, type: .custom)
    let context = ActionContext(
        screenKey: "favorites-list", handlerKey: "favorites-list", actionId: "fav",
        config: ["event": "favorite"], selectedItem: ["id": "mat-7"])
    let result = try await harness.run(FavoritesPlugin(), action, context: context)

    // The user sees the change as pending, and it is stored durably, to be sent when the
    // connection returns.
    guard case .pendingOffline = result else {
        Issue.record("expected a pending change, got \(result)")
        return
    }
    let queued = try harness.queue.all()
    #expect(queued.count == 1)
    #expect(queued.first?.method == "POST")
    #expect(queued.first?.url.hasSuffix("/v1/favorites") == true)
}
// snippet: end
