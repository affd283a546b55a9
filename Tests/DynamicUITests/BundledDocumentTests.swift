import DynamicUI
import DynamicUIModels
import DynamicUINetwork
import DynamicUIResolvers
import Foundation
import Testing

/// A node app's bundled documents are read, decoded, fitted and compiled off the main actor: the
/// screen stays responsive while a large one loads.
@Suite("Bundled documents load off the main actor")
@MainActor
struct BundledDocumentTests {
    /// A folder with `app.json`: one screen of `count` texts (about 60 bytes each).
    static func folder(texts count: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let texts = (0..<count).map { index -> JSONValue in
            ["type": "text", "id": .string("t\(index)"), "props": ["text": .string("Línea \(index): {$.title}")]]
        }
        let app: JSONValue = [
            "type": "screen", "id": "app",
            "props": ["title": "Grande", "body": ["type": "vstack", "props": ["spacing": 4], "children": .array(texts)]],
        ]
        try Data(JSONWriter().bytes(from: app)).write(to: folder.appendingPathComponent("app.json"))
        return folder
    }

    /// Whether the test runs alone (`.ci/run` runs it so, after the other tests): beside the
    /// whole suite the main actor is busy with other tests, and its turns count nothing. Alone,
    /// the load leaves it about 70,000 turns; read on the main actor, 3.
    static let runsAlone = ProcessInfo.processInfo.environment["DYNAMICUI_RESPONSIVENESS"] == "1"

    @Test func theMainActorRunsWhileALargeDocumentLoads() async throws {
        let folder = try Self.folder(texts: 15_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(baseURL: URL(string: "https://api.example.com")!, documents: .folder(folder)))
        let loading = Task { await app.start() }
        // Each turn is the main actor doing something else while the document loads.
        var turns = 0
        while app.phase != .ready {
            if case .failed(let message) = app.phase {
                Issue.record("\(message)")
                break
            }
            turns += 1
            await Task.yield()
        }
        await loading.value
        #expect(app.phase == .ready)
        if Self.runsAlone {
            #expect(turns > 200, "the main actor ran \(turns) times while 15,000 nodes were read and compiled")
        }
        let document = try await app.document("app")
        #expect(document.node.id == "app")
    }
}
