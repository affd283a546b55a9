public import DynamicUIModels

/// A screen-specific handler: sees the screen's actions first. Implement
/// `handle(_:context:next:)` to run code before or after the built-in behaviour (`next`) and
/// decide on its result, or `handle(_:context:)` to replace it (`nil` hands the action on).
public protocol ScreenHandler: Sendable {
    /// The result, or `nil` to fall through to the generic handlers.
    func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult?
    /// The result of `action`; `next` runs the built-in behaviour (the generic handler of the
    /// action's type) and returns its result, as a middleware's `next` does.
    func handle(_ action: ActionDefinition, context: ActionContext, next: ActionNext) async -> ActionResult
    /// The route parameters of `screenKey` completed from the session where the route cannot
    /// name them (a tab's own unit, an admin's school); the default returns `params` unchanged.
    func completeParameters(_ params: [String: String], screenKey: String, session: SessionInfo?) -> [String: String]
    /// Values the handler's screen shows in its form fields when it opens (saved settings for
    /// its switches); the default has none.
    func initialValues(for screen: ScreenDefinition, session: SessionInfo?) async -> [String: String]
}

extension ScreenHandler {
    /// Nothing: the action goes on to the built-in behaviour.
    public func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? { nil }

    /// `handle(_:context:)`, or the built-in behaviour when it returns `nil`.
    public func handle(_ action: ActionDefinition, context: ActionContext, next: ActionNext) async -> ActionResult {
        if let result = await handle(action, context: context) { return result }
        return await next(action, context: context)
    }

    /// Returns `params` unchanged.
    public func completeParameters(_ params: [String: String], screenKey: String, session: SessionInfo?) -> [String: String] {
        params
    }

    /// No values.
    public func initialValues(for screen: ScreenDefinition, session: SessionInfo?) async -> [String: String] { [:] }
}

/// Which handler keys a handler serves: one exact key (`login`) or a prefix pattern
/// (`dashboard-*`).
public enum HandlerKeyPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Exactly this key.
    case exact(String)
    /// Every key starting with this prefix.
    case prefix(String)

    /// `"name-*"` is a prefix pattern; anything else is exact.
    public init(_ text: String) {
        self = text.hasSuffix("*") ? .prefix(String(text.dropLast())) : .exact(text)
    }

    /// Parses like `init(_:)`.
    public init(stringLiteral value: String) { self.init(value) }

    /// Whether `key` is served.
    public func matches(_ key: String) -> Bool {
        switch self {
        case .exact(let exact): key == exact
        case .prefix(let prefix): key.hasPrefix(prefix)
        }
    }

    public var description: String {
        switch self {
        case .exact(let key): key
        case .prefix(let prefix): prefix + "*"
        }
    }
}

/// A set of screen handlers a host passes at start (like swift-log's `LogHandler` factories).
public protocol ScreenHandlerPlugin: Sendable {
    /// The plugin's name, used in error messages.
    var name: String { get }
    /// The handlers, built with the app's services.
    func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)]
}

/// Two plugins registered the same key or pattern.
public struct PluginRegistrationError: Error, Sendable, CustomStringConvertible {
    /// The contested key or pattern.
    public let pattern: HandlerKeyPattern
    /// The plugins that both registered it.
    public let plugins: [String]

    public var description: String { "handler key '\(pattern)' registered by both \(plugins.joined(separator: " and "))" }
}

/// Screen handlers by key, built once from the host's plugins and immutable after: an exact key
/// beats a pattern, a longer pattern beats a shorter one, and a duplicate is an error at start.
public struct ScreenHandlerRegistry: Sendable {
    private let exact: [String: any ScreenHandler]
    private let prefixes: [(prefix: String, handler: any ScreenHandler)]

