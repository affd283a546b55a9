import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// A confirmation's Cancel closes the dialog and changes nothing: the page keeps its `?id=`, its
/// record and what was typed.
@Suite("Preview: Cancel on a confirmation changes nothing", .serialized)
struct PreviewConfirmationTests {
    @Test func cancellingADeleteKeepsThePageAndItsRecord() async throws {
        let backend = try DemoBackend()
        try await backend.start()
        let preview = WebPreview(backend: backend)
        try await preview.start()
        let browser = TestBrowser(base: preview.url)
        let login = try await browser.open("/")
        let submit = try #require(link(containing: "submit-login", in: login.body))
        _ = try await browser.open(submit, form: [("email", "docente@edugo.test"), ("password", "edugo123")])
        let detail = try await browser.open("/screen/material-detail?id=mat-092")
        let delete = try #require(link(containing: "/delete", in: detail.body), "the teacher may delete own material")
        let asked = try await browser.open(delete, form: [])
        #expect(asked.body.contains("<dialog open"), "the confirmation shows")
        let cancel = try #require(link(containing: "/_cancel-confirmation", in: asked.body))
        let back = try await browser.open(cancel, form: [])
        #expect(back.path == "/screen/material-detail?id=mat-092", "the page keeps its parameters: \(back.path)")
        #expect(!back.body.contains("<dialog open"), "the dialog is closed")
        #expect(!back.body.contains("No encontrado"))
        #expect(!backend.log.contains { $0.hasPrefix("DELETE") }, "nothing was deleted")
        await preview.stop()
        await backend.stop()
    }
}
