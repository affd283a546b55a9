public import DynamicUIModels

/// A finding of compilation or validation, located in the document.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the finding is.
    public enum Severity: String, Sendable, Hashable {
        /// An error stops compilation; a warning is reported only.
        case error, warning
    }

    /// How serious the finding is.
    public let severity: Severity
    /// Where in the document.
    public let location: JSONLocation
    /// What is wrong.
    public let message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, at location: JSONLocation, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// A document whose expressions do not compile; every error is listed.
public struct CompilationError: Error, Sendable, CustomStringConvertible {
    /// The errors (and any warnings found alongside).
    public let diagnostics: [Diagnostic]

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// A slot with every expression compiled.
/// A value held in one shared box, as `CompiledZone`: a copy (a list's row template, drawn once
/// per row) costs one reference however many members a slot has.
public struct CompiledSlot: Sendable, Hashable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let slot: Slot
        @usableFromInline let value: SlotValueSource
        @usableFromInline let label: TextTemplate?
        @usableFromInline let placeholder: TextTemplate?
        @usableFromInline let accessibilityLabel: TextTemplate?
        @usableFromInline let optionLabels: [TextTemplate]
        @usableFromInline let props: [String: ValueTemplate]

        init(
            slot: Slot, value: SlotValueSource, label: TextTemplate?, placeholder: TextTemplate?,
            accessibilityLabel: TextTemplate?, optionLabels: [TextTemplate], props: [String: ValueTemplate]
        ) {
            self.slot = slot
            self.value = value
            self.label = label
            self.placeholder = placeholder
            self.accessibilityLabel = accessibilityLabel
            self.optionLabels = optionLabels
            self.props = props
        }
    }

    @usableFromInline let storage: Storage

    /// The slot as decoded.
    @inlinable public var slot: Slot { storage.slot }
    /// Where its value comes from.
    @inlinable public var value: SlotValueSource { storage.value }
    /// The label text.
    @inlinable public var label: TextTemplate? { storage.label }
    /// The placeholder text.
    @inlinable public var placeholder: TextTemplate? { storage.placeholder }
    /// The accessibility label.
    @inlinable public var accessibilityLabel: TextTemplate? { storage.accessibilityLabel }
    /// The labels of `slot.options`, in the same order (placeholders allowed).
    @inlinable public var optionLabels: [TextTemplate] { storage.optionLabels }
    /// A native component's own props (`slot.props`), compiled.
    @inlinable public var props: [String: ValueTemplate] { storage.props }

    init(
        slot: Slot, value: SlotValueSource, label: TextTemplate?, placeholder: TextTemplate?,
        accessibilityLabel: TextTemplate?, optionLabels: [TextTemplate], props: [String: ValueTemplate] = [:]
    ) {
        storage = Storage(
            slot: slot, value: value, label: label, placeholder: placeholder, accessibilityLabel: accessibilityLabel,
            optionLabels: optionLabels, props: props)
    }

    /// Whether both are the same compiled slot: the same box, or equal members.
    public static func == (lhs: CompiledSlot, rhs: CompiledSlot) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.slot == rhs.slot && lhs.value == rhs.value && lhs.label == rhs.label
            && lhs.placeholder == rhs.placeholder && lhs.accessibilityLabel == rhs.accessibilityLabel
            && lhs.optionLabels == rhs.optionLabels && lhs.props == rhs.props
    }

    public func hash(into hasher: inout Hasher) {
        // The slot decides the rest (its members are compiled from it).
        hasher.combine(slot)
    }
}

