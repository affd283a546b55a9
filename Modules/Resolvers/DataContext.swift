public import DynamicUIModels
public import Foundation

/// What evaluation needs besides data: the current time, locale, time zone and calendar
/// (injected so results are deterministic), and a cache of date formatters.
public struct EvaluationEnvironment: Sendable {
    /// "Now", for `{today_date}` and `{current_year}`.
    public var now: Date {
        didSet { refreshDay() }
    }
    /// Locale of formatted dates and numbers, and of the SDK's words.
    public var locale: Locale {
        didSet {
            strings = DynamicUIStrings(locale: locale)
            refreshDay()
        }
    }
    /// Time zone of formatted dates.
    public var timeZone: TimeZone {
        didSet { refreshDay() }
    }
    /// Calendar of formatted dates.
    public var calendar: Calendar {
        didSet { refreshDay() }
    }
    /// Bounds on evaluation.
    public var limits: ExpressionLimits
    /// The SDK's words for `locale` (chosen when the locale is set, not per use).
    public private(set) var strings: DynamicUIStrings
    /// `now` in the long date style of the locale (`21 de noviembre de 2026`), made when the
    /// time, locale, zone or calendar is set (every screen context names it).
    public private(set) var todayDate = ""
    /// The year of `now` in the time zone.
    public private(set) var currentYear = 0
    let formatters: DateFormatterCache

    /// Creates an environment.
    public init(
        now: Date, locale: Locale = .current, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        calendar: Calendar = Calendar(identifier: .gregorian), limits: ExpressionLimits = .default
    ) {
        self.now = now
        self.locale = locale
        self.timeZone = timeZone
        self.calendar = calendar
        self.limits = limits
        self.strings = DynamicUIStrings(locale: locale)
        // One process-wide cache: a formatter costs ~0.1 ms of ICU set-up, and environments are
        // made per screen load.
        self.formatters = DateFormatterCache.shared
        refreshDay()
    }

    /// Makes `todayDate` and `currentYear` for the current time, locale, zone and calendar.
    private mutating func refreshDay() {
        todayDate = formatters.format(now, style: .long, locale: locale, timeZone: timeZone, calendar: calendar)
        var calendar = calendar
        calendar.timeZone = timeZone
        currentYear = calendar.component(.year, from: now)
    }

    /// How a bound value reads on screen: an ISO 8601 timestamp as a medium date and short time
    /// of the locale (a date alone as a medium date), a fraction with the locale's decimal
    /// separator (`35,2` in Spanish), anything else as its text.
    public func displayText(_ value: JSONValue) -> String {
        switch value {
        case .string(let string):
            // Only strings shaped like ISO 8601 dates are candidates (10–40 bytes, a digit first
            // and `-` fifth), checked without copying the text.
            let utf8 = string.utf8
            guard (10...40).contains(utf8.count), let first = utf8.first, first >= 0x30, first <= 0x39,
                utf8[utf8.index(utf8.startIndex, offsetBy: 4)] == UInt8(ascii: "-"),
                let (date, dateOnly) = DateParsing.parseISO8601(Array(utf8))
            else { return string }
            if dateOnly {
                return formatters.format(
                    date, style: .medium, locale: locale, timeZone: TimeZone(identifier: "UTC")!, calendar: calendar)
            }
            return formatters.format(date, template: "yMMMdjmm", locale: locale, timeZone: timeZone, calendar: calendar)
        case .number(let number):
            let double = number.doubleValue
            guard double.isFinite, double != double.rounded(), abs(double) < 1e15 else { return value.text }
            return formatters.decimal(double, locale: locale)
        default:
            return value.text
        }
    }

}

/// Date formatters are costly to create and not thread-safe; one per pattern, used under a lock.
final class DateFormatterCache: @unchecked Sendable {
    /// The cache every environment shares (keys hold the locale, time zone and calendar).
    static let shared = DateFormatterCache()

    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    private var numberFormatters: [String: NumberFormatter] = [:]
    private var templatePatterns: [String: String] = [:]

    /// `date` in the locale's order for a skeleton (`yMMMdjmm`: day, month, year, hour, minute).
    func format(_ date: Date, template: String, locale: Locale, timeZone: TimeZone, calendar: Calendar) -> String {
        let key = template + "|" + locale.identifier
        lock.lock()
        let known = templatePatterns[key]
        lock.unlock()
        let pattern =
            known ?? DateFormatter.dateFormat(fromTemplate: template, options: 0, locale: locale) ?? "yyyy-MM-dd HH:mm"
        if known == nil {
            lock.lock()
            if templatePatterns.count > 64 { templatePatterns.removeAll() }
            templatePatterns[key] = pattern
            lock.unlock()
        }
        return format(date, pattern: pattern, locale: locale, timeZone: timeZone, calendar: calendar)
    }

