/// What happened to an element whose requirements the app did not meet (or whose type it does
/// not know) when a document was fitted to the app's capabilities.
public struct RequirementEvent: Sendable, Hashable, CustomStringConvertible {
    /// What was done.
    public enum Outcome: String, Sendable, Hashable {
        /// The element's `fallback` is drawn in its place.
        case fallbackUsed = "fallback used"
        /// Nothing is drawn: the fallback is `drop`, or there is none.
        case dropped
    }

    /// What was done.
    public let outcome: Outcome
    /// Where the element is in the document (`template.zones[1].slots[0]`).
    public let location: JSONLocation
    /// The element's type.
    public let type: String
    /// What the app lacks (`control:media-player`, `schema:3`).
    public let missing: [String]
    /// Whether the element had a `fallback` (even `drop`): a dropped element without one is a
    /// finding for validators.
    public let hadFallback: Bool

    public var description: String {
        "\(location): \(type) needs \(missing.joined(separator: ", ")): \(outcome.rawValue)"
    }
}

/// Fits documents to an app's capabilities: an element whose `requires` the app lacks, or
/// whose type it does not know, is replaced by its `fallback` (itself fitted in turn) or
/// dropped, and every such decision is reported.
public struct RequirementResolver: Sendable {
    /// The app's capabilities.
    public let capabilities: ClientCapabilities

    /// A resolver for `capabilities`.
    public init(capabilities: ClientCapabilities) { self.capabilities = capabilities }

    /// What `screen` needs that the app lacks at the screen level (its `requires` and pattern).
    public func missing(for screen: ScreenDefinition) -> [String] {
        var missing = capabilities.missing(screen.requires)
        if !capabilities.patterns.contains(screen.pattern.rawValue) { missing.append("pattern:\(screen.pattern.rawValue)") }
        return missing
    }

    /// `screen` with its zones and slots fitted, and what was replaced or dropped.
    public func resolve(_ screen: ScreenDefinition) -> (ScreenDefinition, [RequirementEvent]) {
        var events: [RequirementEvent] = []
        var resolved = screen
        let base = JSONLocation(components: [.key("template"), .key("zones")])
        resolved.template.zones = fitAll(screen.template.zones, at: base, events: &events)
        return (resolved, events)
    }

    /// `node` fitted (`nil` when the root itself is dropped), and what was replaced or dropped.
    public func resolve(_ node: ViewNode) -> (ViewNode?, [RequirementEvent]) {
        var events: [RequirementEvent] = []
        let resolved = fit(node, at: .root, events: &events)
        return (resolved, events)
    }

    // MARK: Elements

    /// The elements of a list, each fitted at its index (dropped ones left out), without the
    /// report.
    func fitAll<Element: FallbackElement>(_ elements: [Element], at base: JSONLocation) -> [Element] {
        var events: [RequirementEvent] = []
        return fitAll(elements, at: base, events: &events)
    }

    /// The elements of a list, each fitted at its index; dropped ones are left out.
    func fitAll<Element: FallbackElement>(
        _ elements: [Element], at base: JSONLocation, events: inout [RequirementEvent]
    ) -> [Element] {
        elements.enumerated().compactMap { index, element in fit(element, at: base.appending(index: index), events: &events) }
    }

    /// `element` with what it contains fitted when the app has what it requires; otherwise its
    /// fallback, fitted in turn, or nothing.
    private func fit<Element: FallbackElement>(
        _ element: Element, at location: JSONLocation, events: inout [RequirementEvent]
    ) -> Element? {
        let missing = unmet(element)
        guard missing.isEmpty else { return replace(element, missing: missing, at: location, events: &events) }
        return element.withContentFitted(by: self, at: location, events: &events)
    }

