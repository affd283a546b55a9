// swift-tools-version: 6.1
import PackageDescription

/// Settings applied to every target (as in the library's manifest).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// A libFuzzer target: no `main` (libFuzzer provides it), built only with `-sanitize=fuzzer`.
let fuzzSettings = swiftSettings + [.unsafeFlags(["-parse-as-library"])]

/// The library's product `name`.
func library(_ name: String) -> Target.Dependency { .product(name: name, package: "DynamicUI") }

// The libFuzzer targets of the JSON reader, the document decoders and compilers, and the
// expression language. Fuzz/run.sh builds them with AddressSanitizer and runs them.
let package = Package(
    name: "DynamicUIFuzz",
    dependencies: [.package(name: "DynamicUI", path: "..")],
    targets: [
        .target(name: "FuzzSupport", path: "support", swiftSettings: swiftSettings),
        .executableTarget(
            name: "fuzz-json", dependencies: [library("DynamicUIModels"), "FuzzSupport"], path: "json",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "fuzz-documents", dependencies: [library("DynamicUIModels"), library("DynamicUIResolvers"), "FuzzSupport"],
            path: "documents", swiftSettings: fuzzSettings),
        .executableTarget(
            name: "fuzz-expressions",
            dependencies: [library("DynamicUIModels"), library("DynamicUIResolvers"), "FuzzSupport"],
            path: "expressions", swiftSettings: fuzzSettings),
    ]
)
