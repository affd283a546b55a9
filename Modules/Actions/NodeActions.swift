import DynamicUIModels
import DynamicUINetwork
public import DynamicUIResolvers
import Logging

/// Executes node-dialect actions: navigate, present, dismiss, api (result stored
/// under `resultKey`), setState, custom events, and sequences that run in order, stop at the
/// first error and let later steps see earlier results (`$.env.<key>`).
public struct NodeActionExecutor: Sendable {
    /// The services used (API client, events).
    public let services: ActionServices

    /// Creates an executor.
    public init(services: ActionServices) { self.services = services }

    /// Executes `action`, evaluating its bindings in `context`.
    public func execute(_ action: CompiledNodeAction, in context: DataContext, screen: String = "") async -> ActionResult {
        do throws(EvaluationError) {
            switch action {
            case .navigate(let target, let params):
                return .navigateTo(
                    screenKey: target, params: try params.evaluate(in: context).objectValue ?? [:], presentation: .push)
            case .present(let target, let params):
                return .present(screen: target, params: try params.evaluate(in: context).objectValue ?? [:])
            case .dismiss:
                return .dismiss
            case .setState(let key, let value):
                return .stateChanged([key: try value.evaluate(in: context)])
            case .api(let endpoint, let params, let resultKey, let select):
                let query = (try params.evaluate(in: context).objectValue ?? [:]).compactMap {
                    entry -> (name: String, value: String)? in
                    entry.value.isNull ? nil : (entry.key, entry.value.text)
                }
                var wanted: JSONValue?
                if let select { wanted = try select.matching.evaluate(in: context) }
                return await call(endpoint, query: query, resultKey: resultKey) { result in
                    guard let select, let wanted else { return [] }
                    return [(select.key, select.pick(from: result, values: wanted))]
                }
            case .custom(let event, let payload):
                guard let handler = services.events.handler(for: event) else {
                    services.logger.warning("no handler registered for custom event '\(event)'")
                    return .error(message: services.strings(.actionUnavailable))
                }
                let evaluated = try payload.evaluate(in: context).objectValue ?? [:]
                return await handler(
                    evaluated, ActionContext(screenKey: screen, actionId: event, config: ["payload": .object(evaluated)]))
            case .patch(let endpoint):
                return await patch(from: endpoint)
            case .timer(let id, let command):
                return .timer(id, command)
            case .sequence(let steps):
                return await sequence(steps, in: context, screen: screen)
            case .unknown(let type):
                return .error(message: services.strings(.actionTypeUnavailable, type))
            }
        } catch {
            services.logger.error("action evaluation stopped: \(error)")
            return .error(message: services.strings(.actionFailed))
        }
    }

    private func call(
        _ endpoint: String, query: [(name: String, value: String)], resultKey: String?,
        picked: (JSONValue) -> [(String, JSONValue)]
    ) async -> ActionResult {
        guard let api = services.api else { return .error(message: services.strings(.noServer)) }
        do throws(NetworkError) {
            let json = try await api.send(APIRequest(.get, Endpoint(endpoint), query: query)).json()
            let changes = (resultKey.map { [($0, json)] } ?? []) + picked(json)
            return changes.isEmpty ? .success(message: nil) : .stateChanged(JSONObject(changes))
        } catch {
            return .error(message: error.code == .noConnection ? services.strings(.offline) : services.strings(.dataUnavailable))
        }
    }

    /// The patch `endpoint` answers, for the shown document; a body that is not a patch is an
    /// error result (its decoding error logged).
    private func patch(from endpoint: String) async -> ActionResult {
        guard let api = services.api else { return .error(message: services.strings(.noServer)) }
        do throws(NetworkError) {
            let json = try await api.send(APIRequest(.get, Endpoint(endpoint), useCache: false)).json()
            do throws(ModelDecodingError) {
                return .patch(try DocumentPatch(json: json), toData: false)
            } catch {
                services.logger.error("patch \(endpoint): \(error)")
                return .error(message: services.strings(.actionFailed))
            }
        } catch {
            return .error(message: error.code == .noConnection ? services.strings(.offline) : services.strings(.dataUnavailable))
        }
    }

    private func sequence(_ steps: [CompiledNodeAction], in context: DataContext, screen: String) async -> ActionResult {
        var results: [ActionResult] = []
        var state = context.lookup("env")?.objectValue ?? [:]
        var current = context
        for step in steps {
            let result = await execute(step, in: current, screen: screen)
            results.append(result)
            if result.isError { break }
            if case .stateChanged(let changes) = result {
                for (key, value) in changes { state[key] = value }
                current = context.child([("env", .object(state)), ("state", .object(state))])
            }
        }
        return .sequence(results)
    }
}
