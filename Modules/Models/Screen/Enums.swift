/// The kind of screen (seed 000 §2.2); decides which pattern lowering draws it.
public enum ScreenPattern: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// The patterns of seed 000 §2.2.
    case login, form, list, dashboard, settings, detail, search, profile, modal, notification, onboarding
    /// `empty-state`.
    case emptyState
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)

    public static let knownCases: [ScreenPattern] = [
        .login, .form, .list, .dashboard, .settings, .detail, .search, .profile, .modal, .notification,
        .onboarding, .emptyState,
    ]

    public var rawValue: String {
        switch self {
        case .login: "login"
        case .form: "form"
        case .list: "list"
        case .dashboard: "dashboard"
        case .settings: "settings"
        case .detail: "detail"
        case .search: "search"
        case .profile: "profile"
        case .modal: "modal"
        case .notification: "notification"
        case .onboarding: "onboarding"
        case .emptyState: "empty-state"
        case .unknown(let raw): raw
        }
    }
}

/// The kind of a zone (seed 000 §2.4).
public enum ZoneType: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// The zone types of seed 000 §2.4.
    case container, formSection, simpleList, groupedList, metricGrid, actionGroup, cardList
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)

    public static let knownCases: [ZoneType] = [
        .container, .formSection, .simpleList, .groupedList, .metricGrid, .actionGroup, .cardList,
    ]

    public var rawValue: String {
        switch self {
        case .container: "container"
        case .formSection: "form-section"
        case .simpleList: "simple-list"
        case .groupedList: "grouped-list"
        case .metricGrid: "metric-grid"
        case .actionGroup: "action-group"
        case .cardList: "card-list"
        case .unknown(let raw): raw
        }
    }
}

/// How a zone lays out its children (seed 000 §2.4).
public enum Distribution: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// Vertical stack, horizontal row, two-or-more-column grid, wrapping row.
    case stacked, sideBySide, grid, flowRow
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)

    public static let knownCases: [Distribution] = [.stacked, .sideBySide, .grid, .flowRow]

    public var rawValue: String {
        switch self {
        case .stacked: "stacked"
        case .sideBySide: "side-by-side"
        case .grid: "grid"
        case .flowRow: "flow-row"
        case .unknown(let raw): raw
        }
    }
}

/// The control a slot draws (seed 000 §2.5).
public enum ControlType: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
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

    public static let knownCases: [ControlType] = [
        .textInput, .emailInput, .passwordInput, .numberInput, .searchBar, .checkbox, .switch, .radioGroup,
        .select, .filledButton, .outlinedButton, .textButton, .iconButton, .label, .icon, .avatar, .image,
        .divider, .chip, .rating, .listItem, .listItemNavigation, .metricCard,
    ]

    public var rawValue: String {
        switch self {
        case .textInput: "text-input"
        case .emailInput: "email-input"
        case .passwordInput: "password-input"
        case .numberInput: "number-input"
        case .searchBar: "search-bar"
        case .checkbox: "checkbox"
        case .switch: "switch"
        case .radioGroup: "radio-group"
        case .select: "select"
        case .filledButton: "filled-button"
        case .outlinedButton: "outlined-button"
        case .textButton: "text-button"
        case .iconButton: "icon-button"
        case .label: "label"
        case .icon: "icon"
        case .avatar: "avatar"
        case .image: "image"
        case .divider: "divider"
        case .chip: "chip"
        case .rating: "rating"
        case .listItem: "list-item"
        case .listItemNavigation: "list-item-navigation"
        case .metricCard: "metric-card"
        case .unknown(let raw): raw
        }
    }

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

/// What fires an action (seed 000 §2.6).
public enum ActionTrigger: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// The triggers of seed 000 §2.6.
    case buttonClick, itemClick, pullRefresh, fabClick, swipe, longPress
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)

    public static let knownCases: [ActionTrigger] = [.buttonClick, .itemClick, .pullRefresh, .fabClick, .swipe, .longPress]

    public var rawValue: String {
        switch self {
        case .buttonClick: "BUTTON_CLICK"
        case .itemClick: "ITEM_CLICK"
        case .pullRefresh: "PULL_REFRESH"
        case .fabClick: "FAB_CLICK"
        case .swipe: "SWIPE"
        case .longPress: "LONG_PRESS"
        case .unknown(let raw): raw
        }
    }
}

/// What an action does (seed 000 §2.6).
public enum ActionType: OpenEnum {

    public init(from decoder: any Decoder) throws { try self.init(bridging: decoder) }
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
    /// The action types of seed 000 §2.6.
    case navigate, navigateBack, apiCall, submitForm, refresh, confirm, logout, custom, openURL
    /// A value this SDK does not know (yet), kept as written.
    case unknown(String)

    public static let knownCases: [ActionType] = [
        .navigate, .navigateBack, .apiCall, .submitForm, .refresh, .confirm, .logout, .custom, .openURL,
    ]

    public var rawValue: String {
        switch self {
        case .navigate: "NAVIGATE"
        case .navigateBack: "NAVIGATE_BACK"
        case .apiCall: "API_CALL"
        case .submitForm: "SUBMIT_FORM"
        case .refresh: "REFRESH"
        case .confirm: "CONFIRM"
        case .logout: "LOGOUT"
        case .custom: "CUSTOM"
        case .openURL: "OPEN_URL"
        case .unknown(let raw): raw
        }
    }
}
