public import DynamicUIActions
public import DynamicUIModels
import DynamicUIResolvers

/// Where a missing route parameter comes from.
public enum ContextParameter: Sendable, Hashable {
    /// The signed-in user's id.
    case userId
    /// The user's school.
    case schoolId
    /// The user's academic unit.
    case academicUnitId
    /// Nothing: the parameter must be given (an error otherwise).
    case required
}

/// The navigation handlers (`dashboard-*`, `progress-*`, `guardian-*`,
/// `material-detail`): `NAVIGATE` with the destination's route parameters completed from the
/// session when the screen cannot name them (a teacher's own unit, an admin's school).
public struct NavigationPlugin: ScreenHandlerPlugin {
    /// Destination screen → parameter → source.
    public var rules: [String: [String: ContextParameter]]

    /// Creates the plugin (EduGo's rules by default).
    public init(rules: [String: [String: ContextParameter]] = NavigationPlugin.eduGo) { self.rules = rules }

    /// EduGo's destinations that take an `{id}`.
    public static let eduGo: [String: [String: ContextParameter]] = [
        "progress-unit-list": ["id": .academicUnitId], "units-list": ["id": .schoolId], "unit-create": ["id": .schoolId],
        "progress-student-detail": ["id": .userId], "child-progress": ["id": .required], "material-detail": ["id": .required],
        "assessment-take": ["id": .required], "material-edit": ["id": .required],
    ]

    /// `navigation`.
    public var name: String { "navigation" }

    /// One handler for the four key families.
    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        let handler = ContextualNavigationHandler(rules: rules, strings: services.strings)
        return [("dashboard-*", handler), ("progress-*", handler), ("guardian-*", handler), ("material-detail", handler)]
    }
}

/// Completes `NAVIGATE` parameters from the session; every other action falls through.
public struct ContextualNavigationHandler: ScreenHandler {
    /// Destination screen → parameter → source.
    public let rules: [String: [String: ContextParameter]]
    /// The words of its error message.
    var strings: DynamicUIStrings = .current

    /// A screen opened without the parameters its rules name (a tab, a deep link) gets them
    /// from the session, as a `NAVIGATE` to it would.
    public func completeParameters(_ params: [String: String], screenKey: String, session: SessionInfo?) -> [String: String] {
        var params = params
        for (name, source) in rules[screenKey] ?? [:] where params[name]?.isEmpty ?? true {
            if let value = Self.value(of: source, session: session), !value.isEmpty { params[name] = value }
        }
        return params
    }

    private static func value(of source: ContextParameter, session: SessionInfo?) -> String? {
        switch source {
        case .userId: session?.user.id
        case .schoolId: session?.context.schoolId
        case .academicUnitId: session?.context.academicUnitId
        case .required: nil
        }
    }

    /// Handles `NAVIGATE`.
    public func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        guard action.type == .navigate, let key = context.config["screen_key"]?.stringValue else { return nil }
        var params = context.config["params"]?.objectValue ?? [:]
        for (name, source) in rules[key] ?? [:] {
            if let given = params[name], !given.isNull, !given.text.isEmpty { continue }
            let value = Self.value(of: source, session: context.session)
            guard let value, !value.isEmpty else { return .error(message: strings(.cannotOpenScreen, name)) }
            params[name] = .string(value)
        }
        return .navigateTo(
            screenKey: key, params: params,
            presentation: Presentation(rawValue: context.config["presentation"]?.stringValue ?? "") ?? .push)
    }
}
