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

    /// The event stream of `model`'s page, drawn first as `drawn`.
    static func stream(model: any LiveModel, drawn: DrawnPage) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(4))
        continuation.yield(Array("retry: 1000\n: live screen\n\n".utf8))
        let task = Task { @MainActor [weak model] in
            guard let model else { return }
            await model.pageDidChange(isShown: true)
            model.renderOptions = drawn.options
            var last = drawn.renderer.fragment(drawn.root)
            while !Task.isCancelled {
                model.renderIfNeeded()
                let html = drawn.renderer.fragment(current(model, drawn: drawn))
                if html != last {
                    last = html
                    continuation.yield(event("screen", html))
                }
                if await !nextChange(of: model, within: heartbeat) { continuation.yield(Array(": ping\n\n".utf8)) }
            }
        }
        continuation.onTermination = { [weak model] _ in
            task.cancel()
            Task { @MainActor in await model?.pageDidChange(isShown: false) }
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

    /// One server-sent event; every line of `data` is its own `data:` line.
    static func event(_ name: String, _ data: String) -> [UInt8] {
        var text = "event: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return Array((text + "\n").utf8)
    }

    /// Waits until the model's tree changes (`true`) or `seconds` pass (`false`); returns at
    /// once when the task is cancelled.
    static func nextChange(of model: any LiveModel, within seconds: Double) async -> Bool {
        let signal = ChangeSignal()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                signal.set(continuation)
                withObservationTracking {
                    _ = model.keptRoot
                } onChange: {
                    signal.resume(true)
                }
                Task {
                    try? await Task.sleep(nanoseconds: WireNumber.sleepNanoseconds(seconds: seconds))
                    signal.resume(false)
                }
            }
        } onCancel: {
            signal.resume(false)
        }
    }

    /// The visibility actions of the node `id` in the screen `model` shows (a list's rows
    /// included, as far as the page draws them), from the server's own tree: a page reports
    /// only an id and a share.
    static func visibility(of id: String, in model: any LiveModel, rowLimit: Int = 500) -> RenderVisibility? {
        guard let root = model.keptRoot else { return nil }
        var pending = [root]
        while let node = pending.popLast() {
            if node.id == id { return node.visibility }
            pending += node.children
            if case .list(_, let rows) = node.kind { pending += rows.rows(limit: rowLimit) }
        }
        return nil
    }
}

/// Resumes a continuation once: a change, the heartbeat or the cancellation, whichever is first.
private final class ChangeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    private var early: Bool?

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        let value: Bool? = lock.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let value { continuation.resume(returning: value) }
    }

    func resume(_ value: Bool) {
        let waiting: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard early == nil else { return nil }
            early = value
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}
