public import DynamicUIModels
public import DynamicUIRendering

/// A keyboard shortcut: a key with modifiers (`⌘1`, `⌘,`, `⌘N`).
public struct KeyShortcut: Sendable, Hashable, CustomStringConvertible {
    /// A modifier key.
    public enum Modifier: String, Sendable, Hashable, CaseIterable {
        /// ⌘ (Ctrl in the web preview on other systems).
        case command
        /// ⇧.
        case shift
        /// ⌥.
        case option
    }

    /// The key: a digit, a letter (lower-case) or a symbol such as `,`.
    public let key: String
    /// The modifiers.
    public let modifiers: Set<Modifier>

    /// A shortcut of `key` with `modifiers` (⌘ by default).
    public init(_ key: String, modifiers: Set<Modifier> = [.command]) {
        self.key = key
        self.modifiers = modifiers
    }

    /// `⌘1`, `⇧⌘N`.
    public var description: String {
        let symbols: [(Modifier, String)] = [(.option, "⌥"), (.shift, "⇧"), (.command, "⌘")]
        return symbols.filter { modifiers.contains($0.0) }.map(\.1).joined() + key.uppercased()
    }
}

/// What a menu command does.
public enum MenuCommand: Sendable, Hashable {
    /// Shows a navigation item's screen.
    case select(screenKey: String)
    /// Runs one of the current screen's actions.
    case perform(actionId: String)
    /// Reloads the current screen's data.
    case refresh
}

/// One command of a menu (`MenuCommands` builds them from the navigation and the screen).
public struct MenuCommandItem: Sendable, Hashable {
    /// The title.
    public let title: String
    /// Its shortcut, if any.
    public let shortcut: KeyShortcut?
    /// What it does.
    public let command: MenuCommand
    /// Whether it can run now.
    public var isEnabled = true
}

/// A menu of commands (a `CommandMenu` in SwiftUI, the menu bar on a Mac).
public struct MenuCommandGroup: Sendable, Hashable {
    /// The menu's title.
    public let title: String
    /// Its items, in order.
    public let items: [MenuCommandItem]
}

/// The menu commands and keyboard shortcuts of an app and its current screen (after the
/// Mac's Human Interface Guidelines): Navigación with ⌘1…⌘9 for the first nine navigation items
/// and ⌘, for the settings screen, and the screen's own ⌘N (its create action) and ⌘R (refresh).
public enum MenuCommands {
    /// The commands for `items` (the navigation in order) and the `screen` on top, if any.
    public static func groups(
        items: [NavItem], screen: ScreenDefinition?, capabilities: PlatformCapabilities, strings: DynamicUIStrings = .current
    ) -> [MenuCommandGroup] {
        guard capabilities.hasKeyboardShortcuts else { return [] }
        var navigation: [MenuCommandItem] = []
        for (index, item) in items.enumerated() where index < 9 {
            navigation.append(
                MenuCommandItem(
                    title: item.label, shortcut: KeyShortcut("\(index + 1)"), command: .select(screenKey: item.screenKey)))
        }
        if let settings = items.first(where: { $0.screenKey.hasSuffix("settings") }) {
            navigation.append(
                MenuCommandItem(
                    title: settings.label, shortcut: KeyShortcut(","), command: .select(screenKey: settings.screenKey)))
        }
        var groups = [MenuCommandGroup(title: strings(.navigation), items: navigation)]
        guard let screen else { return groups }
        var screenItems: [MenuCommandItem] = []
        if let create = createAction(of: screen) {
            screenItems.append(
                MenuCommandItem(title: strings(.new), shortcut: KeyShortcut("n"), command: .perform(actionId: create.id)))
        }
        let refreshable = screen.dataEndpoint != nil || screen.action(for: .pullRefresh) != nil
        screenItems.append(
            MenuCommandItem(title: strings(.refresh), shortcut: KeyShortcut("r"), command: .refresh, isEnabled: refreshable))
        groups.append(MenuCommandGroup(title: screen.screenName, items: screenItems))
        return groups
    }

    /// The action that creates a record on `screen`: its floating action, else a navigation to
    /// a `…-create` screen.
    public static func createAction(of screen: ScreenDefinition) -> ActionDefinition? {
        if let fab = screen.action(for: .fabClick) { return fab }
        return screen.actions.first { action in
            action.type == .navigate && (action.config?["screen_key"]?.stringValue?.hasSuffix("-create") ?? false)
        }
    }

    /// The command a shortcut runs, if any.
    public static func command(for shortcut: KeyShortcut, in groups: [MenuCommandGroup]) -> MenuCommandItem? {
        groups.lazy.flatMap(\.items).first { $0.shortcut == shortcut && $0.isEnabled }
    }
}
