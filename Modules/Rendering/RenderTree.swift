public import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// The size class the screen is drawn in.
public enum SizeClass: String, Sendable, Hashable, CaseIterable {
    /// iPhone portrait and narrow windows.
    case compact
    /// iPad and Mac.
    case regular
}

/// The platform whose overrides apply (`platform_overrides` keys).
public enum RenderPlatform: String, Sendable, Hashable, CaseIterable {
    /// iPhone.
    case ios
    /// iPad.
    case ipad
    /// Mac.
    case mac
    /// Apple Vision Pro.
    case vision
}

/// Text styles, mapped to Dynamic Type by the SwiftUI layer.
public enum RenderTextStyle: String, Sendable, Hashable {
    /// The Dynamic Type text styles.
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
}

/// Where a toolbar item goes (forms put cancel and confirm in the navigation bar).
public enum RenderToolbarPlacement: String, Sendable, Hashable {
    /// Leading: Cancel.
    case cancellation
    /// Trailing: Create, Save.
    case confirmation
    /// Trailing: the "+" that replaces a FAB.
    case primaryAction
}

/// A button of the navigation bar (built by the pattern lowering).
public struct RenderToolbarItem: Sendable, Hashable {
    /// Where it goes.
    public var placement: RenderToolbarPlacement
    /// Its title (also its accessibility label).
    public var title: String
    /// SF Symbol, for icon-only items.
    public var systemImage: String?
    /// The action it fires.
    public var actionId: String
    /// Whether it is the destructive kind.
    public var isDestructive: Bool

    /// The action of the Close item the SDK adds to a sheet that has no Cancel of its own: the
    /// screen's model dismisses the sheet.
    public static let dismissActionId = "dynamicui.dismiss"
}

/// The role of a button.
public enum RenderButtonRole: String, Sendable, Hashable {
    /// The screen's main action (`.borderedProminent`).
    case primary
    /// A secondary action (`.bordered`).
    case secondary
    /// A plain text button.
    case plain
    /// Destroys something (red, `role: .destructive`).
    case destructive
}

/// The keyboard and autofill of a text input.
public enum InputKind: String, Sendable, Hashable {
    /// Plain text, e-mail (keyboard and autofill), secure password, numeric, search.
    case text, email, password, number, search
}

/// Accessibility of a node.
public struct AccessibilityInfo: Sendable, Hashable {
    /// VoiceOver label.
    public var label: String?
    /// VoiceOver hint.
    public var hint: String?
    /// Traits (`button`, `header`, `link`, `image`, `selected`).
    public var traits: [String]

    /// Creates accessibility information.
    public init(label: String? = nil, hint: String? = nil, traits: [String] = []) {
        self.label = label
        self.hint = hint
        self.traits = traits
    }
}

/// A form control with its resolved state (built by the pattern lowering).
public struct ControlNode: Sendable, Hashable {
    /// The control type.
    public var type: ControlType
    /// The form field it edits (inputs) .
    public var field: String?
    /// The label.
    public var label: String?
    /// The current value (text of inputs, `true`/`false` of toggles).
    public var value: JSONValue
    /// Placeholder (inputs) or prompt.
    public var placeholder: String?
    /// Required input.
    public var isRequired: Bool
    /// Read-only input.
    public var isReadOnly: Bool
    /// The error shown under the field.
    public var error: String?
    /// Keyboard and autofill kind.
    public var inputKind: InputKind?
    /// Choices of a select or radio group.
    public var options: [SlotOption]
    /// SF Symbol.
    public var icon: String?
    /// Button role.
    public var role: RenderButtonRole?
    /// The action the control fires.
    public var actionId: String?
    /// The style name from the screen (`headline-large`, `status`, …).
    public var styleName: String?
    /// What the return key says and does in a text input (`FormFocus`).
    public var returnKey: ReturnKey?
    /// The field the return key moves to; `nil` on the last field.
    public var nextField: String?
    /// The action the return key submits on the last field of a form.
    public var submitActionId: String?
}

