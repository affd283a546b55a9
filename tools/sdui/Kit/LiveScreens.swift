import DynamicUI
import DynamicUIModels
import DynamicUIRendering
import DynamicUIWeb
import Foundation
import Observation

/// A page's model as its live stream sees it, in either dialect: the tree it keeps once given
/// render options, and whether its page is shown.
@MainActor
protocol LiveModel: AnyObject, Sendable {
    /// How the kept tree is built; setting it makes the model keep the tree current.
    var renderOptions: RenderOptions? { get set }
    /// Builds the kept tree now if an input changed.
    func renderIfNeeded()
    /// The kept tree (read under observation tracking: a change of it ends the wait).
    var keptRoot: RenderNode? { get }
    /// The page was shown or left.
    func pageDidChange(isShown: Bool) async
}

extension DynamicScreenViewModel: LiveModel {
    var keptRoot: RenderNode? { if case .success(let root)? = tree { root } else { nil } }

    func pageDidChange(isShown: Bool) async { await screenDidChange(isVisible: isShown) }
}

extension NodeScreenModel: LiveModel {
    var keptRoot: RenderNode? { rendered?.root }

    /// A document's timers keep counting while its page is away (they write only its state).
    func pageDidChange(isShown: Bool) async {}
}

/// What a page of a screen was drawn with: the live stream draws the screen again the same way.
struct DrawnPage {
    let root: RenderNode
    let renderer: HTMLRenderer
    let options: RenderOptions
}

/// A screen page that changes in place: while a page listens (`/_/live?page=N`, server-sent
/// events), its view model keeps its render tree, counts as shown (its timers tick, its
/// visibility actions run) and every new tree is sent as the screen's `<section>` drawn again;
/// the page's script merges it (`HTMLRenderer.liveScript`). When the page goes away the screen
/// counts as covered. A comment every few seconds notices a page that left without a word.
@MainActor
enum LiveScreens {
    /// Seconds between keep-alive comments.
    static let heartbeat = 5.0
    /// How many pages listen to each model: the screen counts as shown while one does (an
    /// action's page and the next, or two tabs, share a model).
    private static var listeners: [ObjectIdentifier: Int] = [:]

    /// Whether a page listens to `model` now (it counts as shown).
    static func isListened(_ model: any LiveModel) -> Bool { listeners[ObjectIdentifier(model)] != nil }

    /// The event stream of `model`'s page, drawn first as `drawn`.
    static func stream(model: any LiveModel, drawn: DrawnPage) -> AsyncStream<[UInt8]> {
        // Screen events carry the whole screen (a newer one replaces an older), so only the
        // newest few wait for a slow page.
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(8))
        continuation.yield(Array("retry: 1000\n: live screen\n\n".utf8))
        let id = ObjectIdentifier(model)
        listeners[id, default: 0] += 1
        let first = listeners[id] == 1
        let task = Task { @MainActor [weak model] in
            guard let model, !Task.isCancelled else { return }
            if first { await model.pageDidChange(isShown: true) }
            model.renderOptions = drawn.options
            var last = drawn.renderer.fragment(drawn.root)
            let changes = TreeChanges()
            var observing = false
            while !Task.isCancelled {
                model.renderIfNeeded()
                if !observing {
                    // One observation per change: it ends at the next change of the kept tree.
                    withObservationTracking {
                        _ = model.keptRoot
                    } onChange: {
                        changes.fire()
                    }
                    observing = true
                }
                let html = drawn.renderer.fragment(current(model, drawn: drawn))
                if html != last {
                    last = html
                    continuation.yield(event("screen", html))
                }
                if await changes.next(within: heartbeat) {
                    observing = false
                } else if !Task.isCancelled {
                    continuation.yield(Array(": ping\n\n".utf8))
                }
            }
        }
        continuation.onTermination = { [weak model] _ in
            task.cancel()
            Task { @MainActor in
                let left = (listeners[id] ?? 1) - 1
                listeners[id] = left > 0 ? left : nil
                if left <= 0 { await model?.pageDidChange(isShown: false) }
            }
        }
        return stream
    }

    /// The screen as the model keeps it, with the banner the page was drawn with (a banner is
    /// shown once, when the page is drawn; the page keeps it until the next page).
    static func current(_ model: any LiveModel, drawn: DrawnPage) -> RenderNode {
        var root: RenderNode
        if let kept = model.keptRoot {
            root = kept
        } else if let screen = model as? DynamicScreenViewModel {
            root =
                (try? screen.render(options: drawn.options))
                ?? LoadFailure.failed(screen.strings(.screenShowFailed)).screen(
                    title: "", canGoBack: false, strings: screen.strings)
        } else {
            root = drawn.root
        }
        if case .screen(var chrome) = root.kind, case .screen(let first) = drawn.root.kind {
            chrome.banner = first.banner
            root.kind = .screen(chrome)
        }
        return root
    }

    /// One server-sent event; every line of `data` is its own `data:` line. A line ends at a
    /// line feed, a carriage return or both (as the page's event parser reads it), so a CR in
    /// a text cannot cut the event short.
    nonisolated static func event(_ name: String, _ data: String) -> [UInt8] {
        var bytes = Array("event: \(name)\ndata: ".utf8)
        bytes.reserveCapacity(data.utf8.count + 64)
        var previous: UInt8 = 0
        for byte in data.utf8 {
            switch byte {
            case UInt8(ascii: "\n") where previous == UInt8(ascii: "\r"):
                break  // the LF of a CRLF: the line already ended
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                bytes += Array("\ndata: ".utf8)
            default:
                bytes.append(byte)
            }
            previous = byte
        }
        bytes += Array("\n\n".utf8)
        return bytes
    }

    /// The visibility actions of the node `id` in the screen `model` shows (a list's rows
    /// included, as far as the page draws them), from the server's own tree: a page reports
    /// only an id and a share.
    /// Before the stream has the model keep its tree, the tree the page was drawn from is used.
    static func visibility(
        of id: String, in model: any LiveModel, drawn: DrawnPage?, rowLimit: Int = 500
    ) -> RenderVisibility? {
        guard let root = model.keptRoot ?? drawn?.root else { return nil }
        return root.nodes(rowLimit: rowLimit).first { $0.id == id }?.visibility
    }
}

/// The changes of a kept tree, waited for one at a time: `fire()` (an observation's change)
/// marks one; `next(within:)` returns `true` for it, or `false` when the time passed or the task
/// was cancelled first. A change that came while nobody waited is not lost.
private final class TreeChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: (id: Int, continuation: CheckedContinuation<Bool, Never>)?
    private var nextId = 0

    /// A change happened.
    func fire() {
        let waiting: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard let waiter else {
                pending = true
                return nil
            }
            self.waiter = nil
            return waiter.continuation
        }
        waiting?.resume(returning: true)
    }

    /// Waits for the next change, at most `seconds`.
    func next(within seconds: Double) async -> Bool {
        let id: Int = lock.withLock {
            nextId += 1
            return nextId
        }
        let timeout = Task {
            try? await Task.sleep(nanoseconds: WireNumber.sleepNanoseconds(seconds: seconds))
            self.end(id, with: false)
        }
        defer { timeout.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = lock.withLock {
                    if pending {
                        pending = false
                        return true
                    }
                    waiter = (id, continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            self.end(id, with: false)
        }
    }

    /// Ends the wait `id` (its time passed, or its task was cancelled) if it still waits.
    private func end(_ id: Int, with value: Bool) {
        let waiting: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard let waiter, waiter.id == id else { return nil }
            self.waiter = nil
            return waiter.continuation
        }
        waiting?.resume(returning: value)
    }
}
