public import DynamicUIModels
public import DynamicUIStorage
import Foundation

/// How a 409 on a queued request is resolved.
public enum ConflictStrategy: Sendable, Hashable {
    /// Keep the server's data: the queued change is dropped.
    case serverWins
    /// Keep the local change: it is sent again, carrying the server's current `version`.
    case clientWins
    /// Field-level merge of the local change over the server's data (see `JSONMerge`), sent
    /// again with the server's `version`.
    case merge
    /// Ask the host (`ConflictResolving`); the request waits, marked `awaitingDecision`.
    case manual
}

/// A queued change the server rejected with 409.
public struct SyncConflict: Sendable {
    /// The queued request.
    public let request: QueuedRequest
    /// The local body, as JSON.
    public let local: JSONValue
    /// The server's current data: the 409 body's `current`, `data` or the body itself.
    public let server: JSONValue
    /// The 409 body as received.
    public let serverBody: JSONValue
}

/// What the host decided for a conflict under `manual`.
public enum ConflictDecision: Sendable, Hashable {
    /// Drop the local change.
    case keepServer
    /// Send the local change again (with the server's version).
    case keepLocal
    /// Send this body instead.
    case replace(JSONValue)
    /// Decide later: the request stays queued as `awaitingDecision`.
    case later
}

/// The host's hook for `manual` conflicts.
public protocol ConflictResolving: Sendable {
    /// The decision for `conflict`; may take as long as the user needs.
    func decide(_ conflict: SyncConflict) async -> ConflictDecision
}

/// Field-level JSON merge used by `ConflictStrategy.merge`.
///
/// The rule: starting from the server's object, every member of the local object replaces the
/// server's member of the same name, except that when both are objects they are merged
/// recursively. Arrays are values: the local array replaces the server's whole (element-wise
/// merging of lists cannot know which elements correspond). A local `null` sets `null`.
/// Members only the server has are kept. The result's `version` is always the server's, so the
/// re-sent change passes the optimistic-concurrency check it failed.
public enum JSONMerge {
    /// Merges `local` over `server`.
    public static func merge(local: JSONValue, over server: JSONValue) -> JSONValue {
        var merged = mergeValues(local, over: server)
        if case .object(var object) = merged, let version = server["version"] {
            object["version"] = version
            merged = .object(object)
        }
        return merged
    }

    private static func mergeValues(_ local: JSONValue, over server: JSONValue) -> JSONValue {
        guard case .object(let localObject) = local, case .object(var result) = server else { return local }
        for (key, value) in localObject {
            if let existing = result[key] {
                result[key] = mergeValues(value, over: existing)
            } else {
                result[key] = value
            }
        }
        return .object(result)
    }

    /// `local` with the server's `version` (for `clientWins`).
    public static func withServerVersion(_ local: JSONValue, from server: JSONValue) -> JSONValue {
        guard case .object(var object) = local, let version = server["version"] else { return local }
        object["version"] = version
        return .object(object)
    }

    /// The server's current record inside a 409 body: `current`, else `data`, else the body.
    public static func serverRecord(in body: JSONValue) -> JSONValue {
        if let current = body["current"], current.objectValue != nil { return current }
        if let data = body["data"], data.objectValue != nil { return data }
        return body
    }
}
