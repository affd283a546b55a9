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
        guard let api else { return .error(message: strings(.noServer)) }
        var parameters: [String: String] = [:]
        for name in mutation.endpoint.parameterNames {
            guard let value = context.parameter(name) else {
                // The endpoint and the parameter are for the log; the person reads that it failed.
                logger.error("\(mutation.method) \(mutation.endpoint): no value for '\(name)' (screen \(context.screenKey))")
                return .error(message: strings(.actionFailed))
            }
            parameters[name] = value
        }
        let request = APIRequest(mutation.method, mutation.endpoint, pathParameters: parameters, body: mutation.body)
        do throws(NetworkError) {
            let result = try await api.send(request)
            await invalidate(mutation)
            if let response, let custom = await response((try? result.json()) ?? .null) { return custom }
            let success = ActionResult.success(message: mutation.successMessage)
            return mutation.onSuccess.map { .sequence([success, $0]) } ?? success
        } catch {
            if error.isQueued {
                await invalidate(mutation)
                let pending = ActionResult.pendingOffline(message: strings(.changeQueued))
                return mutation.onSuccess.map { .sequence([pending, $0]) } ?? pending
            }
            switch error.code {
            case .validation:
                let fields = FormValidator(strings: strings).serverErrors(in: error.body)
                return .fieldErrors(fields, message: error.body?["message"]?.stringValue ?? strings(.checkFields))
            case .conflict:
                return .error(message: strings(.conflict))
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

    private func invalidate(_ mutation: Mutation) async {
        await invalidator.invalidateData(endpoint: mutation.endpoint)
        if !mutation.invalidates.isEmpty { await invalidator.invalidate(screens: mutation.invalidates) }
    }
}
