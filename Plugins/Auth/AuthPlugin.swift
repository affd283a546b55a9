public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
import DynamicUIResolvers
import DynamicUIStorage
import Foundation

/// Sign-in and settings handlers (`login`, `settings`).
public struct AuthPlugin: ScreenHandlerPlugin {
    /// `POST` sign-in endpoint.
    public var loginEndpoint: Endpoint
    /// `POST` sign-out endpoint.
    public var logoutEndpoint: Endpoint
    /// `PUT` endpoint of the user's preferences (`{"key": value}`); `nil` keeps them on the device.
    public var preferencesEndpoint: Endpoint?

    /// Creates the plugin.
    public init(
        loginEndpoint: Endpoint = "/v1/auth/login", logoutEndpoint: Endpoint = "/v1/auth/logout",
        preferencesEndpoint: Endpoint? = "/v1/users/me/preferences"
    ) {
        self.loginEndpoint = loginEndpoint
        self.logoutEndpoint = logoutEndpoint
        self.preferencesEndpoint = preferencesEndpoint
    }

    /// `auth`.
    public var name: String { "auth" }

    /// `login` and `settings`.
    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [
            ("login", LoginHandler(endpoint: loginEndpoint, services: services)),
            (
                "settings",
                SettingsHandler(logoutEndpoint: logoutEndpoint, preferencesEndpoint: preferencesEndpoint, services: services)
            ),
        ]
    }
}

/// `login`: validates, `POST`s the credentials, stores the tokens, remembers the e-mail when
/// asked, and signs in: the runtime opens the first entry of the user's navigation.
public struct LoginHandler: ScreenHandler {
    let endpoint: Endpoint
    let services: ActionServices

    /// Handles the sign-in submit; other actions fall through.
    public func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        guard action.type == .submitForm else { return nil }
        let errors = FormValidator(minimumPasswordLength: 1, strings: services.strings).validate(
            slots: context.formSlots, values: context.fieldValues)
        if !errors.isEmpty { return .fieldErrors(errors, message: nil) }
        guard let api = services.api else { return .error(message: services.strings(.noServer)) }
        let email = (context.fieldValues["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let body: JSONValue = ["email": .string(email), "password": .string(context.fieldValues["password"] ?? "")]
        do throws(NetworkError) {
            let json = try await api.send(APIRequest(.post, endpoint, body: body, authenticated: false, queueWhenOffline: false))
                .json()
            guard let access = json["access_token"]?.stringValue, let userJSON = json["user"], let contextJSON = json["context"],
                let user = try? AuthUserInfo(json: userJSON), let userContext = try? UserContext(json: contextJSON)
            else { return .error(message: services.strings(.signInBadResponse)) }
            let expiresAt = json["expires_in"]?.doubleValue.flatMap { WireNumber.seconds($0) }.map {
                Date().addingTimeInterval($0)
            }
            let session = SessionInfo(user: user, context: userContext)
            do {
                try await services.tokens.save(
                    AuthTokens(accessToken: access, refreshToken: json["refresh_token"]?.stringValue, expiresAt: expiresAt))
                let remember = context.fieldValues["remember"] == "true"
                try await services.settings.set(remember ? .string(email) : nil, for: "remembered_email")
                try await SessionPersistence.save(session, in: services.settings)
            } catch {
                return .error(message: services.strings(.signInSaveFailed))
            }
            return .signedIn(session, destination: nil)
        } catch {
            switch error.code {
            case .unauthorized:
                // Said once, under the password (VoiceOver moves there), not again in a banner.
                return .fieldErrors(["password": services.strings(.signInWrongCredentials)], message: nil)
            case .validation:
                return .fieldErrors(FormValidator(strings: services.strings).serverErrors(in: error.body), message: nil)
            case .noConnection, .timeout: return .error(message: services.strings(.signInOffline))
            default: return .error(message: services.strings(.signInFailed))
            }
        }
    }
}

/// `settings`: sign-out (after its confirmation) clears tokens and caches; theme and
/// preference switches are saved in the settings store and sent to the preferences endpoint
/// (queued while offline, so the change shows as pending until it is delivered).
public struct SettingsHandler: ScreenHandler {
    let logoutEndpoint: Endpoint
    var preferencesEndpoint: Endpoint?
    let services: ActionServices

