#if canImport(SwiftUI)
    public import DynamicUI
    import DynamicUIModels
    import DynamicUIRendering
    public import SwiftUI

    /// The app's menu commands and keyboard shortcuts (`MenuCommands`): a Navegación menu with
    /// ⌘1…⌘9 and ⌘,, and the active screen's ⌘N and ⌘R. Add it to the app's scene:
    /// `WindowGroup { … }.commands { DynamicUICommands(runtime: runtime) }`.
    public struct DynamicUICommands: Commands {
        private let runtime: DynamicUIRuntime

        /// Commands over `runtime`.
        public init(runtime: DynamicUIRuntime) { self.runtime = runtime }

        /// One menu per group.
        public var body: some Commands {
            let groups = runtime.commands(for: Self.capabilities)
            CommandMenu(groups.first?.title ?? runtime.strings(.navigation)) {
                MenuCommandButtons(items: groups.first?.items ?? [], runtime: runtime)
            }
            CommandMenu(groups.count > 1 ? groups[1].title : runtime.strings(.screen)) {
                MenuCommandButtons(items: groups.count > 1 ? groups[1].items : [], runtime: runtime)
            }
        }

        private static var capabilities: PlatformCapabilities {
            #if os(macOS)
                PlatformCapabilities(platform: .mac, sizeClass: .regular)
            #else
                PlatformCapabilities(platform: .ipad, sizeClass: .regular, hasHardwareKeyboard: true)
            #endif
        }
    }

    /// The buttons of a menu, with their shortcuts and enabled state.
    struct MenuCommandButtons: View {
        let items: [MenuCommandItem]
        let runtime: DynamicUIRuntime

        var body: some View {
            ForEach(items, id: \.self) { item in
                Button(item.title) {
                    Task { await runtime.run(item.command) }
                }
                .disabled(!item.isEnabled)
                .ifPresent(item.shortcut) { view, shortcut in
                    view.keyboardShortcut(KeyEquivalent(Character(shortcut.key)), modifiers: shortcut.eventModifiers)
                }
            }
        }
    }

    extension KeyShortcut {
        /// The SwiftUI modifiers.
        var eventModifiers: EventModifiers {
            var result: EventModifiers = []
            if modifiers.contains(.command) { result.insert(.command) }
            if modifiers.contains(.shift) { result.insert(.shift) }
            if modifiers.contains(.option) { result.insert(.option) }
            return result
        }
    }
#endif
