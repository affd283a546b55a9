// The plugin of Modules/Testing/DynamicUITesting.docc/WritingAHandlerPlugin.md, a module of its
// own as in an app's package (its test, in DynamicUIActionsTests, imports it). Each region between
// snippet lines is one of the guide's code blocks (GuideSnippetTests); its imports are what the
// plugin target needs, and the guide's Package.swift lines name their products.

// snippet: plugin
public import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork  // RequestMethod (.post), Endpoint

/// Marks a material as a favourite: `CUSTOM` event `favorite` on screens keyed `favorites-*`.
public struct FavoritesPlugin: ScreenHandlerPlugin {
    public init() {}

    public var name: String { "favorites" }

    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [("favorites-*", FavoriteHandler(services: services))]
    }
}
// snippet: end

// snippet: handler
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
// snippet: end
