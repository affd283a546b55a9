public import DynamicUIModels
import DynamicUINetwork
import Foundation
import Logging

/// A handler of one action type.
public protocol ActionHandler: Sendable {
    /// Performs `action`.
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult
}

/// The generic handlers (navigate, API call, submit, refresh, confirm, logout) and the rest of the screen dialect's action types,
/// keyed by type; built once and immutable.
public struct ActionRegistry: Sendable {
    /// The services handlers use.
    public let services: ActionServices
    private let handlers: [ActionType: any ActionHandler]

    /// The built-in handlers, with `overrides` replacing any of them.
    public init(services: ActionServices, overrides: [ActionType: any ActionHandler] = [:]) {
        self.services = services
        var handlers: [ActionType: any ActionHandler] = [
            .navigate: NavigateHandler(), .navigateBack: FixedResultHandler(result: .navigateBack),
            .refresh: FixedResultHandler(result: .refresh), .logout: LogoutHandler(), .apiCall: APICallHandler(),
            .submitForm: SubmitFormHandler(), .confirm: ConfirmHandler(), .openURL: OpenURLHandler(),
            .custom: CustomEventHandler(), .applyPatch: ApplyPatchHandler(), .setVariable: SetVariableHandler(),
            .timer: TimerHandler(),
        ]
        for (type, handler) in overrides { handlers[type] = handler }
        self.handlers = handlers
    }

    /// Performs `action` with the handler of its type; an unknown type is an error result.
    public func execute(_ action: ActionDefinition, context: ActionContext) async -> ActionResult {
        guard let handler = handlers[action.type] else {
            services.logger.warning("no handler for action type \(action.type) (\(context.screenKey)/\(action.id))")
            return .error(message: services.strings(.actionUnavailableInVersion))
        }
        return await handler.perform(action, context: context, services: services)
    }
}

/// Always the same result (`NAVIGATE_BACK`, `REFRESH`).
struct FixedResultHandler: ActionHandler {
    let result: ActionResult
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult { result }
}

/// `NAVIGATE`: `screen_key`, `params` (placeholders already evaluated), `presentation`.
struct NavigateHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let key = context.config["screen_key"]?.stringValue, !key.isEmpty else {
            return .error(message: services.strings(.missingScreenKey))
        }
        return .navigateTo(
            screenKey: key, params: context.config["params"]?.objectValue ?? [:],
            presentation: Presentation(rawValue: context.config["presentation"]?.stringValue ?? "") ?? .push)
    }
}

/// `LOGOUT`, asking first when the config has `confirm`.
struct LogoutHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        if !context.confirmed, let confirm = context.config["confirm"]?.objectValue {
            return .confirm(ConfirmHandler.request(from: confirm, guarding: action, strings: services.strings))
        }
        return .logout
    }
}

/// `API_CALL`: `method`, `endpoint`, `body` (or the form values), `success_message`, `invalidates`.
struct APICallHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let endpoint = context.config["endpoint"]?.stringValue else {
            return .error(message: services.strings(.missingParameter, "endpoint", action.id))
        }
        guard let method = Self.method(of: action, context: context, services: services) else {
            return .error(message: services.strings(.actionFailed))
        }
        var body = context.config["body"]
        if body == nil, method.isMutating, method != .delete, !context.fieldValues.isEmpty {
            body = .object(
                FormValidator(strings: services.strings).body(slots: context.formSlots, values: context.fieldValues, fields: nil))
        }
        let mutation = Mutation(
            method: method, endpoint: Endpoint(endpoint), body: body,
            successMessage: context.config["success_message"]?.stringValue,
            invalidates: context.config["invalidates"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            onSuccess: SubmitFormHandler.followUp(context.config["on_success"]))
        if method == .get {
            guard let api = services.api else { return .error(message: services.strings(.noServer)) }
            do throws(NetworkError) {
                _ = try await api.send(APIRequest(.get, Endpoint(endpoint)))
                return .refresh
            } catch {
                return .error(message: error.message)
            }
        }
        return await services.perform(mutation, context: context)
    }

    /// The method of `config.method` (POST when absent); `nil`, with the place logged, for one
    /// that is not a string or not one of `RequestMethod.allowed` (nothing is then sent).
    static func method(of action: ActionDefinition, context: ActionContext, services: ActionServices) -> RequestMethod? {
        let place = "\(action.type) '\(action.id)' on screen '\(context.screenKey)', config.method"
        do throws(NetworkError) {
            switch context.config["method"] {
            case nil: return .post
            case .string(let name)?: return try RequestMethod(validating: name, at: place)
            case let value?: throw NetworkError.invalidRequest("\(place): \(value.kindName), not a method name")
            }
        } catch {
            services.logger.error("\(error.message)")
            return nil
        }
    }
}

