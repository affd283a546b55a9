import DynamicUI
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

let catalog = try! EduGoCatalog()

/// A transport whose answers wait until the gate opens, to hold requests in flight.
actor GatedTransport: HTTPTransport {
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var requests: [TransportRequest] = []
    let body: Data

    init(body: Data) { self.body = body }

    func openGate() {
        open = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        requests.append(request)
        if !open { await withCheckedContinuation { waiters.append($0) } }
        return TransportResponse(status: 200, headers: ["ETag": "\"v1\""], body: body)
    }
}

func client(_ transport: any HTTPTransport, clock: ManualClock = ManualClock()) -> APIClient {
    APIClient(
        configuration: APIConfiguration(
            adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL, retryPolicy: .none),
        transport: transport, clock: clock)
}

func screenBody(_ key: String) throws -> JSONValue { try catalog.screenJSON(key) }

@Suite("Screen loader")
struct ScreenLoaderTests {
    @Test func networkThenCacheThenRevalidateThenStale() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        await transport.on(
            .get, "/v1/screens/materials-list", .json(200, try screenBody("materials-list"), headers: ["ETag": "\"v4\""]),
            .json(304, nil), .failure(.noConnection))
        let loader = ScreenLoader(client: client(transport, clock: clock), cache: ScreenCache(clock: clock), platform: "ipad")
        let first = try await loader.load("materials-list")
        #expect(first.source == .network)
        #expect(first.screen.definition.screenKey == "materials-list")
        let sent = try #require(await transport.requests.first)
        #expect(sent.url.query == "platform=ipad&capabilities=\(ClientCapabilities.sdk().hash)")
        #expect(sent.headers["If-None-Match"] == nil)

        #expect(try await loader.load("materials-list").source == .cache)
        #expect(await transport.requests.count == 1)

        clock.advance(by: 3601)
        let revalidated = try await loader.load("materials-list")
        #expect(revalidated.source == .revalidated)
        #expect(await transport.requests.last?.headers["If-None-Match"] == "\"v4\"")
        #expect(try await loader.load("materials-list").source == .cache)

        clock.advance(by: 3601)
        let stale = try await loader.load("materials-list")
        #expect(stale.source == .stale && stale.isStale)
        #expect(await loader.requestCount == 3)
        // Compiled once for the version: revalidation and stale copies reuse the program.
        #expect(await loader.programs.compilations == 1)
    }

    @Test func expiringKeepsTheCopyForOfflineAndRevalidatesOnline() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        await transport.on(
            .get, "/v1/screens/materials-list", .json(200, try screenBody("materials-list"), headers: ["ETag": "\"v4\""]),
            .failure(.noConnection), .json(304, nil))
        let loader = ScreenLoader(client: client(transport, clock: clock), cache: ScreenCache(clock: clock))
        #expect(try await loader.load("materials-list").source == .network)
        await loader.expire("materials-list")
        #expect(try await loader.load("materials-list").source == .stale)
        await loader.expire("materials-list")
        #expect(try await loader.load("materials-list").source == .revalidated)
        #expect(try await loader.load("materials-list").source == .cache)
        #expect(await loader.requestCount == 3)
    }

    @Test func concurrentLoadsShareOneRequest() async throws {
        let body = JSONWriter().data(from: try screenBody("app-login"))
        let transport = GatedTransport(body: body)
        let loader = ScreenLoader(client: client(transport), cache: ScreenCache(clock: ManualClock()))
        let tasks = (0..<5).map { _ in Task { try await loader.load("app-login") } }
        while await transport.requests.isEmpty { await Task.yield() }
        await transport.openGate()
        for task in tasks { #expect(try await task.value.screen.definition.screenKey == "app-login") }
        #expect(await transport.requests.count == 1)
        #expect(await loader.requestCount == 1)
    }

    @Test func errorsWithoutACacheAndInvalidation() async throws {
        let transport = ScriptedTransport()
        await transport.on(.get, "/v1/screens/missing", .json(404, ["error": "not found"]))
        await transport.on(.get, "/v1/screens/broken", .json(200, ["screen_key": "broken"]))
        let loader = ScreenLoader(client: client(transport), cache: ScreenCache(clock: ManualClock()))
        do {
            _ = try await loader.load("missing")
            Issue.record("loaded a missing screen")
        } catch let error as ScreenLoadError {
            #expect(error.network?.code == .notFound)
        }
        do {
            _ = try await loader.load("broken")
            Issue.record("loaded an invalid screen")
        } catch let error as ScreenLoadError {
            #expect(error.message.contains("screen_id"))
        }
        await transport.on(.get, "/v1/screens/app-settings", .json(200, try screenBody("app-settings")))
        _ = try await loader.load("app-settings")
        await loader.invalidate("app-settings")
        #expect(try await loader.load("app-settings").source == .network)
        #expect(await transport.requests(to: "/v1/screens/app-settings").count == 2)
    }

    @Test func diskTierServesAfterRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dynamicui-screens-\(UUID().uuidString)")
        let clock = ManualClock()
        let transport = ScriptedTransport()
        await transport.on(.get, "/v1/screens/app-login", .json(200, try screenBody("app-login"), headers: ["ETag": "\"a\""]))
        _ = try await ScreenLoader(
            client: client(transport, clock: clock), cache: ScreenCache(directory: directory, clock: clock)
        ).load("app-login")
        let restarted = ScreenLoader(
            client: client(transport, clock: clock), cache: ScreenCache(directory: directory, clock: clock))
        #expect(try await restarted.load("app-login").source == .cache)
        #expect(await transport.requests.count == 1)
    }
}

