// The host side of the documents' `shareEpisode` event: the system share sheet.

import DynamicUIActions
import DynamicUIModels
import Foundation
import UIKit

/// Shows the system share sheet for an episode, over whatever is on screen (the document's own
/// share sheet, where the event comes from).
enum EpisodeShareSheet {
    /// Shares the payload's `note` and `title` as text and its `url` as a link. Returns once the
    /// person has shared or closed the system sheet, and always with success: the document's
    /// sequence then goes on and closes its own sheet (closing that sheet while the system one
    /// is open would take the system one down with it).
    @MainActor
    static func present(_ payload: JSONObject) async -> ActionResult {
        let text = [payload["note"]?.stringValue, payload["title"]?.stringValue]
            .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
        var items: [Any] = text.isEmpty ? [] : [text]
        if let link = payload["url"]?.stringValue, let url = URL(string: link), url.scheme == "https" {
            items.append(url)
        }
        guard !items.isEmpty, let presenter = topViewController() else { return .success(message: nil) }

        let sheet = UIActivityViewController(activityItems: items, applicationActivities: nil)
        // On iPad the sheet is a popover, which needs a place to point at.
        if let popover = sheet.popoverPresentationController {
            popover.sourceView = presenter.view
            popover.sourceRect = CGRect(x: presenter.view.bounds.midX, y: presenter.view.bounds.midY, width: 0, height: 0)
            popover.permittedArrowDirections = []
        }
        let (closed, close) = AsyncStream<Void>.makeStream()
        sheet.completionWithItemsHandler = { _, _, _, _ in close.finish() }
        presenter.present(sheet, animated: true)
        for await _ in closed {}
        return .success(message: nil)
    }

    /// The view controller on top of the key window of the active scene: the one a new
    /// presentation must come from.
    @MainActor
    private static func topViewController() -> UIViewController? {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        let scene = scenes.first { $0.activationState == .foregroundActive } ?? scenes.first
        var top = scene?.keyWindow?.rootViewController
        while let presented = top?.presentedViewController, !presented.isBeingDismissed {
            top = presented
        }
        return top
    }
}
