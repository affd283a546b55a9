// swift-tools-version: 6.1
import PackageDescription

/// Settings applied to every target (as in the library's manifest).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The library's product `name`.
func library(_ name: String) -> Target.Dependency { .product(name: name, package: "DynamicUI") }

// The benchmarks (ordo-one's package-benchmark: every executable folder beside this manifest is
// a benchmark) and the instruction-count probe that Benchmarks/check.sh runs under callgrind.
// A package of their own, so that neither the library nor its tests resolve their dependencies.
let package = Package(
    name: "DynamicUIBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "DynamicUI", path: ".."),
        .package(name: "DynamicUITools", path: "../tools"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "DynamicUIBenchInputs",
            dependencies: [
                library("DynamicUIModels"), library("DynamicUIResolvers"), library("DynamicUIRendering"),
                .product(name: "DynamicUICatalog", package: "DynamicUITools"),
            ],
            path: "DynamicUIBenchInputs",
            // The string-heavy inputs, written by generate-string-heavy.py.
            exclude: ["generate-string-heavy.py"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DynamicUIBenchmarks",
            dependencies: [
                "DynamicUIBenchInputs", library("DynamicUIModels"), library("DynamicUIResolvers"),
                library("DynamicUIRendering"), library("DynamicUIWeb"), library("DynamicUI"), library("DynamicUINetwork"),
                library("DynamicUIStorage"), .product(name: "DynamicUICatalog", package: "DynamicUITools"),
                .product(name: "Benchmark", package: "benchmark"), .product(name: "Mustache", package: "swift-mustache"),
            ],
            path: "DynamicUIBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A release build of the SDK cannot follow a development preview (`.ci/long release`).
        .executableTarget(
            name: "dynamicui-release-check",
            dependencies: [library("DynamicUI"), library("DynamicUINetwork")],
            path: "Sources/ReleaseCheck",
            swiftSettings: swiftSettings
        ),
        // Runs one key path N times, for callgrind's instruction counts (Benchmarks/check.sh).
        .executableTarget(
            name: "dynamicui-probe",
            dependencies: [
                "DynamicUIBenchInputs", library("DynamicUIModels"), library("DynamicUIResolvers"),
                .product(name: "DynamicUICatalog", package: "DynamicUITools"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            path: "Sources/Probe",
            swiftSettings: swiftSettings
        ),
    ]
)
