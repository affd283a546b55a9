import DynamicUIActions
import DynamicUIModels
import DynamicUITesting
import Testing

/// A handler that answers with a fixed message, or falls through.
struct Tagged: ScreenHandler {
    let tag: String
    var fallsThrough = false
    func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        fallsThrough ? nil : .success(message: tag)
    }
}

struct TestPlugin: ScreenHandlerPlugin {
    let name: String
    let entries: [(HandlerKeyPattern, any ScreenHandler)]
    func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] { entries }
}

let anyAction = ActionDefinition(id: "a", trigger: .buttonClick, type: .refresh)

@Suite("Screen handler registry")
struct RegistryTests {
    @Test func exactBeatsPatternAndLongerPatternBeatsShorter() async throws {
        let harness = HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish)
        let registry = try harness.registry([
            TestPlugin(name: "one", entries: [("dashboard-*", Tagged(tag: "dashboard-*")), ("dash*", Tagged(tag: "dash*"))]),
            TestPlugin(name: "two", entries: [("dashboard-teacher", Tagged(tag: "exact"))]),
        ])
        func tag(_ key: String) async -> String? {
            guard let handler = registry.handler(for: key) else { return nil }
            if case .success(let message)? = await handler.handle(
                anyAction, context: ActionContext(screenKey: key, actionId: "a"))
            {
                return message
            }
            return nil
        }
        #expect(await tag("dashboard-teacher") == "exact")
        #expect(await tag("dashboard-student") == "dashboard-*")
        #expect(await tag("dashx") == "dash*")
        #expect(await tag("materials-list") == nil)
        #expect(registry.keys == ["dashboard-teacher", "dashboard-*", "dash*"])
    }

    @Test func duplicatesAreAnErrorAtStart() throws {
        let harness = HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish)
        #expect(throws: PluginRegistrationError.self) {
            try harness.registry([
                TestPlugin(name: "one", entries: [("login", Tagged(tag: "1"))]),
                TestPlugin(name: "two", entries: [("login", Tagged(tag: "2"))]),
            ])
        }
        do {
            _ = try harness.registry([
                TestPlugin(name: "one", entries: [("progress-*", Tagged(tag: "1"))]),
                TestPlugin(name: "two", entries: [("progress-*", Tagged(tag: "2"))]),
            ])
            Issue.record("duplicate pattern accepted")
        } catch let error as PluginRegistrationError {
            #expect(error.description == "handler key 'progress-*' registered by both one and two")
        }
    }

    @Test func screenHandlerFirstThenGeneric() async throws {
        let harness = HandlerHarness(allowedHosts: ["edugo.test"], strings: .spanish)
        let dispatcher = try harness.dispatcher([
            TestPlugin(
                name: "p", entries: [("handled", Tagged(tag: "screen")), ("passes", Tagged(tag: "x", fallsThrough: true))])
        ])
        #expect(
            await dispatcher.execute(anyAction, context: ActionContext(screenKey: "s", handlerKey: "handled", actionId: "a"))
                == .success(message: "screen"))
        #expect(
            await dispatcher.execute(anyAction, context: ActionContext(screenKey: "s", handlerKey: "passes", actionId: "a"))
                == .refresh)
        #expect(await dispatcher.execute(anyAction, context: ActionContext(screenKey: "s", actionId: "a")) == .refresh)
        let unknown = ActionDefinition(id: "t", trigger: .buttonClick, type: .unknown("TELEPORT"))
        #expect(await dispatcher.execute(unknown, context: ActionContext(screenKey: "s", actionId: "t")).isError)
    }
}
