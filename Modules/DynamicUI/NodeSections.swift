import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers

extension NodeScreenModel {
    /// The document's deferred sections: nodes with a `data_endpoint` and an `id`, outside the
    /// root and outside component bodies (as the renderer draws them), with their endpoints.
    var deferredSections: [(id: String, endpoint: String)] {
        guard let document else { return [] }
        var found: [(id: String, endpoint: String)] = []
        var pending = Array(document.children.reversed()) + document.nested.values.sorted { $0.node.id < $1.node.id }
        while let compiled = pending.popLast() {
            if let endpoint = compiled.node.dataEndpoint, let id = compiled.node.nodeId { found.append((id, endpoint)) }
            pending += compiled.children.reversed()
            pending += compiled.nested.values
        }
        return found
    }

    /// Loads the document's deferred sections, each on its own and without holding the document
    /// back: a skeleton until the data arrives, then the node drawn with it as `$.section`, or its
    /// own error with a retry. `only` loads that one (its retry, asking the server even when a
    /// response is cached); `changed` only those new or given another endpoint (a patch).
    func loadSections(only sectionId: String? = nil, changed: Bool = false) async {
        guard let app else { return }
        let all = deferredSections
        sectionBank.keep(only: all)
        let deferred =
            sectionId.map { id in all.filter { $0.id == id } } ?? (changed ? sectionBank.changed(among: all) : all)
        guard !deferred.isEmpty else { return }
        let generation = sectionBank.begin(deferred, reload: false)
        var known: [String: String] = [:]
        for (name, value) in route.params where !value.isNull { known[name] = value.text }
        let parameters = known
        let useCache = sectionId == nil
        let client = app.client
        await withTaskGroup(of: (String, String, Result<JSONValue, NetworkError>).self) { group in
            for (id, endpoint) in deferred {
                group.addTask {
                    let target = Endpoint(endpoint)
                    var path: [String: String] = [:]
                    for name in target.parameterNames { path[name] = parameters[name] ?? "" }
                    do throws(NetworkError) {
                        let response = try await client.send(
                            APIRequest(.get, target, pathParameters: path, useCache: useCache))
                        return (id, endpoint, .success(try response.json()))
                    } catch {
                        return (id, endpoint, .failure(error))
                    }
                }
            }
            // A load begun before the document loaded again, or for an endpoint a patch replaced, is dropped.
            for await (id, endpoint, result) in group {
                // A document does not load its sections again when shown: an interrupted one
                // offers its retry.
                sectionBank.finish(
                    id, endpoint: endpoint, generation: generation, result: result, reload: false, strings: app.strings,
                    loadsAgain: false)
            }
        }
    }

    /// Starts loading the sections of a document just loaded (the document does not wait); loads
    /// of its earlier version stop.
    func startSections() {
        stopSections()
        sectionBank.reset()
        sectionTask = Task { [weak self] in await self?.loadSections() }
    }

    /// Starts loading the sections a patch brought or gave another endpoint.
    func startChangedSections() {
        let previous = sectionTask
        sectionTask = Task { [weak self] in
            await previous?.value
            await self?.loadSections(changed: true)
        }
    }

    /// Stops the section loads under way; their results are not applied.
    func stopSections() {
        sectionBank.dropLoads()
        sectionTask?.cancel()
        sectionTask = nil
    }
}