    /// A fraction with the locale's separators and at most two decimals.
    func decimal(_ value: Double, locale: Locale) -> String {
        lock.lock()
        defer { lock.unlock() }
        let formatter: NumberFormatter
        if let cached = numberFormatters[locale.identifier] {
            formatter = cached
        } else {
            formatter = NumberFormatter()
            formatter.locale = locale
            formatter.numberStyle = .decimal
            formatter.usesGroupingSeparator = false
            formatter.minimumFractionDigits = 0
            formatter.maximumFractionDigits = 2
            if numberFormatters.count > 16 { numberFormatters.removeAll() }
            numberFormatters[locale.identifier] = formatter
        }
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    func format(
        _ date: Date, pattern: String? = nil, style: DateFormatter.Style = .none, locale: Locale, timeZone: TimeZone,
        calendar: Calendar
    ) -> String {
        let key =
            "\(pattern ?? "style:\(style.rawValue)")|\(locale.identifier)|\(timeZone.identifier)|\(calendar.identifier)"
        lock.lock()
        defer { lock.unlock() }
        let formatter: DateFormatter
        if let cached = formatters[key] {
            formatter = cached
        } else {
            formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = timeZone
            formatter.calendar = calendar
            if let pattern {
                formatter.dateFormat = pattern
            } else {
                formatter.dateStyle = style
                formatter.timeStyle = .none
            }
            if formatters.count > 256 { formatters.removeAll() }
            formatters[key] = formatter
        }
        return formatter.string(from: date)
    }
}

/// The data an expression reads: named values in nested scopes plus a default object.
///
/// A screen's root context names `user`, `context`, `slot`, `data`, `form`, `state` (also
/// `env`), `params`, `today_date` and `current_year`; a list row adds a child with `item` and
/// `index`; a component's body gets a child of the root with only its parameters. Children
/// point at their parent instead of copying it.
public final class DataContext: Sendable {
    /// The enclosing context.
    public let parent: DataContext?
    /// What relative paths (a slot's `field`) and unknown root names read. When it is a list
    /// screen's items (`screen(items:)`), reading it here builds them all; a path builds only
    /// the items it reaches.
    public var defaultObject: JSONValue { defaultItems.map { .array($0.values) } ?? storedDefault }
    /// The items the default object is when it is a list screen's, bound without being built.
    public let defaultItems: ListItems?
    /// The default object when it is a value.
    let storedDefault: JSONValue
    /// Time, locale and limits.
    public let environment: EvaluationEnvironment
    /// `environment.limits.maxEvaluationSteps`, kept apart so evaluation does not copy the
    /// environment.
    let maxEvaluationSteps: Int
    @usableFromInline let names: [String]
    @usableFromInline let values: [JSONValue]
    /// A list bound by name without being built (a list screen's `data`), and its place in
    /// `names` (-1 for none; `values` holds `null` there).
    @usableFromInline let list: ListItems?
    @usableFromInline let listSlot: Int

    /// A root context with the given names and default object.
    public init(_ bindings: [(String, JSONValue)], defaultObject: JSONValue = .null, environment: EvaluationEnvironment) {
        self.parent = nil
        self.names = bindings.map(\.0)
        self.values = bindings.map(\.1)
        self.storedDefault = defaultObject
        self.defaultItems = nil
        self.list = nil
        self.listSlot = -1
        self.environment = environment
        self.maxEvaluationSteps = environment.limits.maxEvaluationSteps
    }

    /// A root context whose `name` and default object are `items`, each item built only when a
    /// path reaches it.
    init(_ bindings: [(String, JSONValue)], list name: String, items: ListItems, environment: EvaluationEnvironment) {
        self.parent = nil
        self.names = bindings.map(\.0)
        self.values = bindings.map(\.1)
        self.listSlot = names.firstIndex(of: name) ?? -1
        self.list = listSlot < 0 ? nil : items
        self.storedDefault = .null
        self.defaultItems = items
        self.environment = environment
        self.maxEvaluationSteps = environment.limits.maxEvaluationSteps
    }

    private init(
        parent: DataContext, names: [String], values: [JSONValue], defaultObject: JSONValue, defaultItems: ListItems?
    ) {
        self.parent = parent
        self.names = names
        self.values = values
        self.storedDefault = defaultObject
        self.defaultItems = defaultItems
        self.list = nil
        self.listSlot = -1
        self.environment = parent.environment
        self.maxEvaluationSteps = parent.maxEvaluationSteps
    }

    /// A child with extra names; relative paths read `defaultObject` (the parent's when `nil`).
    public func child(_ bindings: [(String, JSONValue)], defaultObject: JSONValue? = nil) -> DataContext {
        DataContext(
            parent: self, names: bindings.map(\.0), values: bindings.map(\.1),
            defaultObject: defaultObject ?? storedDefault, defaultItems: defaultObject == nil ? defaultItems : nil)
    }

    /// The context of one list row: `item` and `index`, with the item as default object.
    public func item(_ item: JSONValue, index: Int) -> DataContext {
        DataContext(
            parent: self, names: ["item", "index"], values: [item, .number(JSONNumber(index))], defaultObject: item,
            defaultItems: nil)
    }

