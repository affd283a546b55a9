public import DynamicUIModels
public import DynamicUINetwork
import Foundation

/// One page of a screen's data, read as a document: a list's items are built as its rows are
/// drawn, and the response as a whole only when `json` is read.
public struct DataPage: Sendable, Hashable {
    /// The response (built on first read, then kept; a single object for detail screens).
    public var json: JSONValue { response.value }
    /// The items (see `DataLoader.items(in:)`).
    public let items: ListItems
    /// Whether the response held a list (an array, or an object's `items`, `data` or `results`
    /// array); false when the response is itself the one item, or `null`.
    public let isList: Bool
    /// Whether another page can be requested.
    public let hasMore: Bool
    /// The offset of this page.
    public let offset: Int
    /// Whether it is the last response saved on the device, shown because the server could not
    /// be reached.
    public var isStale = false
    /// The response, read in place.
    let response: LazyJSON

    /// Whether both pages hold the same response and items at the same offset.
    public static func == (lhs: DataPage, rhs: DataPage) -> Bool {
        lhs.items == rhs.items && lhs.isList == rhs.isList && lhs.hasMore == rhs.hasMore && lhs.offset == rhs.offset
            && lhs.isStale == rhs.isStale && (lhs.response === rhs.response || lhs.json == rhs.json)
    }

    /// Hashes the items' count, the offset and the flags (not the response: it would be built).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(items)
        hasher.combine(isList)
        hasher.combine(hasMore)
        hasher.combine(offset)
        hasher.combine(isStale)
    }
}

/// A value built from where it is held (a document's node, a list's items) on first read and
/// kept: a list screen's response is never built whole unless something reads it whole.
final class LazyJSON: @unchecked Sendable {
    // Sendable: `built` is written once, under the lock.
    private enum Source {
        case value(JSONValue)
        case node(JSONNode)
        case items(ListItems)
        /// A value built from the first, with the patches applied in order (each that applies).
        case patched(LazyJSON, [DocumentPatch])
    }

    /// How many patches wait for a first read before they are applied at once.
    private static let maxWaitingPatches = 32

    private let source: Source
    private let lock = NSLock()
    private var built: JSONValue?

    /// A value already built.
    init(_ value: JSONValue) { source = .value(value) }

    /// A document's value.
    init(node: JSONNode) { source = .node(node) }

    /// A list's items as an array.
    init(items: ListItems) { source = .items(items) }

    /// `base` with `patch` applied to its records (`base` itself when the patch does not apply
    /// to it): patched now when `base` is built, else when first read (the patches a response
    /// collects wait together, at most `maxWaitingPatches`, over the one unbuilt value).
    init(patching base: LazyJSON, with patch: DocumentPatch) {
        if case .patched(let root, let waiting) = base.source, base.builtValue == nil,
            waiting.count < Self.maxWaitingPatches
        {
            source = .patched(root, waiting + [patch])
        } else if base.builtValue != nil || base.waitingPatches >= Self.maxWaitingPatches {
            let built = base.value
            source = .value((try? built.applying(patch)) ?? built)
        } else {
            source = .patched(base, [patch])
        }
    }

    /// The value if it is built already.
    private var builtValue: JSONValue? {
        if case .value(let value) = source { return value }
        lock.lock()
        defer { lock.unlock() }
        return built
    }

    /// How many patches wait for the first read.
    private var waitingPatches: Int {
        if case .patched(_, let waiting) = source { waiting.count } else { 0 }
    }

    /// The value, built on first read.
    var value: JSONValue {
        if case .value(let value) = source { return value }
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let value: JSONValue
        switch source {
        case .value(let held): value = held
        case .node(let node): value = node.value
        case .items(let items): value = .array(items.values)
        case .patched(let base, let patches):
            var patched = base.value
            for patch in patches { patched = (try? patched.applying(patch)) ?? patched }
            value = patched
        }
        built = value
        return value
    }

    /// Whether the value is `null` (without building it).
    var isNull: Bool {
        switch source {
        case .value(let value): value.isNull
        case .node(let node): node.isNull
        case .items: false
        case .patched(let base, _): base.isNull
        }
    }
}

/// Loads screen data: dual-API routing (`admin:`, `mobile:`, none = mobile),
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
        let root = try response.document().root
        let (list, isList) = Self.items(in: root)
        // A list stays in its document; a single item was built, and is the response.
        let body = isList ? LazyJSON(node: root) : LazyJSON(list.first ?? .null)
        guard list.count <= maxItems else {
            throw NetworkError(
                .limitExceeded, message: "\(endpoint) answered \(list.count) items; at most \(maxItems) are accepted")
        }
        var hasMore = false
        if let pagination = config?.pagination {
            if let total = root["total"]?.numberValue?.intValue ?? root["meta"]?["total"]?.numberValue?.intValue {
                hasMore = offset + list.count < total
            } else {
                hasMore = list.count >= pagination.pageSize
            }
        }
        var page = DataPage(items: list, isList: isList, hasMore: hasMore, offset: offset, response: body)
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
        // The document path below keeps these rules; `DataLoaderTests` compares the two.
        json.isNull ? [] : ListItems.responseList(in: json) ?? [json]
    }

    /// The items of a response read as a document, by the rules of `items(in:)`, held in the
    /// document; `isList` when the response held a list rather than being the one item.
    static func items(in root: JSONNode) -> (items: ListItems, isList: Bool) {
        switch root.kind {
        case .array: return (ListItems(array: root) ?? [], true)
        case .null: return ([], false)
        case .object:
            for key in ListItems.responseListKeys {
                if let node = root[key], let items = ListItems(array: node) { return (items, true) }
            }
            return ([root.value], false)
        default: return ([root.value], false)
        }
    }
}
