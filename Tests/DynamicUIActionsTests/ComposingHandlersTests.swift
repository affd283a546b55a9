import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// A plugin whose handler wraps `SUBMIT_FORM`: it runs the built-in behaviour (`next`) and
/// turns a 409 into an error on the `url` field, in its own words, keeping everything else.
struct ConflictAsFieldErrorPlugin: ScreenHandlerPlugin {
    let name = "bookmarks"

    struct Handler: ScreenHandler {
        func handle(_ action: ActionDefinition, context: ActionContext, next: ActionNext) async -> ActionResult {
            guard action.type == .submitForm else { return await next(action, context: context) }
            let (result, outcome) = await next.outcome(action, context: context)
            if case .conflict(let current) = outcome {
                let title = current?["title"]?.stringValue ?? "?"
                return .fieldErrors(["url": "Already saved as “\(title)”"], message: nil)
            }
            return result
        }
    }

    func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [("bookmark-create", Handler())]
    }
}

/// A handler that changes the action before the built-in behaviour runs: every bookmark is
/// sent to the user's own collection.
private struct CollectionPlugin: ScreenHandlerPlugin {
    let name = "collections"

    struct Handler: ScreenHandler {
        func handle(_ action: ActionDefinition, context: ActionContext, next: ActionNext) async -> ActionResult {
            var context = context
            context.config["endpoint"] = "mobile:/v1/collections/mine/bookmarks"
            return await next(action, context: context)
        }
    }

    func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        [("bookmark-create", Handler())]
    }
}

@Suite("Screen handlers compose with the built-in behaviour (next) and see typed outcomes")
struct ComposingHandlersTests {
    let submit = ActionDefinition(id: "save", trigger: .buttonClick, type: .submitForm)
    let slots = [Slot(id: "url", controlType: .textInput, field: "url", label: "URL", required: true)]

    func context(config: JSONObject = [:]) -> ActionContext {
        var base: JSONObject = ["endpoint": "mobile:/v1/bookmarks", "method": "POST"]
        for (key, value) in config { base[key] = value }
        return ActionContext(
            screenKey: "bookmark-create", handlerKey: "bookmark-create", actionId: "save", config: base,
            fieldValues: ["url": "https://swift.org"], formSlots: slots)
    }

    @Test func aConflictBecomesTheHandlersOwnResultAndEverythingElseIsTheBuiltInOne() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"))
        await harness.transport.on(
            .post, "/v1/bookmarks", .json(409, ["error": "conflict", "current": ["title": "Swift", "version": 4]]),
            .json(201, ["id": "b1"]))
        #expect(
            try await harness.run(ConflictAsFieldErrorPlugin(), submit, context: context())
                == .fieldErrors(["url": "Already saved as “Swift”"], message: nil))
        // The next save succeeds: the built-in result, the screen's `on_success` included.
        let saved = try await harness.run(
            ConflictAsFieldErrorPlugin(), submit, context: context(config: ["on_success": ["type": "NAVIGATE_BACK"]]))
        guard case .sequence(let steps) = saved, case .success = steps.first else {
            Issue.record("expected success, got \(saved)")
            return
        }
        #expect(steps.last == .navigateBack)
        // The form's own rules still run first, in the built-in behaviour: nothing is sent.
        var empty = context()
        empty.fieldValues = ["url": ""]
        #expect(try await harness.run(ConflictAsFieldErrorPlugin(), submit, context: empty).isError)
        #expect(await harness.transport.requests(to: "/v1/bookmarks").count == 2)
    }

    @Test func aHandlerCanChangeTheActionBeforeTheBuiltInBehaviourRuns() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"))
        await harness.transport.on(.post, "/v1/collections/mine/bookmarks", .json(201, ["id": "b2"]))
        let result = try await harness.run(CollectionPlugin(), submit, context: context())
        #expect(!result.isError, "\(result)")
        let sent = try #require(await harness.transport.requests.first)
        #expect(sent.url.path == "/v1/collections/mine/bookmarks")
        #expect(ScriptedTransport.body(of: sent)?["url"] == "https://swift.org")
    }

    @Test func theOutcomeSaysWhatTheServerAnswered() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"))
        let dispatcher = try harness.dispatcher()
        let next = ActionNext { action, context in await dispatcher.execute(action, context: context) }
        await harness.transport.on(
            .post, "/v1/bookmarks", .json(201, ["id": "b3"]),
            .json(422, ["errors": [["field": "url", "message": "Not a bookmark"]]]), .json(500, ["message": "down"]))
        #expect(await next.outcome(submit, context: context()).outcome == .accepted(["id": "b3"]))
        #expect(
            await next.outcome(submit, context: context()).outcome
                == .invalid(["url": "Not a bookmark"], body: ["errors": [["field": "url", "message": "Not a bookmark"]]]))
        guard case .failed(_, let status, let body) = await next.outcome(submit, context: context()).outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(status == 500 && body?["message"] == "down")
        // Offline: stored for later.
        await harness.transport.on(.post, "/v1/bookmarks", .failure(.noConnection))
        #expect(await next.outcome(submit, context: context()).outcome == .queued)
        // An action that sends nothing has no outcome; one that cannot be sent says so.
        let back = ActionDefinition(id: "back", trigger: .buttonClick, type: .navigateBack)
        #expect(await next.outcome(back, context: context()).outcome == nil)
        let unnamed = context(config: ["endpoint": "mobile:/v1/bookmarks/{id}"])
        #expect(await next.outcome(submit, context: unnamed).outcome == .notSent)
    }

    @Test func onSuccessIsReadableByAHandlerThatSendsTheChangeItself() {
        #expect(context(config: ["on_success": ["type": "NAVIGATE_BACK"]]).onSuccess == .navigateBack)
        #expect(
            context(config: ["on_success": ["type": "NAVIGATE", "config": ["screen_key": "bookmarks"]]]).onSuccess
                == .navigateTo(screenKey: "bookmarks", params: [:], presentation: .push))
        #expect(context().onSuccess == nil)
    }

    @Test func aHandlerThatOnlyImplementsTheOlderMethodStillFallsThrough() async throws {
        struct Passive: ScreenHandler {
            func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
                action.type == .navigateBack ? .success(message: "mine") : nil
            }
        }
        struct Plugin: ScreenHandlerPlugin {
            let name = "passive"
            func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
                [("bookmark-create", Passive())]
            }
        }
        let harness = HandlerHarness()
        let back = ActionDefinition(id: "back", trigger: .buttonClick, type: .navigateBack)
        #expect(try await harness.run(Plugin(), back, context: context()) == .success(message: "mine"))
        let refresh = ActionDefinition(id: "r", trigger: .buttonClick, type: .refresh)
        #expect(try await harness.run(Plugin(), refresh, context: context()) == .refresh)
    }
}
