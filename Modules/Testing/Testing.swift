public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
import DynamicUIResolvers
public import DynamicUIStorage
public import Foundation
import Logging

/// A transport that answers from scripted routes and records every request, for testing code
/// that talks to the API without a server.
public actor ScriptedTransport: HTTPTransport {
    /// A scripted answer.
    public enum Reply: Sendable {
        /// A response with a status, JSON body and headers.
        case json(Int, JSONValue, headers: HeaderFields = [:])
        /// A response with a status and raw body.
        case raw(Int, Data, headers: HeaderFields = [:])
        /// A transport failure (`noConnection`, `timeout`, …).
        case failure(TransportFailure)
    }

    private var routes: [(method: RequestMethod, path: String, replies: [Reply])] = []
    /// Every request sent, in order.
    public private(set) var requests: [TransportRequest] = []
    /// The answer for requests that match no route.
    public var fallback: Reply = .json(404, ["error": "not scripted"])

    /// An empty script.
    public init() {}

    /// Answers `method path` (the URL's path, without query) with `replies` in turn; the last
    /// reply repeats. Scripting the same route again replaces the earlier script.
    public func on(_ method: RequestMethod, _ path: String, _ replies: Reply...) {
        on(method, path, replies: replies)
    }

    /// Answers `method path` with `replies` in turn, as the variadic `on` does.
    public func on(_ method: RequestMethod, _ path: String, replies: [Reply]) {
        routes.append((method, path, replies))
    }

    /// Sets the answer for unmatched requests (`.failure(.noConnection)` simulates being offline).
    public func setFallback(_ reply: Reply) { fallback = reply }

    /// The recorded requests whose path is `path`.
    public func requests(to path: String) -> [TransportRequest] { requests.filter { $0.url.path == path } }

    /// The JSON body of a recorded request.
    public static func body(of request: TransportRequest) -> JSONValue? {
        request.body.flatMap { try? JSONReader().read($0) }
    }

    /// Answers from the script; a body over the request's `maxResponseBytes` fails with
    /// `.tooLarge`, as the URLSession transport does.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        requests.append(request)
        var reply = fallback
        if let index = routes.lastIndex(where: { $0.method == request.method && $0.path == request.url.path }) {
            reply = routes[index].replies.first ?? fallback
            if routes[index].replies.count > 1 { routes[index].replies.removeFirst() }
        }
        let response: TransportResponse
        switch reply {
        case .json(let status, let json, let headers):
            response = TransportResponse(status: status, headers: headers, body: JSONWriter().data(from: json))
        case .raw(let status, let data, let headers):
            response = TransportResponse(status: status, headers: headers, body: data)
        case .failure(let failure):
            throw TransportError(failure)
        }
        if let limit = request.maxResponseBytes, response.body.count > limit { throw TransportError(.tooLarge(limit: limit)) }
        return response
    }
}

/// Records cache invalidations.
public actor RecordingInvalidator: CacheInvalidating {
    /// Screen keys invalidated, in order.
    public private(set) var screens: [String] = []
    /// Endpoints whose data was invalidated, in order.
    public private(set) var endpoints: [Endpoint] = []
    /// How many times everything was cleared.
    public private(set) var clearedAll = 0

    /// An empty recorder.
    public init() {}

    /// Records screens.
    public func invalidate(screens: [String]) { self.screens += screens }
    /// Records an endpoint.
    public func invalidateData(endpoint: Endpoint) { endpoints.append(endpoint) }
    /// Records a full clear.
    public func clearAll() { clearedAll += 1 }
}

/// Everything a handler needs, faked at the boundary: a scripted transport behind a real
/// `APIClient`, in-memory token, settings and queue stores, a manual clock, and a recording
/// invalidator. Run a handler against an `ActionContext` and inspect the requests it made.
public struct HandlerHarness: Sendable {
    /// The scripted transport.
    public let transport: ScriptedTransport
    /// The session tokens.
    public let tokens: InMemoryTokenStore
    /// App settings.
    public let settings: InMemorySettingsStore
    /// The offline queue.
    public let queue: OfflineQueueStore
    /// The clock.
    public let clock: ManualClock
    /// Invalidations made.
    public let invalidator: RecordingInvalidator
    /// The services handed to handlers.
    public let services: ActionServices

    /// Base URL of the fake admin API.
    public static let adminURL = URL(string: "https://admin.api.test")!
    /// Base URL of the fake mobile API.
    public static let mobileURL = URL(string: "https://mobile.api.test")!

    /// A harness; `tokens` start as given (signed out by default); `OPEN_URL` reaches
    /// `allowedHosts` (none by default) over https; the SDK's words are `strings` (the system
    /// locale's by default); the offline queue holds at most `queueCapacity` changes (a small
    /// one tests what the user sees when it is full).
    public init(
        tokens: AuthTokens? = nil, events: EventHandlerRegistry = EventHandlerRegistry(), allowedHosts: Set<String> = [],
        strings: DynamicUIStrings = DynamicUIStrings(locale: .current),
        queueCapacity: Int = OfflineQueueStore.defaultCapacity
    ) {
        transport = ScriptedTransport()
        self.tokens = InMemoryTokenStore(tokens)
        settings = InMemorySettingsStore()
        queue = try! OfflineQueueStore(capacity: queueCapacity)
        clock = ManualClock()
        invalidator = RecordingInvalidator()
        let api = APIClient(
            configuration: APIConfiguration(adminBaseURL: Self.adminURL, mobileBaseURL: Self.mobileURL, retryPolicy: .none),
            transport: transport, tokens: self.tokens, cache: ResponseCache(clock: clock), queue: queue, clock: clock,
            logger: Logger(label: "DynamicUITesting"))
        services = ActionServices(
            api: api, tokens: self.tokens, settings: settings, invalidator: invalidator,
            security: URLSecurityPolicy(hosts: allowedHosts), events: events, strings: strings)
    }

    /// The registry of `plugins` over these services.
    public func registry(_ plugins: [any ScreenHandlerPlugin]) throws -> ScreenHandlerRegistry {
        try ScreenHandlerRegistry(plugins: plugins, services: services)
    }

    /// The dispatcher (screen handlers, then generic ones) for `plugins`.
    public func dispatcher(_ plugins: [any ScreenHandlerPlugin] = []) throws -> ActionDispatcher {
        ActionDispatcher(screenHandlers: try registry(plugins), registry: ActionRegistry(services: services))
    }

    /// Runs `action` on the screen handler registered for `context.handlerKey` by `plugin`,
    /// falling back to the generic handlers as the runtime does.
    public func run(
        _ plugin: any ScreenHandlerPlugin, _ action: ActionDefinition, context: ActionContext
    ) async throws -> ActionResult {
        try await dispatcher([plugin]).execute(action, context: context)
    }
}
