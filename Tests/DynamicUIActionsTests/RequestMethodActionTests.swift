import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Logging
import Testing

/// Log lines kept in memory.
final class ActionLogLines: @unchecked Sendable, LogHandler {
    private let lock = NSLock()
    private var stored: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var all: [String] { lock.withLock { stored } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lock.withLock { stored.append("\(event.level) \(event.message)") } }
}

@Suite("API_CALL and SUBMIT_FORM send only GET, POST, PUT, PATCH, DELETE or HEAD")
struct RequestMethodActionTests {
    /// The review's payload, and methods outside the set.
    static let hostile = [
        "DELETE /v1/materials/x HTTP/1.1\r\nHost: internal-admin.example\r\nX-Pad: ", "TRACE", "OPTIONS", "GET\u{0}",
        "POST ", "",
    ]

    func run(_ type: ActionType, method: String) async -> (ActionResult, HandlerHarness, [String]) {
        let harness = HandlerHarness(
            tokens: AuthTokens(accessToken: "ACCESS-SECRET"), allowedHosts: ["edugo.test"], strings: .spanish)
        let lines = ActionLogLines()
        let services = ActionServices(
            api: harness.services.api, tokens: harness.tokens, settings: harness.settings, invalidator: harness.invalidator,
            security: harness.services.security, logger: Logger(label: "test") { _ in lines })
        let config: JSONObject = [
            "method": .string(method), "endpoint": "/v1/anything", "body": ["title": "x"],
        ]
        let result = await ActionRegistry(services: services).execute(
            ActionDefinition(id: "delete-material", trigger: .buttonClick, type: type),
            context: ActionContext(screenKey: "materials-list", actionId: "delete-material", config: config))
        return (result, harness, lines.all)
    }

    @Test(arguments: [ActionType.apiCall, .submitForm], hostile)
    func aMethodOutsideTheSetIsAnErrorThatNamesItsPlaceAndNothingIsSent(type: ActionType, method: String) async throws {
        let (result, harness, log) = await run(type, method: method)
        #expect(result.isError, "\(type) with \(method.debugDescription): \(result)")
        #expect(await harness.transport.requests.isEmpty, "\(type) with \(method.debugDescription) was sent")
        #expect(try harness.queue.count() == 0)
        let line = log.first { $0.contains("config.method") }
        #expect(line?.contains("materials-list") == true, "\(log)")
        #expect(line?.contains("delete-material") == true, "\(log)")
        #expect(line?.contains("\r\n") == false, "the log carries the raw payload: \(log)")
    }

    @Test(arguments: [ActionType.apiCall, .submitForm], ["post", "PUT", "Patch", "DELETE"])
    func theMethodsOfTheSetAreSent(type: ActionType, method: String) async {
        let (result, harness, _) = await run(type, method: method)
        #expect(await harness.transport.requests.map(\.method.rawValue) == [method.uppercased()], "\(result)")
    }
}
