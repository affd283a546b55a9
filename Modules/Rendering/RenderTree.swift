import DynamicUIActions
public import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// The size class the screen is drawn in (seed 003 §10.1).
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
}

/// Text styles, mapped to Dynamic Type by the SwiftUI layer (seed 003 §10.6).
public enum TextStyle: String, Sendable, Hashable {
    /// The Dynamic Type text styles.
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
}

/// Where a toolbar item goes (seed 003: forms put cancel and confirm in the navigation bar).
public enum ToolbarPlacement: String, Sendable, Hashable {
    /// Leading: Cancel.
    case cancellation
    /// Trailing: Create, Save.
    case confirmation
    /// Trailing: the "+" that replaces a FAB.
    case primaryAction
}

/// A button of the navigation bar.
public struct ToolbarItem: Sendable, Hashable {
    /// Where it goes.
    public var placement: ToolbarPlacement
    /// Its title (also its accessibility label).
    public var title: String
    /// SF Symbol, for icon-only items.
    public var systemImage: String?
    /// The action it fires.
    public var actionId: String
    /// Whether it is the destructive kind.
    public var isDestructive: Bool

    /// Creates a value with every property.
    public init(placement: ToolbarPlacement, title: String, systemImage: String? = nil, actionId: String, isDestructive: Bool) {
        self.placement = placement
        self.title = title
        self.systemImage = systemImage
        self.actionId = actionId
        self.isDestructive = isDestructive
    }
}

/// The role of a button.
public enum ButtonRole: String, Sendable, Hashable {
    /// The screen's main action (`.borderedProminent`).
    case primary
    /// A secondary action (`.bordered`).
    case secondary
    /// A plain text button.
    case plain
    /// Destroys something (red, `role: .destructive`).
    case destructive
}

/// The keyboard and autofill of a text input (seed 000 §6.3).
public enum InputKind: String, Sendable, Hashable {
    /// Plain text, e-mail (keyboard and autofill), secure password, numeric, search.
    case text, email, password, number, search
}

/// Accessibility of a node (seed 003 §10.6).
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

/// A form control with its resolved state.
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
    public var role: ButtonRole?
    /// The action the control fires.
    public var actionId: String?
    /// The style name from the screen (`headline-large`, `status`, …).
    public var styleName: String?

    /// Creates a value with every property.
    public init(
        type: ControlType, field: String? = nil, label: String? = nil, value: JSONValue, placeholder: String? = nil,
        isRequired: Bool, isReadOnly: Bool, error: String? = nil, inputKind: InputKind? = nil, options: [SlotOption],
        icon: String? = nil, role: ButtonRole? = nil, actionId: String? = nil, styleName: String? = nil
    ) {
        self.type = type
        self.field = field
        self.label = label
        self.value = value
        self.placeholder = placeholder
        self.isRequired = isRequired
        self.isReadOnly = isReadOnly
        self.error = error
        self.inputKind = inputKind
        self.options = options
        self.icon = icon
        self.role = role
        self.actionId = actionId
        self.styleName = styleName
    }
}
