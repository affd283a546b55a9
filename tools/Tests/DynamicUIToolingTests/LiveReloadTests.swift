import DynamicUITooling
import Foundation
import Testing

@Suite("Live reload of a catalog folder")
struct LiveReloadTests {
    final class Box: @unchecked Sendable {
        var applied = 0
        var errors: [String] = []
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dynamicui-live-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try Data(#"{"a": 1}"#.utf8).write(to: folder.appendingPathComponent("screens/one.json"))
        try Data(#"{"b": 2}"#.utf8).write(to: folder.appendingPathComponent("screens/two.json"))
        return folder
    }

    @Test func anEditRevalidatesAppliesAndTellsEveryPage() async throws {
        let folder = try Self.folder()
        let box = Box()
        let reload = LiveReload(folder: folder, validate: { _ in box.errors }, apply: { box.applied += 1 })
        reload.start()
        defer { reload.stop() }
        var events = reload.events(since: 0).makeAsyncIterator()
        let greeting = String(decoding: await events.next() ?? [], as: UTF8.self)
        #expect(greeting.hasPrefix("retry:"))

        await reload.check()
        #expect(reload.generation == 0, "nothing changed, nothing happens")

        try Data(#"{"a": 10}"#.utf8).write(to: folder.appendingPathComponent("screens/one.json"))
        await reload.check()
        #expect(reload.generation == 1)
        #expect(box.applied == 1)
        #expect(String(decoding: await events.next() ?? [], as: UTF8.self) == "event: reload\ndata: 1\n\n")
        #expect(reload.errorPage() == nil)
        #expect(reload.inject(into: "<html><body><p>x</p></body></html>").contains("EventSource('/_/live-reload?since=1')"))

        // A broken catalog is not applied; its errors come first for the file that changed.
        let two = folder.appendingPathComponent("screens/two.json").path
        let one = folder.appendingPathComponent("screens/one.json").path
        box.errors = ["\(one): screen_key: error: consequence", "\(two): $: error: invalid JSON"]
        try Data("{".utf8).write(to: folder.appendingPathComponent("screens/two.json"))
        await reload.check()
        #expect(box.applied == 1)
        #expect(reload.errors.first?.hasPrefix(two) == true)
        let page = try #require(reload.errorPage())
        #expect(page.contains("screens/two.json: $: error: invalid JSON"))
        #expect(!page.contains(folder.path), "paths are shown relative to the folder")
        #expect(page.contains("has 2 errors"))

        // A page drawn before the last change reloads as soon as it listens.
        var late = reload.events(since: 1).makeAsyncIterator()
        _ = await late.next()
        #expect(String(decoding: await late.next() ?? [], as: UTF8.self) == "event: reload\ndata: 2\n\n")
    }

    @Test func stoppingEndsTheStreamsSoTheServerCanStop() async throws {
        let reload = LiveReload(folder: try Self.folder(), validate: { _ in [] }, apply: {})
        reload.start()
        var events = reload.events(since: nil).makeAsyncIterator()
        _ = await events.next()
        reload.stop()
        #expect(await events.next() == nil)
    }
}