/// A zone with every expression compiled, recursively. A value held in one shared box: copies
/// cost one reference, and a zone a patch left alone compares equal to itself without being read.
public struct CompiledZone: Sendable, Hashable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let zone: Zone
        @usableFromInline let condition: DynamicExpression?
        @usableFromInline let title: TextTemplate?
        @usableFromInline let itemsPath: DynamicExpression?
        @usableFromInline let slots: [CompiledSlot]
        @usableFromInline let zones: [CompiledZone]
        @usableFromInline let itemSlots: [CompiledSlot]?
        /// Whether a slot of the zone or of a zone it nests is a text input, or a search bar.
        let containsTextInput: Bool
        let containsSearchBar: Bool

        init(
            zone: Zone, condition: DynamicExpression?, title: TextTemplate?, itemsPath: DynamicExpression?,
            slots: [CompiledSlot], zones: [CompiledZone], itemSlots: [CompiledSlot]?
        ) {
            self.zone = zone
            self.condition = condition
            self.title = title
            self.itemsPath = itemsPath
            self.slots = slots
            self.zones = zones
            self.itemSlots = itemSlots
            containsTextInput =
                slots.contains { slot in
                    switch slot.slot.controlType {
                    case .textInput, .emailInput, .passwordInput, .numberInput, .searchBar: true
                    default: false
                    }
                } || zones.contains(where: \.containsTextInput)
            containsSearchBar = slots.contains { $0.slot.controlType == .searchBar } || zones.contains(where: \.containsSearchBar)
        }
    }

    @usableFromInline let storage: Storage

    /// The zone as decoded.
    @inlinable public var zone: Zone { storage.zone }
    /// The zone is drawn only when this is true.
    @inlinable public var condition: DynamicExpression? { storage.condition }
    /// The section header.
    @inlinable public var title: TextTemplate? { storage.title }
    /// Where a list zone's items are inside the data.
    @inlinable public var itemsPath: DynamicExpression? { storage.itemsPath }
    /// The zone's slots.
    @inlinable public var slots: [CompiledSlot] { storage.slots }
    /// Nested zones.
    @inlinable public var zones: [CompiledZone] { storage.zones }
    /// The row template of a list zone.
    @inlinable public var itemSlots: [CompiledSlot]? { storage.itemSlots }
    /// Whether a slot of the zone or of a zone it nests is a text input or a search bar (known
    /// when compiled, so a render need not look).
    package var containsTextInput: Bool { storage.containsTextInput }
    /// Whether a slot of the zone or of a zone it nests is a search bar.
    package var containsSearchBar: Bool { storage.containsSearchBar }

    init(
        zone: Zone, condition: DynamicExpression?, title: TextTemplate?, itemsPath: DynamicExpression?,
        slots: [CompiledSlot], zones: [CompiledZone], itemSlots: [CompiledSlot]?
    ) {
        storage = Storage(
            zone: zone, condition: condition, title: title, itemsPath: itemsPath, slots: slots, zones: zones,
            itemSlots: itemSlots)
    }

    /// Whether both are the same compiled zone: the same box, or equal members.
    public static func == (lhs: CompiledZone, rhs: CompiledZone) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.zone == rhs.zone && lhs.condition == rhs.condition && lhs.title == rhs.title
            && lhs.itemsPath == rhs.itemsPath && lhs.slots == rhs.slots && lhs.zones == rhs.zones
            && lhs.itemSlots == rhs.itemSlots
    }

    public func hash(into hasher: inout Hasher) {
        // The zone decides the rest (its members are compiled from it).
        hasher.combine(zone)
    }
}

/// An action with its config compiled (endpoints and keys stay as written).
public struct CompiledAction: Sendable, Hashable {
    /// The action as decoded.
    public let action: ActionDefinition
    /// The config with placeholders compiled.
    public let config: ValueTemplate?
}

/// A screen with every binding, placeholder and condition compiled once (DESIGN "compile
/// once, evaluate many"). A data refresh or a new page only evaluates.
public struct CompiledScreen: Sendable, Hashable {
    /// The screen as decoded.
    public let definition: ScreenDefinition
    /// The top bar title (falls back to the screen name).
    public let title: TextTemplate
    /// The compiled zones.
    public let zones: [CompiledZone]
    /// Slot data with placeholders compiled.
    public let slotData: [String: ValueTemplate]
    /// Actions by id.
    public let actions: [String: CompiledAction]
    /// Warnings found while compiling (unknown placeholders, …).
    public let warnings: [Diagnostic]

    /// The root context for evaluating this screen: slot data is evaluated here, once. Given
    /// `items` (a list screen's), `data` is those items, built only as paths reach them.
    public func context(
        user: AuthUserInfo?, userContext: UserContext?, data: JSONValue, items: ListItems? = nil, form: JSONObject = [:],
        state: JSONObject = [:], params: JSONObject = [:], variables: JSONObject = [:], environment: EvaluationEnvironment
    ) throws(EvaluationError) -> DataContext {
        let base = DataContext.screen(
            user: user, userContext: userContext, data: data, items: items, form: form, state: state, params: params,
            variables: variables, environment: environment)
        guard !slotData.isEmpty else { return base }
        var resolved: [String: JSONValue] = [:]
        for (key, template) in slotData { resolved[key] = try template.evaluate(in: base) }
        return DataContext.screen(
            user: user, userContext: userContext, slotData: resolved, data: data, items: items, form: form, state: state,
            params: params, variables: variables, environment: environment)
    }
}

