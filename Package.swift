// swift-tools-version: 6.1
import PackageDescription

import class Foundation.ProcessInfo

/// Settings applied to every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The test target `name`, in `Tests/<name>`.
func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, path: "Tests/\(name)", exclude: exclude, swiftSettings: swiftSettings)
}

/// An executable of the package's tooling (no product: an embedding app never builds it).
func tool(_ name: String, _ dependencies: [Target.Dependency], path: String) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings)
}

let package = Package(
    name: "DynamicUI",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "DynamicUIModels", targets: ["DynamicUIModels"]),
        .library(name: "DynamicUIResolvers", targets: ["DynamicUIResolvers"]),
        .library(name: "DynamicUIStorage", targets: ["DynamicUIStorage"]),
        .library(name: "DynamicUINetwork", targets: ["DynamicUINetwork"]),
        .library(name: "DynamicUIActions", targets: ["DynamicUIActions"]),
        .library(name: "DynamicUIRendering", targets: ["DynamicUIRendering"]),
        .library(name: "DynamicUIWeb", targets: ["DynamicUIWeb"]),
        .library(name: "DynamicUI", targets: ["DynamicUI"]),
        .library(name: "DynamicUISwiftUI", targets: ["DynamicUISwiftUI"]),
        .library(name: "DynamicUITesting", targets: ["DynamicUITesting"]),
        .library(name: "DynamicUIAuthPlugin", targets: ["DynamicUIAuthPlugin"]),
        .library(name: "DynamicUICRUDPlugin", targets: ["DynamicUICRUDPlugin"]),
        .library(name: "DynamicUINavigationPlugin", targets: ["DynamicUINavigationPlugin"]),
        .library(name: "DynamicUIMediaPlayer", targets: ["DynamicUIMediaPlayer"]),
        // No product for the `sdui` tool: SwiftPM resolves, for a package used as a dependency,
        // every package that some declared product reaches, whichever products the app asks for.
        // Declared, `sdui` would bring Hummingbird, swift-nio and swift-argument-parser into every
        // embedding app. In this package (the root) `swift run sdui` still works: SwiftPM makes a
        // product for each executable target of the root package. .ci/consumer-resolve.sh checks it.
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // The demo backend's and web preview's HTTP server (without the optional configuration traits).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // The demo backend's server stops by a graceful shutdown of its service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "DynamicUIModels",
            path: "Modules/Models",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIResolvers",
            dependencies: ["DynamicUIModels"],
            path: "Modules/Resolvers",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIStorage",
            dependencies: ["DynamicUIModels", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Modules/Storage",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUINetwork",
            dependencies: ["DynamicUIModels", "DynamicUIStorage", .product(name: "Logging", package: "swift-log")],
            path: "Modules/Network",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIActions",
            dependencies: [
                "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Modules/Actions",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIAuthPlugin",
            dependencies: [
                "DynamicUIActions", "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork",
            ],
            path: "Plugins/Auth",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUICRUDPlugin",
            dependencies: ["DynamicUIActions", "DynamicUIModels", "DynamicUIResolvers", "DynamicUINetwork"],
            path: "Plugins/CRUD",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUINavigationPlugin",
            dependencies: ["DynamicUIActions", "DynamicUIModels", "DynamicUIResolvers"],
            path: "Plugins/Navigation",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIMediaPlayer",
            dependencies: ["DynamicUIModels", "DynamicUIRendering", "DynamicUISwiftUI"],
            path: "Plugins/MediaPlayer",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUITesting",
            dependencies: [
                "DynamicUI", "DynamicUIActions", "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage",
                "DynamicUINetwork", "DynamicUIRendering", "DynamicUIWeb", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Modules/Testing",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIRendering",
            dependencies: ["DynamicUIModels", "DynamicUIResolvers"],
            path: "Modules/Rendering",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIWeb",
            dependencies: ["DynamicUIModels", "DynamicUIResolvers", "DynamicUIRendering"],
            path: "Modules/Web",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUI",
            dependencies: [
                "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork", "DynamicUIActions",
                "DynamicUIRendering",
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Modules/DynamicUI",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUISwiftUI",
            dependencies: [
                "DynamicUI", "DynamicUIRendering", "DynamicUIActions", "DynamicUIModels", "DynamicUIResolvers",
            ],
            path: "Modules/SwiftUI",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUITooling",
            dependencies: [
                "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork", "DynamicUIActions",
                "DynamicUIRendering", "DynamicUIWeb", "DynamicUI", "DynamicUICatalog", "DynamicUIDemoBackend",
                "DynamicUIAuthPlugin", "DynamicUICRUDPlugin", "DynamicUINavigationPlugin", "DynamicUIMediaPlayer",
            ],
            path: "tools/sdui/Kit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "sdui",
            dependencies: [
                "DynamicUITooling", "DynamicUICatalog", "DynamicUIDemoBackend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "tools/sdui/Command",
            swiftSettings: swiftSettings
        ),
        tests(
            "DynamicUIToolingTests",
            [
                "DynamicUITooling", "DynamicUICatalog", "DynamicUIDemoBackend", "DynamicUIModels", "DynamicUIResolvers",
                "DynamicUIStorage", "DynamicUINetwork", "DynamicUIActions", "DynamicUIWeb", "DynamicUIRendering",
            ], exclude: ["Broken"]),
        .target(
            name: "DynamicUIDemoBackend",
            dependencies: [
                "DynamicUIModels", "DynamicUIResolvers", "DynamicUICatalog", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "tools/DemoBackend",
            swiftSettings: swiftSettings
        ),
        tests(
            "DynamicUITests",
            [
                "DynamicUI", "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork",
                "DynamicUIActions", "DynamicUIRendering", "DynamicUISwiftUI", "DynamicUITesting", "DynamicUICatalog",
                "DynamicUIDemoBackend", "DynamicUIAuthPlugin", "DynamicUICRUDPlugin", "DynamicUINavigationPlugin",
                "DynamicUIMediaPlayer", "DynamicUIWeb",
                .product(name: "Logging", package: "swift-log"), .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        tests(
            "DynamicUIWebTests",
            [
                "DynamicUIWeb", "DynamicUIRendering", "DynamicUIModels", "DynamicUIResolvers", "DynamicUIActions",
                "DynamicUICatalog",
            ]),
        tests(
            "DynamicUIRenderingTests",
            ["DynamicUIRendering", "DynamicUIModels", "DynamicUIResolvers", "DynamicUICatalog", "DynamicUIMediaPlayer"],
            exclude: ["Snapshots"]),
        // The handler plugin of the DynamicUITesting guide, a module of its own as in an app's package.
        .target(
            name: "FavoritesPlugin",
            dependencies: ["DynamicUIActions", "DynamicUIModels", "DynamicUINetwork"],
            path: "Tests/GuidePlugins/FavoritesPlugin",
            swiftSettings: swiftSettings
        ),
        tests(
            "DynamicUIActionsTests",
            [
                "DynamicUIActions", "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork",
                "DynamicUIAuthPlugin", "DynamicUICRUDPlugin", "DynamicUINavigationPlugin", "DynamicUITesting",
                "DynamicUICatalog", "FavoritesPlugin", .product(name: "Logging", package: "swift-log"),
            ]),
        tests("DynamicUIStorageTests", ["DynamicUIStorage", "DynamicUIModels", "queue-writer"]),
        tests(
            "DynamicUINetworkTests",
            [
                "DynamicUINetwork", "DynamicUIModels", "DynamicUIStorage", "queue-writer",
                .product(name: "Logging", package: "swift-log"), .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]),
        tool("queue-writer", ["DynamicUIStorage"], path: "Tests/QueueWriter"),
        // The fault workload (tools/faults): no product, so no embedding app ever resolves it.
        tool(
            "fault-workload",
            [
                "DynamicUIModels", "DynamicUIStorage", "DynamicUINetwork", "DynamicUIDemoBackend",
                .product(name: "Logging", package: "swift-log"),
            ], path: "tools/faults/Workload"),
        tests(
            "DynamicUIResolversTests",
            [
                "DynamicUIResolvers", "DynamicUIModels", "DynamicUICatalog",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        tests(
            "DynamicUIModelsTests",
            [
                "DynamicUIModels", "DynamicUICatalog", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .target(
            name: "DynamicUICatalog",
            dependencies: ["DynamicUIModels"],
            path: "tools/catalog",
            exclude: ["FORMAT.md", "edugo", "podcasts", "manifests"],
            sources: ["Sources"],
            swiftSettings: swiftSettings
        ),
    ]
)

// The benchmarks are opt-in so that consumers of the library never resolve their dependencies.
if ProcessInfo.processInfo.environment["DYNAMICUI_BENCHMARKS"] != nil {
    package.dependencies += [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ]
    package.targets += [
        .target(
            name: "DynamicUIBenchInputs",
            dependencies: ["DynamicUIModels", "DynamicUIResolvers", "DynamicUIRendering", "DynamicUICatalog"],
            path: "Benchmarks/DynamicUIBenchInputs",
            // The string-heavy inputs, written by generate-string-heavy.py.
            exclude: ["generate-string-heavy.py"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DynamicUIBenchmarks",
            dependencies: [
                "DynamicUIBenchInputs", "DynamicUIModels", "DynamicUIResolvers", "DynamicUICatalog", "DynamicUIRendering",
                "DynamicUIWeb", "DynamicUI", "DynamicUINetwork", "DynamicUIStorage",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            path: "Benchmarks/DynamicUIBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        tool(
            "dynamicui-probe",
            [
                "DynamicUIBenchInputs", "DynamicUIModels", "DynamicUIResolvers", "DynamicUICatalog",
                .product(name: "Mustache", package: "swift-mustache"),
            ], path: "tools/bench-probe"),
    ]
}

// The libFuzzer targets are opt-in too: they have no `main` (libFuzzer provides it) and build
// only with `-sanitize=fuzzer`; Fuzz/run.sh builds and runs them.
if ProcessInfo.processInfo.environment["DYNAMICUI_FUZZ"] != nil {
    let fuzzSettings = swiftSettings + [.unsafeFlags(["-parse-as-library"])]
    package.targets += [
        .target(name: "FuzzSupport", path: "Fuzz/support", swiftSettings: swiftSettings),
        .executableTarget(
            name: "fuzz-json", dependencies: ["DynamicUIModels", "FuzzSupport"], path: "Fuzz/json", swiftSettings: fuzzSettings),
        .executableTarget(
            name: "fuzz-documents", dependencies: ["DynamicUIModels", "DynamicUIResolvers", "FuzzSupport"],
            path: "Fuzz/documents", swiftSettings: fuzzSettings),
        .executableTarget(
            name: "fuzz-expressions", dependencies: ["DynamicUIModels", "DynamicUIResolvers", "FuzzSupport"],
            path: "Fuzz/expressions", swiftSettings: fuzzSettings),
    ]
}

// The documentation plugin is opt-in as well (`DYNAMICUI_DOCS=1`, .ci/docs.sh), so that an
// embedding app never resolves it.
if ProcessInfo.processInfo.environment["DYNAMICUI_DOCS"] != nil {
    package.dependencies += [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]
}
