public import DynamicUIModels

/// A list row's secondary action (a `SWIPE` or `LONG_PRESS` action of the screen): what
/// `.swipeActions`, `.contextMenu` and the web preview's row menu show.
public struct RowAction: Sendable, Hashable, Identifiable {
    /// The action's id.
    public let id: String
    /// The button title.
    public let title: String
    /// SF Symbol of the button.
    public let systemImage: String?
    /// Red (deleting, or marked destructive).
    public let isDestructive: Bool

    /// Creates a row action.
    public init(id: String, title: String, systemImage: String?, isDestructive: Bool) {
        self.id = id
        self.title = title
        self.systemImage = systemImage
        self.isDestructive = isDestructive
    }

    /// The row action of a screen action: `label` (or `title`) and `icon` from its config;
    /// destructive when the config says so or it sends a `DELETE`.
    public init(_ action: ActionDefinition, strings: DynamicUIStrings = .current) {
        let config = action.config ?? [:]
        let isConfirm = action.type == .confirm
        let nested = config["action"]?["config"]
        let destructive =
            config["destructive"]?.boolValue == true || config["style"]?.stringValue == "destructive"
            || config["method"]?.stringValue?.uppercased() == "DELETE" || nested?["method"]?.stringValue?.uppercased() == "DELETE"
        let title = config["label"]?.stringValue ?? (isConfirm ? nil : config["title"]?.stringValue)
        self.init(
            id: action.id, title: title ?? Self.defaultTitle(of: action, destructive: destructive, strings: strings),
            systemImage: config["icon"]?.stringValue, isDestructive: destructive)
    }

    /// The row actions of `ids` on `screen`, in order.
    public static func actions(
        _ ids: [String], of screen: ScreenDefinition?, strings: DynamicUIStrings = .current
    ) -> [RowAction] {
        guard !ids.isEmpty, let screen else { return [] }
        return ids.compactMap { id in screen.actions.first { $0.id == id }.map { RowAction($0, strings: strings) } }
    }

    private static func defaultTitle(of action: ActionDefinition, destructive: Bool, strings: DynamicUIStrings) -> String {
        if destructive { return strings(.delete) }
        switch action.type {
        case .navigate: return strings(.open)
        case .navigateBack: return strings(.back)
        case .apiCall: return strings(.run)
        case .submitForm: return strings(.send)
        case .refresh, .applyPatch: return strings(.refresh)
        case .confirm: return strings(.confirm)
        case .logout: return strings(.signOut)
        case .openURL: return strings(.openLink)
        case .custom, .setVariable, .timer, .unknown: return action.id
        }
    }
}