/// Compiles screens, collecting every error with its JSON path.
public struct ScreenCompiler: Sendable {
    /// The expression compiler.
    public var compiler: ExpressionCompiler

    /// Config members that are not templates (an endpoint's `{id}` is a path parameter).
    public static let rawConfigKeys: Set<String> = [
        "endpoint", "screen_key", "method", "type", "event", "presentation", "invalidates", "fields",
    ]

    /// Creates a screen compiler.
    public init(compiler: ExpressionCompiler = ExpressionCompiler()) { self.compiler = compiler }

    /// Compiles `screen`; throws `CompilationError` listing every expression that fails.
    public func compile(_ screen: ScreenDefinition) throws(CompilationError) -> CompiledScreen {
        try compile(screen, reusing: nil)
    }

    /// Compiles `screen` (a patched `previous.definition`), taking from `previous` every zone,
    /// action and slot-data value that is unchanged: a patch costs the compilation of what it
    /// changed. The warnings are those of the parts compiled now.
    public func compile(
        _ screen: ScreenDefinition, reusing previous: CompiledScreen?
    ) throws(CompilationError)
        -> CompiledScreen
    {
        var diagnostics: [Diagnostic] = []
        // The previous zones by id, made on the first zone not found where it was.
        var kept: [String: CompiledZone]?
        func keep(_ zones: [CompiledZone]) {
            for zone in zones {
                kept?[zone.zone.id] = zone
                keep(zone.zones)
            }
        }
        func previousZone(_ zone: Zone, at location: JSONLocation) -> CompiledZone? {
            guard let previous else { return nil }
            if location.components.count == 3, case .index(let index) = location.components[2],
                previous.zones.indices.contains(index), previous.zones[index].zone.id == zone.id
            {
                return previous.zones[index]
            }
            if kept == nil {
                kept = [:]
                keep(previous.zones)
            }
            return kept?[zone.id]
        }
        func attempt<T>(_ body: () throws(ExpressionError) -> T) -> T? {
            do {
                return try body()
            } catch {
                diagnostics.append(
                    Diagnostic(
                        .error, at: error.location ?? .root,
                        "\(error.code): \(error.message) in \(error.expression.debugDescription) at offset \(error.offset)"))
                return nil
            }
        }
        func warnUnknown(_ template: TextTemplate?, at location: JSONLocation) {
            for raw in template?.unknownPlaceholders ?? [] {
                diagnostics.append(Diagnostic(.warning, at: location, "unknown placeholder \(raw)"))
            }
        }
        func compileTemplate(_ text: String?, at location: JSONLocation) -> TextTemplate? {
            guard let text else { return nil }
            let template = attempt { () throws(ExpressionError) in try compiler.template(text, at: location) }
            warnUnknown(template, at: location)
            return template
        }
        func compileSlot(_ slot: Slot, at location: JSONLocation) -> CompiledSlot? {
            let source = attempt { () throws(ExpressionError) in try SlotValueSource(slot: slot, compiler: compiler, at: location)
            }
            for raw in source?.literal?.unknownPlaceholders ?? [] {
                diagnostics.append(Diagnostic(.warning, at: location.appending(key: "value"), "unknown placeholder \(raw)"))
            }
            let label = compileTemplate(slot.label, at: location.appending(key: "label"))
            let placeholder = compileTemplate(slot.placeholder, at: location.appending(key: "placeholder"))
            let accessibility = compileTemplate(slot.accessibilityLabel, at: location.appending(key: "accessibility_label"))
            let optionLabels = (slot.options ?? []).enumerated().map { index, option in
                compileTemplate(
                    option.label, at: location.appending(key: "options").appending(index: index).appending(key: "label"))
                    ?? TextTemplate(segments: [.text(option.label)])
            }
            var props: [String: ValueTemplate] = [:]
            for (name, value) in slot.props ?? [:] {
                let at = location.appending(key: "props").appending(key: name)
                props[name] = attempt { () throws(ExpressionError) in try compiler.screenValue(value, at: at) }
            }
            guard let source else { return nil }
            return CompiledSlot(
                slot: slot, value: source, label: label, placeholder: placeholder, accessibilityLabel: accessibility,
                optionLabels: optionLabels, props: props)
        }
        /// `slot` compiled, or the previous version's compiled slot when the slot did not change.
        func compileSlot(_ slot: Slot, at location: JSONLocation, reusing previous: [CompiledSlot]?) -> CompiledSlot? {
            if let previous, let old = previous.first(where: { $0.slot.id == slot.id }), old.slot == slot { return old }
            return compileSlot(slot, at: location)
        }
        func compileZone(_ zone: Zone, at location: JSONLocation) -> CompiledZone {
            // A zone a patch changed keeps what it did not change: its condition, title, field
            // and every slot equal to the shown version's.
            let old = previousZone(zone, at: location)
            if let old, old.zone == zone { return old }
            let condition =
                old.flatMap { $0.zone.condition == zone.condition ? $0.condition : nil }
                ?? zone.condition.flatMap { text in
                    attempt { () throws(ExpressionError) in
                        try compiler.expression(text, at: location.appending(key: "condition"))
                    }
                }
            let itemsPath =
                old.flatMap { $0.zone.field == zone.field ? $0.itemsPath : nil }
                ?? zone.field.flatMap { text in
                    attempt { () throws(ExpressionError) in try compiler.field(text, at: location.appending(key: "field")) }
                }
            let slots = (zone.slots ?? []).enumerated().compactMap { index, slot in
                compileSlot(slot, at: location.appending(key: "slots").appending(index: index), reusing: old?.slots)
            }
            let itemSlots = zone.itemLayout.map { layout in
                layout.slots.enumerated().compactMap { index, slot in
                    compileSlot(
                        slot, at: location.appending(key: "item_layout").appending(key: "slots").appending(index: index),
                        reusing: old?.itemSlots)
                }
            }
            let zones = (zone.zones ?? []).enumerated().map { index, child in
                compileZone(child, at: location.appending(key: "zones").appending(index: index))
            }
            let title =
                old.flatMap { $0.zone.title == zone.title ? $0.title : nil }
                ?? compileTemplate(zone.title, at: location.appending(key: "title"))
            return CompiledZone(
                zone: zone, condition: condition, title: title, itemsPath: itemsPath, slots: slots, zones: zones,
                itemSlots: itemSlots)
        }

        let titleText = screen.template.navigation?.topBar?.title ?? screen.screenName
        let zones = screen.template.zones.enumerated().map { index, zone in
            compileZone(zone, at: JSONLocation(components: [.key("template"), .key("zones"), .index(index)]))
        }
        if let previous, previous.definition.slotData == screen.slotData, previous.definition.actions == screen.actions,
            (previous.definition.template.navigation?.topBar?.title ?? previous.definition.screenName) == titleText
        {
            if diagnostics.contains(where: { $0.severity == .error }) { throw CompilationError(diagnostics: diagnostics) }
            return CompiledScreen(
                definition: screen, title: previous.title, zones: zones, slotData: previous.slotData,
                actions: previous.actions, warnings: diagnostics)
        }
        let title =
            compileTemplate(titleText, at: "template.navigation.top_bar.title") ?? TextTemplate(segments: [.text(titleText)])
        var slotData: [String: ValueTemplate] = [:]
        for (key, value) in screen.slotData ?? [:] {
            let location = JSONLocation(components: [.key("slot_data"), .key(key)])
            if let compiled = attempt({ () throws(ExpressionError) in try compiler.screenValue(value, at: location) }) {
                slotData[key] = compiled
                for raw in compiled.unknownPlaceholders {
                    diagnostics.append(Diagnostic(.warning, at: location, "unknown placeholder \(raw)"))
                }
            }
        }
        var actions: [String: CompiledAction] = [:]
        for (index, action) in screen.actions.enumerated() {
            let location = JSONLocation(components: [.key("actions"), .index(index), .key("config")])
            let config = action.config.flatMap { config in
                attempt { () throws(ExpressionError) in
                    let object = JSONObject(config.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
                    return try compiler.screenValue(.object(object), at: location, rawKeys: Self.rawConfigKeys)
                }
            }
            for raw in config?.unknownPlaceholders ?? [] {
                diagnostics.append(Diagnostic(.warning, at: location, "unknown placeholder \(raw)"))
            }
            actions[action.id] = CompiledAction(action: action, config: config)
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw CompilationError(diagnostics: diagnostics) }
        return CompiledScreen(
            definition: screen, title: title, zones: zones, slotData: slotData, actions: actions, warnings: diagnostics)
    }
}