@Suite("Data loader")
struct DataLoaderTests {
    @Test func routingDefaultParamsAndPaging() async throws {
        let transport = ScriptedTransport()
        let page: [JSONValue] = (0..<20).map { ["id": .string("mat-\($0)")] }
        await transport.on(.get, "/v1/materials", .json(200, ["items": .array(page), "total": 45]))
        await transport.on(.get, "/v1/schools/sch-1/units", .json(200, .array([["id": "u1"]])))
        await transport.on(.get, "/v1/materials/mat-1", .json(200, ["id": "mat-1", "title": "Álgebra"]))
        let loader = DataLoader(client: client(transport))
        let config = DataConfig(
            defaultParams: ["sort": "title"],
            pagination: PaginationConfig(pageSize: 20, limitParam: "per_page", offsetParam: "skip"))
        let first = try await loader.load(endpoint: "mobile:/v1/materials", config: config, query: [("q", "álg")])
        #expect(first.items.count == 20 && first.hasMore && first.offset == 0)
        let url = try #require(await transport.requests.last?.url.absoluteString)
        #expect(url == "https://mobile.api.test/v1/materials?sort=title&per_page=20&skip=0&q=%C3%A1lg")
        let second = try await loader.loadNextPage(endpoint: "mobile:/v1/materials", config: config, loaded: 40)
        #expect(await transport.requests.last?.url.query?.contains("skip=40") == true)
        #expect(!second.hasMore)

        let units = try await loader.load(endpoint: "admin:/v1/schools/{id}/units", config: nil, params: ["id": "sch-1"])
        #expect(units.items == [["id": "u1"]] && !units.hasMore)
        #expect(await transport.requests.last?.url.host == "admin.api.test")
        let detail = try await loader.load(endpoint: "/v1/materials/{id}", config: nil, params: ["id": "mat-1"])
        #expect(detail.items == [["id": "mat-1", "title": "Álgebra"]])
        await #expect(throws: NetworkError.self) { try await loader.load(endpoint: "/v1/materials/{id}", config: nil) }
    }

    /// A page is read as a document: its items, `isList`, `hasMore` and `json` are what the
    /// tree's rules (`items(in:)`) give, and a list's items are built only when read.
    @Test func pagesReadAsDocumentsFollowTheTreesRules() async throws {
        let shapes: [JSONValue] = [
            [1, 2], [], ["data": [1]], ["results": [["id": 1]], "resultCount": 1], ["id": "x"], nil, 5, "text", true,
            ["items": "not a list", "data": [["id": "d"]]], ["items": [], "total": 0], ["items": nil, "results": [3]],
            ["items": [["id": "a"]], "total": "many", "meta": ["total": 9]], ["meta": ["total": 2], "items": [["id": "a"]]],
            ["data": ["id": "not a list"]], ["items": [["id": "a"], ["id": "b"]], "total": 1e300],
        ]
        let config = DataConfig(pagination: PaginationConfig(pageSize: 2, limitParam: "limit", offsetParam: "offset"))
        for shape in shapes {
            let transport = ScriptedTransport()
            await transport.on(.get, "/v1/things", .json(200, shape))
            let page = try await DataLoader(client: client(transport)).load(endpoint: "/v1/things", config: config)
            let expected = DataLoader.items(in: shape)
            #expect(page.items.values == expected, "\(shape)")
            #expect(page.json == shape, "\(shape)")
            let isList: Bool
            switch shape {
            case .array: isList = true
            case .object: isList = expected != [shape]
            default: isList = false
            }
            #expect(page.isList == isList, "\(shape)")
            let total = shape["total"]?.intValue ?? shape["meta"]?["total"]?.intValue
            #expect(page.hasMore == (total.map { expected.count < $0 } ?? (expected.count >= 2)), "\(shape)")
            if isList { #expect(page.items.unbuiltCount == page.items.count, "\(shape)") }
        }
        // A body that is not JSON is a decoding error naming where it stopped, as before.
        let transport = ScriptedTransport()
        await transport.on(.get, "/v1/things", .raw(200, Data(#"{"items": [1, 2"#.utf8)))
        await #expect {
            try await DataLoader(client: client(transport)).load(endpoint: "/v1/things", config: nil)
        } throws: { error in
            let error = try #require(error as? NetworkError)
            return error.code == .decoding && error.message.contains("is not JSON") && error.message.contains("(byte 15)")
        }
        // An empty body is no items.
        let empty = ScriptedTransport()
        await empty.on(.get, "/v1/things", .raw(200, Data()))
        let none = try await DataLoader(client: client(empty)).load(endpoint: "/v1/things", config: nil)
        #expect(none.items.isEmpty && none.json == .null && !none.isList)
    }

    @Test func itemShapes() {
        #expect(DataLoader.items(in: [1, 2]) == [1, 2])
        #expect(DataLoader.items(in: ["data": [1]]) == [1])
        #expect(DataLoader.items(in: ["results": [1], "resultCount": 1]) == [1])
        #expect(DataLoader.items(in: ["id": "x"]) == [["id": "x"]])
        #expect(DataLoader.items(in: nil) == [])
    }
}
