public import DynamicUIModels
import DynamicUIResolvers
public import DynamicUIStorage
public import Foundation

/// The signed-in user and their active context.
public struct SessionInfo: Sendable, Hashable {
    /// The user.
    public var user: AuthUserInfo
    /// Role and organisation.
    public var context: UserContext

    /// Creates a session.
    public init(user: AuthUserInfo, context: UserContext) {
        self.user = user
        self.context = context
    }
}

/// Everything an action handler knows when an action fires.
public struct ActionContext: Sendable {
    /// The screen that fired it.
    public var screenKey: String
    /// The screen's handler key.
    public var handlerKey: String?
    /// The action's id.
    public var actionId: String
    /// The action's config with placeholders already evaluated (endpoints kept as written).
    public var config: JSONObject
    /// Form values by field name.
    public var fieldValues: [String: String]
    /// The form's input slots, for validation and typing values.
    public var formSlots: [Slot]
    /// The item that was tapped (list) or shown (detail).
    public var selectedItem: JSONValue?
    /// Navigation params of the current screen (`id`, …).
    public var params: [String: String]
    /// The signed-in session.
    public var session: SessionInfo?
    /// True when a `CONFIRM` was accepted and its guarded action now runs.
    public var confirmed: Bool

    /// Creates a context.
    public init(
        screenKey: String, handlerKey: String? = nil, actionId: String, config: JSONObject = [:],
        fieldValues: [String: String] = [:],
        formSlots: [Slot] = [], selectedItem: JSONValue? = nil, params: [String: String] = [:], session: SessionInfo? = nil,
        confirmed: Bool = false
    ) {
        self.screenKey = screenKey
        self.handlerKey = handlerKey
        self.actionId = actionId
        self.config = config
        self.fieldValues = fieldValues
        self.formSlots = formSlots
        self.selectedItem = selectedItem
        self.params = params
        self.session = session
        self.confirmed = confirmed
    }

    /// The id of the selected item (`selectedItem.id` as text).
    public var selectedItemId: String? {
        guard let id = selectedItem?["id"], !id.isNull else { return nil }
        return id.text
    }

    /// The value for a path parameter: navigation params, then the selected item, then form values.
    public func parameter(_ name: String) -> String? {
        if let value = params[name], !value.isEmpty { return value }
        if let value = selectedItem?[name], !value.isNull, !value.text.isEmpty { return value.text }
        if let value = fieldValues[name], !value.isEmpty { return value }
        return nil
    }

    /// What the screen says to do after the action succeeds (its config's `on_success`:
    /// go back, refresh, or open a screen), for a handler that sends the change itself.
    public var onSuccess: ActionResult? { SubmitFormHandler.followUp(config["on_success"]) }
}

/// What the runtime must do after an action, in either dialect.
public indirect enum ActionResult: Sendable, Hashable {
    /// Open a screen with params.
    case navigateTo(screenKey: String, params: JSONObject, presentation: Presentation)
    /// Go back (or dismiss the sheet).
    case navigateBack
    /// Done; show the message, if any.
    case success(message: String?)
    /// Failed; show the message.
    case error(message: String)
    /// The form has errors, by field name.
    case fieldErrors([String: String], message: String?)
    /// Stored for delivery when the connection returns; show the notice.
    case pendingOffline(message: String)
    /// Sign out: tokens, caches and the navigation stack are cleared.
    case logout
    /// Signed in: open `destination`, or (`nil`) the first entry of the user's navigation.
    case signedIn(SessionInfo, destination: String?)
    /// Nothing happened (cancelled by the user).
    case cancelled
    /// Reload the screen's data.
    case refresh
    /// Ask the user first.
    case confirm(ConfirmationRequest)
    /// Open an allowed external URL.
    case openURL(URL)
    /// Node dialect: present a screen as a sheet.
    case present(screen: String, params: JSONObject)
    /// Node dialect: dismiss the current sheet.
    case dismiss
    /// Node dialect: state values changed (`setState`, `api` results).
    case stateChanged(JSONObject)
    /// Apply `patch` to the shown document in place (to its records when `toData`).
    case patch(DocumentPatch, toData: Bool)
    /// Set the screen variable `name` to `value`, or add `value` (a number) to it when
    /// `increment`; the screen checks the variable's type.
    case setVariable(String, value: JSONValue, increment: Bool)
    /// Run `command` on the screen's timer `id`.
    case timer(String, TimerCommand)
    /// Several results, applied in order (a form's success message, then going back).
    case sequence([ActionResult])

    /// Whether this asks the user to confirm (alone or within a sequence).
    public var asksForConfirmation: Bool {
        switch self {
        case .confirm: true
        case .sequence(let results): results.contains { $0.asksForConfirmation }
        default: false
        }
    }

    /// Whether this is (or ends with) an error.
    public var isError: Bool {
        switch self {
        case .error, .fieldErrors: true
        case .sequence(let results): results.last?.isError ?? false
        default: false
        }
    }
}

/// Where a signed-in session is kept between launches: the tokens in the token store, the user
/// and their context in the settings store under `session_user` and `session_context`.
public enum SessionPersistence {
    /// The settings key of the user.
    public static let userKey = "session_user"
    /// The settings key of the user's context.
    public static let contextKey = "session_context"

    /// Saves the user and context of `session`.
    public static func save(_ session: SessionInfo, in settings: any SettingsStore) async throws {
        try await settings.set(session.context.json, for: contextKey)
        try await settings.set(session.user.json, for: userKey)
    }

    /// The saved session, when tokens and a readable user and context are all present.
    public static func restore(tokens: any TokenStore, settings: any SettingsStore) async -> SessionInfo? {
        guard (try? await tokens.load()) != nil, let userJSON = await settings.value(for: userKey),
            let contextJSON = await settings.value(for: contextKey), let user = try? AuthUserInfo(json: userJSON),
            let context = try? UserContext(json: contextJSON)
        else { return nil }
        return SessionInfo(user: user, context: context)
    }

    /// Forgets the tokens and the saved user and context.
    public static func clear(tokens: any TokenStore, settings: any SettingsStore) async {
        try? await tokens.clear()
        try? await settings.set(nil, for: contextKey)
        try? await settings.set(nil, for: userKey)
    }
}
