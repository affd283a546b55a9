/// The tabs an app shows while the server's navigation cannot be loaded: the home screen of
/// the signed-in role first, then the tabs that role may open.
///
/// The SDK's own fallback (`standard`) is a `home` tab and a settings tab. An app whose roles
/// start on different screens says so in `homes`:
///
/// ```swift
/// configuration.fallbackNavigation = FallbackNavigation(
///     homes: ["teacher": "dashboard-teacher"], home: "dashboard-student",
///     tabs: [FallbackNavigation.Tab(key: "settings", label: .sdk(.settings), icon: "gear", screenKey: "app-settings")])
/// ```
public struct FallbackNavigation: Sendable, Hashable {
    /// What a tab's label says.
    public enum Label: Sendable, Hashable {
        /// One of the SDK's own words, in the configured language.
        case sdk(DynamicUIStrings.Key)
        /// The app's own text, shown as given.
        case text(String)

        /// The label's text in `strings`' language.
        public func text(_ strings: DynamicUIStrings) -> String {
            switch self {
            case .sdk(let key): strings(key)
            case .text(let text): text
            }
        }
    }

    /// One tab after the home tab.
    public struct Tab: Sendable, Hashable {
        /// The entry's key.
        public var key: String
        /// What its label says.
        public var label: Label
        /// Its SF Symbol.
        public var icon: String
        /// The screen it opens.
        public var screenKey: String
        /// The roles that see it; `nil` for every role.
        public var roles: Set<String>?

        /// A tab opening `screenKey`, for `roles` (`nil`: every role).
        public init(key: String, label: Label, icon: String, screenKey: String, roles: Set<String>? = nil) {
            self.key = key
            self.label = label
            self.icon = icon
            self.screenKey = screenKey
            self.roles = roles
        }
    }

    /// The home screen of each role that has its own (`teacher` → `dashboard-teacher`).
    public var homes: [String: String]
    /// The home screen of every other role, and of a session without one.
    public var home: String
    /// The tabs after the home tab, in order.
    public var tabs: [Tab]

    /// A fallback whose first tab opens the role's home screen, followed by `tabs`.
    public init(homes: [String: String] = [:], home: String, tabs: [Tab]) {
        self.homes = homes
        self.home = home
        self.tabs = tabs
    }

    /// A `home` screen and a settings tab (`app-settings`), for every role.
    public static let standard = FallbackNavigation(
        home: "home", tabs: [Tab(key: "settings", label: .sdk(.settings), icon: "gear", screenKey: "app-settings")])

    /// The home screen of `role` (`nil`: no role known).
    public func homeScreen(for role: String?) -> String {
        role.flatMap { homes[$0] } ?? home
    }

    /// The navigation shown to `role`, its labels in `strings`' language.
    public func definition(role: String?, strings: DynamicUIStrings) -> NavigationDefinition {
        var items = [NavItem(key: "home", label: strings(.home), icon: "house", screenKey: homeScreen(for: role), sortOrder: 0)]
        for tab in tabs where tab.roles.map({ role.map($0.contains) ?? false }) ?? true {
            items.append(
                NavItem(
                    key: tab.key, label: tab.label.text(strings), icon: tab.icon, screenKey: tab.screenKey, sortOrder: items.count
                ))
        }
        return NavigationDefinition(bottomNav: items, version: 0)
    }
}
