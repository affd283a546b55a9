import DynamicUICatalog
import DynamicUIModels
import Testing

@testable import DynamicUIResolvers

@Suite("Catalogs compile with zero errors and zero warnings")
struct CatalogCompilationTests {
    static let edugo = try! EduGoCatalog()
    static let podcasts = PodcastsCatalog()

    @Test(arguments: edugo.screenKeys)
    func edugoScreen(key: String) throws {
        let screen = try Self.edugo.screen(key)
        do {
            let compiled = try ScreenCompiler().compile(screen)
            #expect(compiled.warnings.isEmpty, "\(key): \(compiled.warnings)")
            #expect(compiled.zones.count == screen.template.zones.count)
            #expect(compiled.actions.count == screen.actions.count)
        } catch {
            Issue.record("\(key):\n\(error)")
        }
    }

    @Test(arguments: PodcastsCatalog.documentNames)
    func podcastDocument(name: String) throws {
        let node = try Self.podcasts.document(name)
        do {
            let compiled = try NodeCompiler().compile(node)
            #expect(!compiled.allNodes.isEmpty)
        } catch {
            Issue.record("\(name):\n\(error)")
        }
    }

    @Test func podcastComponents() throws {
        let compiled = try NodeCompiler().compile(try Self.podcasts.components())
        #expect(compiled["podcast_card"] != nil)
    }

    @Test func materialsListEvaluatesAgainstDemoData() throws {
        let compiled = try ScreenCompiler().compile(try Self.edugo.screen("materials-list"))
        let materials = try Self.edugo.data("materials")
        let context = try compiled.context(user: ana, userContext: anaContext, data: materials, environment: environment())
        let items = try #require(compiled.zones.first { $0.zone.id == "items" })
        #expect(try items.condition?.isTrue(in: context) == true)
        let empty = try #require(compiled.zones.first { $0.zone.id == "empty_state" })
        #expect(try empty.condition?.isTrue(in: context) == false)
        let first = try #require(materials[0])
        let row = context.item(first, index: 0)
        let subtitle = try #require(items.itemSlots?.first { $0.slot.id == "item_subtitle" })
        let expected = "\(first["subject"]!.text) · \(first["grade_label"]!.text)"
        #expect(try subtitle.value.resolve(in: row) == .string(expected))
        let title = try #require(items.itemSlots?.first { $0.slot.id == "item_title" })
        #expect(try title.value.resolve(in: row) == first["title"])
        let open = try #require(compiled.actions["open-item"]?.config)
        #expect(try open.evaluate(in: row)["params"]?["id"] == first["id"])
        let emptyTitle = try #require(empty.slots.first { $0.slot.id == "empty_title" })
        #expect(try emptyTitle.value.resolve(in: context) == "Aún no hay materiales")
    }

    @Test func dashboardGreetingUsesUserAndDate() throws {
        let compiled = try ScreenCompiler().compile(try Self.edugo.screen("dashboard-teacher"))
        let context = try compiled.context(
            user: ana, userContext: anaContext, data: try Self.edugo.data("stats_global"), environment: environment())
        var texts: [String] = []
        func collect(_ zones: [CompiledZone]) throws {
            for zone in zones {
                for slot in zone.slots {
                    if let value = try slot.value.resolve(in: context) { texts.append(value.text) }
                }
                try collect(zone.zones)
            }
        }
        try collect(compiled.zones)
        #expect(texts.contains { $0.contains("Ana") }, "\(texts)")
        #expect(texts.contains { $0.contains("15 de marzo de 2026") }, "\(texts)")
        #expect(!texts.contains { $0.contains("{") }, "\(texts)")
    }

    @Test func screenCompilerCollectsEveryErrorWithItsPath() throws {
        let screen = ScreenDefinition(
            screenId: "s", screenKey: "broken", screenName: "Roto", pattern: .list, version: 1,
            template: ScreenTemplate(zones: [
                Zone(id: "a", type: .container, condition: "data.isEmpty &&"),
                Zone(
                    id: "b", type: .container,
                    slots: [
                        Slot(id: "ok", controlType: .label, label: "{user.firstName}"),
                        Slot(id: "bad", controlType: .label, bind: "api:x", field: "a..b", label: "Hola {user.nickname}"),
                    ]),
            ]),
            slotData: ["title": "{unclosed"],
            actions: [
                ActionDefinition(
                    id: "go", trigger: .itemClick, type: .navigate,
                    config: ["screen_key": "x-{id}", "endpoint": "/v1/x/{id}", "params": ["id": "{item.id | nope}"]])
            ],
            updatedAt: "2026-01-01T00:00:00Z")
        do {
            _ = try ScreenCompiler().compile(screen)
            Issue.record("compiled a broken screen")
        } catch {
            let errors = error.diagnostics.filter { $0.severity == .error }.map(\.location.description)
            #expect(
                errors == [
                    "template.zones[0].condition", "template.zones[1].slots[1].field", "slot_data.title",
                    "actions[0].config.params.id",
                ], "\(error)")
            let warnings = error.diagnostics.filter { $0.severity == .warning }.map(\.location.description)
            #expect(warnings == ["template.zones[1].slots[1].label"])
        }
    }

    @Test func nodeCompilerCollectsEveryErrorWithItsPath() throws {
        let json = try read(
            """
            {"type": "screen", "props": {"title": "$.a |", "onLoad": {"actionType": "sequence", "actions": [
              {"actionType": "api", "endpoint": "/search", "params": {"term": "$.env.q | bogus"}}]}},
             "children": [{"type": "text", "condition": "$.x ==", "props": {"content": "$.ok"}},
                          {"type": "search_bar", "props": {"binding": "$.env.q == 1"}}]}
            """)
        let node = try ViewNode(json: json)
        do {
            _ = try NodeCompiler().compile(node)
            Issue.record("compiled a broken document")
        } catch {
            #expect(
                error.diagnostics.map(\.location.description) == [
                    "props.title", "props.onLoad.actions[0].params.term", "children[0].condition", "children[1].props.binding",
                ], "\(error)")
        }
    }
}

@Suite("Program cache")
struct ProgramCacheTests {
    @Test func compilesOncePerKeyAndVersion() async throws {
        let cache = ProgramCache()
        let catalog = try EduGoCatalog()
        var screen = try catalog.screen("materials-list")
        let first = try await cache.screen(screen)
        let second = try await cache.screen(screen)
        #expect(first == second)
        #expect(await cache.compilations == 1)
        _ = try await cache.screen(screen, version: "etag-2")
        #expect(await cache.compilations == 2)
        screen.version += 1
        _ = try await cache.screen(screen)
        #expect(await cache.compilations == 3)
        await cache.invalidate(key: "materials-list")
        _ = try await cache.screen(screen)
        #expect(await cache.compilations == 4)
        let node = try PodcastsCatalog().document("browse")
        _ = try await cache.node(node, name: "browse", version: "1")
        _ = try await cache.node(node, name: "browse", version: "1")
        #expect(await cache.compilations == 5)
    }
}
