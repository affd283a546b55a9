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
        let deferred = forgetRemovedSections()
        await load(deferred.filter { zoneId == nil || $0.id == zoneId }, reload: reload || zoneId != nil)
    }

    /// Loads the sections a patch brought or gave another endpoint; the others stay as they are.
    func loadChangedSections() async {
        await load(sectionBank.changed(among: forgetRemovedSections()), reload: false)
    }

    /// Whether the shown screen's sections differ from those loaded (a patch brought, removed or
    /// changed one).
    var sectionsChanged: Bool { sectionBank.differs(from: deferredSections) }

    /// Starts over for a screen loaded again.
    func resetSections() { sectionBank.reset() }

    /// The deferred zones of the shown screen, with their endpoints.
    private var deferredSections: [(id: String, endpoint: String)] {
        (compiled?.definition.template.allZones ?? []).compactMap { zone in zone.dataEndpoint.map { (zone.id, $0) } }
    }

    /// The deferred zones of the shown screen; the states of zones it no longer has are dropped.
    private func forgetRemovedSections() -> [(id: String, endpoint: String)] {
        let deferred = deferredSections
        sectionBank.keep(only: deferred)
        return deferred
    }

    /// Loads `sections` together.
    private func load(_ sections: [(id: String, endpoint: String)], reload: Bool) async {
        guard !sections.isEmpty else { return }
        let generation = sectionBank.begin(sections, reload: reload)
        await withTaskGroup(of: Void.self) { group in
            for (id, endpoint) in sections {
                group.addTask { [weak self] in
                    await self?.loadSection(id, endpoint: endpoint, reload: reload, generation: generation)
                }
            }
        }
    }

    /// Loads one section; its failure is its own (an error state with a retry, an event).
    private func loadSection(_ id: String, endpoint: String, reload: Bool, generation: Int) async {
        let result: Result<JSONValue, NetworkError>
        do throws(NetworkError) {
            result = .success(try await dataLoader.load(endpoint: endpoint, config: nil, params: dataParams, reload: reload).json)
        } catch {
            result = .failure(error)
        }
        let applied = sectionBank.finish(
            id, endpoint: endpoint, generation: generation, result: result, reload: reload, strings: strings)
        if applied, case .failure(let error) = result, !error.isCancellation {
            observers.emit(
                .error(ErrorEvent(.load, screen: route.screenKey, path: "section \(id)", message: "\(endpoint): \(error)")))
        }
    }
}
