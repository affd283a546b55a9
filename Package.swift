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
        .library(name: "DynamicUIKit", targets: ["DynamicUIKit"]),
        .library(name: "DynamicUITesting", targets: ["DynamicUITesting"]),
        .library(name: "DynamicUIAuthPlugin", targets: ["DynamicUIAuthPlugin"]),
        .library(name: "DynamicUICRUDPlugin", targets: ["DynamicUICRUDPlugin"]),
        .library(name: "DynamicUINavigationPlugin", targets: ["DynamicUINavigationPlugin"]),
        .library(name: "DynamicUIMediaPlayer", targets: ["DynamicUIMediaPlayer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Test-only: property-based tests of the reader, the writer and the expression language.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Documentation only: `swift package generate-documentation` (.ci/docs.sh --site).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
        // One import for an app: re-exports the runtime and what its API speaks of.
        .target(
            name: "DynamicUIKit",
            dependencies: [
                "DynamicUI", "DynamicUIActions", "DynamicUIModels", "DynamicUINetwork", "DynamicUIRendering",
                "DynamicUIResolvers", "DynamicUIStorage", "DynamicUISwiftUI",
            ],
            path: "Modules/Kit",
            swiftSettings: swiftSettings
        ),
        tests(
            "DynamicUITests",
            [
                "DynamicUI", "DynamicUIModels", "DynamicUIResolvers", "DynamicUIStorage", "DynamicUINetwork",
                "DynamicUIActions", "DynamicUIRendering", "DynamicUISwiftUI", "DynamicUITesting", "DynamicUICatalog",
                "DynamicUIAuthPlugin", "DynamicUICRUDPlugin", "DynamicUINavigationPlugin",
                "DynamicUIMediaPlayer", "DynamicUIWeb", "DynamicUIKit",
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
            [
                "DynamicUIRendering", "DynamicUIModels", "DynamicUIResolvers", "DynamicUICatalog", "DynamicUIMediaPlayer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
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
                .product(name: "Logging", package: "swift-log"),
            ]),
        tool("queue-writer", ["DynamicUIStorage"], path: "Tests/QueueWriter"),
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
        // The reference catalogs (EduGo's screens, the podcast documents) as typed values, for the
        // tests. No product: tools/Package.swift declares the same sources as the tools' module,
        // since SwiftPM shares a target between packages only through a product, and a product
        // would be offered to every embedding app.
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
