import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// What the preview shows as an iOS app would after the walk's runtime fixes: a conflicting
/// save keeps the form and says so, the assessment's countdown keeps its deadline, and a
/// change made offline is one pending change.
@Suite("Web preview: conflicts, deadlines and pending changes", .serialized)
struct PreviewConflictTests {
    /// The value of the input named `name`, unescaped.
    static func field(_ name: String, in html: String) -> String? {
        for input in html.matches(of: /<(?:input|textarea)[^>]*>/) {
            let tag = String(input.0)
            guard tag.contains("name=\"\(name)\"") else { continue }
            if tag.hasPrefix("<textarea") { continue }
            return tag.firstMatch(of: /value="([^"]*)"/).map { String($0.1) }
        }
        return nil
    }

    /// The action of the confirmation dialog's form whose button says `label`.
    static func dialogForm(_ label: String, in html: String) -> String? {
        guard let dialog = html.firstMatch(of: /<dialog open[^>]*>(.*?)<\/dialog>/.dotMatchesNewlines()) else { return nil }
        for form in String(dialog.1).matches(of: /<form method="post" action="([^"]*)">(.*?)<\/form>/)
        where form.2.contains(label) {
            return String(form.1).replacingOccurrences(of: "&amp;", with: "&")
        }
        return nil
    }

    @Test func aConflictingSaveKeepsTheFormSaysSoReloadsOrKeepsEditingAndThenSaves() async throws {
        try await withStartedPreview { backend, preview in
            let first = TestBrowser(base: preview.url)
            let second = TestBrowser(base: preview.url)
            try await signInToPreview(first, as: "docente@edugo.test")
            try await signInToPreview(second, as: "docente@edugo.test")
            let address = "/screen/material-edit?id=mat-092"
            let one = try await first.open(address)
            let two = try await second.open(address)
            #expect(one.path == address && two.path == address)
            let loaded = try #require(Self.field("title", in: two.body), "the form shows the title")

            // The first session saves.
            let save = try #require(link(containing: "/submit", in: one.body))
            let saved = try await first.open(save, form: [("title", "Título guardado en otra pestaña")])
            #expect(!saved.path.hasPrefix("/screen/material-edit"), "the first save closed its form: \(saved.path)")

            // The second changes the title and saves over the version it loaded.
            let conflicting = try #require(link(containing: "/submit", in: two.body))
            let refused = try await second.open(conflicting, form: [("title", "Mi título")])
            #expect(refused.path == address, "the form stays: \(second.hops.suffix(3))")
            #expect(Self.field("title", in: refused.body) == "Mi título", "the typed title stays")
            #expect(refused.body.contains("Otro usuario modificó estos datos"), "the conflict is said")
            #expect(refused.body.contains("<dialog open"), "the conflict's dialog shows")
            #expect(refused.body.contains("Datos modificados por otra persona"))
            let reload = try #require(Self.dialogForm("Volver a cargar", in: refused.body), "Volver a cargar is offered")
            #expect(reload.hasSuffix("/conflict-reload"), "\(reload)")
            #expect(Self.dialogForm("Seguir editando", in: refused.body) != nil, "Seguir editando is offered")

            // Volver a cargar brings the server's title into the form.
            let reloaded = try await second.open(reload, form: [("confirmed", "1")])
            #expect(reloaded.path == address, "\(second.hops.suffix(3))")
            #expect(!reloaded.body.contains("<dialog open"))
            #expect(Self.field("title", in: reloaded.body) == "Título guardado en otra pestaña", "the server's title is shown")
            #expect(loaded != "Título guardado en otra pestaña")

            // The first session saves once more; the second's save conflicts again.
            let reopened = try await first.open(address)
            _ = try await first.open(
                try #require(link(containing: "/submit", in: reopened.body)), form: [("title", "Otra vez desde la otra pestaña")])
            let again = try await second.open(
                try #require(link(containing: "/submit", in: reloaded.body)), form: [("title", "Mi título")])
            #expect(again.path == address)
            let keep = try #require(Self.dialogForm("Seguir editando", in: again.body), "Seguir editando is offered")

            // Seguir editando: the dialog closes, the edit stays, and the next save replaces the
            // server's record.
            let kept = try await second.open(keep, form: [])
            #expect(kept.path == address)
            #expect(!kept.body.contains("<dialog open"), "the dialog is closed")
            #expect(Self.field("title", in: kept.body) == "Mi título")
            let savedAgain = try await second.open(
                try #require(link(containing: "/submit", in: kept.body)), form: [("title", "Mi título")])
            #expect(!savedAgain.path.hasPrefix("/screen/material-edit"), "not saved: \(second.hops.suffix(3))")
            let detail = try await second.open("/screen/material-detail?id=mat-092")
            #expect(detail.body.contains("Mi título"), "the record has the title saved last")
            #expect(backend.log.filter { $0.hasPrefix("PUT") || $0.hasPrefix("PATCH") }.count >= 5)
        }
    }

    /// The milliseconds of the countdown's `mm:ss` on the page: the remaining time the model
    /// holds (the live stream draws each tick of it again).
    static func countdown(in html: String) -> Int? {
        guard let shown = html.firstMatch(of: /<span class="label">Tiempo restante<\/span><span class="value">(\d+):(\d\d)</)
        else { return nil }
        return ((Int(shown.1) ?? 0) * 60 + (Int(shown.2) ?? 0)) * 1000
    }

    @Test func theCountdownShowsTheTimeLeftUntilTheAttemptsDeadline() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "estudiante@edugo.test")
        defer { stop() }
        let address = "/screen/assessment-take?id=mat-002"
        let first = try await browser.open(address)
        let started = try #require(Self.countdown(in: first.body), "the page counts down from the model's time")
        #expect(started <= 15 * 60_000 && started > 14 * 60_000 + 50_000, "\(started)")
        try await Task.sleep(for: .seconds(3))
        let reloaded = try await browser.open(address)
        let later = try #require(Self.countdown(in: reloaded.body))
        #expect(later <= started - 2_000, "the reload restarted it: \(later) after \(started)")
        #expect(later >= started - 10_000, "\(later) after \(started)")
        // A refused submit (questions left unanswered) keeps counting.
        let submit = try #require(link(containing: "/submit", in: reloaded.body))
        let refused = try await browser.open(submit, form: [("q1", "c")])
        #expect(refused.path == address, "\(browser.hops.suffix(3))")
        let afterRefusal = try #require(Self.countdown(in: refused.body))
        #expect(afterRefusal <= later && afterRefusal < 15 * 60_000 - 2_000, "\(afterRefusal)")
    }

    /// The preview bar's count of pending changes, if it shows one.
    static func pending(in html: String) -> String? {
        html.firstMatch(of: /id="preview-pending" role="status">([^<]*)</).map { String($0.1) }
    }

    @Test func aChangeMadeOfflineIsPendingOnceAndSaysSo() async throws {
        let (browser, backend, _, stop) = try await signedInPreview(as: "docente@edugo.test")
        defer { stop() }
        let address = "/screen/material-edit?id=mat-092"
        let form = try await browser.open(address)
        let offline = try await browser.open("/_/connection", form: [("online", "0"), ("return", address)])
        #expect(offline.body.contains("sin conexión"))
        let submit = try #require(link(containing: "/submit", in: form.body))
        let queued = try await browser.open(submit, form: [("title", "Cambio sin conexión")])
        #expect(Self.pending(in: queued.body) != nil, "the change is pending: \(browser.hops.suffix(2))")
        // The form posted again (from the browser's history): the form is drawn with its edit,
        // its save disabled and saying the change is pending; nothing more is queued.
        let again = try await browser.open(submit, form: [("title", "Cambio sin conexión")])
        #expect(again.path == address, "\(browser.hops.suffix(3))")
        #expect(Self.field("title", in: again.body) == "Cambio sin conexión")
        let save = try #require(again.body.firstMatch(of: /<button[^>]*formaction="[^"]*\/submit"[^>]*>/), "the save is drawn")
        #expect(save.0.contains("disabled=\"disabled\"") && save.0.contains("data-pending=\"true\""), "\(save.0)")
        #expect(again.body.contains("<div class=\"banner pending\" role=\"status\">Sin conexión: el cambio se enviará"))
        #expect(Self.pending(in: again.body) == "1 cambio pendiente", "\(Self.pending(in: again.body) ?? "none")")
        _ = try await browser.open("/_/connection", form: [("online", "1"), ("return", address)])
        #expect(backend.log.filter { $0.hasPrefix("PUT") || $0.hasPrefix("PATCH") }.count == 1, "\(backend.log.suffix(5))")
    }
}