    /// Registers every handler of `plugins`; throws on a duplicate key or pattern.
    public init(plugins: [any ScreenHandlerPlugin], services: ActionServices) throws(PluginRegistrationError) {
        var exact: [String: (plugin: String, handler: any ScreenHandler)] = [:]
        var prefixes: [String: (plugin: String, handler: any ScreenHandler)] = [:]
        for plugin in plugins {
            for (pattern, handler) in plugin.handlers(services: services) {
                switch pattern {
                case .exact(let key):
                    if let existing = exact[key] {
                        throw PluginRegistrationError(pattern: pattern, plugins: [existing.plugin, plugin.name])
                    }
                    exact[key] = (plugin.name, handler)
                case .prefix(let prefix):
                    if let existing = prefixes[prefix] {
                        throw PluginRegistrationError(pattern: pattern, plugins: [existing.plugin, plugin.name])
                    }
                    prefixes[prefix] = (plugin.name, handler)
                }
            }
        }
        self.exact = exact.mapValues(\.handler)
        self.prefixes = prefixes.map { ($0.key, $0.value.handler) }.sorted { $0.prefix.count > $1.prefix.count }
    }

    /// An empty registry.
    public init() {
        exact = [:]
        prefixes = []
    }

    /// The handler for `key`.
    public func handler(for key: String) -> (any ScreenHandler)? {
        if let handler = exact[key] { return handler }
        return prefixes.first { key.hasPrefix($0.prefix) }?.handler
    }

    /// The registered exact keys and patterns.
    public var keys: [String] { exact.keys.sorted() + prefixes.map { $0.prefix + "*" } }
}

/// Runs actions in order: the screen's handler first; when it returns `nil`,
/// the generic registry.
public struct ActionDispatcher: Sendable {
    /// Screen handlers.
    public let screenHandlers: ScreenHandlerRegistry
    /// Generic handlers.
    public let registry: ActionRegistry

    /// Creates a dispatcher.
    public init(screenHandlers: ScreenHandlerRegistry, registry: ActionRegistry) {
        self.screenHandlers = screenHandlers
        self.registry = registry
    }

    /// Executes `action`: the screen's handler, if it has one, with the generic handlers as its `next`.
    public func execute(_ action: ActionDefinition, context: ActionContext) async -> ActionResult {
        let registry = self.registry
        let next = ActionNext { action, context in await registry.execute(action, context: context) }
        guard let key = context.handlerKey, let handler = screenHandlers.handler(for: key) else {
            return await next(action, context: context)
        }
        return await handler.handle(action, context: context, next: next)
    }

    /// The parameters a screen loads its data with: `params`, completed by the screen's handler.
    public func completeParameters(
        _ params: [String: String], screenKey: String, handlerKey: String?, session: SessionInfo?
    ) -> [String: String] {
        guard let handlerKey, let handler = screenHandlers.handler(for: handlerKey) else { return params }
        return handler.completeParameters(params, screenKey: screenKey, session: session)
    }

    /// The values `screen`'s handler puts in its form fields when it opens.
    public func initialValues(for screen: ScreenDefinition, session: SessionInfo?) async -> [String: String] {
        guard let key = screen.handlerKey, let handler = screenHandlers.handler(for: key) else { return [:] }
        return await handler.initialValues(for: screen, session: session)
    }
}

/// The built-in behaviour of an action, handed to a screen handler as a middleware's `next`:
/// call it (with the action and context as given, or changed) to run it and see its result.
public struct ActionNext: Sendable {
    private let run: @Sendable (ActionDefinition, ActionContext) async -> ActionResult

    /// Wraps `run` (a test can script what the built-in behaviour returns).
    public init(_ run: @escaping @Sendable (ActionDefinition, ActionContext) async -> ActionResult) {
        self.run = run
    }

    /// Runs the built-in behaviour of `action`.
    public func callAsFunction(_ action: ActionDefinition, context: ActionContext) async -> ActionResult {
        await run(action, context)
    }

    /// Runs it and returns, beside its result, what the server answered the change it sent
    /// (the last one, when it sent several; `nil` when it sent none): a 409's record, a 422's
    /// fields, a status, rather than the words the result shows.
    public func outcome(
        _ action: ActionDefinition, context: ActionContext
    ) async -> (result: ActionResult, outcome: MutationOutcome?) {
        let recorder = MutationOutcome.Recorder()
        let result = await MutationOutcome.recorder.withValue(recorder) { await run(action, context) }
        return (result, recorder.last)
    }
}