    /// The context of a component body: a child of the root holding only the parameters, so the
    /// body cannot capture the caller's local names (`item`, `index`).
    public func component(parameters: [(String, JSONValue)]) -> DataContext {
        var root = self
        while let parent = root.parent { root = parent }
        return root.child(parameters)
    }

    /// The value of `name` in the innermost scope that has it (a lazily bound list is built
    /// whole; `PathExpression.resolve` builds only the items a path reaches).
    @inlinable
    public func lookup(_ name: String) -> JSONValue? {
        // Recursion over the immutable `parent` borrows each scope; a loop over a `var` would
        // retain and release every scope it passes (a row's lookups pass two or three).
        for index in names.indices where names[index] == name {
            return index == listSlot ? .array(list.unsafelyUnwrapped.values) : values[index]
        }
        return parent?.lookup(name)
    }

    /// What `name` is bound to in the innermost scope that has it.
    func scoped(_ name: String) -> Scoped? {
        for index in names.indices where names[index] == name {
            return index == listSlot ? .list(list.unsafelyUnwrapped) : .value(values[index])
        }
        return parent?.scoped(name)
    }

    /// A name's binding: a value, or a list built as it is read.
    enum Scoped {
        case value(JSONValue)
        case list(ListItems)
    }

    /// A screen's root context: user, context, slot data, endpoint data (also the
    /// default object), form values, screen state, navigation params and the screen's variables.
    /// Given `items` (a list screen's), `data` is those items, each built when a path reaches it.
    public static func screen(
        user: AuthUserInfo? = nil, userContext: UserContext? = nil, slotData: [String: JSONValue]? = nil,
        data: JSONValue = .null, items: ListItems? = nil, form: JSONObject = [:], state: JSONObject = [:],
        params: JSONObject = [:], variables: JSONObject = [:], environment: EvaluationEnvironment
    ) -> DataContext {
        let slot: JSONValue = .object(JSONObject((slotData ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        let bindings: [(String, JSONValue)] = [
            ("user", user.map(ScopeValues.shared.value(of:)) ?? .null),
            ("context", userContext.map(ScopeValues.shared.value(of:)) ?? .null), ("slot", slot),
            ("data", items == nil ? data : .null), ("form", .object(form)), ("state", .object(state)), ("env", .object(state)),
            ("params", .object(params)), ("variables", .object(variables)),
            ("today_date", .string(environment.todayDate)),
            ("current_year", .number(JSONNumber(environment.currentYear))),
        ]
        if let items { return DataContext(bindings, list: "data", items: items, environment: environment) }
        return DataContext(bindings, defaultObject: data, environment: environment)
    }

    /// The root names of a screen context, for validation.
    public static let screenRootNames: Set<String> = [
        "user", "context", "slot", "data", "form", "state", "env", "params", "variables", "today_date", "current_year", "item",
        "index", "section",
    ]
}

extension ListItems {
    /// The value one `step` below a list bound without being built, by `JSONValue.member`'s
    /// rules for an array (an index or numeric key; `isEmpty`, `isNotEmpty`, `count`), building
    /// only the item it reaches; the whole list when there is no step; nil when nothing is there.
    func pathStep(_ step: JSONLocation.Component?) -> JSONValue? {
        let index: Int
        switch step {
        case nil: return .array(values)
        case .index(let position)?: index = position
        case .key(let key)?:
            guard let position = JSONValue.arrayIndex(key) else {
                return JSONValue.computedMember(key, isEmpty: isEmpty, count: .number(JSONNumber(count)))
            }
            index = position
        }
        return indices.contains(index) ? self[index] : nil
    }
}

/// The `user` and `context` values of the last screen context made: the next context of the
/// same user (a tick, a keystroke) binds the same storage, which a render memo compares without
/// reading it.
private final class ScopeValues: @unchecked Sendable {
    static let shared = ScopeValues()
    private let lock = NSLock()
    private var user: (key: AuthUserInfo, value: JSONValue)?
    private var context: (key: UserContext, value: JSONValue)?

    func value(of user: AuthUserInfo) -> JSONValue { lock.withLock { Self.value(of: user, kept: &self.user) } }

    func value(of context: UserContext) -> JSONValue { lock.withLock { Self.value(of: context, kept: &self.context) } }

    /// The value kept for `key`, or its scope value made now and kept.
    private static func value<Key: Equatable & ScopeValued>(of key: Key, kept: inout (key: Key, value: JSONValue)?) -> JSONValue {
        if let kept, kept.key == key { return kept.value }
        let value = key.scopeValue
        kept = (key, value)
        return value
    }
}

/// A value bound to a root of screen expressions.
private protocol ScopeValued { var scopeValue: JSONValue { get } }
extension AuthUserInfo: ScopeValued {}
extension UserContext: ScopeValued {}
