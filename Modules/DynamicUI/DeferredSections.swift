import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers

/// What the model knows of its deferred sections besides their states.
struct SectionRuntime {
    /// The endpoint each section was loaded from (a patch may give a section another).
    var endpoints: [String: String] = [:]
    /// Bumped when the screen loads again: loads begun before are not applied.
    var generation = 0
}

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
        let deferred = forgetRemovedSections()
        await load(
            deferred.filter { sections[$0.id] == nil || sectionRuntime.endpoints[$0.id] != $0.dataEndpoint }, reload: false)
    }

    /// Whether the shown screen's sections differ from those loaded (a patch brought, removed or
    /// changed one).
    var sectionsChanged: Bool {
        let deferred = (compiled?.definition.template.allZones ?? []).filter { $0.dataEndpoint != nil }
        return deferred.count != sectionRuntime.endpoints.count
            || deferred.contains { sectionRuntime.endpoints[$0.id] != $0.dataEndpoint }
    }

    /// Starts over for a screen loaded again.
    func resetSections() {
        sections = [:]
        sectionRuntime = SectionRuntime(generation: sectionRuntime.generation + 1)
    }

    /// The deferred zones of the shown screen; the states of zones it no longer has are dropped.
    private func forgetRemovedSections() -> [Zone] {
        let deferred = (compiled?.definition.template.allZones ?? []).filter { $0.dataEndpoint != nil }
        let ids = Set(deferred.map(\.id))
        for id in Set(sections.keys).union(sectionRuntime.endpoints.keys) where !ids.contains(id) {
            sections[id] = nil
            sectionRuntime.endpoints[id] = nil
        }
        return deferred
    }

    /// Loads `zones` together.
    private func load(_ zones: [Zone], reload: Bool) async {
        var requests: [(id: String, endpoint: String)] = []
        for zone in zones {
            guard let endpoint = zone.dataEndpoint else { continue }
            let sameEndpoint = sectionRuntime.endpoints[zone.id] == endpoint
            sectionRuntime.endpoints[zone.id] = endpoint
            if case .loaded? = sections[zone.id], reload, sameEndpoint {
                // Shown while it reloads.
            } else {
                sections[zone.id] = .loading
            }
            requests.append((zone.id, endpoint))
        }
        let generation = sectionRuntime.generation
        await withTaskGroup(of: Void.self) { group in
            for request in requests {
                group.addTask { [weak self] in
                    await self?.loadSection(request.id, endpoint: request.endpoint, reload: reload, generation: generation)
                }
            }
        }
    }

    /// Loads one section; its failure is its own (an error state with a retry, an event). A
    /// result for a screen loaded again since, or for a section removed or moved to another
    /// endpoint meanwhile, is dropped.
    private func loadSection(_ id: String, endpoint: String, reload: Bool, generation: Int) async {
        let result: Result<DataPage, NetworkError>
        do throws(NetworkError) {
            result = .success(try await dataLoader.load(endpoint: endpoint, config: nil, params: dataParams, reload: reload))
        } catch {
            result = .failure(error)
        }
        guard generation == sectionRuntime.generation, sectionRuntime.endpoints[id] == endpoint else { return }
        switch result {
        case .success(let page):
            sections[id] = .loaded(page.json)
        case .failure(let error) where error.isCancellation:
            // Interrupted, not failed: a section never loaded loads again with the screen.
            if case .loading? = sections[id] { sections[id] = nil }
        case .failure(let error):
            observers.emit(
                .error(ErrorEvent(.load, screen: route.screenKey, path: "section \(id)", message: "\(endpoint): \(error)")))
            if case .loaded? = sections[id], reload { return }  // a failed refresh keeps what is shown
            let offline = error.code == .noConnection || error.code == .timeout
            sections[id] = .failed(message: offline ? strings(.offline) : strings(.dataLoadFailed))
        }
    }
}
