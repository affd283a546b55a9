public import DynamicUIModels
public import DynamicUINetwork
import Foundation
import Logging

/// A mutating request and what to do around it, shared by `API_CALL`, `SUBMIT_FORM` and the
/// CRUD plugins: routing and path parameters, the offline queue, 422 field errors, 409 and
/// cache invalidation.
public struct Mutation: Sendable {
    /// The method.
    public var method: RequestMethod
    /// The endpoint (`admin:/v1/users/{id}`).
    public var endpoint: Endpoint
    /// The JSON body.
    public var body: JSONValue?
    /// Shown on success.
    public var successMessage: String?
    /// Screens whose caches are invalidated on success (and when queued).
    public var invalidates: [String]
    /// What happens after success (`NAVIGATE_BACK`, or a navigation built by the handler).
    public var onSuccess: ActionResult?

    /// Creates a mutation.
    public init(
        method: RequestMethod, endpoint: Endpoint, body: JSONValue?, successMessage: String? = nil, invalidates: [String] = [],
        onSuccess: ActionResult? = nil
    ) {
        self.method = method
        self.endpoint = endpoint
        self.body = body
        self.successMessage = successMessage
        self.invalidates = invalidates
        self.onSuccess = onSuccess
    }
}

extension ActionServices {
    /// Sends `mutation` with path parameters from `context`, and turns the outcome into an
    /// `ActionResult`: success (then `onSuccess`), pending offline, field errors for a 422,
    /// or an error message. `response` sees the JSON of a successful response.
    public func perform(
        _ mutation: Mutation, context: ActionContext,
        response: (@Sendable (JSONValue) async -> ActionResult?)? = nil
    ) async -> ActionResult {
        guard let api else {
            MutationOutcome.report(.notSent)
            return .error(message: strings(.noServer))
        }
        var parameters: [String: String] = [:]
        for name in mutation.endpoint.parameterNames {
            guard let value = context.parameter(name) else {
                // The endpoint and the parameter are for the log; the person reads that it failed.
                logger.error("\(mutation.method) \(mutation.endpoint): no value for '\(name)' (screen \(context.screenKey))")
                MutationOutcome.report(.notSent)
                return .error(message: strings(.actionFailed))
            }
            parameters[name] = value
        }
        let body = Self.carryingVersion(mutation.body, method: mutation.method, of: context.selectedItem)
        let request = APIRequest(mutation.method, mutation.endpoint, pathParameters: parameters, body: body)
        do throws(NetworkError) {
            let result = try await api.send(request)
            await invalidate(mutation)
            // The body is parsed only for whoever reads it.
            let json = response != nil || MutationOutcome.isRecording ? ((try? result.json()) ?? .null) : .null
            MutationOutcome.report(.accepted(json))
            if let response, let custom = await response(json) { return custom }
            let success = ActionResult.success(message: mutation.successMessage)
            return mutation.onSuccess.map { .sequence([success, $0]) } ?? success
        } catch {
            if error.isQueued {
                MutationOutcome.report(.queued)
                await invalidate(mutation)
                let pending = ActionResult.pendingOffline(message: strings(.changeQueued))
                return mutation.onSuccess.map { .sequence([pending, $0]) } ?? pending
            }
            if error.code != .validation, error.code != .conflict {
                MutationOutcome.report(.failed(code: error.code, status: error.status, body: error.body))
            }
            switch error.code {
            case .validation:
                let fields = FormValidator(strings: strings).serverErrors(in: error.body)
                MutationOutcome.report(.invalid(fields, body: error.body))
                return .fieldErrors(fields, message: error.body?["message"]?.stringValue ?? strings(.checkFields))
            case .conflict:
                MutationOutcome.report(.conflict(current: error.body?["current"]))
                // The form and its edits stay; the person reads why and may load the record as
                // it is now (the edits are then replaced) or keep editing (the edits then
                // replace it when saved again).
                return Self.conflictResult(strings, serverRecord: error.body?["current"])
            case .unauthorized:
                return .logout
            case .forbidden:
                return .error(message: strings(.forbiddenAction))
            case .notFound:
                return .error(message: strings(.itemGone))
            case .noConnection, .timeout:
                return .error(message: strings(.serverUnreachable))
            case .queueFull:
                return .error(message: strings(.queueFull))
            default:
                logger.error("\(mutation.method) \(mutation.endpoint) failed: \(error)")
                return .error(message: error.body?["message"]?.stringValue ?? strings(.operationFailed))
            }
        }
    }

