// How a host app registers the third-party plugin and component: both are passed once, at start,
// next to the SDK's own, and a handler key or a component type registered twice is an error
// there, never a silent override. The same component draws screens (a slot's `control_type`),
// node documents (a node's `type`) and, through its HTML twin, the web preview.

import DynamicUI
import DynamicUIAuthPlugin
import DynamicUICRUDPlugin
import DynamicUIMediaPlayer
import DynamicUINavigationPlugin
import DynamicUIRendering
import DynamicUIStorage
import DynamicUIWeb
import Foundation

// snippet: registration
/// EduGo with the reading list and the course-progress component: actions on screens keyed
/// `reading-*` reach `ReadingListPlugin`, and `"control_type": "course-progress"` is drawn by
/// `CourseProgressComponent`.
@MainActor
func makeRuntime(tokens: any TokenStore, settings: any SettingsStore) throws -> DynamicUIRuntime {
    try DynamicUIRuntime(
        configuration: DynamicUIConfiguration(
            adminBaseURL: URL(string: "https://admin.edugo.app/api")!,
            mobileBaseURL: URL(string: "https://mobile.edugo.app/api")!),
        plugins: [AuthPlugin(), CRUDPlugin(), NavigationPlugin(), ReadingListPlugin()],
        tokens: tokens, settings: settings,
        components: try NativeComponentRegistry([CourseProgressComponent(), MediaPlayerComponent()]))
}

/// A node-dialect app: `{"type": "course_progress"}` finds the same component.
@MainActor
func makeNodeApp(documents: URL) throws -> NodeAppRuntime {
    try NodeAppRuntime(
        configuration: NodeAppConfiguration(baseURL: URL(string: "https://api.edugo.app")!, documents: .folder(documents)),
        components: [CourseProgressComponent(), MediaPlayerComponent()])
}

/// The web preview draws each component's `html(_:)`, escaped and filtered.
func makePreviewRenderer() throws -> HTMLRenderer {
    var renderer = HTMLRenderer(language: "en")
    renderer.components = try NativeComponentRegistry([CourseProgressComponent(), MediaPlayerComponent()])
    return renderer
}
// snippet: end
