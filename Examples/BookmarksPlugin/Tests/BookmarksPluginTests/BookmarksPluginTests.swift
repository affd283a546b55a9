import BookmarksPlugin
import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// The handler over a scripted server, as the app runs it: the SDK's SUBMIT_FORM inside.
@Suite("Bookmarks: the handler wraps the SDK's form submission")
struct BookmarksPluginTests {
    let submit = ActionDefinition(id: "submit", trigger: .buttonClick, type: .submitForm)
    let slots = [
        Slot(id: "url", controlType: .textInput, field: "url", label: "Link", required: true),
        Slot(id: "title", controlType: .textInput, field: "title", label: "Title", required: true),
    ]

    func context(url: String, title: String = "Swift") -> ActionContext {
        ActionContext(
            screenKey: "bookmark-create", handlerKey: "bookmark-create", actionId: "submit",
            config: ["endpoint": "mobile:/v1/bookmarks", "method": "POST", "on_success": ["type": "NAVIGATE_BACK"]],
            fieldValues: ["url": url, "title": title], formSlots: slots)
    }

    @Test func aSavedBookmarkGoesBackAsTheScreenSays() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
        await harness.transport.on(.post, "/v1/bookmarks", .json(201, ["id": "b1"]))
        let result = try await harness.run(BookmarksPlugin(), submit, context: context(url: "https://swift.org"))
        guard case .sequence(let steps) = result, case .success = steps.first else {
            Issue.record("expected a success, got \(result)")
            return
        }
        #expect(steps.last == .navigateBack)
        let sent = try #require(await harness.transport.requests.first)
        #expect(ScriptedTransport.body(of: sent) == ["url": "https://swift.org", "title": "Swift"])
    }

    @Test(arguments: ["javascript:alert(1)", "swift.org", "ftp://swift.org/a", "mailto:a@swift.org"])
    func aLinkThatIsNotHTTPIsRefusedBeforeAnythingIsSent(url: String) async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
        let result = try await harness.run(BookmarksPlugin(), submit, context: context(url: url))
        #expect(result == .fieldErrors(["url": "Enter a link that starts with https://"], message: nil))
        #expect(await harness.transport.requests.isEmpty)
    }

    @Test func theSchemeIsReadWhateverItsCase() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
        await harness.transport.on(.post, "/v1/bookmarks", .json(201, ["id": "b2"]))
        let result = try await harness.run(BookmarksPlugin(), submit, context: context(url: "HTTPS://Swift.org"))
        #expect(!result.isError, "\(result)")
        #expect(await harness.transport.requests.count == 1)
    }

    @Test func theSDKsOwnRulesStillRun() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"), strings: .english)
        let result = try await harness.run(BookmarksPlugin(), submit, context: context(url: "https://swift.org", title: ""))
        guard case .fieldErrors(let errors, _) = result else {
            Issue.record("expected field errors, got \(result)")
            return
        }
        #expect(errors.keys.sorted() == ["title"])
        #expect(await harness.transport.requests.isEmpty)
    }

    @Test func aLinkSavedAlreadyIsAnErrorOnTheLinkNamingTheSavedBookmark() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
        await harness.transport.on(
            .post, "/v1/bookmarks", .json(409, ["error": "conflict", "current": ["title": "The Swift site", "version": 2]]))
        let result = try await harness.run(BookmarksPlugin(), submit, context: context(url: "https://swift.org"))
        #expect(result == .fieldErrors(["url": "You saved this link already, as “The Swift site”"], message: nil))
    }

    @Test func offlineTheBookmarkWaitsInTheQueueAndTheScreenStillGoesBack() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "token"))
        await harness.transport.setFallback(.failure(.noConnection))
        let result = try await harness.run(BookmarksPlugin(), submit, context: context(url: "https://swift.org"))
        guard case .sequence(let steps) = result, case .pendingOffline = steps.first else {
            Issue.record("expected a pending change, got \(result)")
            return
        }
        #expect(steps.last == .navigateBack)
        #expect(try harness.queue.all().first?.url.hasSuffix("/v1/bookmarks") == true)
    }

    @Test func theRatedEventIsTheHandlersAndOtherActionsAreTheSDKs() async throws {
        let harness = HandlerHarness()
        let rated = ActionDefinition(id: "rated", trigger: .buttonClick, type: .custom)
        let ratedContext = ActionContext(
            screenKey: "bookmark-create", handlerKey: "bookmark-create", actionId: "rated", config: ["event": "rated"])
        #expect(try await harness.run(BookmarksPlugin(), rated, context: ratedContext) == .success(message: nil))
        let back = ActionDefinition(id: "back", trigger: .buttonClick, type: .navigateBack)
        #expect(try await harness.run(BookmarksPlugin(), back, context: ratedContext) == .navigateBack)
    }
}
