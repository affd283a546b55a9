import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering

/// The deferred sections of one screen or node document (zones or nodes with their own
/// `data_endpoint`), as values: each one's state, the endpoint it was loaded from, and which
/// loads still count. Both dialects' models hold one; they fetch, and this decides what a load
/// shows and what its result changes (so it is tested without a network).
struct SectionBank: Equatable {
    /// Each section's state, by id: loading, loaded or failed (none: not asked for yet).
    private(set) var states: [String: SectionState] = [:]
    /// The endpoint each section was loaded from (a patch may give a section another).
    private(set) var endpoints: [String: String] = [:]
    /// Bumped when the screen loads again: loads begun before are not applied.
    private(set) var generation = 0

    /// No sections.
    init() {}

    /// Starts over for a screen loaded again: no states, and loads under way no longer count.
    mutating func reset() {
        states = [:]
        endpoints = [:]
        generation += 1
    }

    /// Loads under way no longer count (the document closed, or loads again); the states stay.
    mutating func dropLoads() { generation += 1 }

    /// Forgets the sections that are not among `present` (a patch removed them).
    mutating func keep(only present: [(id: String, endpoint: String)]) {
        let ids = Set(present.map(\.id))
        for id in Set(states.keys).union(endpoints.keys) where !ids.contains(id) {
            states[id] = nil
            endpoints[id] = nil
        }
    }

    /// Those of `present` never asked for or given another endpoint since (a patch's).
    func changed(among present: [(id: String, endpoint: String)]) -> [(id: String, endpoint: String)] {
        present.filter { states[$0.id] == nil || endpoints[$0.id] != $0.endpoint }
    }

    /// Whether `present` differs from the sections loaded (a patch brought, removed or moved one).
    func differs(from present: [(id: String, endpoint: String)]) -> Bool {
        present.count != endpoints.count || present.contains { endpoints[$0.id] != $0.endpoint }
    }

    /// Begins loading `sections`: each shows a skeleton, except a loaded one reloaded from the
    /// same endpoint, which stays as it is meanwhile. Returns the generation the loads belong to.
    mutating func begin(_ sections: [(id: String, endpoint: String)], reload: Bool) -> Int {
        for (id, endpoint) in sections {
            let sameEndpoint = endpoints[id] == endpoint
            endpoints[id] = endpoint
            if case .loaded? = states[id], reload, sameEndpoint { continue }
            states[id] = .loading
        }
        return generation
    }

    /// Applies a load's `result` unless the screen loaded again since (`generation`) or the
    /// section was removed or moved to another endpoint meanwhile; returns whether it was
    /// applied. An interrupted load is not a failure where a section never loaded loads again
    /// with the screen (`loadsAgain`); elsewhere it offers its retry as a failure does. A failed
    /// reload keeps what is shown; another failure shows its own error in `strings`, "offline"
    /// when the network was missing or slow.
    @discardableResult
    mutating func finish(
        _ id: String, endpoint: String, generation: Int, result: Result<JSONValue, NetworkError>, reload: Bool,
        strings: DynamicUIStrings, loadsAgain: Bool = true
    ) -> Bool {
        guard generation == self.generation, endpoints[id] == endpoint else { return false }
        switch result {
        case .success(let data):
            states[id] = .loaded(data)
        case .failure(let error) where error.isCancellation && loadsAgain:
            if case .loading? = states[id] { states[id] = nil }
        case .failure(let error):
            if case .loaded? = states[id], reload { return true }
            let offline = error.code == .noConnection || error.code == .timeout
            states[id] = .failed(message: offline ? strings(.offline) : strings(.dataLoadFailed))
        }
        return true
    }

}