    /// The result of a change the server refused because the record changed since it was loaded
    /// (409): an alert offering to reload the record (a `REFRESH`, which gives the form the
    /// server's values) or to keep editing, and the message as an error banner, so it stays said
    /// once the alert is gone. Keeping one's edits means they win: the record takes the
    /// `version` of `serverRecord` (the record as the server has it now, sent with the 409), so
    /// the next save replaces it.
    public static func conflictResult(_ strings: DynamicUIStrings, serverRecord: JSONValue? = nil) -> ActionResult {
        let reload = ActionDefinition(id: conflictReloadActionId, trigger: .screen, type: .refresh)
        let current = serverVersion(of: serverRecord).map { JSONObject([("version", $0)]) }
        let request = ConfirmationRequest(
            title: strings(.conflictTitle), message: strings(.conflict), confirmLabel: strings(.reloadData),
            cancelLabel: strings(.keepEditing), destructive: false, action: reload, recordOnDecline: current)
        return .sequence([.confirm(request), .error(message: strings(.conflict))])
    }

    /// The `version` of a record sent with a 409, when it is one: a whole number of at most 18
    /// digits or a token of 1 to 200 characters; anything else is no version.
    static func serverVersion(of record: JSONValue?) -> JSONValue? {
        guard let version = record?["version"] else { return nil }
        if let number = version.intValue, abs(number) < 1_000_000_000_000_000 { return .number(JSONNumber(number)) }
        if let token = version.stringValue, (1...200).contains(token.count) { return .string(token) }
        return nil
    }

    /// The id of the reload a conflict offers.
    public static let conflictReloadActionId = "conflict-reload"

    /// The body of a change to a loaded record, carrying the record's `version` as loaded: the
    /// optimistic-concurrency token travels with the save without being a form field (a body
    /// that names its own `version` keeps it). Only a replacing or patching object body does.
    static func carryingVersion(_ body: JSONValue?, method: RequestMethod, of record: JSONValue?) -> JSONValue? {
        guard method == .put || method == .patch, case .object(var object)? = body, object["version"] == nil,
            let version = record?["version"], version.intValue != nil || version.stringValue?.isEmpty == false
        else { return body }
        object["version"] = version
        return .object(object)
    }

    private func invalidate(_ mutation: Mutation) async {
        await invalidator.invalidateData(endpoint: mutation.endpoint)
        if !mutation.invalidates.isEmpty { await invalidator.invalidate(screens: mutation.invalidates) }
    }
}

/// What the server answered a change `ActionServices.perform(_:context:response:)` sent, before
/// it became an `ActionResult` (see `ActionNext.outcome(_:context:)`).
public enum MutationOutcome: Sendable, Hashable {
    /// Accepted; the response's JSON (`null` without one).
    case accepted(JSONValue)
    /// No connection: stored for delivery when the connection returns.
    case queued
    /// Refused as invalid (422): the server's messages by field, and its body.
    case invalid([String: String], body: JSONValue?)
    /// Refused because the record changed since it was loaded (409): the record as the server
    /// has it now, when the answer carried it (`current`).
    case conflict(current: JSONValue?)
    /// Refused or failed otherwise: the error (its code, HTTP status and body).
    case failed(code: NetworkError.Code, status: Int?, body: JSONValue?)
    /// Not sent: no server is configured, or a path parameter had no value.
    case notSent

    /// Where `perform` reports outcomes while `ActionNext.outcome(_:context:)` runs.
    static let recorder = TaskLocal<Recorder?>(wrappedValue: nil)

    /// Whether a caller waits for outcomes (`ActionNext.outcome(_:context:)` is running).
    static var isRecording: Bool { recorder.get() != nil }

    /// Reports `outcome` to the caller waiting for it, if any (made only then).
    static func report(_ outcome: @autoclosure () -> MutationOutcome) { recorder.get()?.record(outcome()) }

    /// The outcomes reported during one run.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [MutationOutcome] = []

        func record(_ outcome: MutationOutcome) { lock.withLock { outcomes.append(outcome) } }

        var last: MutationOutcome? { lock.withLock { outcomes.last } }
    }
}
