public import DynamicUIModels
public import DynamicUINetwork
import Foundation

/// One page of a screen's data.
public struct DataPage: Sendable, Hashable {
    /// The response as JSON (a single object for detail screens).
    public let json: JSONValue
    /// The items (see `DataLoader.items(in:)`).
    public let items: [JSONValue]
    /// Whether another page can be requested.
    public let hasMore: Bool
    /// The offset of this page.
    public let offset: Int
    /// Whether it is the last response saved on the device, shown because the server could not
    /// be reached.
    public var isStale = false
}

/// Loads screen data (seed 000 §4): dual-API routing (`admin:`, `mobile:`, none = mobile),
/// path parameters from navigation params, `default_params`, and offset pagination with the
/// configured parameter names.
public actor DataLoader {
    private let client: APIClient
    /// The most items one response may carry; more is a `limitExceeded` error.
    public nonisolated let maxItems: Int

    /// Creates a loader.
    public init(client: APIClient, maxItems: Int = DynamicUILimits.default.maxDataItems) {
        self.client = client
        self.maxItems = maxItems
    }

    /// The first page (or the page at `offset`) of `endpoint`. `query` adds items (a search).
    /// `reload` asks the server even when a fresh response is cached (pull to refresh, polling).
    public func load(
        endpoint: String, config: DataConfig?, params: [String: String] = [:], query: [(name: String, value: String)] = [],
        offset: Int = 0, reload: Bool = false
    ) async throws(NetworkError) -> DataPage {
        let target = Endpoint(endpoint)
        var pathParameters: [String: String] = [:]
        for name in target.parameterNames {
            guard let value = params[name] else { throw NetworkError.invalidRequest("\(endpoint) needs the parameter '\(name)'") }
            pathParameters[name] = value
        }
        var items = (config?.defaultParams ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if let pagination = config?.pagination {
            items.append((pagination.limitParam, String(pagination.pageSize)))
            items.append((pagination.offsetParam, String(offset)))
        }
        items += query
        let request = APIRequest(.get, target, pathParameters: pathParameters, query: items, useCache: !reload)
        let response = try await client.send(request)
        let json = try response.json()
        let list = Self.items(in: json)
        guard list.count <= maxItems else {
            throw NetworkError(
                .limitExceeded, message: "\(endpoint) answered \(list.count) items; at most \(maxItems) are accepted")
        }
        var hasMore = false
        if let pagination = config?.pagination {
            if let total = json["total"]?.intValue ?? json["meta"]?["total"]?.intValue {
                hasMore = offset + list.count < total
            } else {
                hasMore = list.count >= pagination.pageSize
            }
        }
        var page = DataPage(json: json, items: list, hasMore: hasMore, offset: offset)
        page.isStale = response.source == .stale
        return page
    }

    /// The patch `endpoint` answers (never from the cache), or `nil` when it answers nothing
    /// (204, an empty body): the data of a refresh by patch (`refresh_patch_endpoint`).
    public func loadPatch(endpoint: String, params: [String: String] = [:]) async throws -> DocumentPatch? {
        let target = Endpoint(endpoint)
        var pathParameters: [String: String] = [:]
        for name in target.parameterNames {
            guard let value = params[name] else { throw NetworkError.invalidRequest("\(endpoint) needs the parameter '\(name)'") }
            pathParameters[name] = value
        }
        let response = try await client.send(APIRequest(.get, target, pathParameters: pathParameters, useCache: false))
        guard response.status != 204, !response.body.isEmpty else { return nil }
        return try DocumentPatch(json: try response.json())
    }

    /// The page after `loaded` items: its offset is the number of items already loaded.
    public func loadNextPage(
        endpoint: String, config: DataConfig?, params: [String: String] = [:], query: [(name: String, value: String)] = [],
        loaded: Int
    ) async throws(NetworkError) -> DataPage {
        try await load(endpoint: endpoint, config: config, params: params, query: query, offset: loaded)
    }

    /// The items of a response as real APIs shape them: a bare array; `items`, `data` or
    /// `results` holding an array; otherwise the object itself is the single item (a detail);
    /// `null` is no items.
    public static func items(in json: JSONValue) -> [JSONValue] {
        switch json {
        case .array(let array): return array
        case .null: return []
        case .object:
            for key in ["items", "data", "results"] {
                if let array = json[key]?.arrayValue { return array }
            }
            return [json]
        default: return [json]
        }
    }
}