    /// The props with their nested nodes fitted (a required nested node that is dropped is
    /// left out; a list's item template that is dropped draws empty rows).
    fileprivate func props(_ props: NodeProps, at location: JSONLocation, events: inout [RequirementEvent]) -> NodeProps {
        func nested(_ node: ViewNode?, _ key: String) -> ViewNode? {
            node.flatMap { fit($0, at: location.appending(key: key), events: &events) }
        }
        switch props {
        case .list(let items, let template, let separator):
            let fitted = nested(template, "itemTemplate") ?? ViewNode(type: .vstack)
            return .list(items: items, itemTemplate: fitted, separator: separator)
        case .button(let label, let action): return .button(label: nested(label, "label"), action: action)
        case .navigationLink(let destination, let label):
            return .navigationLink(destination: destination, label: nested(label, "label"))
        case .navigationStack(let root): return .navigationStack(root: nested(root, "root"))
        case .screen(let title, let body, let toolbar, let onLoad, let actions):
            return .screen(
                title: title, body: nested(body, "body"), toolbar: nested(toolbar, "toolbar"), onLoad: onLoad, actions: actions)
        case .sheet(let content): return .sheet(content: nested(content, "content"))
        default: return props
        }
    }

    // MARK: Fallbacks

    /// What `element` requires (its `requires` and its own type) that the app lacks.
    private func unmet<Element: FallbackElement>(_ element: Element) -> [String] {
        var missing = capabilities.missing(element.requires)
        let own = "\(Element.capabilitySpace):\(element.typeName)"
        if !capabilities.has(own) { missing.append(own) }
        return missing
    }

    /// The fallback of an element the app cannot draw, fitted in turn. Without a fallback an
    /// element of an unknown type stays (the renderer draws nothing in release and a marker in
    /// previews); one whose `requires` are unmet goes.
    private func replace<Element: FallbackElement>(
        _ element: Element, missing: [String], at location: JSONLocation, events: inout [RequirementEvent]
    ) -> Element? {
        let type = element.typeName
        func report(_ outcome: RequirementEvent.Outcome) {
            events.append(
                RequirementEvent(
                    outcome: outcome, location: location, type: type, missing: missing, hadFallback: element.fallback != nil))
        }
        switch element.fallback {
        case .element(let replacement)?:
            report(.fallbackUsed)
            return fit(replacement, at: location.appending(key: "fallback"), events: &events)
        case .drop?:
            report(.dropped)
            return nil
        case nil:
            report(.dropped)
            let onlyTheType = missing.allSatisfy { $0.hasSuffix(":\(type)") }
            return onlyTheType ? element : nil
        }
    }
}

/// An element of a document the app may not be able to draw: it names what it requires and
/// what replaces it (a zone, a slot, a view node).
protocol FallbackElement: JSONModel {
    /// The capability names it needs besides its type.
    var requires: [String]? { get }
    /// What replaces it when the app lacks something.
    var fallback: Fallback<Self>? { get }
    /// Its type as written.
    var typeName: String { get }
    /// The capability space its type is named in (`zone`, `control`, `node`).
    static var capabilitySpace: String { get }
    /// The element with the elements it contains fitted by `resolver`.
    func withContentFitted(by resolver: RequirementResolver, at location: JSONLocation, events: inout [RequirementEvent]) -> Self
}

extension Zone: FallbackElement {
    var typeName: String { type.rawValue }
    static var capabilitySpace: String { "zone" }

    func withContentFitted(by resolver: RequirementResolver, at location: JSONLocation, events: inout [RequirementEvent]) -> Zone
    {
        var fitted = self
        fitted.slots = slots.map { resolver.fitAll($0, at: location.appending(key: "slots"), events: &events) }
        fitted.zones = zones.map { resolver.fitAll($0, at: location.appending(key: "zones"), events: &events) }
        if let layout = itemLayout {
            let layoutSlots = resolver.fitAll(
                layout.slots, at: location.appending(key: "item_layout").appending(key: "slots"), events: &events)
            fitted.itemLayout = ItemLayout(slots: layoutSlots)
        }
        return fitted
    }
}

extension Slot: FallbackElement {
    var typeName: String { controlType.rawValue }
    static var capabilitySpace: String { "control" }

    func withContentFitted(by resolver: RequirementResolver, at location: JSONLocation, events: inout [RequirementEvent]) -> Slot
    {
        self
    }
}

extension ViewNode: FallbackElement {
    var typeName: String { type.rawValue }
    static var capabilitySpace: String { "node" }

    func withContentFitted(
        by resolver: RequirementResolver, at location: JSONLocation, events: inout [RequirementEvent]
    ) -> ViewNode {
        var fitted = self
        fitted.children = resolver.fitAll(children, at: location.appending(key: "children"), events: &events)
        fitted.props = resolver.props(props, at: location.appending(key: "props"), events: &events)
        return fitted
    }
}