/// What the return key of a text input says, as `SubmitLabel` and HTML's `enterkeyhint` do.
public enum ReturnKey: String, Sendable, Hashable {
    /// Moves to the next field.
    case next
    /// Ends editing (the last field of a form that is saved with a button).
    case done
    /// Submits (the last field of a sign-in form).
    case go
    /// Runs a search.
    case search
}

/// The focus chain of a screen's form, as people expect of iOS forms: text
/// inputs in reading order; return moves to the next one and submits the form on the last;
/// after a failed submit the first field with an error takes the focus.
public enum FormFocus {
    /// The tree with every editable text input's `returnKey`, `nextField` and, on the last one,
    /// `submitActionId` (the form's primary action) filled in. A sign-in form's last field says
    /// `go`; a search bar says `search`.
    public static func assign(_ root: RenderNode, submitActionId: String?, isSignIn: Bool) -> RenderNode {
        assign(root, order: FocusOrder(fields: order(in: root), submitActionId: submitActionId, isSignIn: isSignIn))
    }

    /// `node` (the whole tree, or one zone of it) with its text inputs' focus filled in by
    /// `order`, the whole tree's, the first of its inputs at `start` in it.
    static func assign(_ node: RenderNode, order: FocusOrder, from start: Int = 0) -> RenderNode {
        var position = start
        return assign(
            node, fields: order.fields, position: &position, submitActionId: order.submitActionId, isSignIn: order.isSignIn)
    }

    /// The field names of the editable text inputs, in focus order.
    public static func order(in root: RenderNode) -> [String] {
        var fields: [String] = []
        collect(root, into: &fields)
        return fields
    }

    /// The first field that shows an error (the one to focus after a failed submit).
    public static func firstError(in root: RenderNode) -> String? {
        if case .control(let control) = root.kind, control.error != nil, let field = control.field { return field }
        for child in root.children {
            if let found = firstError(in: child) { return found }
        }
        return nil
    }

    static func isFocusable(_ control: ControlNode) -> Bool {
        control.inputKind != nil && !control.isReadOnly && control.field != nil && control.type != .searchBar
    }

    private static func containsInput(_ node: RenderNode) -> Bool {
        if case .control(let control) = node.kind, control.inputKind != nil || control.type == .searchBar { return true }
        return node.children.contains(where: containsInput)
    }

    private static func collect(_ node: RenderNode, into fields: inout [String]) {
        if case .control(let control) = node.kind, isFocusable(control), let field = control.field { fields.append(field) }
        for child in node.children { collect(child, into: &fields) }
    }

    private static func assign(
        _ node: RenderNode, fields: [String], position: inout Int, submitActionId: String?, isSignIn: Bool
    ) -> RenderNode {
        // Subtrees without inputs are returned as they are (no copy).
        guard containsInput(node) else { return node }
        var node = node
        if case .control(var control) = node.kind {
            if control.type == .searchBar {
                control.returnKey = .search
            } else if isFocusable(control) {
                position += 1
                let isLast = position == fields.count
                control.nextField = isLast ? nil : fields[position]
                control.returnKey = isLast ? (isSignIn ? .go : .done) : .next
                control.submitActionId = isLast ? submitActionId : nil
            }
            node.kind = .control(control)
        }
        node.children = node.children.map {
            assign($0, fields: fields, position: &position, submitActionId: submitActionId, isSignIn: isSignIn)
        }
        return node
    }
}

/// What a platform offers and how the SDK adapts to it: input,
/// size class, windows, hover, haptics, and the layout decisions that follow. Every decision is
/// made here, platform-neutrally; the SwiftUI layer only draws it.
public struct PlatformCapabilities: Sendable, Hashable {
    /// How people point and type.
    public enum Input: String, Sendable, Hashable, CaseIterable {
        /// Fingers on a screen, a mouse or trackpad, a hardware keyboard, eyes and hands (visionOS).
        case touch, pointer, keyboard, gaze
    }

