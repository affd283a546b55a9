import DynamicUICatalog
import DynamicUIModels
import Foundation

/// Which catalog screens an account may open, derived from the catalog rather than listed by
/// hand: the screens its role's navigation reaches, following each screen's navigation actions
/// the role holds the permission of, and only through screens whose data endpoints the role may
/// read and whose form it may submit (the endpoint's `roles` and `write_roles`, and the submit
/// action's `permission`).
///
/// Derived from navigation and not from endpoints alone, because endpoints cannot tell the
/// dashboards apart (all of them read `stats/global`, open to every role, scoped per account) and
/// some screens read no endpoint at all (the guardian's dashboard shows its children from the
/// screen itself).
struct ScreenAccess {
    /// Screens every signed-in account opens: the sign-in and the settings.
    static let everyone: Set<String> = ["app-login", "app-settings"]
    /// Screens served before signing in.
    static let signedOut: Set<String> = ["app-login"]

    let catalog: EduGoCatalog
    let endpoints: JSONObject

    /// The screen keys an account of `role` (`teacher`) in `group` (its navigation) may open.
    func screens(role: String, group: String, permissions: Set<String>) throws -> Set<String> {
        let navigation = try catalog.navigation(role: group).json
        var pending = Array(Self.screenKeys(in: navigation).union(Self.everyone))
        var open = Set<String>()
        var refused = Set<String>()
        let known = Set(catalog.screenKeys)
        while let key = pending.popLast() {
            guard known.contains(key), !open.contains(key), !refused.contains(key) else { continue }
            let screen = try catalog.screenJSON(key)
            guard mayUse(screen, group: group, permissions: permissions) else {
                refused.insert(key)
                continue
            }
            open.insert(key)
            for (target, permission) in Self.links(of: screen) where permission.map(permissions.contains) ?? true {
                pending.append(target)
            }
        }
        return open
    }

    /// Whether `group` may read every data endpoint of `screen` and submit its form.
    func mayUse(_ screen: JSONValue, group: String, permissions: Set<String>) -> Bool {
        for endpoint in Self.dataEndpoints(of: screen) where !allows(endpoint, group: group, field: "roles") {
            return false
        }
        for action in screen["actions"]?.arrayValue ?? [] where action["type"]?.stringValue == "SUBMIT_FORM" {
            if let permission = action["permission"]?.stringValue, !permissions.contains(permission) { return false }
            guard let endpoint = action["config"]?["endpoint"]?.stringValue else { continue }
            let method = action["config"]?["method"]?.stringValue ?? "POST"
            if !allows(endpoint, group: group, field: method == "GET" ? "roles" : "write_roles") { return false }
        }
        return true
    }

    /// Whether the endpoint table lets `group` use `endpoint` (`admin:/v1/users` or an API-less
    /// `/v1/materials`, which the mobile API serves); one the table does not hold (sign-in) is
    /// open.
    private func allows(_ endpoint: String, group: String, field: String) -> Bool {
        let names = endpoint.contains(":") ? [endpoint] : ["mobile:\(endpoint)", "admin:\(endpoint)"]
        guard let entry = names.lazy.compactMap({ self.endpoints[$0]?.objectValue }).first else { return true }
        let roles = entry[field]?.arrayValue ?? entry["roles"]?.arrayValue ?? []
        return roles.contains(.string(group))
    }

    /// Every `data_endpoint` of a screen: its own and its deferred sections'.
    static func dataEndpoints(of value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            return object.flatMap { key, item in
                key == "data_endpoint" ? (item.stringValue.map { [$0] } ?? []) : dataEndpoints(of: item)
            }
        case .array(let items): return items.flatMap(dataEndpoints(of:))
        default: return []
        }
    }

    /// Every `screen_key` named inside `value`.
    static func screenKeys(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let object):
            var keys = Set<String>()
            for (key, item) in object {
                if key == "screen_key", let target = item.stringValue {
                    keys.insert(target)
                } else {
                    keys.formUnion(screenKeys(in: item))
                }
            }
            return keys
        case .array(let items): return items.reduce(into: Set<String>()) { $0.formUnion(screenKeys(in: $1)) }
        default: return []
        }
    }

    /// The screens a screen leads to, each with the permission its action needs (none for a
    /// link outside the actions).
    static func links(of screen: JSONValue) -> [(String, String?)] {
        guard case .object(var rest) = screen else { return [] }
        rest["screen_key"] = nil
        let actions = rest["actions"]?.arrayValue ?? []
        rest["actions"] = nil
        var links: [(String, String?)] = []
        for action in actions {
            let permission = action["permission"]?.stringValue
            links += screenKeys(in: action).map { ($0, permission) }
        }
        links += screenKeys(in: .object(rest)).map { ($0, nil) }
        return links
    }
}
