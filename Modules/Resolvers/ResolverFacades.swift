public import DynamicUIModels

/// The value of a slot from `field` (the data or current item), then
/// `bind: "slot:key"` (slot data), then the literal `value`. A source that yields `null` falls
/// through to the next, so a `value` can serve as the fallback of a `field`.
///
/// A thin façade over `ExpressionCompiler` for one-off resolution; screens compiled
/// with `ScreenCompiler` use the same rules without re-parsing.
public struct SlotBindingResolver: Sendable {
    /// The environment used for placeholders in literal values.
    public let environment: EvaluationEnvironment

    /// Creates a resolver.
    public init(environment: EvaluationEnvironment) { self.environment = environment }

    /// Resolves `slot` against endpoint (or item) data and slot data; `nil` when no source gives
    /// a value, or when a field does not compile.
    public func resolve(slot: Slot, data: JSONValue?, slotData: [String: JSONValue]?) -> JSONValue? {
        let context = DataContext.screen(slotData: slotData, data: data ?? .null, environment: environment)
        guard let source = try? SlotValueSource(slot: slot, compiler: ExpressionCompiler()) else { return nil }
        return try? source.resolve(in: context)
    }
}

/// Replaces `{user.firstName}`, `{context.roleName}`, `{today_date}`,
/// `{current_year}`, `{item.field}` and the other placeholders in text.
///
/// A thin façade for one-off text; it compiles on each call, so hot paths use
/// `TextTemplate` directly.
public struct PlaceholderResolver: Sendable {
    /// The signed-in user.
    public let user: AuthUserInfo
    /// The user's role and organisation.
    public let context: UserContext
    /// Time, locale and limits.
    public let environment: EvaluationEnvironment
    /// How unknown placeholders render.
    public let policy: UnknownPlaceholderPolicy

    /// Creates a resolver.
    public init(
        user: AuthUserInfo, context: UserContext, environment: EvaluationEnvironment,
        policy: UnknownPlaceholderPolicy = .keepVerbatim
    ) {
        self.user = user
        self.context = context
        self.environment = environment
        self.policy = policy
    }

    /// `text` with its placeholders replaced; text that does not compile is returned unchanged.
    public func resolve(_ text: String, itemData: JSONValue? = nil) -> String {
        guard let template = try? TextTemplate.compile(text) else { return text }
        var scope = DataContext.screen(user: user, userContext: context, environment: environment)
        if let itemData { scope = scope.item(itemData, index: 0) }
        return (try? template.render(in: scope, unknown: policy)) ?? text
    }
}

/// Where a slot's value comes from, compiled: `field` > `slot:key` > `value`.
public struct SlotValueSource: Sendable, Hashable {
    /// The compiled `field` path.
    public let field: DynamicExpression?
    /// The `slot_data` key of `bind: "slot:key"`.
    public let slotKey: String?
    /// The compiled literal `value`.
    public let literal: ValueTemplate?

    /// Compiles the sources of `slot`; a `bind` that is not `slot:<key>` is an error.
    public init(slot: Slot, compiler: ExpressionCompiler, at location: JSONLocation = .root) throws(ExpressionError) {
        field = try slot.field.map { text throws(ExpressionError) in
            try compiler.field(text, at: location.appending(key: "field"))
        }
        if let bind = slot.bind {
            // By byte: a key may start with a combining mark (`slot:\u{301}x`).
            guard bind.utf8.starts(with: "slot:".utf8), bind.utf8.count > 5 else {
                throw ExpressionError(
                    .unsupportedBinding, offset: 0, expression: bind, "bind must be 'slot:<key>'",
                    location: location.appending(key: "bind"))
            }
            slotKey = String(bind.unicodeScalars.dropFirst(5))
        } else {
            slotKey = nil
        }
        literal = try slot.value.map { value throws(ExpressionError) in
            try compiler.screenValue(value, at: location.appending(key: "value"))
        }
    }

    /// The first non-null source's value, or `nil`. Slot data is read from the context's `slot`
    /// scope, where `CompiledScreen.context(…)` put it already evaluated.
    public func resolve(in context: DataContext) throws(EvaluationError) -> JSONValue? {
        if let field {
            let value = try field.evaluate(in: context)
            if !value.isNull { return value }
        }
        if let slotKey, let value = context.lookup("slot")?[slotKey], !value.isNull {
            return value
        }
        if let literal {
            let value = try literal.evaluate(in: context)
            if !value.isNull { return value }
        }
        return nil
    }
}
