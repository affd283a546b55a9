import DynamicUI
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITesting
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
        #expect(error?.code == .unknownId)
    }
}
