// A screen-handler plugin as a third party writes it: a library that depends on DynamicUIActions
// (which brings the API client), never on the composition root. It serves the `CUSTOM` events of
// a reading list on every screen keyed `reading-*` and leaves every other action to the SDK's
// generic handlers. `Modules/Testing/DynamicUITesting.docc/WritingAHandlerPlugin.md` shows how
// to test one with `HandlerHarness`.

public import DynamicUIActions
import DynamicUIModels
public import DynamicUINetwork

/// A reading list of materials: the `CUSTOM` events `save-for-later` (a material's row or detail)
/// and `mark-read` (a saved one) on screens keyed `reading-*`.
public struct ReadingListPlugin: ScreenHandlerPlugin {
    /// The list's endpoint: `POST` adds a material, `PUT <endpoint>/{id}` updates one.
    public var endpoint: Endpoint

    /// Creates the plugin.
    public init(endpoint: Endpoint = "/v1/reading-list") { self.endpoint = endpoint }

    /// `reading-list`, named in registration errors.
    public var name: String { "reading-list" }

    /// One handler for every `reading-*` screen.
    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [("reading-*", ReadingListHandler(endpoint: endpoint, services: services))]
    }
}

/// Adds the selected material to the list, or marks it read. `Mutation` brings routing
/// (`admin:`/`mobile:`), the `{id}` path parameter from the selected item or the screen's
/// params, the offline queue (a change made offline is kept and shown as pending), 422 field
/// errors and cache invalidation.
struct ReadingListHandler: ScreenHandler {
    let endpoint: Endpoint
    let services: ActionServices

    func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        guard action.type == .custom else { return nil }
        // The words come from the screen's action when the server sends them.
        let message = context.config["success_message"]?.stringValue
        switch context.config["event"]?.stringValue {
        case "save-for-later":
            guard let id = context.selectedItemId else { return .error(message: services.strings(.dataUnavailable)) }
            let mutation = Mutation(
                method: .post, endpoint: endpoint, body: ["material_id": .string(id)],
                successMessage: message ?? "Saved for later", invalidates: ["reading-list"])
            return await services.perform(mutation, context: context)
        case "mark-read":
            let mutation = Mutation(
                method: .put, endpoint: Endpoint(service: endpoint.service, path: endpoint.pathTemplate + "/{id}"),
                body: ["read": true],
                successMessage: message ?? "Marked as read", invalidates: ["reading-list", "reading-detail"])
            return await services.perform(mutation, context: context)
        default:
            // Not ours: the generic handlers run it.
            return nil
        }
    }
}
