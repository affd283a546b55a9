/// The loading state of a screen definition.
public enum ScreenState: Sendable, Hashable {
    /// The definition is being fetched.
    case loading
    /// The definition is available; `isStale` when it came from cache after a failed refresh.
    case ready(ScreenDefinition, isStale: Bool)
    /// Loading failed and there is nothing cached.
    case error(String)
}

/// The loading state of a screen's data.
public enum DataState: Sendable, Hashable {
    /// No data requested (the screen has no endpoint).
    case idle
    /// The first page is being fetched.
    case loading
    /// Items are available (those of a page read as a document are built as rows are drawn);
    /// `hasMore` when another page can be requested.
    case success(items: ListItems, hasMore: Bool, loadingMore: Bool)
    /// Loading failed.
    case error(String)
}
