import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// The EduGo preview is an app that ships the media player: a video material is played in its
/// page, not described by its fallback ("Ábrelo con Descargar").
@Suite("Web preview: a video material plays", .serialized)
struct PreviewMediaPlayerTests {
    @Test func aVideoMaterialIsAPlayer() async throws {
        let (backend, preview) = try await startedPreview()
        defer {
            Task {
                await preview.stop()
                await backend.stop()
            }
        }
        let browser = TestBrowser(base: preview.url)
        try await signInToPreview(browser, as: "docente@edugo.test")
        let page = try await browser.open("/screen/material-detail?id=mat-020")
        #expect(page.status == 200 && page.path == "/screen/material-detail?id=mat-020")
        #expect(page.body.contains("data-type=\"media-player\""), "the player is drawn")
        #expect(page.body.contains("<video"), "a video element plays the material")
        #expect(page.body.contains("src=\"https://cdn.edugo.test/materiales/mat-020/"), "it plays the material's file")
        #expect(!page.body.contains("Ábrelo con Descargar"), "the fallback is drawn instead of the player")
    }
}
