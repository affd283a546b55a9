import DynamicUI
import DynamicUIModels
import DynamicUIRendering
import Foundation
import Testing

@testable import DynamicUITooling

/// A third party's plugin as its manifest declares it: a handler key and a component that
/// reads two props and fires `onChange`.
private let bookmarksManifest = #"""
    {"dynamicui_plugin": "bookmarks", "handler_keys": ["bookmark-create", "bookmark-list-*"],
     "components": [{"type": "rating-stars", "events": ["onChange"], "props": ["value", "max"]}]}
    """#

/// A form screen of the plugin: its handler key, and a `rating-stars` slot with a fallback for
/// app versions without the component, whose action names the slot.
private let bookmarkScreen = #"""
    {"screen_id": "s-bookmark", "screen_key": "bookmark-create", "screen_name": "Bookmark", "pattern": "form", "version": 1, "updated_at": "2026-11-27T00:00:00Z",
     "handler_key": "bookmark-create",
     "template": {"zones": [{"id": "form", "type": "form-section", "slots": [
        {"id": "url", "control_type": "text-input", "label": "URL", "field": "url"},
        {"id": "rating", "control_type": "rating-stars", "field": "rating", "value": "4",
         "requires": ["component:rating-stars"],
         "fallback": {"id": "rating_select", "control_type": "label", "label": "Rating", "value": "4 stars"}}]}]},
     "actions": [{"id": "rate", "trigger": "BUTTON_CLICK", "trigger_slot_id": "rating", "type": "SUBMIT_FORM"}]}
    """#

@Suite("A plugin's manifest: the tools know its handler keys and components")
struct PluginManifestTests {
    func write(_ text: String, name: String) throws -> URL {
        URL(fileURLWithPath: try temporaryFile(text, name: name))
    }

    @Test func aManifestReadsItsKeysAndComponents() throws {
        let manifest = try PluginManifest(contentsOf: try write(bookmarksManifest, name: "bookmarks.json"))
        #expect(manifest.name == "bookmarks")
        #expect(manifest.handlerKeys == ["bookmark-create", "bookmark-list-*"])
        #expect(manifest.components == [.init(type: "rating-stars", events: ["onChange"], props: ["value", "max"])])
    }

    @Test(arguments: [
        (#"[]"#, "$", "expected an object"),
        (#"{"handler_keys": []}"#, "dynamicui_plugin", "plugin's name"),
        (#"{"dynamicui_plugin": "b", "handlers": []}"#, "handlers", "unknown member"),
        (#"{"dynamicui_plugin": "b", "handler_keys": ["a", 3]}"#, "handler_keys[1]", "non-empty string"),
        (#"{"dynamicui_plugin": "b", "components": [{"type": ""}]}"#, "components[0].type", "component's type"),
        (#"{"dynamicui_plugin": "b", "components": [{"type": "x", "event": []}]}"#, "components[0].event", "unknown member"),
        (#"{"dynamicui_plugin": "b", "components": [{"type": "x", "props": "value"}]}"#, "components[0].props", "array"),
    ])
    func aBrokenManifestSaysWhereAndWhat(text: String, path: String, phrase: String) throws {
        let url = try write(text, name: "broken.json")
        do {
            _ = try PluginManifest(contentsOf: url)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.location.description == path, "\(error)")
            #expect(error.message.contains(phrase), "\(error)")
            #expect(error.description.hasPrefix(url.path + ": " + path + ": "), "\(error)")
        }
    }

    @Test func withoutTheManifestTheHandlerKeyIsAnErrorAndTheWarningSaysHowToDeclare() throws {
        let report = ScreenValidator.shipped().validate(paths: [try write(bookmarkScreen, name: "bookmark.json")])
        #expect(report.findings.contains { $0.path == "handler_key" && $0.severity == .error }, "\(report.text)")
        let unknown = report.findings.first { $0.path == "template.zones[0].slots[1].control_type" }
        #expect(unknown?.message.contains("--plugin MANIFEST") == true, "\(report.text)")
    }

    @Test func withTheManifestTheScreenHasNoErrorAndAnActionTheComponentNeverFiresIsAWarning() throws {
        var validator = ScreenValidator.shipped()
        try validator.declare(PluginManifest.read(paths: [try write(bookmarksManifest, name: "bookmarks.json").path]))
        let report = validator.validate(paths: [try write(bookmarkScreen, name: "bookmark.json")])
        #expect(report.errorCount == 0, "\(report.text)")
        #expect(!report.findings.contains { $0.path.hasSuffix("control_type") }, "\(report.text)")
        let never = report.findings.first { $0.path == "actions[0].trigger_slot_id" }
        #expect(never?.severity == .warning, "\(report.text)")
        #expect(never?.message.contains("rating-stars fires onChange, not 'tap'") == true, "\(report.text)")
        // A key of the declared prefix is served too; another key is not.
        let other = bookmarkScreen.replacingOccurrences(
            of: #""handler_key": "bookmark-create""#, with: #""handler_key": "bookmark-list-all""#)
        #expect(validator.validate(paths: [try write(other, name: "other.json")]).errorCount == 0)
        let unknown = bookmarkScreen.replacingOccurrences(
            of: #""handler_key": "bookmark-create""#, with: #""handler_key": "bookmark-edit""#)
        #expect(validator.validate(paths: [try write(unknown, name: "unknown.json")]).errorCount == 1)
    }

    @Test func aScreenSlotsPropsAndEventsAreCheckedAgainstTheDeclaredOnes() throws {
        let screen =
            bookmarkScreen
            .replacingOccurrences(
                of: #""field": "rating", "value": "4","#,
                with: #""field": "rating", "value": "4", "props": {"max": 5, "colour": "gold"},"#
            )
            .replacingOccurrences(
                of: #""label": "URL", "field": "url"}"#, with: #""label": "URL", "field": "url", "props": {"max": 1}}"#
            )
            .replacingOccurrences(
                of: #""trigger_slot_id": "rating", "type": "SUBMIT_FORM"}"#,
                with: #""trigger_slot_id": "rating", "event": "onChange", "type": "SUBMIT_FORM"}, "#
                    + #"{"id": "typo", "trigger": "BUTTON_CLICK", "trigger_slot_id": "rating", "event": "onChnage", "type": "REFRESH"}, "#
                    + #"{"id": "stray", "trigger": "BUTTON_CLICK", "trigger_slot_id": "url", "event": "onChange", "type": "REFRESH"}"#
            )
        var validator = ScreenValidator.shipped()
        try validator.declare(PluginManifest.read(paths: [try write(bookmarksManifest, name: "bookmarks.json").path]))
        let report = validator.validate(paths: [try write(screen, name: "bookmark.json")])
        #expect(report.errorCount == 0, "\(report.text)")
        let warnings = Dictionary(report.findings.map { ($0.path, $0.message) }, uniquingKeysWith: { $0 + " | " + $1 })
        #expect(warnings["template.zones[0].slots[1].props.colour"] == "rating-stars has no prop 'colour' (it reads: value, max)")
        #expect(warnings["template.zones[0].slots[1].props.max"] == nil)
        #expect(warnings["template.zones[0].slots[0].props"]?.contains("props reach only a native component") == true)
        #expect(warnings["actions[0].trigger_slot_id"] == nil && warnings["actions[0].event"] == nil, "\(report.text)")
        #expect(warnings["actions[1].event"]?.contains("not 'onChnage'") == true, "\(report.text)")
        #expect(warnings["actions[2].event"]?.contains("this action has none") == true, "\(report.text)")
    }

    @Test func aNodeDocumentsPropsAreCheckedAgainstTheDeclaredOnes() throws {
        let document = #"""
            {"type": "column", "children": [
              {"type": "rating_stars", "props": {"value": "{$.state.rating}", "max": 5, "colour": "gold",
               "onChange": {"actionType": "setState", "key": "rating", "value": "{$.value}"},
               "onTap": {"actionType": "setState", "key": "tapped", "value": true}}}]}
            """#
        var validator = ScreenValidator.shipped()
        try validator.declare(PluginManifest.read(paths: [try write(bookmarksManifest, name: "bookmarks.json").path]))
        let report = validator.validate(paths: [try write(document, name: "rate.json")])
        #expect(!report.findings.contains { $0.path == "children[0].type" }, "\(report.text)")
        #expect(
            report.findings.contains {
                $0.path == "children[0].props.colour" && $0.message == "rating-stars has no prop 'colour' (it reads: value, max)"
            }, "\(report.text)")
        #expect(report.findings.contains { $0.path == "children[0].props.onTap" && $0.message.contains("has no action 'onTap'") })
        #expect(!report.findings.contains { $0.path == "children[0].props.max" || $0.path == "children[0].props.onChange" })
    }

    @Test func aManifestInAValidatedFolderIsCheckedAsAManifest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(bookmarksManifest.utf8).write(to: folder.appendingPathComponent("bookmarks.json"))
        #expect(ScreenValidator.shipped().validate(paths: [folder]).findings.isEmpty)
        try Data(#"{"dynamicui_plugin": "b", "components": [{"type": 3}]}"#.utf8).write(
            to: folder.appendingPathComponent("bookmarks.json"))
        let report = ScreenValidator.shipped().validate(paths: [folder])
        #expect(report.findings.map(\.path) == ["components[0].type"], "\(report.text)")
        #expect(report.errorCount == 1)
    }

    @Test func aComponentThePluginDeclaresTwiceOrTheSDKDrawsIsRefused() throws {
        var validator = ScreenValidator.shipped()
        let twice = try write(bookmarksManifest, name: "bookmarks.json")
        #expect(throws: PluginManifestError.self) { try validator.declare(PluginManifest.read(paths: [twice.path, twice.path])) }
        let shadowing = try write(#"{"dynamicui_plugin": "b", "components": [{"type": "text-input"}]}"#, name: "b.json")
        var fresh = ScreenValidator.shipped()
        #expect(throws: PluginManifestError.self) { try fresh.declare(PluginManifest.read(paths: [shadowing.path])) }
    }

    @MainActor
    @Test func thePreviewsSessionsRegisterThePluginsComponents() throws {
        let manifest = try PluginManifest(contentsOf: try write(bookmarksManifest, name: "bookmarks.json"))
        let loopback = URL(string: "http://127.0.0.1:9")!
        let session = try PreviewSession(backend: loopback, admin: loopback, components: manifest.nativeComponents)
        #expect(session.runtime.nativeComponents.types == ["media-player", "rating-stars"])
        #expect(try PreviewSession(backend: loopback, admin: loopback).runtime.nativeComponents.types == ["media-player"])
    }

    @Test func renderDrawsTheComponentAsABoxOfItsPropsOrItsFallbackForAnAppWithoutIt() throws {
        let screen = try write(bookmarkScreen, name: "bookmark.json")
        let plugin = try write(bookmarksManifest, name: "bookmarks.json")
        func render(format: String, plugins: [String] = [], client: String? = nil) throws -> String {
            try ScreenRendering.render(
                screen: screen.path, dataFile: nil, userFile: nil, sizeClass: "compact", platform: "ios", format: format,
                plugins: plugins, client: client)
        }
        let without = try render(format: "text")
        #expect(without.contains("rating-stars") && !without.contains("custom rating-stars"), "\(without)")
        let text = try render(format: "text", plugins: [plugin.path])
        #expect(text.contains("custom rating-stars") && text.contains(#""value":"4""#), "\(text)")
        let html = try render(format: "html", plugins: [plugin.path])
        #expect(html.contains(#"data-component="rating-stars""#) && html.contains("value: &quot;4&quot;"), "\(html)")
        // An app version without the component draws the fallback.
        let older = ExampleSnippetTests.root.appendingPathComponent("tools/catalog/manifests/dynamicui-0.3.0-ios.json").path
        let fallback = try render(format: "text", plugins: [plugin.path], client: older)
        #expect(fallback.contains("4 stars") && !fallback.contains("custom rating-stars"), "\(fallback)")
        #expect(throws: RenderCommandError.self) { try render(format: "text", plugins: ["/nonexistent.json"]) }
    }
}
