// EduGo, the screen-dialect app of the README's "Embedding the SDK": one DynamicUIRuntime built
// from a configuration, the three EduGo plugins (sign-in and settings, CRUD, role-aware
// navigation) and the app's stores (Keychain tokens, a settings file, the durable offline
// queue), drawn by DynamicNavigationView.

// snippet: embedding
import DynamicUI
import DynamicUIActions
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUINavigationPlugin
import DynamicUINetwork
import DynamicUIStorage
import DynamicUISwiftUI
import Foundation
import Logging
import SwiftUI

@main
struct EduGoApp: App {
    // Throws only when two plugins claim one handler key: a programming error, seen at first launch.
    @State private var runtime = try! DynamicUIRuntime(
        configuration: DynamicUIConfiguration(
            adminBaseURL: URL(string: "https://admin.edugo.app/api")!,
            mobileBaseURL: URL(string: "https://mobile.edugo.app/api")!,
            security: URLSecurityPolicy(hosts: ["edugo.app"]), deepLinkSchemes: ["edugo"]),
        plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin()],
        tokens: KeychainTokenStore(service: "app.edugo"),
        settings: FileSettingsStore(url: EduGoApp.storage.appending(path: "settings.json")),
        queueStore: EduGoApp.offlineQueue(),
        transport: URLSessionTransport())

    var body: some Scene {
        WindowGroup {
            DynamicNavigationView(runtime: runtime)
        }
    }

    /// The app's files, in Application Support (which iOS does not create until an app does).
    static let storage = URL.applicationSupportDirectory.appending(path: "EduGo", directoryHint: .isDirectory)

    /// The durable offline queue. Without it (a full disk) the app still runs, but changes made
    /// offline fail instead of waiting for the connection.
    static func offlineQueue() -> OfflineQueueStore? {
        do {
            try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
            return try OfflineQueueStore(path: storage.appending(path: "queue.sqlite").path)
        } catch {
            Logger(label: "EduGo").error("the offline queue cannot be opened: \(error)")
            return nil
        }
    }
}
// snippet: end
