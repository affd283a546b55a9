// EduGo, the screen-dialect app of the README's "Embedding the SDK": one DynamicUIRuntime built
// from a configuration, the three EduGo plugins (sign-in and settings, CRUD, role-aware
// navigation) and the app's stores (Keychain tokens, a settings file, the durable offline
// queue), drawn by DynamicNavigationView.

// snippet: embedding
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUIKit  // the runtime, models, network, storage and SwiftUI views
import DynamicUINavigationPlugin
import Foundation
import Logging
import SwiftUI

@main
struct EduGoApp: App {
    /// Built after the first frame, once the app's files are open.
    @State private var runtime: DynamicUIRuntime?
    /// A link that opened the app before the runtime was built.
    @State private var launchLink: URL?

    var body: some Scene {
        WindowGroup {
            if let runtime {
                DynamicNavigationView(runtime: runtime)
            } else {
                ProgressView()
                    .onOpenURL { launchLink = $0 }
                    .task {
                        let runtime = await Self.makeRuntime()
                        if let launchLink { runtime.open(deepLink: launchLink) }
                        self.runtime = runtime
                    }
            }
        }
    }

    /// The runtime, its stores opened off the main thread.
    static func makeRuntime() async -> DynamicUIRuntime {
        // Application Support, which iOS does not create until an app does (the stores create it).
        let storage = URL.applicationSupportDirectory.appending(path: "EduGo", directoryHint: .isDirectory)
        let queue = await Task.detached { offlineQueue(at: storage.appending(path: "queue.sqlite")) }.value
        let settings = await Task.detached { FileSettingsStore(url: storage.appending(path: "settings.json")) }.value
        var configuration = DynamicUIConfiguration(
            adminBaseURL: URL(string: "https://admin.edugo.app/api")!,
            mobileBaseURL: URL(string: "https://mobile.edugo.app/api")!,
            security: URLSecurityPolicy(hosts: ["edugo.app"]), deepLinkSchemes: ["edugo"],
            // EduGo speaks Spanish whatever the device's language, and each role starts on its dashboard.
            locale: Locale(identifier: "es_ES"), fallbackNavigation: fallbackNavigation)
        // Debug builds follow `sdui serve` when the scheme sets DYNAMICUI_PREVIEW; release builds never do.
        configuration.followDevelopmentPreview()
        // Throws only when two plugins claim one handler key: a programming error, seen at first launch.
        return try! DynamicUIRuntime(
            configuration: configuration,
            plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin()],
            tokens: KeychainTokenStore(service: "app.edugo"), settings: settings, queueStore: queue,
            transport: URLSessionTransport())
    }

    /// The tabs while the navigation cannot be loaded: each role's dashboard, the materials for
    /// every role but guardians (whose navigation has none), and the settings.
    static let fallbackNavigation = FallbackNavigation(
        homes: [
            "super_admin": "dashboard-superadmin", "platform_admin": "dashboard-superadmin", "teacher": "dashboard-teacher",
            "school_admin": "dashboard-schooladmin", "school_director": "dashboard-schooladmin", "guardian": "dashboard-guardian",
        ],
        home: "dashboard-student",
        tabs: [
            .init(
                key: "materials", label: .sdk(.materials), icon: "book", screenKey: "materials-list",
                roles: ["super_admin", "platform_admin", "school_admin", "school_director", "teacher", "student"])
        ] + FallbackNavigation.standard.tabs)

    /// The durable offline queue. Without it (a full disk) the app still runs, but changes made
    /// offline fail instead of waiting for the connection.
    nonisolated static func offlineQueue(at file: URL) -> OfflineQueueStore? {
        do {
            return try OfflineQueueStore(path: file.path)
        } catch {
            Logger(label: "EduGo").error("the offline queue cannot be opened: \(error)")
            return nil
        }
    }
}
// snippet: end