    /// Handles sign-out and the switches; other actions fall through.
    public func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        switch action.type {
        case .logout:
            if context.config["confirm"] != nil, !context.confirmed { return nil }
            if let api = services.api {
                // Best effort: the session ends locally even if the server cannot be told. The
                // refresh token goes with it, so the server can revoke the whole session, not
                // only the access token.
                let refresh = (try? await services.tokens.load())?.refreshToken
                let body: JSONValue? = refresh.map { ["refresh_token": .string($0)] }
                _ = try? await api.send(APIRequest(.post, logoutEndpoint, body: body, queueWhenOffline: false))
            }
            await SessionPersistence.clear(tokens: services.tokens, settings: services.settings)
            await services.invalidator.clearAll()
            return .logout
        case .custom:
            let event = context.config["event"]?.stringValue
            guard event == "toggle_theme" || event == "set_preference" else { return nil }
            guard let key = Self.settingKey(event: event, payload: context.config["payload"]) else {
                return .error(message: services.strings(.unknownPreference))
            }
            // The switch's value as the user left it; without one (a button), the stored value flips.
            let field = context.formSlots.first { $0.id == action.triggerSlotId }?.formFieldName ?? action.triggerSlotId
            let value: Bool
            if let field, let posted = context.fieldValues[field] {
                value = posted == "true"
            } else {
                value = !(await services.settings.value(for: key)?.boolValue ?? false)
            }
            do {
                try await services.settings.set(.bool(value), for: key)
            } catch {
                return .error(message: services.strings(.settingSaveFailed))
            }
            let saved = ActionResult.stateChanged([key: .bool(value)])
            guard let endpoint = preferencesEndpoint, let api = services.api else { return saved }
            do throws(NetworkError) {
                _ = try await api.send(APIRequest(.put, endpoint, body: [key: .bool(value)]))
                return saved
            } catch {
                if error.isQueued {
                    return .sequence([
                        saved, .pendingOffline(message: services.strings(.settingQueued)),
                    ])
                }
                if error.code == .queueFull {
                    // Kept on the device, but the server will not hear of it: say so.
                    return .sequence([saved, .error(message: services.strings(.queueFull))])
                }
                // Refused or failed: the choice stays on the device, which is what the switch shows.
                return saved
            }
        default:
            return nil
        }
    }

    /// The stored value of every switch the screen's setting actions name (`"true"`/`"false"`),
    /// so a switch shows what was saved rather than the screen's default.
    public func initialValues(for screen: ScreenDefinition, session: SessionInfo?) async -> [String: String] {
        var values: [String: String] = [:]
        let slots = screen.template.allZones.flatMap { $0.slots ?? [] }
        for action in screen.actions where action.type == .custom {
            guard let slotId = action.triggerSlotId,
                let key = Self.settingKey(
                    event: action.config?["event"]?.stringValue, payload: action.config?["payload"]),
                let stored = await services.settings.value(for: key)?.boolValue
            else { continue }
            values[slots.first { $0.id == slotId }?.formFieldName ?? slotId] = stored ? "true" : "false"
        }
        return values
    }

    /// The setting an event writes: `dark_mode` for `toggle_theme`, the payload's `key` for
    /// `set_preference` when it is a preference's name (lower-case letters, digits and `_`, at
    /// most 64) and not one of the SDK's own keys: screen JSON never overwrites the saved session.
    static func settingKey(event: String?, payload: JSONValue?) -> String? {
        switch event {
        case "toggle_theme": "dark_mode"
        case "set_preference": payload?["key"]?.stringValue.flatMap { isPreferenceKey($0) ? $0 : nil }
        default: nil
        }
    }

    /// The SDK's own settings, which no screen may write.
    static let reservedKeys: Set<String> = [SessionPersistence.userKey, SessionPersistence.contextKey, "remembered_email"]

    /// Whether `key` may name a preference a screen sets.
    static func isPreferenceKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 64 && !reservedKeys.contains(key) && !key.hasPrefix("session")
            && key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }
}
