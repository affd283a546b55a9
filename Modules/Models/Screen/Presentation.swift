// How a screen is presented and what a confirmation asks: values the actions produce and the
// render tree draws, so the renderers need not depend on the actions layer.

/// How a screen is shown.
public enum Presentation: String, Sendable, Hashable {
    /// Pushed on the navigation stack.
    case push
    /// Presented as a sheet (create and edit forms on iPhone).
    case sheet
}

/// A confirmation the user must accept before `action` runs, drawn as a confirmation dialog.
public struct ConfirmationRequest: Sendable, Hashable {
    /// Dialog title.
    public var title: String
    /// Explanation.
    public var message: String?
    /// Label of the accepting button.
    public var confirmLabel: String
    /// Label of the cancelling button.
    public var cancelLabel: String
    /// Whether accepting destroys something (red button).
    public var destructive: Bool
    /// What runs when accepted (with `ActionContext.confirmed` set).
    public var action: ActionDefinition
    /// Fields the screen's record takes when the person declines: after a refused save, the
    /// server's current `version`, so that keeping one's edits and saving again replaces it.
    public var recordOnDecline: JSONObject?

    /// Creates a value with every property.
    public init(
        title: String, message: String? = nil, confirmLabel: String, cancelLabel: String, destructive: Bool,
        action: ActionDefinition, recordOnDecline: JSONObject? = nil
    ) {
        self.title = title
        self.message = message
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
        self.destructive = destructive
        self.action = action
        self.recordOnDecline = recordOnDecline
    }
}
