import DynamicUI
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUITesting
import Foundation
import Testing

/// Node documents' deferred sections: the document shows at once with a skeleton where a node
/// with its own endpoint goes; the node is drawn with its data as `$.section`; a failure is its
/// own error with a retry that loads only it, while the rest of the document works.
@Suite("Node document deferred sections")
@MainActor
struct NodeSectionTests {
    static let document: JSONValue = [
        "type": "screen", "id": "shows",
        "props": [
            "title": "Programas",
            "body": [
                "type": "vstack",
                "children": [
                    ["type": "text", "id": "intro", "props": ["content": "$.title"]],
                    [
                        "type": "vstack", "id": "latest", "data_endpoint": "/v1/shows/{id}/latest",
                        "children": [["type": "text", "props": ["content": "$.section.episode"]]],
                    ],
                ],
            ],
        ],
    ]

    /// A started app whose one document, `app`, is `document`.
    static func app(_ transport: ScriptedTransport, document: JSONValue = document) async throws -> NodeAppRuntime {
        for name in ["theme", "components"] { await transport.on(.get, "/v1/documents/\(name)", .json(404, nil)) }
        await transport.on(.get, "/v1/documents/app", .json(200, document))
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: URL(string: "https://api.example.com")!, documents: .remote("/v1/documents/{name}"),
                retryPolicy: .none),
            transport: transport)
        await app.start()
        return app
    }

    static func text(_ model: NodeScreenModel) -> String {
        TextRenderer().render(model.render(options: RenderOptions()).root)
    }

    @Test func theSectionFillsInAndAFailureRetriesOnlyIt() async throws {
        let transport = ScriptedTransport()
        await transport.on(
            .get, "/v1/shows/7/latest", .failure(.noConnection), .json(200, ["episode": "Episodio 12: relojes"]))
        let app = try await Self.app(transport)
        let route = NodeRoute(document: "app", params: ["id": "7", "title": "Swift Talk"])
        app.push(route)
        let model = app.model(for: try #require(app.current))
        await model.load()
        #expect(model.phase == .ready, "the document does not wait for its section")
        for _ in 0..<200 where model.sections["latest"] == nil || model.sections["latest"] == .loading {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        let failed = Self.text(model)
        if case .failed? = model.sections["latest"] {
        } else {
            Issue.record("the section did not fail: \(String(describing: model.sections["latest"]))")
        }
        #expect(
            failed.contains("empty-state") && failed.contains("→dynamicui.section-retry:latest"),
            "its own error with a retry: \(failed)")
        #expect(failed.contains("Swift Talk"), "the rest of the document works: \(failed)")
        await model.perform(SectionState.retryActionId("latest"))
        for _ in 0..<200 where model.sections["latest"] != .loaded(["episode": "Episodio 12: relojes"]) {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(model.sections["latest"] == .loaded(["episode": "Episodio 12: relojes"]))
        #expect(Self.text(model).contains("Episodio 12: relojes"))
        #expect(await transport.requests(to: "/v1/shows/7/latest").count == 2)
        #expect(await transport.requests(to: "/v1/documents/app").count == 1, "the retry loads only the section")
    }

    @Test func aPatchThatBringsASectionLoadsIt() async throws {
        let transport = ScriptedTransport()
        await transport.on(.get, "/v1/shows/7/latest", .json(200, ["episode": "Uno"]))
        await transport.on(.get, "/v1/shows/7/next", .json(200, ["episode": "Dos"]))
        let app = try await Self.app(transport)
        app.push(NodeRoute(document: "app", params: ["id": "7", "title": "Swift Talk"]))
        let model = app.model(for: try #require(app.current))
        await model.load()
        let next: JSONValue = [
            "type": "vstack", "id": "next", "data_endpoint": "/v1/shows/{id}/next",
            "children": [["type": "text", "props": ["content": "$.section.episode"]]],
        ]
        try model.apply(DocumentPatch(changes: [PatchChange(id: "intro", items: [next])]))
        for _ in 0..<200 where model.sections["next"] != .loaded(["episode": "Dos"]) {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(model.sections["next"] == .loaded(["episode": "Dos"]))
        #expect(Self.text(model).contains("\"Dos\""))
        #expect(await transport.requests(to: "/v1/shows/7/latest").count == 1, "the section it kept does not load again")
    }

    @Test func aLoadingSectionIsASkeleton() throws {
        let compiled = try NodeCompiler().compile(try ViewNode(json: Self.document))
        var renderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])
        let context = DataContext([("title", "Swift Talk")], environment: EvaluationEnvironment(now: Date()))
        let loading = TextRenderer().render(renderer.render(compiled, context: context, name: "doc").root)
        #expect(loading.contains("skeleton"), "\(loading)")
        renderer.sections = ["latest": .loaded(["episode": "Uno"])]
        #expect(TextRenderer().render(renderer.render(compiled, context: context, name: "doc").root).contains("\"Uno\""))
    }
}
