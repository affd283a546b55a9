import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// The EduGo preview is an app that ships the media player: a video material is played in its
/// page, not described by its fallback ("Ábrelo con Descargar").
@Suite("Web preview: a video material plays", .serialized)
struct PreviewMediaPlayerTests {
    @Test func aVideoMaterialIsAPlayer() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "docente@edugo.test")
        defer { stop() }
        let page = try await browser.open("/screen/material-detail?id=mat-020")
        #expect(page.status == 200 && page.path == "/screen/material-detail?id=mat-020")
        #expect(page.body.contains("data-type=\"media-player\""), "the player is drawn")
        #expect(page.body.contains("<video"), "a video element plays the material")
        #expect(page.body.contains("src=\"https://cdn.edugo.test/materiales/mat-020/"), "it plays the material's file")
        #expect(!page.body.contains("Ábrelo con Descargar"), "the fallback is drawn instead of the player")
    }
}
