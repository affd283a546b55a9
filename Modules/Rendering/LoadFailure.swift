public import DynamicUIModels

/// Why a screen has nothing to show: it names the state a person sees instead of the screen
/// (never a raw error, status code or server address).
public enum LoadFailure: Sendable, Hashable {
    /// No connection, and nothing saved for this screen.
    case offline
    /// The server refused this account (403).
    case notAllowed
    /// The screen or the record does not exist (404).
    case notFound
    /// Anything else; the text is for a person.
    case failed(String)

    /// The heading of the state.
    public func title(_ strings: DynamicUIStrings = .current) -> String {
        switch self {
        case .offline: strings(.offlineTitle)
        case .notAllowed: strings(.notAllowedTitle)
        case .notFound: strings(.notFoundTitle)
        case .failed: strings(.failedTitle)
        }
    }

    /// The explanation under the heading.
    public func message(_ strings: DynamicUIStrings = .current) -> String {
        switch self {
        case .offline: strings(.offlineMessage)
        case .notAllowed: strings(.notAllowedMessage)
        case .notFound: strings(.notFoundMessage)
        case .failed(let message): message
        }
    }

    /// The SF Symbol of the state.
    public var systemImage: String {
        switch self {
        case .offline: "wifi.slash"
        case .notAllowed: "lock.fill"
        case .notFound: "questionmark.folder"
        case .failed: "exclamationmark.triangle"
        }
    }

    /// Whether trying again can help (not for a refusal or a missing screen).
    public var isRetryable: Bool {
        switch self {
        case .offline, .failed: true
        case .notAllowed, .notFound: false
        }
    }

    /// The action id of the retry button: the view model reloads the screen.
    public static let retryActionId = "dynamicui.retry"

    /// The whole screen shown instead: its chrome (`title`, back when the stack has a screen
    /// below) and a centred state with a retry button when trying again can help.
    public func screen(title: String, canGoBack: Bool, strings: DynamicUIStrings = .current) -> RenderNode {
        var children: [RenderNode] = []
        if isRetryable {
            children.append(
                RenderNode(
                    id: "failure/retry",
                    kind: .control(
                        ControlNode(
                            type: .filledButton, label: strings(.retry), value: .null, isRequired: false, isReadOnly: false,
                            options: [], icon: "arrow.clockwise", role: .primary, actionId: Self.retryActionId)),
                    accessibility: AccessibilityInfo(label: strings(.retry), traits: ["button"])))
        }
        let state = RenderNode(
            id: "failure", kind: .emptyState(title: self.title(strings), message: message(strings), systemImage: systemImage),
            children: children)
        var chrome = ScreenChrome(pattern: "failure", title: title, largeTitle: false, showsBack: canGoBack)
        chrome.strings = strings
        return RenderNode(id: "screen", kind: .screen(chrome), children: [state])
    }
}

/// Where a deferred section is: loading (a skeleton), loaded (its data), or failed (its own
/// error and retry, the rest of the screen unaffected).
public enum SectionState: Sendable, Hashable {
    /// The section's data is on its way.
    case loading
    /// The section's data (saved data when offline).
    case loaded(JSONValue)
    /// The section could not be loaded; `message` says why.
    case failed(message: String)

    /// The action id of a failed section's retry button.
    public static func retryActionId(_ zoneId: String) -> String { "dynamicui.section-retry:\(zoneId)" }

    /// The zone id a retry action id names, if it is one.
    public static func zoneId(retrying actionId: String) -> String? {
        let prefix = "dynamicui.section-retry:"
        return actionId.hasPrefix(prefix) ? String(actionId.dropFirst(prefix.count)) : nil
    }
}