/// `APPLY_PATCH`: fetches a `DocumentPatch` from `endpoint` (GET, never from the cache) and hands
/// it to the screen, which applies it to its zones and slots, or to its records with
/// `"target": "data"`. A body that is not a patch is an error result (the decoding error, with
/// its place, is logged).
struct ApplyPatchHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let endpoint = context.config["endpoint"]?.stringValue else {
            return .error(message: services.strings(.missingParameter, "endpoint", action.id))
        }
        guard let api = services.api else { return .error(message: services.strings(.noServer)) }
        do {
            let response = try await api.send(APIRequest(.get, Endpoint(endpoint), useCache: false))
            let patch = try DocumentPatch(json: try response.json())
            return .patch(patch, toData: context.config["target"]?.stringValue == "data")
        } catch let error as NetworkError {
            return .error(message: error.message)
        } catch {
            services.logger.error("APPLY_PATCH \(endpoint): \(error)")
            return .error(message: services.strings(.actionFailed))
        }
    }
}

/// `SET_VARIABLE`: `name`, and `value` (placeholders evaluated) or `increment` (a number added
/// to a number variable). The screen checks the value against the variable's type.
struct SetVariableHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let name = context.config["name"]?.stringValue, !name.isEmpty else {
            return .error(message: services.strings(.missingParameter, "name", action.id))
        }
        if let increment = context.config["increment"] {
            guard case .number = increment else {
                services.logger.error("SET_VARIABLE \(action.id): increment is \(increment.kindName), not a number")
                return .error(message: services.strings(.actionFailed))
            }
            return .setVariable(name, value: increment, increment: true)
        }
        guard let value = context.config["value"] else {
            return .error(message: services.strings(.missingParameter, "value", action.id))
        }
        return .setVariable(name, value: value, increment: false)
    }
}

/// `TIMER`: `id` (the screen's timer) and `command` (`start`, `stop`, `pause`, `resume`, `reset`).
struct TimerHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let id = context.config["id"]?.stringValue, !id.isEmpty else {
            return .error(message: services.strings(.missingParameter, "id", action.id))
        }
        let command = TimerCommand(rawValue: context.config["command"]?.stringValue ?? "")
        if case .unknown(let raw) = command {
            services.logger.error("TIMER \(action.id): unknown command '\(raw)'")
            return .error(message: services.strings(.actionFailed))
        }
        return .timer(id, command)
    }
}

