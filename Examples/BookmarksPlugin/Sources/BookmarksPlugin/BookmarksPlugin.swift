// The screen handler of `bookmark-create` screens. It keeps everything the SDK's SUBMIT_FORM does
// (the form's rules, the request, the offline queue, the screen's `on_success`) and adds two
// things around it: before, a bookmark's address must be an http(s) link; after, a 409 (the
// address is saved already) becomes an error on the address field, naming the saved bookmark.

public import DynamicUIActions
import DynamicUIModels
import Foundation

/// Bookmarks: the handler of screens keyed `bookmark-create`, and the `rated` event of its
/// rating component.
public struct BookmarksPlugin: ScreenHandlerPlugin {
    /// The plugin.
    public init() {}

    /// `bookmarks`, named in registration errors.
    public var name: String { "bookmarks" }

    /// One handler for `bookmark-create`.
    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [("bookmark-create", BookmarkCreateHandler())]
    }
}

// snippet: handler
/// Wraps the SDK's behaviour of a bookmark form's actions (see `BookmarksPlugin`).
struct BookmarkCreateHandler: ScreenHandler {
    func handle(_ action: ActionDefinition, context: ActionContext, next: ActionNext) async -> ActionResult {
        switch action.type {
        case .submitForm:
            let url = context.fieldValues["url"] ?? ""
            let scheme = URL(string: url)?.scheme?.lowercased()
            if !url.isEmpty, scheme != "https", scheme != "http" {
                return .fieldErrors(["url": "Enter a link that starts with https://"], message: nil)
            }
            let (result, outcome) = await next.outcome(action, context: context)
            if case .conflict(let current) = outcome {
                let title = current?["title"]?.stringValue ?? url
                return .fieldErrors(["url": "You saved this link already, as “\(title)”"], message: nil)
            }
            return result
        case .custom where context.config["event"]?.stringValue == "rated":
            return .success(message: nil)
        default:
            return await next(action, context: context)
        }
    }
}
// snippet: end
