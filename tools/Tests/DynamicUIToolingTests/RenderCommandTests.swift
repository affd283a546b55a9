import DynamicUIModels
import DynamicUITooling
import Foundation
import Testing

/// A temporary JSON file with `text`.
func temporaryFile(_ text: String, name: String = "input.json") throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdui-render-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

@Suite("sdui render")
struct RenderCommandTests {
    func render(
        _ screen: String, data: String? = nil, user: String? = nil, sizeClass: String = "compact", platform: String = "ios",
        format: String = "text"
    ) throws -> String {
        try ScreenRendering.render(
            screen: screen, dataFile: data, userFile: user, sizeClass: sizeClass, platform: platform, format: format)
    }

    @Test func catalogScreenWithDataAndUserAsText() throws {
        let data = try temporaryFile(
            #"{"items": [{"id": "m1", "title": "Fracciones", "status": "published"}, {"id": "m2", "title": "Volcanes"}], "total": 2}"#
        )
        let user = try temporaryFile(
            #"{"user": {"id": "u1", "first_name": "Ana", "last_name": "Ruiz", "email": "ana@edugo.test"}, "context": {"role": "teacher", "role_name": "Docente"}}"#
        )
        let text = try render("materials-list", data: data, user: user)
        #expect(text.contains("Materiales"))
        #expect(text.contains("Fracciones") && text.contains("Volcanes"))
    }

    @Test func htmlAndJSONFormats() throws {
        let html = try render("app-login", format: "html")
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("type=\"email\""))
        let json = try JSONReader().read(try render("app-login", sizeClass: "regular", platform: "ipad", format: "json"))
        #expect(json["kind"] == "screen")
        #expect((json["children"]?.arrayValue?.count ?? 0) > 0)
    }

    @Test func theJSONFormatShowsWhatModelsHoldNotTheirMemberwiseToken() throws {
        // Styles and options are models (with a `memberwise` token) inside the render tree.
        for screen in ["browse", "material-create"] {
            let text = try render(screen, format: "json")
            #expect(text.contains("\"style\"") || text.contains("\"options\""), "\(screen)")
            #expect(!text.contains("memberwise"), "\(screen)")
        }
    }

    @Test func podcastDocument() throws {
        let text = try render("browse")
        #expect(text.contains("Top shows by genre"))
    }

    @Test func theShippedMediaPlayerIsDrawnNotUnknown() throws {
        let episode = try temporaryFile(
            #"{"episode": {"trackName": "Uno", "episodeUrl": "https://example.com/1.mp3", "trackTimeMillis": 60000}}"#)
        let text = try render("episode_detail", data: episode)
        #expect(text.contains("custom media-player") && !text.contains("unknown media_player"), "\(text)")
    }

    @Test func badInputIsATypedErrorThatSaysWhere() throws {
        #expect(throws: RenderCommandError.self) { try render("materials-list", sizeClass: "huge") }
        do {
            _ = try render("no-such-screen")
            Issue.record("an unknown screen rendered")
        } catch {
            #expect("\(error)".contains("materials-list"))
        }
        let broken = try temporaryFile("{\"screen_key\": \"x\",\n  \"template\": }")
        do {
            _ = try render(broken)
            Issue.record("a malformed file rendered")
        } catch {
            #expect("\(error)".contains(broken) && "\(error)".contains("line 2"), "\(error)")
        }
    }
}
