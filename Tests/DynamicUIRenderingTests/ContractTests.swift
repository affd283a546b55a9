import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

@Suite("Compatibility contract: capabilities, requires and fallback")
struct ContractTests {
    @Test func theSDKManifestListsWhatItDraws() throws {
        let plain = ClientCapabilities.sdk(platform: .ipad)
        for name in [
            "schema:1", "schema:2", "pattern:dashboard", "zone:metric-grid", "control:text-input", "node:lazy_vstack",
            "action:OPEN_URL", "node-action:present", "transform:duration", "transform:!empty",
        ] {
            #expect(plain.has(name), "\(name)")
        }
        for name in ["schema:3", "control:media-player", "component:media-player", "node:video_player", "nonsense", "x:y"] {
            #expect(!plain.has(name), "\(name)")
        }
        #expect(plain.platform == "ipad")
        let withPlayer = ClientCapabilities.sdk(
            platform: .ipad, components: try NativeComponentRegistry([MediaPlayerComponent()]))
        #expect(
            withPlayer.has("component:media-player") && withPlayer.has("control:media-player")
                && withPlayer.has("node:media_player"))
        #expect(withPlayer.hash != plain.hash)
        #expect(
            withPlayer.hash
                == ClientCapabilities.sdk(platform: .ipad, components: try NativeComponentRegistry([MediaPlayerComponent()])).hash
        )
        #expect(withPlayer.hash.count == 16)
        #expect(
            withPlayer.compact
                == "schema=2; sdk=\(ClientCapabilities.sdkVersion); platform=ipad; components=media-player; hash=\(withPlayer.hash)"
        )
        #expect(ClientCapabilities.parseCompact(withPlayer.compact)["components"] == "media-player")
        #expect(try ClientCapabilities(json: withPlayer.json) == withPlayer)
        #expect(withPlayer.names.contains("component:media-player") && withPlayer.names == withPlayer.names.sorted())
    }

    static let screen = try! ScreenDefinition(
        json: try! JSONReader().read(
            #"""
            {"screen_id": "s", "screen_key": "contract", "screen_name": "Contrato", "pattern": "detail", "version": 1,
             "updated_at": "2026-01-01T00:00:00Z", "actions": [], "log_id": "contract_screen",
             "template": {"zones": [
               {"id": "main", "type": "container", "log_id": "main_zone", "slots": [
                 {"id": "video", "control_type": "media-player", "value": "https://media.example/v.mp4",
                  "fallback": {"id": "video_link", "control_type": "label", "label": "Vídeo", "value": "https://media.example/v.mp4"}},
                 {"id": "future", "control_type": "label", "label": "Nuevo", "requires": ["schema:3"], "fallback": "drop"},
                 {"id": "future2", "control_type": "label", "label": "Nuevo 2", "requires": ["transform:sparkle"]},
                 {"id": "mystery", "control_type": "hologram"},
                 {"id": "chain", "control_type": "label", "label": "A", "requires": ["component:map-pin"],
                  "fallback": {"id": "chain_b", "control_type": "label", "label": "B", "requires": ["schema:9"],
                               "fallback": {"id": "chain_c", "control_type": "label", "label": "C", "log_id": "chain_c"}}}]},
               {"id": "carousel", "type": "carousel-3d", "fallback": {"id": "plain", "type": "container",
                 "slots": [{"id": "plain_text", "control_type": "label", "label": "Plano"}]}}]}}
            """#))

    @Test func aScreenIsFittedToTheApp() throws {
        let (fitted, events) = RequirementResolver(capabilities: .sdk()).resolve(Self.screen)
        let main = try #require(fitted.template.zones.first)
        #expect(main.slots?.map(\.id) == ["video_link", "mystery", "chain_c"])
        #expect(fitted.template.zones.map(\.id) == ["main", "plain"])
        let byPath = Dictionary(uniqueKeysWithValues: events.map { ($0.location.description, $0) })
        #expect(byPath["template.zones[0].slots[0]"]?.outcome == .fallbackUsed)
        #expect(byPath["template.zones[0].slots[0]"]?.missing == ["control:media-player"])
        #expect(
            byPath["template.zones[0].slots[1]"]?.outcome == .dropped && byPath["template.zones[0].slots[1]"]?.hadFallback == true
        )
        #expect(
            byPath["template.zones[0].slots[2]"]?.outcome == .dropped
                && byPath["template.zones[0].slots[2]"]?.hadFallback == false)
        #expect(byPath["template.zones[0].slots[3]"]?.outcome == .dropped)  // unknown type: kept for the renderer to drop
        #expect(byPath["template.zones[0].slots[4].fallback"]?.missing == ["schema:9"])
        #expect(byPath["template.zones[1]"]?.outcome == .fallbackUsed)
        // With the component registered the player stays, and the renderer draws it.
        let registry = try NativeComponentRegistry([MediaPlayerComponent()])
        let (withPlayer, _) = RequirementResolver(capabilities: .sdk(components: registry)).resolve(Self.screen)
        #expect(withPlayer.template.zones.first?.slots?.first?.id == "video")
        let compiled = try ScreenCompiler().compile(withPlayer)
        let context = try compiled.context(user: teacher, userContext: teacherContext, data: .null, environment: environment)
        let tree = PatternRouter(components: registry).render(ScreenInputs(screen: compiled, context: context))
        #expect(flatten(tree).contains { if case .custom(let node) = $0.kind { node.type == "media-player" } else { false } })
        #expect(flatten(tree).contains { $0.logId == "main_zone" })
        // The app lacks map-pin and schema 9: the chain ends at C, which carries its own log id.
        #expect(flatten(tree).contains { $0.logId == "chain_c" })
    }

    @Test func theWholeScreenCanRequireMore() throws {
        var screen = Self.screen
        screen.requires = ["schema:5"]
        #expect(RequirementResolver(capabilities: .sdk()).missing(for: screen) == ["schema:5"])
        screen.requires = nil
        screen.pattern = .unknown("kanban")
        #expect(RequirementResolver(capabilities: .sdk()).missing(for: screen) == ["pattern:kanban"])
    }

    @Test func aNodeDocumentIsFittedToo() throws {
        let node = try ViewNode(
            json: try JSONReader().read(
                #"""
                {"type": "vstack", "children": [
                  {"type": "video_player", "props": {"url": "$.u"}, "fallback": {"type": "text", "props": {"content": "Sin vídeo"}}},
                  {"type": "text", "props": {"content": "nuevo"}, "requires": ["schema:4"], "fallback": "drop"},
                  {"type": "list", "props": {"items": "$.rows", "itemTemplate":
                    {"type": "sparkline", "requires": ["component:sparkline"], "fallback": {"type": "text", "props": {"content": "$.item"}}}}}]}
                """#))
        let (fitted, events) = RequirementResolver(capabilities: .sdk()).resolve(node)
        let root = try #require(fitted)
        #expect(root.children.map(\.type) == [.text, .list])
        if case .list(_, let template, _) = root.children[1].props {
            #expect(template.type == .text)
        } else {
            Issue.record("the list lost its props")
        }
        #expect(events.map(\.location.description) == ["children[0]", "children[1]", "children[2].props.itemTemplate"])
        #expect(events.map(\.outcome) == [.fallbackUsed, .dropped, .fallbackUsed])
        // A root that cannot be drawn and may be dropped is nothing.
        let dropped = try ViewNode(json: ["type": "text", "requires": ["schema:4"], "fallback": "drop"])
        #expect(RequirementResolver(capabilities: .sdk()).resolve(dropped).0 == nil)
    }

    @Test func fallbacksRoundTripAndRejectNonsense() throws {
        let zone = try #require(Self.screen.template.zones.last)
        #expect(try Zone(json: zone.json) == zone)
        #expect(throws: ModelDecodingError.self) { try Slot(json: ["id": "a", "control_type": "label", "fallback": "keep"]) }
        #expect(throws: ModelDecodingError.self) { try Slot(json: ["id": "a", "control_type": "label", "fallback": 3]) }
    }
}
