import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers

extension DynamicScreenViewModel {
    /// Loads the screen's deferred sections (zones with their own `data_endpoint`), all at once
    /// and each on its own: a section shows a skeleton until its data arrives, then its content,
    /// or its own error with a retry; the rest of the screen never waits for it. `reload` asks
    /// the server even when a fresh response is cached, and keeps a loaded section as it was
    /// when the reload fails. `only` loads that one section (its retry).
    public func loadSections(reload: Bool = false, only zoneId: String? = nil) async {
        guard let screen = compiled?.definition else { return }
        let deferred = screen.template.allZones.filter { $0.dataEndpoint != nil }
        let ids = Set(deferred.map(\.id))
        for id in sections.keys where !ids.contains(id) { sections[id] = nil }
        let loading = deferred.filter { zoneId == nil || $0.id == zoneId }
        for zone in loading {
            if case .loaded? = sections[zone.id], reload { continue }  // shown while it reloads
            sections[zone.id] = .loading
        }
        let requests = loading.compactMap { zone in zone.dataEndpoint.map { (id: zone.id, endpoint: $0) } }
        let again = reload || zoneId != nil
        await withTaskGroup(of: Void.self) { group in
            for request in requests {
                group.addTask { [weak self] in await self?.loadSection(request.id, endpoint: request.endpoint, reload: again) }
            }
        }
    }

    /// Loads one section; its failure is its own (an error state with a retry, an event).
    private func loadSection(_ id: String, endpoint: String, reload: Bool) async {
        do throws(NetworkError) {
            let page = try await dataLoader.load(endpoint: endpoint, config: nil, params: dataParams, reload: reload)
            sections[id] = .loaded(page.json)
        } catch {
            observers.emit(
                .error(ErrorEvent(.load, screen: route.screenKey, path: "section \(id)", message: "\(endpoint): \(error)")))
            if case .loaded? = sections[id], reload { return }  // a failed refresh keeps what is shown
            let offline = error.code == .noConnection || error.code == .timeout
            sections[id] = .failed(message: offline ? strings(.offline) : strings(.dataLoadFailed))
        }
    }
}