/// `SUBMIT_FORM`: validates with `FormValidator` (unless `validate` is `false`), then sends `fields` (or every input) to
/// `endpoint` with `method`; field errors, pending offline and `on_success` as `Mutation`.
struct SubmitFormHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        let validator = FormValidator(strings: services.strings)
        // `"validate": false` sends the form as it is (a timed assessment whose time ran out).
        if context.config["validate"] != .bool(false) {
            let errors = validator.validate(slots: context.formSlots, values: context.fieldValues)
            if !errors.isEmpty { return .fieldErrors(errors, message: services.strings(.checkFields)) }
        }
        guard let endpoint = context.config["endpoint"]?.stringValue else {
            return .error(message: services.strings(.missingParameter, "endpoint", action.id))
        }
        guard let method = APICallHandler.method(of: action, context: context, services: services) else {
            return .error(message: services.strings(.actionFailed))
        }
        let fields = context.config["fields"]?.arrayValue?.compactMap(\.stringValue)
        let body = validator.body(slots: context.formSlots, values: context.fieldValues, fields: fields)
        let mutation = Mutation(
            method: method, endpoint: Endpoint(endpoint),
            body: .object(body), successMessage: context.config["success_message"]?.stringValue ?? services.strings(.saved),
            invalidates: context.config["invalidates"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            onSuccess: Self.followUp(context.config["on_success"]))
        return await services.perform(mutation, context: context)
    }

    /// The result of an `on_success` action object (`{"type": "NAVIGATE_BACK"}`, or a
    /// `NAVIGATE` with its config).
    static func followUp(_ value: JSONValue?) -> ActionResult? {
        guard let object = value?.objectValue, let type = object["type"]?.stringValue else { return nil }
        switch ActionType(rawValue: type) {
        case .navigateBack: return .navigateBack
        case .refresh: return .refresh
        case .navigate:
            let config = object["config"]?.objectValue ?? [:]
            guard let key = config["screen_key"]?.stringValue else { return nil }
            return .navigateTo(
                screenKey: key, params: config["params"]?.objectValue ?? [:],
                presentation: Presentation(rawValue: config["presentation"]?.stringValue ?? "") ?? .push)
        default: return nil
        }
    }
}

/// `CONFIRM`: returns the request; the guarded `action` (`{"type", "config"}`) runs only after
/// the user accepts (then with `ActionContext.confirmed`).
struct ConfirmHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let guarded = context.config["action"]?.objectValue, let type = guarded["type"]?.stringValue else {
            return .error(message: services.strings(.confirmWithoutAction))
        }
        let target = ActionDefinition(
            id: action.id + ".confirmed", trigger: action.trigger, triggerSlotId: action.triggerSlotId,
            type: ActionType(rawValue: type),
            config: guarded["config"]?.objectValue.map { object in
                Dictionary(object.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            })
        return .confirm(Self.request(from: context.config, guarding: target, strings: services.strings))
    }

    static func request(
        from config: JSONObject, guarding action: ActionDefinition, strings: DynamicUIStrings
    ) -> ConfirmationRequest {
        ConfirmationRequest(
            title: config["title"]?.stringValue ?? strings(.confirmContinue), message: config["message"]?.stringValue,
            confirmLabel: config["confirm_label"]?.stringValue ?? strings(.accept),
            cancelLabel: config["cancel_label"]?.stringValue ?? strings(.cancel),
            destructive: config["destructive"]?.boolValue ?? false, action: action)
    }
}

/// `OPEN_URL`: only URLs the security policy allows.
struct OpenURLHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let text = context.config["url"]?.stringValue, let url = URL(string: text.trimmingCharacters(in: .whitespaces))
        else {
            return .error(message: services.strings(.invalidLink))
        }
        guard services.security.allows(url) else {
            services.logger.warning("OPEN_URL refused: \(url.scheme ?? "?") URL to \(url.host ?? "no host")")
            return .error(message: services.strings(.linkNotAllowed))
        }
        return .openURL(url)
    }
}

/// `CUSTOM`: the host's handler of `event` with the evaluated `payload`.
struct CustomEventHandler: ActionHandler {
    func perform(_ action: ActionDefinition, context: ActionContext, services: ActionServices) async -> ActionResult {
        guard let event = context.config["event"]?.stringValue else { return .error(message: "event requerido") }
        guard let handler = services.events.handler(for: event) else {
            services.logger.warning("no handler registered for CUSTOM event '\(event)'")
            return .error(message: services.strings(.actionUnavailable))
        }
        return await handler(context.config["payload"]?.objectValue ?? [:], context)
    }
}
