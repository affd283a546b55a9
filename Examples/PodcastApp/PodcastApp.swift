// The podcast app, the README's "A node-dialect app": NodeAppRuntime loads the node-dialect
// documents bundled with the app (tools/catalog/podcasts, added to the app target as the folder
// `podcasts`) and talks to the iTunes Search API, MediaPlayerComponent plays the episodes, host
// handlers open links in Apple Podcasts and share an episode, and NodeAppView draws it all.

// snippet: node-app
import DynamicUI
import DynamicUIActions
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUISwiftUI
import Foundation
import SwiftUI

@main
struct PodcastApp: App {
    @State private var app = PodcastApp.runtime()

    var body: some Scene {
        WindowGroup {
            if let app {
                NodeAppView(app: app)
            } else {
                // A build without the documents says so instead of crashing.
                ContentUnavailableView(
                    "No podcast documents", systemImage: "folder.badge.questionmark",
                    description: Text("Add tools/catalog/podcasts to the app target as a folder named “podcasts”."))
            }
        }
    }

    /// The runtime over the documents bundled as the folder `podcasts`, `nil` when the build lacks them.
    static func runtime() -> NodeAppRuntime? {
        guard let documents = Bundle.main.url(forResource: "podcasts", withExtension: nil) else { return nil }
        var configuration = NodeAppConfiguration(
            baseURL: URL(string: "https://itunes.apple.com")!, documents: .folder(documents),
            security: URLSecurityPolicy(hosts: ["apple.com"]))
        // Debug builds follow `sdui serve` when the scheme sets DYNAMICUI_PREVIEW; release builds never do.
        configuration.followDevelopmentPreview()
        // Throws only when a component's type is taken (twice, or one the SDK draws): a programming
        // error, seen at first launch.
        return try! NodeAppRuntime(
            configuration: configuration,
            components: [MediaPlayerComponent()],
            events: EventHandlerRegistry([
                // The documents' "Open in Apple Podcasts": the SDK opens only URLs `security` allows.
                "openExternalUrl": { payload, _ in
                    guard let text = payload["url"]?.stringValue, let url = URL(string: text) else { return .cancelled }
                    return .openURL(url)
                },
                // The share sheet's Share: the system share sheet, then the document closes its own.
                "shareEpisode": { payload, _ in await EpisodeShareSheet.present(payload) },
            ]))
    }
}
// snippet: end
