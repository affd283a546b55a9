import DynamicUICatalog
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

@Suite("Snapshots: every EduGo screen")
struct EduGoSnapshotTests {
    @Test(arguments: edugo.screenKeys)
    func compactAndRegular(key: String) throws {
        try assertSnapshot(
            renderEduGo(key, options: RenderOptions(sizeClass: .compact, platform: .ios)), named: "edugo/\(key).compact")
        try assertSnapshot(
            renderEduGo(key, options: RenderOptions(sizeClass: .regular, platform: .ipad)), named: "edugo/\(key).regular")
    }

    @Test(
        arguments: edugo.screenKeys.filter { key in (try? edugo.screen(key).template.platformOverrides?.isEmpty == false) ?? false
        })
    func platformOverrides(key: String) throws {
        let overrides = try edugo.screen(key).template.platformOverrides ?? [:]
        for platform in RenderPlatform.allCases where overrides[platform.rawValue] != nil {
            let sizeClass: SizeClass = platform == .ios ? .compact : .regular
            try assertSnapshot(
                renderEduGo(key, options: RenderOptions(sizeClass: sizeClass, platform: platform)),
                named: "edugo/\(key).\(platform.rawValue)")
        }
    }
}

@Suite("Snapshots: every podcast document")
struct PodcastSnapshotTests {
    static let catalog = PodcastsCatalog()

    static func renderer(_ sizeClass: SizeClass) throws -> NodeRenderer {
        let library = try catalog.components()
        return NodeRenderer(
            theme: try catalog.theme(), library: library, components: try NodeCompiler().compile(library),
            options: RenderOptions(sizeClass: sizeClass, showUnknownMarkers: true),
            nativeComponents: try NativeComponentRegistry([MediaPlayerComponent()]))
    }

    /// The data each document shows: the recorded responses its `onLoad` asks for.
    static func context(for name: String) throws -> DataContext {
        let index = try catalog.recordingIndex()
        func recording(_ request: String) throws -> JSONValue { try catalog.recording(index[request]!) }
        var state: JSONObject = [:]
        var data: JSONObject = [:]
        switch name {
        case "browse":
            for genre in ["1303", "1304", "1318", "1488", "1489"] {
                data["genre_\(genre)"] = try recording("/search?genreId=\(genre)&limit=25&term=podcast")
            }
        case "search":
            state["searchQuery"] = "swift"
            data["searchResults"] = try recording("/search?media=podcast&term=swift")
        case "podcast_detail", "episode_detail":
            let podcast = try recording("/search?genreId=1318&limit=25&term=podcast")["results"]![0]!
            let id = podcast["trackId"]!.text
            data["podcast"] = podcast
            data["podcastId"] = .string(id)
            let episodes = try recording("/lookup?entity=podcastEpisode&id=\(id)")
            data["episodes"] = episodes
            data["lookup"] = episodes
            data["episode"] = episodes["results"]?[1]
        default:
            break
        }
        return DataContext(
            [("env", .object(state)), ("state", .object(state))] + data.map { ($0.key, $0.value) }, defaultObject: .object(data),
            environment: environment)
    }

    @Test(arguments: PodcastsCatalog.documentNames)
    func document(name: String) throws {
        let compiled = try NodeCompiler().compile(try Self.catalog.document(name))
        for sizeClass in SizeClass.allCases {
            let rendered = try Self.renderer(sizeClass).render(compiled, context: try Self.context(for: name), name: name)
            try assertSnapshot(TextRenderer().render(rendered.root), named: "podcasts/\(name).\(sizeClass.rawValue)")
        }
    }
}
