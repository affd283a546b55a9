import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITesting
import Foundation
import Testing

/// Patches applied to a shown screen: its records and its zones change in place, without a
/// reload, and a patch with one bad change changes nothing.
@Suite("Patches reach the shown screen")
@MainActor
struct ShownPatchTests {
    static func text(_ model: DynamicScreenViewModel) throws -> String {
        TextRenderer().render(try model.render(options: RenderOptions()))
    }

    @Test func aRecordPatchRedrawsItsRowWithoutAReload() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(answering: materialsPage(0..<3, of: 3))
        #expect(try Self.text(model).contains("Material 1"))
        let processed: JSONValue = ["id": "mat-1", "title": "Material 1 (procesado)", "status_label": "Listo"]
        try model.applyToData(DocumentPatch(changes: [PatchChange(id: "mat-1", items: [processed])]))
        let patched = try Self.text(model)
        #expect(patched.contains("Material 1 (procesado)") && patched.contains("Material 2"))
        // One bad change rejects the patch: the first change is not applied either.
        let bad = DocumentPatch(changes: [PatchChange(id: "mat-0"), PatchChange(id: "mat-9")])
        #expect(throws: PatchError.self) { try model.applyToData(bad) }
        #expect(try Self.text(model) == patched)
        #expect(await fixture.harness.transport.requests(to: "/v1/materials").count == 1, "no reload")
        // A patch for another screen is refused.
        var elsewhere = DocumentPatch(changes: [PatchChange(id: "mat-2")])
        elsewhere.screenKey = "materials-archive"
        let error = #expect(throws: PatchError.self) { try model.applyToData(elsewhere) }
        #expect(error?.location.description == "screen_key")
        elsewhere.screenKey = "materials-list"
        try model.applyToData(elsewhere)
        #expect(!(try Self.text(model)).contains("Material 2"))
    }

    @Test func aScreenPatchAddsAZoneAndOneThatDoesNotCompileChangesNothing() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(answering: materialsPage(0..<3, of: 3))
        let first = try #require(model.compiled?.definition.template.zones.first)
        let notice: JSONValue = [
            "id": "notice", "type": "container",
            "slots": [["id": "notice-text", "control_type": "label", "label": "Nuevo aviso"]],
        ]
        try model.apply(DocumentPatch(changes: [PatchChange(id: first.id, items: [first.json, notice])]))
        let patched = try Self.text(model)
        #expect(patched.contains("Nuevo aviso"))
        #expect(model.compiled?.definition.template.zones.map(\.id).contains("notice") == true)

        let broken: JSONValue = ["id": "notice-text", "control_type": "label", "label": "{item.title | nope}"]
        let error = #expect(throws: PatchError.self) {
            try model.apply(DocumentPatch(changes: [PatchChange(id: "notice-text", items: [broken])]))
        }
        #expect(error?.code == .invalidItem)
        #expect(error?.message.contains("nope") == true, "\(String(describing: error))")
        #expect(try Self.text(model) == patched)
        #expect(await fixture.harness.transport.requests(to: "/v1/screens/materials-list").count == 1, "no reload")
    }

    @Test func aPatchBeforeTheScreenIsShownIsRefused() throws {
        let fixture = Fixture()
        let model = try fixture.model(route: Route(screenKey: "materials-list"))
        let error = #expect(throws: PatchError.self) { try model.apply(DocumentPatch(changes: [])) }
        #expect(error?.code == .noTarget)
    }

    @Test func aNodeDocumentTakesAPatchInPlace() async throws {
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://itunes.apple.com")!, documents: .folder(PodcastsCatalog().folder)),
            transport: ScriptedTransport())
        await app.start()
        let model = app.model(for: NodeRoute(document: "search"))
        await model.load()
        func title() -> String? {
            guard case .screen(let chrome) = model.render(options: RenderOptions()).root.kind else { return nil }
            return chrome.title
        }
        #expect(title() == "Search")
        let renamed: JSONValue = ["type": "screen", "id": "search", "props": ["title": "Buscar"]]
        try model.apply(DocumentPatch(changes: [PatchChange(id: "search", items: [renamed])], screenKey: "search"))
        #expect(title() == "Buscar")
        let other: JSONValue = ["type": "screen", "id": "search", "props": ["title": "Otra"]]
        let bad = DocumentPatch(changes: [PatchChange(id: "search", items: [other]), PatchChange(id: "gone")])
        #expect(throws: PatchError.self) { try model.apply(bad) }
        let elsewhere = DocumentPatch(changes: [PatchChange(id: "search", items: [other])], screenKey: "browse")
        #expect(throws: PatchError.self) { try model.apply(elsewhere) }
        #expect(title() == "Buscar")
    }

    @Test func anApplyPatchActionFetchesThePatchAndAppliesIt() async throws {
        let fixture = Fixture()
        let screen: JSONValue = [
            "screen_id": "live", "screen_key": "live", "screen_name": "En vivo", "pattern": "dashboard", "version": 1,
            "updated_at": "2026-11-25T00:00:00Z",
            "template": [
                "zones": [
                    [
                        "id": "cards", "type": "container",
                        "slots": [["id": "status", "control_type": "label", "label": "Procesando"]],
                    ]
                ]
            ],
            "actions": [
                ["id": "update", "trigger": "BUTTON_CLICK", "type": "APPLY_PATCH", "config": ["endpoint": "/v1/live/patch"]]
            ],
        ]
        let ready: JSONValue = [
            "changes": [["id": "status", "items": [["id": "status", "control_type": "label", "label": "Listo"]]]]
        ]
        await fixture.harness.transport.on(.get, "/v1/screens/live", .json(200, screen))
        await fixture.harness.transport.on(
            .get, "/v1/live/patch", .json(200, ready), .json(200, ["changes": [["id": "gone"]]]), .json(200, ["changes": "no"]),
            .json(503, nil))
        let model = try fixture.model(route: Route(screenKey: "live"))
        await model.load()
        #expect(try Self.text(model).contains("Procesando"))
        _ = await model.perform(actionId: "update")
        #expect(try Self.text(model).contains("Listo"))
        // A patch the screen cannot take: an error banner, and the screen as it was.
        _ = await model.perform(actionId: "update")
        #expect(model.banner?.kind == .error)
        #expect(try Self.text(model).contains("Listo"))
        // A body that is not a patch, and a server error: error results, the screen as it was.
        #expect(await model.perform(actionId: "update") == .error(message: "No se pudo completar la acción"))
        #expect(await model.perform(actionId: "update").isError)
        #expect(try Self.text(model).contains("Listo"))
        #expect(await fixture.harness.transport.requests(to: "/v1/screens/live").count == 1, "no reload")
    }
}
