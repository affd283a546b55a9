import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers

extension NodeScreenModel {
    /// Loads the document's deferred sections (nodes with a `data_endpoint` and an `id`), each
    /// on its own and without holding the document back: a skeleton until the data arrives,
    /// then the node drawn with it as `$.section`, or its own error with a retry. `only` loads
    /// that one (its retry, asking the server even when a response is cached).
    func loadSections(only sectionId: String? = nil) async {
        guard let app, let document else { return }
        let generation = sectionGeneration
        let deferred = document.allNodes.compactMap { compiled -> (id: String, endpoint: String)? in
            guard let endpoint = compiled.node.dataEndpoint, let id = compiled.node.nodeId else { return nil }
            return sectionId == nil || id == sectionId ? (id, endpoint) : nil
        }
        guard !deferred.isEmpty else { return }
        for (id, _) in deferred where sections[id] == nil || sectionId != nil { sections[id] = .loading }
        var known: [String: String] = [:]
        for (name, value) in route.params where !value.isNull { known[name] = value.text }
        let parameters = known
        let useCache = sectionId == nil
        let client = app.client
        let strings = app.strings
        await withTaskGroup(of: (String, SectionState).self) { group in
            for (id, endpoint) in deferred {
                group.addTask {
                    let target = Endpoint(endpoint)
                    var path: [String: String] = [:]
                    for name in target.parameterNames { path[name] = parameters[name] ?? "" }
                    do throws(NetworkError) {
                        let response = try await client.send(
                            APIRequest(.get, target, pathParameters: path, useCache: useCache))
                        return (id, .loaded(try response.json()))
                    } catch {
                        let offline = error.code == .noConnection || error.code == .timeout
                        return (id, .failed(message: offline ? strings(.offline) : strings(.dataLoadFailed)))
                    }
                }
            }
            for await (id, state) in group where sectionGeneration == generation { sections[id] = state }
        }
    }

    /// Starts loading the sections of a document just loaded (the document does not wait).
    func startSections() {
        sectionGeneration += 1
        sections = [:]
        Task { [weak self] in await self?.loadSections() }
    }
}
