import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// Cancel on an edit form in the web preview: an untouched form closes, an edited one asks
/// "¿Descartar los cambios?" first, as an iOS sheet does.
@Suite("Web preview: Cancel on an edited form asks first", .serialized)
struct PreviewDiscardChangesTests {
    @Test func cancelOnAnEditedFormAsksAndKeepsOrDiscardsTheEdits() async throws {
        let (browser, backend, _, stop) = try await signedInPreview(as: "admin.escuela@edugo.test")
        defer { stop() }
        let address = "/screen/user-edit?id=usr-021"
        let untouched = try await browser.open(address)
        let cancel = try #require(link(containing: "/cancel", in: untouched.body))
        let closed = try await browser.open(cancel, form: [])
        #expect(!closed.path.hasPrefix("/screen/user-edit"), "an untouched form asked: \(browser.hops.suffix(2))")

        let form = try await browser.open(address)
        let asked = try await browser.open(try #require(link(containing: "/cancel", in: form.body)), form: [("first_name", "")])
        #expect(asked.path == address, "the edits were discarded without asking: \(browser.hops.suffix(2))")
        #expect(asked.body.contains("<dialog open") && asked.body.contains("¿Descartar los cambios?"))
        #expect(PreviewConflictTests.field("first_name", in: asked.body) == "", "the edit is shown")
        let keep = try #require(PreviewConflictTests.dialogForm("Seguir editando", in: asked.body))
        let kept = try await browser.open(keep, form: [])
        #expect(kept.path == address && !kept.body.contains("<dialog open"))
        #expect(PreviewConflictTests.field("first_name", in: kept.body) == "", "the edit stays")

        let again = try await browser.open(try #require(link(containing: "/cancel", in: kept.body)), form: [("first_name", "")])
        let discard = try #require(PreviewConflictTests.dialogForm("Descartar cambios", in: again.body))
        let left = try await browser.open(discard, form: [("confirmed", "1")])
        #expect(!left.path.hasPrefix("/screen/user-edit"), "discarding closed the form: \(browser.hops.suffix(2))")
        #expect(backend.log.filter { $0.hasPrefix("PUT") || $0.hasPrefix("PATCH") }.isEmpty, "nothing was saved")
    }
}
