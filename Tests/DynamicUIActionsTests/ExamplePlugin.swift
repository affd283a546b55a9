// The example of Modules/Testing/DynamicUITesting.docc/WritingAHandlerPlugin.md. The guide's
// code blocks are checked to appear here verbatim (see `guideMatchesTheCompiledExample`).
public import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

// MARK: The plugin

/// Marks a material as a favourite: `CUSTOM` event `favorite` on screens keyed `favorites-*`.
public struct FavoritesPlugin: ScreenHandlerPlugin {
    public init() {}

    public var name: String { "favorites" }

    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [("favorites-*", FavoriteHandler(services: services))]
    }
}

struct FavoriteHandler: ScreenHandler {
    let services: ActionServices

    func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        // Only our event; everything else goes to the generic handlers.
        guard action.type == .custom, context.config["event"]?.stringValue == "favorite" else { return nil }
        guard let id = context.selectedItemId else { return .error(message: "Nada seleccionado") }
        let mutation = Mutation(
            method: .post, endpoint: "/v1/favorites", body: ["material_id": .string(id)],
            successMessage: "Añadido a favoritos", invalidates: ["favorites-list"])
        return await services.perform(mutation, context: context)
    }
}

// MARK: Its test

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
