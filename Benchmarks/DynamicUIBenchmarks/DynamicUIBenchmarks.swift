import Benchmark
import DynamicUI
import DynamicUIBenchInputs
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIStorage
import DynamicUIWeb
import Foundation
import Mustache

/// Allocation counts are the CI-checked metric (deterministic); wall clock and throughput are
/// reported for people. `DYNAMICUI_BENCH_SHORT=1` runs a few iterations of allocations only.
let short = ProcessInfo.processInfo.environment["DYNAMICUI_BENCH_SHORT"] != nil

/// Benchmark names use `:` and `-` only: the threshold files are named after them, and the
/// benchmark tool reads those names back without the sanitising it applies when writing.
let benchmarks: @Sendable () -> Void = {
    // CI compares p90 against the recorded p90: 2% more allocations is a regression.
    let allocationThreshold = BenchmarkThresholds(relative: [.p90: 2.0])
    // The evaluation benchmarks run 1,000 evaluations per iteration and some allocate nothing
    // (a relative change from 0 is undefined): half an allocation per evaluation fails too.
    let scaledAllocationThreshold = BenchmarkThresholds(relative: [.p90: 2.0], absolute: [.p90: 500])
    Benchmark.defaultConfiguration = .init(
        metrics: short ? [.mallocCountTotal] : [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: short ? 1 : 5,
        maxDuration: short ? .milliseconds(300) : .seconds(3),
        maxIterations: short ? 10 : 100_000,
        thresholds: [.mallocCountTotal: allocationThreshold])

    // MARK: JSON reader vs Foundation on the same bytes

    for (input, bytes) in BenchInputs.readerInputs {
        let name = input.replacingOccurrences(of: " ", with: "-")
        let data = Data(bytes)
        Benchmark("JSON-read:DynamicUI:\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JSONReader().read(bytes)) }
        }
        Benchmark("JSON-document:DynamicUI:\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JSONReader().document(bytes)) }
        }
        Benchmark("JSON-read:JSONDecoder→JSONValue:\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JSONDecoder().decode(JSONValue.self, from: data)) }
        }
        Benchmark("JSON-read:JSONSerialization:\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JSONSerialization.jsonObject(with: data)) }
        }
    }

    // MARK: Screen bytes → ScreenDefinition

    let materials = JSONWriter().bytes(from: try! BenchInputs.edugo.screenJSON("materials-list"))
    for (name, bytes) in [
        ("materials-list", materials), ("screen-20KB", BenchInputs.screen20k), ("screen-100KB", BenchInputs.screen100k),
        ("localized-screen-46KB", BenchInputs.localizedScreen),
    ] {
        let data = Data(bytes)
        Benchmark("Screen-decode:DynamicUI:\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try DocumentDecoder().decode(ScreenDefinition.self, from: bytes)) }
        }
        Benchmark("Screen-decode:JSONDecoder:\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JSONDecoder().decode(ScreenDefinition.self, from: data)) }
        }
    }

    // MARK: Compilation

    Benchmark("Compile:EduGo-catalog-(38-screens)") { benchmark in
        for _ in benchmark.scaledIterations {
            for screen in BenchInputs.edugoScreens { blackHole(try ScreenCompiler().compile(screen)) }
        }
    }

    // MARK: Evaluation vs peers

    let evaluation = Benchmark.Configuration(
        metrics: Benchmark.defaultConfiguration.metrics, timeUnits: .nanoseconds,
        warmupIterations: Benchmark.defaultConfiguration.warmupIterations, scalingFactor: .kilo,
        maxDuration: Benchmark.defaultConfiguration.maxDuration, maxIterations: Benchmark.defaultConfiguration.maxIterations,
        thresholds: [.mallocCountTotal: scaledAllocationThreshold])
    let template = try! TextTemplate.compile(BenchInputs.threePlaceholderText)
    let context = BenchInputs.rowContext
    Benchmark("Evaluate:3-placeholders:DynamicUI", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try template.render(in: context)) }
    }
    let mustache = try! MustacheTemplate(string: BenchInputs.threePlaceholderMustache)
    let mustacheContext = BenchInputs.mustacheContext()
    Benchmark("Evaluate:3-placeholders:swift-mustache", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(mustache.render(mustacheContext)) }
    }
    Benchmark("Evaluate:3-placeholders:replacingOccurrences", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                BenchInputs.threePlaceholderText
                    .replacingOccurrences(of: "{user.firstName}", with: "Ana")
                    .replacingOccurrences(of: "{item.title}", with: "Álgebra lineal para principiantes")
                    .replacingOccurrences(of: "{item.subject}", with: "Matemáticas"))
        }
    }
    let pipe = try! ExpressionCompiler().expression("$.item.title | uppercase | truncate:20")
    Benchmark("Evaluate:uppercase+truncate:DynamicUI", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try pipe.evaluate(in: context)) }
    }
    let mustachePipe = try! MustacheTemplate(string: "{{uppercased(item.title)}}")
    Benchmark("Evaluate:uppercase+truncate:swift-mustache-(uppercase-only)", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(mustachePipe.render(mustacheContext)) }
    }
    Benchmark("Evaluate:uppercase+truncate:hand-written-Swift", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations {
            let title = "Álgebra lineal para principiantes".uppercased()
            blackHole(title.count > 20 ? String(title.prefix(20)) + "…" : title)
        }
    }
    let conditions = try! [
        "data.isNotEmpty", "$.item.grade > 5 && $.item.subject == 'Matemáticas'", "!($.item.missing | exists) || $.index >= 3",
    ].map { try ExpressionCompiler().expression($0) }
    Benchmark("Evaluate:conditions-(3)", configuration: evaluation) { benchmark in
        for _ in benchmark.scaledIterations {
            for condition in conditions { blackHole(try condition.isTrue(in: context)) }
        }
    }

    // MARK: Rendering

    let materials1000 = ListItems(BenchInputs.materials1000)
    let materials10000 = ListItems(BenchInputs.materials10000)
    Benchmark("Render:materials-list-first-20-rows:1000-items") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(BenchInputs.lowerMaterials(materials1000)) }
    }
    Benchmark("Render:materials-list-first-20-rows:10000-items") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(BenchInputs.lowerMaterials(materials10000)) }
    }
    let pageBytes = BenchInputs.materials1000Bytes
    Benchmark("Render:bytes-to-first-20-rows:1000-items") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(BenchInputs.bytesToRows(pageBytes)) }
    }
    let dashboard = try! ScreenCompiler().compile(try! BenchInputs.edugo.screen("dashboard-teacher"))
    let stats = try! BenchInputs.edugo.data("stats_global")
    Benchmark("Render:HTML-dashboard") { benchmark in
        for _ in benchmark.scaledIterations {
            let context = try dashboard.context(
                user: BenchInputs.user, userContext: BenchInputs.userContext, data: stats, environment: BenchInputs.environment)
            // Drawn as shown once loaded: its recent activity is a deferred section of the same data.
            let inputs = ScreenInputs(screen: dashboard, context: context, sections: ["recent_activity": .loaded(stats)])
            blackHole(HTMLRenderer().page(PatternRouter().render(inputs)))
        }
    }

    // Component expansion: every row of a list is the podcasts catalog's `search_result_row`
    // component (its own scope, presets merged), over the 8 recorded results for "swift".
    let podcasts = PodcastsCatalog()
    let library = try! podcasts.components()
    let nodeRenderer = NodeRenderer(
        theme: try! podcasts.theme(), library: library, components: try! NodeCompiler().compile(library))
    let searchResults = try! podcasts.recording(try! podcasts.recordingIndex()["/search?media=podcast&term=swift"]!)
    let rowsDocument = try! NodeCompiler().compile(
        try! ViewNode(json: [
            "type": "list",
            "props": [
                "items": "$.results",
                "itemTemplate": [
                    "type": "component", "props": ["name": "search_result_row", "parameters": ["podcast": "$.item"]],
                ],
            ],
        ]))
    let podcastContext = DataContext([("results", searchResults["results"]!)], environment: BenchInputs.environment)
    Benchmark("Render:component-expansion:podcast-search-rows") { benchmark in
        for _ in benchmark.scaledIterations {
            let rendered = nodeRenderer.render(rowsDocument, context: podcastContext, name: "rows")
            guard case .list(_, let rows) = rendered.root.kind else { fatalError("the document is a list") }
            for index in 0..<rows.count { blackHole(rows.row(at: index)) }
        }
    }

    // MARK: Loading

    // A screen already in the memory tier: no request, the compiled program from its cache.
    let screenBytes = JSONWriter().data(from: try! BenchInputs.edugo.screenJSON("materials-list"))
    Benchmark("Load:ScreenLoader-memory-hit:DynamicUI", configuration: evaluation) { benchmark in
        let transport = OneResponseTransport(
            response: TransportResponse(status: 200, headers: ["ETag": "\"v1\""], body: screenBytes))
        let client = APIClient(
            configuration: APIConfiguration(
                adminBaseURL: URL(string: "https://admin.edugo.test")!, mobileBaseURL: URL(string: "https://api.edugo.test")!),
            transport: transport)
        let loader = ScreenLoader(client: client, cache: ScreenCache())
        blackHole(try await loader.load("materials-list"))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await loader.load("materials-list")) }
    }
}

/// Answers every request with one response (the first screen load before the memory hits).
struct OneResponseTransport: HTTPTransport {
    let response: TransportResponse
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse { response }
}
