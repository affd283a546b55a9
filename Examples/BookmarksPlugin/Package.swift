// swift-tools-version: 6.1
import PackageDescription

/// The library product `name` of the SDK.
func sdk(_ name: String) -> Target.Dependency { .product(name: name, package: "DynamicUI") }

// A third party's plugin package: a screen handler that wraps the SDK's SUBMIT_FORM and a native
// component, written against the SDK's public products only. An app adds it beside the SDK; in
// this repository it depends on the SDK by path (an app would name its URL and version).
let package = Package(
    name: "BookmarksPlugin",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "BookmarksPlugin", targets: ["BookmarksPlugin"])],
    dependencies: [.package(name: "DynamicUI", path: "../..")],
    targets: [
        .target(
            name: "BookmarksPlugin",
            dependencies: [
                sdk("DynamicUIActions"), sdk("DynamicUIModels"), sdk("DynamicUINetwork"), sdk("DynamicUIRendering"),
                sdk("DynamicUISwiftUI"),
            ]),
        .testTarget(
            name: "BookmarksPluginTests",
            dependencies: [
                "BookmarksPlugin", sdk("DynamicUITesting"), sdk("DynamicUIActions"), sdk("DynamicUIModels"),
                sdk("DynamicUINetwork"), sdk("DynamicUIRendering"), sdk("DynamicUIStorage"),
            ]),
    ]
)
