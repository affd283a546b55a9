import DynamicUI
import DynamicUIRendering
import Foundation

/// A document a driver has on screen, in either dialect: its model and the tasks SwiftUI would
/// run for it (its `.task` among them).
@MainActor
protocol MountedDocumentView: AnyObject {
    /// The document's model.
    associatedtype Model: DocumentHosting

    /// A view of `model`, not yet appeared.
    init(model: Model)
    /// The model drawn.
    var model: Model { get }
    /// The `.task` that ran `appeared()`.
    var appear: Task<Void, Never>? { get set }
    /// Every task running for the view.
    var tasks: [Task<Void, Never>] { get }
    /// Cancels them (the view went).
    func cancelAll()
}

/// The documents a driver has on screen, in the order they appeared, with the tasks cancelled
/// but perhaps still winding down (a cancelled request): mounted and unmounted as SwiftUI does on
/// a redraw, and waited for as `settle()` waits.
@MainActor
final class MountedDocuments<Mounted: MountedDocumentView> {
    /// The views on screen by their route's id.
    private(set) var views: [UUID: Mounted] = [:]
    /// Their ids, in the order they appeared.
    private(set) var order: [UUID] = []
    /// Tasks cancelled but perhaps still running.
    var winding: [Task<Void, Never>] = []

    /// The view of route `id`, if it is on screen.
    subscript(id: UUID) -> Mounted? { views[id] }

    /// Unmounts the views whose route is no longer in `visible` (their tasks cancelled,
    /// `disappeared()` called) and mounts those that became visible, or whose route now has
    /// another model (`renderOptions` set, `.task` started).
    func redraw(_ visible: [(id: UUID, model: Mounted.Model)], options: RenderOptions) {
        let ids = Set(visible.map(\.id))
        for id in order where !ids.contains(id) {
            guard let view = views.removeValue(forKey: id) else { continue }
            winding += view.tasks
            view.cancelAll()
            view.model.disappeared()
        }
        order.removeAll { !ids.contains($0) }
        for (id, model) in visible where views[id] == nil || views[id]?.model !== model {
            winding += views[id]?.tasks ?? []
            views[id]?.cancelAll()
            model.renderOptions = options
            let view = Mounted(model: model)
            view.appear = Task { await model.appeared() }
            views[id] = view
            if !order.contains(id) { order.append(id) }
        }
    }

    /// Waits until what was started has played out: the views' tasks, their fired actions and
    /// the tasks winding down, calling `redraw` as the navigation changes, until a redraw mounts
    /// nothing new.
    func settle(redraw: () -> Void) async {
        for _ in 0..<50 {
            redraw()
            let wound = winding
            winding = []
            for task in wound { await task.value }
            for view in order.compactMap({ views[$0] }) {
                for task in view.tasks { await task.value }
                await view.model.firedActionsFinished()
            }
            for _ in 0..<4 { await Task.yield() }
            let before = order
            redraw()
            if order == before, winding.isEmpty { break }
        }
        for _ in 0..<4 { await Task.yield() }
    }
}
