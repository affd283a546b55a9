import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

@Suite("Hostile values through the runtime: sleeps, polling and configured limits")
struct RuntimeHostileValueTests {
    @Test(arguments: [2e10, 1e300, Double.infinity, 18_446_744_073.709_553])
    func hugeSleepsWaitUntilCancelled(seconds: Double) async {
        let sleeper = Task { try await SystemClock().sleep(seconds: seconds) }
        try? await Task.sleep(nanoseconds: 20_000_000)
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test(arguments: [-1e300, -Double.infinity, Double.nan, -0.0, 0])
    func emptySleepsReturnAtOnce(seconds: Double) async throws {
        let started = Date()
        try await SystemClock().sleep(seconds: seconds)
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @MainActor
    @Test func pollingAnAbsurdRefreshIntervalWaitsInsteadOfTrapping() async throws {
        let harness = HandlerHarness(tokens: AuthTokens(accessToken: "tok"), allowedHosts: ["edugo.test"], strings: .spanish)
        var screen = try #require(try catalog.screenJSON("dashboard-student").objectValue)
        var config = try #require(screen["data_config"]?.objectValue)
        config["refresh_interval"] = 20_000_000_000
        screen["data_config"] = .object(config)
        await harness.transport.on(.get, "/v1/screens/dashboard-student", .json(200, .object(screen)))
        let api = try #require(harness.services.api)
        let model = DynamicScreenViewModel(
            route: Route(screenKey: "dashboard-student"),
            services: ScreenServices(
                screens: ScreenLoader(client: api, cache: ScreenCache()), data: DataLoader(client: api),
                dispatcher: try harness.dispatcher(), navigation: NavigationModel(role: "student"), environment: evaluation),
            hooks: ScreenModelHooks(session: { teacherSession }))
        await model.load()
        #expect(model.compiled?.definition.dataConfig?.refreshInterval == 20_000_000_000)
        model.startPolling()
        #expect(model.isPolling)
        try await Task.sleep(nanoseconds: 50_000_000)  // the polling task is now asleep (for a century)
        model.stopPolling()
        #expect(!model.isPolling)
    }

    @Test func configuredLimitsReachTheReaderTheDecoderAndTheCompiler() async throws {
        let transport = ScriptedTransport()
        await transport.on(.get, "/v1/screens/materials-list", .json(200, try catalog.screenJSON("materials-list")))
        let cases: [(DynamicUILimits, String)] = [
            (DynamicUILimits(reader: JSONReader.Limits(maxDepth: 3)), "nesting depth limit exceeded"),
            (DynamicUILimits(reader: JSONReader.Limits(maxValues: 50)), "value count limit exceeded"),
            (DynamicUILimits(model: ModelLimits(maxNodeCount: 3)), "template.zones"),
            (DynamicUILimits(expressions: ExpressionLimits(maxLength: 8)), "does not compile"),
        ]
        for (limits, expected) in cases {
            let loader = ScreenLoader(client: client(transport), cache: ScreenCache(), limits: limits)
            do {
                _ = try await loader.load("materials-list")
                Issue.record("loaded under \(limits)")
            } catch let error as ScreenLoadError {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
        let defaults = ScreenLoader(client: client(transport), cache: ScreenCache())
        #expect(try await defaults.load("materials-list").screen.definition.screenKey == "materials-list")
    }

    @Test func dataResponsesHaveAnItemLimit() async throws {
        let transport = ScriptedTransport()
        let items = JSONValue.array((0..<11).map { ["id": .string("m\($0)")] })
        await transport.on(.get, "/v1/materials", .json(200, ["items": items]))
        let loader = DataLoader(client: client(transport), maxItems: 10)
        do throws(NetworkError) {
            _ = try await loader.load(endpoint: "/v1/materials", config: nil)
            Issue.record("eleven items passed a limit of ten")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.message.contains("11 items"))
        }
        #expect(
            try await DataLoader(client: client(transport), maxItems: 11).load(endpoint: "/v1/materials", config: nil).items.count
                == 11)
    }

    @MainActor
    @Test func theRuntimeHandsItsLimitsToEveryStage() async throws {
        let limits = DynamicUILimits(
            reader: JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 40), model: ModelLimits(maxNodeCount: 500),
            expressions: ExpressionLimits(maxLength: 512), maxDataItems: 250)
        let runtime = try DynamicUIRuntime(
            configuration: DynamicUIConfiguration(
                adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL, limits: limits),
            plugins: [], tokens: InMemoryTokenStore(), settings: InMemorySettingsStore(), transport: ScriptedTransport())
        #expect(await runtime.client.configuration.readerLimits == limits.reader)
        #expect(runtime.screens.limits == limits)
        #expect(runtime.data.maxItems == 250)
    }
}
