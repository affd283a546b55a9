/// The kind of screen; decides which pattern lowering draws it.
public enum ScreenPattern: OpenEnum {  // wire: kebab-case
    /// Every pattern a screen may declare.
    case login, form, list, dashboard, settings, detail, search, profile, modal, notification, onboarding
    /// `empty-state`.
    case emptyState
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)
}

/// The kind of a zone.
public enum ZoneType: OpenEnum {  // wire: kebab-case
    /// Every zone type a screen may declare.
    case container, formSection, simpleList, groupedList, metricGrid, actionGroup, cardList
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)
}

/// How a zone lays out its children.
public enum Distribution: OpenEnum {  // wire: kebab-case
    /// Vertical stack, horizontal row, two-or-more-column grid, wrapping row.
    case stacked, sideBySide, grid, flowRow
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)
}

/// The control a slot draws.
public enum ControlType: OpenEnum {  // wire: kebab-case
    /// Inputs.
    case textInput, emailInput, passwordInput, numberInput, searchBar
    /// Selection controls.
    case checkbox, `switch`, radioGroup, select
    /// Buttons.
    case filledButton, outlinedButton, textButton, iconButton
    /// Display controls.
    case label, icon, avatar, image, divider, chip, rating
    /// Composite controls.
    case listItem, listItemNavigation, metricCard
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)

    /// Whether the control edits a form value.
    public var isInput: Bool {
        switch self {
        case .textInput, .emailInput, .passwordInput, .numberInput, .checkbox, .switch, .radioGroup, .select: true
        default: false
        }
    }

    /// Whether the control is a button.
    public var isButton: Bool {
        switch self {
        case .filledButton, .outlinedButton, .textButton, .iconButton: true
        default: false
        }
    }
}

/// What fires an action.
public enum ActionTrigger: OpenEnum {  // wire: SCREAMING_SNAKE_CASE
    /// Every trigger an action may declare.
    case buttonClick, itemClick, pullRefresh, fabClick, swipe, longPress
    /// `SCREEN`: run by the screen itself (a variable trigger, a timer), never by a gesture.
    case screen
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)
}

/// What an action does.
public enum ActionType: OpenEnum {  // wire: SCREAMING_SNAKE_CASE
    /// Every action type the wire format knows.
    case navigate, navigateBack, apiCall, submitForm, refresh, confirm, logout, custom, openURL
    /// `APPLY_PATCH`: a `DocumentPatch` fetched from `endpoint`, applied to the shown screen (or,
    /// with `"target": "data"`, to its records) in place.
    case applyPatch
    /// `SET_VARIABLE`: sets the screen variable `name` to `value` (placeholders allowed), or adds
    /// `increment` to a number; the value must have the variable's type.
    case setVariable
    /// `TIMER`: `command` (`start`, `stop`, `pause`, `resume`, `reset`) for the screen's timer `id`.
    case timer
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)
}
