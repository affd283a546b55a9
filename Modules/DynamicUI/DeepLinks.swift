import DynamicUIModels
import Foundation

/// A deep link read as the configuration accepts it (`scheme://screen/<key>?param=value`): the
/// screen it opens and the parameters the configuration lets it give that screen.
struct DeepLink: Equatable {
    /// Where an accepted link goes.
    enum Destination: Equatable {
        /// A screen of the navigation, shown as the navigation shows it (selected as a tab).
        case root(String)
        /// A screen pushed where the person is, with the link's parameters.
        case pushed(String, params: [String: String])
    }

    /// The screen it opens.
    let screenKey: String
    /// The declared parameters it gives the screen; any other is dropped.
    let params: [String: String]

    /// Reads `url`; `nil` when its scheme is not one of `schemes`, it does not open a screen, or
    /// the key is not well formed. Only `parameters[key]` are kept.
    init?(_ url: URL, schemes: Set<String>, parameters: [String: Set<String>]) {
        guard let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.host == "screen"
        else { return nil }
        let key = String(url.path.drop { $0 == "/" })
        guard Self.isWellFormedScreenKey(key) else { return nil }
        let declared = parameters[key] ?? []
        var params: [String: String] = [:]
        for item in components.queryItems ?? [] where declared.contains(item.name) { params[item.name] = item.value }
        screenKey = key
        self.params = params
    }

    /// Where the link goes: a root of the role's navigation without parameters is shown as the
    /// navigation shows it; a screen `linkable` names is pushed; anything else is refused (`nil`).
    func destination(roots: Set<String>, linkable: Set<String>?) -> Destination? {
        if params.isEmpty, roots.contains(screenKey) { return .root(screenKey) }
        guard linkable?.contains(screenKey) == true else { return nil }
        return .pushed(screenKey, params: params)
    }

    /// Lower-case letters, digits, `-` and `_`, at most 64 characters, starting with a letter or digit.
    static func isWellFormedScreenKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, key.utf8.count <= 64, first != UInt8(ascii: "-"), first != UInt8(ascii: "_") else {
            return false
        }
        return key.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }
}
