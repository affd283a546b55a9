import DynamicUI
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import DynamicUIWeb
import Foundation
import Testing

/// A component that tries to draw what a component must not: script, handlers, unsafe URLs.
struct HostileComponent: NativeComponent {
    let type = "hostile-widget"

    func html(_ node: CustomNode) -> HTMLFragment {
        .group([
            .element("script", children: [.text("alert(1)")]),
            .element(
                "a",
                attributes: [
                    HTMLAttribute("href", "javascript:alert(1)"), HTMLAttribute("onclick", "alert(1)"),
                    HTMLAttribute("style", "position:fixed"), HTMLAttribute("data-x", "\"><script>"),
                ], children: [.text(node.props["label"]?.stringValue ?? "")]),
            .element("iframe", attributes: [HTMLAttribute("src", "https://evil.example")], children: [.text("inner")]),
            .action("missing", label: [.text("No action")]),
        ])
    }
}

@Suite("Native components: registered, lowered in both dialects, drawn safely, fired")
struct NativeComponentTests {
    @MainActor
    @Test func registrationIsCheckedOnceAtStart() throws {
        #expect(throws: ComponentRegistrationError.self) {
            try NativeComponentRegistry([MediaPlayerComponent(), MediaPlayerComponent()])
        }
        struct Shadowing: NativeComponent {
            let type: String
            func html(_ node: CustomNode) -> HTMLFragment { .text("") }
        }
        for builtIn in ["text-input", "list", "lazy_vstack", "rating"] {
            #expect(throws: ComponentRegistrationError.self) { try NativeComponentRegistry([Shadowing(type: builtIn)]) }
        }
        for bad in ["", "Video Player", "<x>", "a/b"] {
            #expect(throws: ComponentRegistrationError.self) { try NativeComponentRegistry([Shadowing(type: bad)]) }
        }
        let registry = try NativeComponentRegistry([MediaPlayerComponent()])
        #expect(registry.contains("media-player") && registry.contains("media_player") && registry.contains("MEDIA_PLAYER"))
        #expect(!registry.contains("media-players"))
        #expect(registry.types == ["media-player"])
        // The runtime refuses a duplicate at construction.
        #expect(throws: ComponentRegistrationError.self) {
            try NodeAppRuntime(
                configuration: NodeAppConfiguration(baseURL: URL(string: "https://a.example")!, documents: .remote("/{name}")),
                transport: ScriptedTransport(), components: [MediaPlayerComponent(), MediaPlayerComponent()])
        }
    }

    @Test func aNodeOfTheRegisteredTypeGetsItsPropsEvaluatedAndItsActions() throws {
        let harness = try NativeComponentHarness([MediaPlayerComponent()])
        let node: JSONValue = [
            "type": "media_player",
            "props": [
                "url": "$.episode.episodeUrl", "title": "$.episode.trackName | uppercase", "kind": "audio",
                "binding": "$.env.position",
                "onPlay": ["actionType": "setState", "key": "nowPlaying", "value": "$.episode.trackName"],
            ],
        ]
        let episode: JSONObject = ["episode": ["episodeUrl": "https://media.example/1.mp3", "trackName": "Uno <b>"]]
        let custom = try #require(try harness.node(node, data: episode))
        #expect(custom.type == "media-player", "the type as registered, whatever the document's spelling")
        #expect(custom.props["url"] == "https://media.example/1.mp3")
        #expect(custom.props["title"] == "UNO <B>")
        #expect(custom.actions.keys.sorted() == ["onPlay"])
        #expect(custom.binding == "$.env.position")
        let html = harness.html(custom)
        #expect(
            html.contains("<audio src=\"https://media.example/1.mp3\" preload=\"none\""), "an audio's one control is its button")
        #expect(html.contains("UNO &lt;B&gt;") && !html.contains("<B>"))
        #expect(html.contains("formaction") || html.contains("action=\"/action/"))
        // Not registered: the SDK does not draw the type (nothing in release).
        #expect(try NativeComponentHarness([]).node(node, data: episode) == nil)
    }

    @Test func aSlotOfTheRegisteredControlTypeGetsItsValueAndTap() throws {
        let harness = try NativeComponentHarness([MediaPlayerComponent()])
        let slot: JSONValue = ["id": "player", "control_type": "media-player", "field": "video", "label": "{item.title}"]
        let action: JSONValue = [
            "id": "played", "trigger": "BUTTON_CLICK", "trigger_slot_id": "player", "type": "API_CALL",
            "config": ["endpoint": "/v1/plays", "method": "POST"],
        ]
        let custom = try #require(
            try harness.slot(slot, data: ["title": "Clase 1", "video": "https://media.example/v.mp4"], actions: [action]))
        #expect(custom.type == "media-player")
        #expect(custom.props["value"] == "https://media.example/v.mp4")
        #expect(custom.props["label"] == "Clase 1")
        #expect(custom.actions == ["tap": "played"])
        #expect(custom.binding == "video")
    }

    @MainActor
    @Test func aSlotsOwnPropsAndEveryNamedEventReachTheComponent() throws {
        let harness = try NativeComponentHarness([MediaPlayerComponent()])
        let slot: JSONValue = [
            "id": "player", "control_type": "media-player", "field": "video",
            "props": [
                "max": 10, "length": "{item.minutes}", "caption": "{item.title} ({item.minutes} min)",
                "chapters": ["intro", "{item.title}"],
            ],
        ]
        let actions: [JSONValue] = [
            ["id": "played", "trigger": "BUTTON_CLICK", "trigger_slot_id": "player", "event": "onPlay", "type": "REFRESH"],
            ["id": "ended", "trigger": "BUTTON_CLICK", "trigger_slot_id": "player", "event": "onEnd", "type": "NAVIGATE_BACK"],
            ["id": "tapped", "trigger": "BUTTON_CLICK", "trigger_slot_id": "player", "type": "REFRESH"],
        ]
        let custom = try #require(
            try harness.slot(
                slot, data: ["title": "Clase 1", "minutes": 12, "video": "https://media.example/v.mp4"], actions: actions))
        #expect(custom.props["max"] == 10)
        #expect(custom.props["length"] == 12, "a lone placeholder keeps its value's type")
        #expect(custom.props["caption"] == "Clase 1 (12 min)")
        #expect(custom.props["chapters"] == ["intro", "Clase 1"])
        #expect(custom.props["value"] == "https://media.example/v.mp4")
        #expect(custom.actions == ["onPlay": "played", "onEnd": "ended", "tap": "tapped"])
    }

    @Test func aComponentCannotInjectScriptOrUnsafeURLs() throws {
        let harness = try NativeComponentHarness([HostileComponent()])
        let html = harness.html(CustomNode(type: "hostile-widget", props: ["label": "<img src=x onerror=alert(1)>"]))
        #expect(!html.contains("<script"), "\(html)")
        #expect(!html.contains("onclick") && !html.contains("style=") && !html.contains("javascript:"), "\(html)")
        #expect(!html.contains("<iframe") && html.contains("inner"), "\(html)")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "\(html)")
        #expect(html.contains("data-x=\"&quot;&gt;&lt;script&gt;\""), "\(html)")
        #expect(!html.contains("<button"), "an action the node does not have draws no button: \(html)")
    }

    @Test func unplayableURLsAreNotAvailable() throws {
        let harness = try NativeComponentHarness([MediaPlayerComponent()])
        for url in ["javascript:alert(1)", "http://media.example/a.mp3", "file:///etc/passwd", ""] {
            var node = CustomNode(type: "media-player", props: ["url": .string(url)])
            node.strings = .english
            let html = harness.html(node)
            #expect(html.contains("Not available") && !html.contains("<audio"), "\(url): \(html)")
            // In the screen's language.
            node.strings = .spanish
            #expect(harness.html(node).contains("No disponible"))
        }
    }
}
