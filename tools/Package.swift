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

// The tools beside the library: `sdui` (validator, renderer, the demo backend and the web
// preview), the demo backend, the reference catalogs and the fault workload, with the tests
// that need a real HTTP server. A package of their own, so that the library's graph carries
// none of their dependencies (Hummingbird, swift-nio, swift-argument-parser).
let package = Package(
    name: "DynamicUITools",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "sdui", targets: ["sdui"]),
        .executable(name: "fault-workload", targets: ["fault-workload"]),
        // The catalogs as typed values, for the benchmarks package.
        .library(name: "DynamicUICatalog", targets: ["DynamicUICatalog"]),
    ],
    dependencies: [
        .package(name: "DynamicUI", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The HTTP server of the demo backend, the web preview and every loopback test (without
        // the optional configuration traits).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // The server stops by a graceful shutdown of its service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "DynamicUICatalog",
            dependencies: [library("DynamicUIModels")],
            path: "catalog",
            exclude: ["FORMAT.md", "edugo", "podcasts", "manifests"],
            sources: ["Sources"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUIDemoBackend",
            dependencies: [
                library("DynamicUIModels"), library("DynamicUIResolvers"), "DynamicUICatalog",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "DemoBackend",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DynamicUITooling",
            dependencies: [
                library("DynamicUIModels"), library("DynamicUIResolvers"), library("DynamicUIStorage"),
                library("DynamicUINetwork"), library("DynamicUIActions"), library("DynamicUIRendering"),
                library("DynamicUIWeb"), library("DynamicUI"), library("DynamicUIAuthPlugin"),
                library("DynamicUICRUDPlugin"), library("DynamicUINavigationPlugin"), library("DynamicUIMediaPlayer"),
                "DynamicUICatalog", "DynamicUIDemoBackend",
            ],
            path: "sdui/Kit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "sdui",
            dependencies: [
                "DynamicUITooling", "DynamicUICatalog", "DynamicUIDemoBackend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "sdui/Command",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fault-workload",
            dependencies: [
                library("DynamicUIModels"), library("DynamicUIStorage"), library("DynamicUINetwork"),
                "DynamicUIDemoBackend", .product(name: "Logging", package: "swift-log"),
            ],
            path: "faults/Workload",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DynamicUIToolingTests",
            dependencies: [
                "DynamicUITooling", "DynamicUICatalog", "DynamicUIDemoBackend", library("DynamicUIModels"),
                library("DynamicUIResolvers"), library("DynamicUIStorage"), library("DynamicUINetwork"),
                library("DynamicUIActions"), library("DynamicUIWeb"), library("DynamicUIRendering"), library("DynamicUI"),
            ],
            path: "Tests/DynamicUIToolingTests",
            exclude: ["Broken"],
            swiftSettings: swiftSettings
        ),
        // The SDK against a real server over loopback: the demo backend through the host drivers
        // (scenarios, journeys, end to end) and the URLSession transport against scripted routes.
        .testTarget(
            name: "DynamicUIIntegrationTests",
            dependencies: [
                library("DynamicUI"), library("DynamicUIModels"), library("DynamicUIResolvers"),
                library("DynamicUIStorage"), library("DynamicUINetwork"), library("DynamicUIActions"),
                library("DynamicUIRendering"), library("DynamicUITesting"), library("DynamicUIAuthPlugin"),
                library("DynamicUICRUDPlugin"), library("DynamicUINavigationPlugin"), library("DynamicUIMediaPlayer"),
                "DynamicUICatalog", "DynamicUIDemoBackend", "DynamicUITooling",
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/DynamicUIIntegrationTests",
            swiftSettings: swiftSettings
        ),
    ]
)