    /// How the app's top-level navigation is laid out.
    public enum NavigationStyle: String, Sendable, Hashable {
        /// A tab bar (iPhone, compact iPad).
        case tabs
        /// A sidebar (regular iPad, Mac).
        case sidebar
        /// Tabs as an ornament beside the window (visionOS).
        case spatial
    }

    /// The platform.
    public let platform: RenderPlatform
    /// The size class.
    public let sizeClass: SizeClass
    /// The inputs available.
    public let inputs: Set<Input>

    /// Capabilities of `platform` in `sizeClass`; an iPad may have a hardware keyboard.
    public init(platform: RenderPlatform, sizeClass: SizeClass, hasHardwareKeyboard: Bool = false) {
        self.platform = platform
        self.sizeClass = platform == .mac || platform == .vision ? .regular : (platform == .ios ? .compact : sizeClass)
        switch platform {
        case .ios: inputs = [.touch]
        case .ipad: inputs = hasHardwareKeyboard ? [.touch, .pointer, .keyboard] : [.touch]
        case .mac: inputs = [.pointer, .keyboard]
        case .vision: inputs = [.gaze]
        }
    }

    /// Whether pointer hover effects apply.
    public var hasHover: Bool { inputs.contains(.pointer) || inputs.contains(.gaze) }
    /// Whether the app can open several windows.
    public var supportsMultipleWindows: Bool { platform != .ios }
    /// Whether haptic feedback exists.
    public var hasHaptics: Bool { platform == .ios }
    /// Whether keyboard shortcuts (and the Mac's menu bar) are offered.
    public var hasKeyboardShortcuts: Bool { inputs.contains(.keyboard) }
    /// Whether there is a menu bar for commands.
    public var hasMenuBar: Bool { platform == .mac }

    /// The top-level navigation layout.
    public var navigationStyle: NavigationStyle {
        switch platform {
        case .vision: .spatial
        case .mac: .sidebar
        case .ipad: sizeClass == .regular ? .sidebar : .tabs
        case .ios: .tabs
        }
    }

    /// Whether a screen of `pattern` shows its details in an inspector beside the content
    /// (detail screens on a Mac or a regular iPad).
    public func showsInspector(for pattern: ScreenPattern) -> Bool {
        pattern == .detail && sizeClass == .regular && (platform == .mac || platform == .ipad)
    }

    /// Whether a screen's quick actions (a row's actions, a toolbar menu) appear as a popover
    /// anchored to what opened them (iPad, Mac) rather than a sheet or confirmation dialog.
    public var prefersPopovers: Bool { sizeClass == .regular && platform != .ios }

    /// Whether a list row's swipe actions exist (touch) or move to its context menu (pointer).
    public var hasSwipeActions: Bool { inputs.contains(.touch) }
}

/// The detail screen's inspector panel: on
/// a Mac or a regular iPad the content keeps its hero and first section, and the other
/// sections move to an inspector beside it.
public enum InspectorLayout {
    /// `root` without its secondary sections, and those sections, in order (none when the
    /// screen has fewer than two).
    public static func split(_ root: RenderNode) -> (content: RenderNode, inspector: [RenderNode]) {
        var sections: [String] = []
        collectSections(root, into: &sections)
        guard sections.count > 1 else { return (root, []) }
        let moved = Set(sections.dropFirst())
        var inspector: [RenderNode] = []
        let content = remove(moved, from: root, into: &inspector)
        return (content, inspector)
    }

    private static func collectSections(_ node: RenderNode, into ids: inout [String]) {
        if case .section = node.kind {
            ids.append(node.id)
            return
        }
        for child in node.children { collectSections(child, into: &ids) }
    }

    private static func remove(_ ids: Set<String>, from node: RenderNode, into removed: inout [RenderNode]) -> RenderNode {
        var node = node
        var kept: [RenderNode] = []
        for child in node.children {
            if ids.contains(child.id) {
                removed.append(child)
            } else {
                kept.append(remove(ids, from: child, into: &removed))
            }
        }
        node.children = kept
        return node
    }
}
