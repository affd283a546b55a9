import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

@Suite("sdui serve --catalog")
struct PreviewCatalogTests {
    @Test func namesAndFoldersInEitherFormat() throws {
        #expect(try PreviewCatalog(argument: "edugo") == .edugo)
        #expect(try PreviewCatalog(argument: "podcasts").startPath == "/podcasts")
        let edugo = CatalogLocation.root.appendingPathComponent("edugo")
        let podcasts = CatalogLocation.root.appendingPathComponent("podcasts")
        #expect(try PreviewCatalog(argument: edugo.path) == .eduGoFolder(URL(fileURLWithPath: edugo.path)))
        #expect(try PreviewCatalog(argument: podcasts.path) == .podcastsFolder(URL(fileURLWithPath: podcasts.path)))
        let backend = try PreviewCatalog(argument: podcasts.path).backend(databasePath: nil)
        #expect(backend.podcastCatalog.folder.path == podcasts.path)
    }

    @Test func anythingElseSaysWhatWasExpected() throws {
        #expect {
            try PreviewCatalog(argument: "/no/such/folder")
        } throws: { error in
            "\(error)".contains("/no/such/folder") && "\(error)".contains("'edugo', 'podcasts'")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect {
            try PreviewCatalog(argument: empty.path)
        } throws: { error in
            "\(error)".contains("screens/") && "\(error)".contains("app.json")
        }
    }
}
