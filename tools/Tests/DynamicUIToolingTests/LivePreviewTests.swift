import DynamicUIDemoBackend
import Foundation
import Testing

@testable import DynamicUITooling

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a server-sent event stream over loopback until `until` holds for what arrived (or
/// the time is up), then closes it.
final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var received = ""
    private var waiter: (predicate: (String) -> Bool, continuation: CheckedContinuation<String, Never>)?
    private lazy var session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
    private var task: URLSessionDataTask?

    /// Opens `url` with `cookie`.
    func open(_ url: URL, cookie: String?) {
        var request = URLRequest(url: url)
        request.timeoutInterval = 60
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let task = session.dataTask(with: request)
        self.task = task
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let ready: (CheckedContinuation<String, Never>, String)? = lock.withLock {
            received += String(decoding: data, as: UTF8.self)
            guard let waiter, waiter.predicate(received) else { return nil }
            self.waiter = nil
            return (waiter.continuation, received)
        }
        if let (continuation, text) = ready { continuation.resume(returning: text) }
    }

    /// What arrived once `until` holds for it, or what arrived in `seconds`.
    func text(until predicate: @escaping (String) -> Bool, seconds: Double = 20) async -> String {
        await withCheckedContinuation { continuation in
            let now: String? = lock.withLock {
                if predicate(received) { return received }
                waiter = (predicate, continuation)
                return nil
            }
            if let now {
                continuation.resume(returning: now)
                return
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                let late: (CheckedContinuation<String, Never>, String)? = self.lock.withLock {
                    guard let waiter = self.waiter else { return nil }
                    self.waiter = nil
                    return (waiter.continuation, self.received)
                }
                if let (continuation, text) = late { continuation.resume(returning: text) }
            }
        }
    }

    /// Closes the stream.
    func close() {
        task?.cancel()
        session.invalidateAndCancel()
    }
}

@Suite("Web preview: screens that change in place", .serialized)
struct LivePreviewTests {
    @Test func anEventKeepsEveryLineWhateverItsEnding() {
        let bytes = LiveScreens.event("screen", "<p>uno\r\ndos\rtres\ncuatro</p>\n")
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "event: screen\ndata: <p>uno\ndata: dos\ndata: tres\ndata: cuatro</p>\ndata: \n\n")
    }

    @Test func theSectionArrivesLiveAndTheSeenMetricsAreReported() async throws {
        try await withStartedPreview { _, preview in
            let browser = TestBrowser(base: preview.url)
            let dashboard = try await signInToPreview(browser, as: "docente@edugo.test")
            #expect(dashboard.path == "/screen/dashboard-teacher")
            // Drawn once its data is in: the slow section (1.5 s) is a skeleton, the page listens.
            #expect(dashboard.body.contains("class=\"skeleton\""), "the section is still loading")
            let token = try #require(
                dashboard.body.firstMatch(of: /\/_\/live\?page=(\d+)/).map { String($0.1) }, "the page carries its live script")
            #expect(dashboard.body.contains("data-visibility=\"zone:metrics\""))

            let stream = EventStreamReader()
            stream.open(URL(string: "/_/live?page=\(token)", relativeTo: preview.url)!.absoluteURL, cookie: browser.cookie)
            let arrived = await stream.text(until: { $0.contains("event: screen") && $0.contains("completó") })
            #expect(arrived.contains("event: screen"), "the filled section is sent: \(arrived.prefix(300))")
            let event = arrived.components(separatedBy: "event: screen").last ?? ""
            #expect(!event.contains("class=\"skeleton\"") && event.contains("<section class=\"screen"))

            // The page reports the metrics as fully seen; after the action's second they are an impression.
            _ = try await browser.open("/_/visibility", form: [("page", token), ("id", "zone:metrics"), ("fraction", "1")])
            var seen = false
            for _ in 0..<40 where !seen {
                try await Task.sleep(nanoseconds: 100_000_000)
                seen = try await browser.open("/_/events?after=0").body.contains(
                    "impression dashboard-teacher.metrics on dashboard-teacher")
            }
            #expect(seen, "the visibility action fired after its 1,000 ms")
            // A hostile report (an unknown id, a share that is not a number) changes nothing.
            let hostile = try await browser.open(
                "/_/visibility", form: [("page", token), ("id", "zone:nope"), ("fraction", "NaN")])
            #expect(hostile.status == 204)
            stream.close()

            // A page the session does not know reloads.
            let unknown = EventStreamReader()
            unknown.open(URL(string: "/_/live?page=9999", relativeTo: preview.url)!.absoluteURL, cookie: browser.cookie)
            let reload = await unknown.text(until: { $0.contains("event: reload") }, seconds: 10)
            #expect(reload.contains("event: reload"))
            unknown.close()
        }
    }
}
