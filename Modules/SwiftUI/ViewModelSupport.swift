#if canImport(SwiftUI)
    import DynamicUI
    import DynamicUIActions
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation

    /// What the SwiftUI views ask of a screen's view model beyond its public API.
    extension DynamicScreenViewModel {
        /// Opens the screen `screen` with `params` (node-dialect links and tabs).
        func open(screen: String, params: JSONObject) {
            Task {
                await self.apply(.navigateTo(screenKey: screen, params: params, presentation: .push))
            }
        }

        /// Whether the definition is loaded.
        var isScreenReady: Bool {
            if case .ready = screenState { return true }
            return false
        }

        /// The loaded definition, if any.
        var screenDefinition: ScreenDefinition? {
            if case .ready(let definition, _) = screenState { return definition }
            return nil
        }

        /// The message of a failed data load.
        var dataErrorMessage: String? {
            if case .error(let message) = dataState { return message }
            return nil
        }

        /// Whether the first data load is running (nothing to show yet).
        var isLoadingFirstData: Bool {
            if case .loading = dataState { return !hasData }
            return false
        }

        /// Called when the screen appears: loads it unless it is loaded, then polls while visible.
        func loadAndStartPolling() async {
            // A screen coming back into view reloads data that changed while it was hidden.
            if !isScreenReady { await load() } else { await reloadIfOutdated() }
            guard !Task.isCancelled else { return }
            await screenDidChange(isVisible: true)
            startPolling()
        }

        /// Searches for `text` after a short pause (typing cancels the pause), unless it is the
        /// current query; the query is also the value of the search form field.
        func searchAfterPause(_ text: String, field: String) async {
            try? await Task.sleep(for: .milliseconds(300))
            guard !Task.isCancelled else { return }
            await searchNow(text, field: field)
        }

        /// Searches for `text` now, unless it is the current query.
        func searchNow(_ text: String, field: String) async {
            guard text != searchText else { return }
            formState.setValue(text, for: field)
            await search(text)
        }

        /// The row actions with these ids, in order (ids the screen does not define are skipped).
        func rowActions(_ ids: [String]) -> [RowAction] {
            RowAction.actions(ids, of: screenDefinition, strings: strings)
        }

        /// The items lists are built from: the loaded pages, else the data when it is a list.
        var rowItems: ListItems {
            if case .success(let items, _, _) = dataState { return items }
            return ListItems(ListItems.responseList(in: data) ?? [])
        }

        /// The item a list row was built from. Rows are identified `…/<item id>`, or `…[<index>]`
        /// when the item has no id (read without building the items a search passes).
        func item(forRow rowId: String, at index: Int) -> JSONValue? {
            let items = rowItems
            if items.indices.contains(index), Self.row(rowId, isBuiltFrom: items, at: index) { return items[index] }
            return items.indices.first { Self.row(rowId, isBuiltFrom: items, at: $0) }.map { items[$0] }
        }

        private static func row(_ rowId: String, isBuiltFrom items: ListItems, at index: Int) -> Bool {
            if let id = items.member("id", at: index), !id.isNull { return rowId.hasSuffix("/" + id.displayText) }
            return rowId.hasSuffix("[\(index)]")
        }
    }
#endif
