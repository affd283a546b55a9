import DynamicUIActions
public import DynamicUIModels
public import DynamicUIRendering
import DynamicUIResolvers
import Foundation

/// The screen model as a drawing sees it: what the SwiftUI views and the host driver call.
extension DynamicScreenViewModel: ScreenHosting {
    /// The screen's pattern once loaded.
    public var pattern: ScreenPattern? { compiled?.definition.pattern }

    /// Whether the definition is loaded.
    public var isScreenReady: Bool {
        if case .ready = screenState { return true }
        return false
    }

    /// The message of a failed first data load.
    public var dataErrorMessage: String? {
        if case .error(let message) = dataState { return message }
        return nil
    }

    /// Whether the first data load is running (nothing to show yet).
    public var isLoadingFirstData: Bool {
        if case .loading = dataState { return !hasData }
        return false
    }

    /// The screen appeared: it loads what it lacks (the definition, data or sections a
    /// cancelled load left out), reloads data changed while it was hidden, then polls.
    public func appeared() async {
        isShown = true
        if !isScreenReady {
            await load()
        } else if case .idle = dataState, compiled?.definition.dataEndpoint != nil {
            // The first load was cancelled (a tab switch): it runs again now.
            async let sectionsLoaded: Void = loadChangedSections()
            await loadData()
            await sectionsLoaded
        } else {
            await loadChangedSections()
            await reloadIfOutdated()
        }
        guard !Task.isCancelled else { return }
        await screenDidChange(isVisible: true)
        startPolling()
    }

    /// The screen disappeared: polling stops, timers stop ticking, fired actions not started
    /// are dropped, and a URL not yet opened is dropped.
    public func disappeared() {
        isShown = false
        stopPolling()
        cancelFiredActions()
        // A link an action asks for after the person left is not opened later, elsewhere.
        didOpenURL()
        Task { await self.screenDidChange(isVisible: false) }
    }

    /// Loads again what failed (the connection is back): the definition, or the data.
    func refreshAfterFailure() async {
        if !isScreenReady {
            await load()
        } else {
            await refresh()
        }
    }

    /// The screen left the app for good (its session ended): nothing it started goes on.
    func closed() {
        stopPolling()
        cancelFiredActions()
        stopTimers()
        visibilityTracker.cancelAll()
    }

    /// Searches for `text` after a short pause on the model's clock (typing again cancels the
    /// pause), unless it is the current query; the query is also the search field's value.
    public func searchChanged(_ text: String, field: String) async {
        do { try await clock.sleep(seconds: 0.3) } catch { return }
        guard !Task.isCancelled else { return }
        await searchSubmitted(text, field: field)
    }

    /// Searches for `text` now, unless it is the current query.
    public func searchSubmitted(_ text: String, field: String) async {
        guard text != searchText else { return }
        formState.setValue(text, for: field)
        await search(text)
    }

    /// Opens the screen `screen` with `params` (node-dialect links and tabs in a screen).
    public func open(screen: String, params: JSONObject) {
        Task {
            await self.apply(.navigateTo(screenKey: screen, params: params, presentation: .push))
        }
    }

    /// A tab of a `tab_view` in a screen opens its screen.
    public func select(tab screen: String) { open(screen: screen, params: [:]) }

    /// The value of the form field `binding`.
    public func boundValue(for binding: String) -> String? { formState.fieldValues[binding] }

    /// Sets the form field `binding`.
    public func setBoundValue(_ value: JSONValue, for binding: String) {
        // A field holds text: an object (a component's compound value) is no text.
        setFieldValue(value.objectValue != nil ? "" : value.text, for: binding)
    }

    /// Screens close their own sheets (their Close button): nothing to remember.
    public func sheetNodeDismissed(_ id: String) {}

    /// The row actions with these ids, in order (ids the screen does not define are skipped).
    public func rowActions(_ ids: [String]) -> [RowAction] {
        RowAction.actions(ids, of: compiled?.definition, strings: strings)
    }

    /// The items lists are built from: the loaded pages, else the data when it is a list.
    var rowItems: ListItems {
        if case .success(let items, _, _) = dataState { return items }
        return ListItems(ListItems.responseList(in: data) ?? [])
    }

    /// The item a list row was built from. Rows are identified `…/<item id>`, or `…[<index>]`
    /// when the item has no id (read without building the items a search passes).
    public func item(forRow rowId: String, at index: Int) -> JSONValue? {
        let items = rowItems
        if items.indices.contains(index), Self.row(rowId, isBuiltFrom: items, at: index) { return items[index] }
        return items.indices.first { Self.row(rowId, isBuiltFrom: items, at: $0) }.map { items[$0] }
    }

    private static func row(_ rowId: String, isBuiltFrom items: ListItems, at index: Int) -> Bool {
        if let id = items.member("id", at: index), !id.isNull { return rowId.hasSuffix("/" + id.text) }
        return rowId.hasSuffix("[\(index)]")
    }
}
