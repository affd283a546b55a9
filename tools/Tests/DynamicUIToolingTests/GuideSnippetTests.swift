import DynamicUIRendering
import DynamicUITooling
import Foundation
import Testing

// The DocC catalogs' code is compiled, as the README's is (ExampleSnippetTests):
// - every ```swift block of a `.docc` article follows a `<!-- snippet: FILE#REGION -->` line and
//   equals that region of a file the build compiles (a test target) or the Apple check compiles
//   (Examples/);
// - a ```swift block after `<!-- manifest: FILE#REGION FILE#REGION … -->` is a Package.swift
//   excerpt: its n-th `.target`/`.testTarget` names, as `.product(name:package: "DynamicUI")`, every
//   DynamicUI module that the n-th region imports, and only the package's library products — so a
//   guide's code compiles in another package with the guide's own manifest lines and imports;
// - every ```json block is JSON that `sdui validate` accepts without an error.

/// The `.docc` articles and what is wrong with their code blocks.
enum GuideSnippets {
    /// The articles of every catalog, relative to the package root, sorted.
    static func articles(root: URL) -> [String] {
        var found: [String] = []
        for folder in ["Modules", "Plugins"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "md" && url.path.contains(".docc/") {
                found.append(String(url.path.dropFirst(root.path.count + 1)))
            }
        }
        return found.sorted()
    }

    /// A fenced block: its language, the line before its fence, its text and 1-based fence line.
    struct Block {
        var language: String
        var previous: String
        var text: String
        var line: Int
    }

    /// The fenced blocks of `markdown`.
    static func blocks(in markdown: String) -> [Block] {
        let lines = markdown.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("```"), let close = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }) {
                let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                blocks.append(
                    Block(
                        language: String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), previous: previous,
                        text: lines[(index + 1)..<close].joined(separator: "\n"), line: index + 1))
                index = close + 1
            } else {
                index += 1
            }
        }
        return blocks
    }

    static let manifestPrefix = "<!-- manifest: "

    /// The DynamicUI modules a Swift source imports (`import`, `public import`, `@testable import`, …).
    static func imports(in source: String) -> Set<String> {
        var modules: Set<String> = []
        for line in source.components(separatedBy: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
            guard words[..<at].allSatisfy({ ["public", "internal", "package", "@testable", "@_exported"].contains($0) })
            else { continue }
            if words[at + 1].hasPrefix("DynamicUI") { modules.insert(words[at + 1]) }
        }
        return modules
    }

    /// The products each `.target(`/`.testTarget(` of a manifest excerpt names, in order.
    static func targetProducts(in manifest: String) -> [Set<String>] {
        var targets: [Set<String>] = []
        for line in manifest.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(".target(") || trimmed.hasPrefix(".testTarget(") || trimmed.hasPrefix(".executableTarget(") {
                targets.append([])
            }
            var rest = Substring(line)
            while let range = rest.range(of: ".product(name: \"") {
                let name = rest[range.upperBound...].prefix { $0 != "\"" }
                if !targets.isEmpty { targets[targets.count - 1].insert(String(name)) }
                rest = rest[range.upperBound...]
            }
        }
        return targets
    }

    /// The library products declared in Package.swift.
    static func libraryProducts(manifest: String) -> Set<String> {
        var products: Set<String> = []
        for line in manifest.components(separatedBy: "\n") {
            guard let range = line.range(of: ".library(name: \"") else { continue }
            products.insert(String(line[range.upperBound...].prefix { $0 != "\"" }))
        }
        return products
    }

    /// What is wrong with the Swift code blocks of `article` (named `path`): blocks that are
    /// neither snippets nor manifests, snippets that differ from their region, manifests that
    /// miss an imported product or name one the package does not have.
    static func problems(
        article: String, path: String, products: Set<String>, load: (String) -> String?
    ) -> [String] {
        var problems = ExampleSnippets.problems(readme: article, load: load).map { problem in
            problem.hasPrefix("README.md:") ? path + problem.dropFirst("README.md".count) : problem
        }
        for block in blocks(in: article) where block.language == "swift" {
            let label = "\(path):\(block.line)"
            if block.previous.hasPrefix(ExampleSnippets.markerPrefix) { continue }
            guard block.previous.hasPrefix(manifestPrefix), block.previous.hasSuffix(ExampleSnippets.markerSuffix) else {
                problems.append(
                    "\(label): a Swift block must follow `<!-- snippet: FILE#REGION -->` (code that compiles) "
                        + "or `<!-- manifest: FILE#REGION … -->` (a Package.swift excerpt)")
                continue
            }
            let names = block.previous.dropFirst(manifestPrefix.count).dropLast(ExampleSnippets.markerSuffix.count)
                .split(separator: " ").map(String.init)
            let targets = targetProducts(in: block.text)
            if targets.count != names.count {
                problems.append("\(label): the manifest has \(targets.count) targets for \(names.count) regions")
                continue
            }
            for (name, named) in zip(names, targets) {
                for product in named.sorted() where !products.contains(product) {
                    problems.append("\(label): the manifest names \(product), which is not a library product of Package.swift")
                }
                let parts = name.split(separator: "#").map(String.init)
                guard parts.count == 2, let source = load(parts[0]) else {
                    problems.append("\(label): there is no file for \(name)")
                    continue
                }
                guard let region = ExampleSnippets.regions(in: source).regions[parts[1]] else {
                    problems.append("\(label): \(parts[0]) has no region '\(parts[1])'")
                    continue
                }
                for module in imports(in: region).subtracting(named).sorted() {
                    problems.append("\(label): \(name) imports \(module), which the manifest's target does not name as a product")
                }
            }
        }
        return problems
    }
}

@Suite("DocC articles: every code block compiles or validates")
struct GuideSnippetTests {
    static let root = ExampleSnippetTests.root

    static func load(_ path: String) -> String? {
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        guard path.hasPrefix("Examples/") || path.hasPrefix("Tests/") || path.hasPrefix("tools/Tests/") else { return nil }
        return try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The guides the documentation promises.
    static let guides = [
        "Modules/DynamicUI/DynamicUI.docc/EmbeddingTheSDK.md",
        "Modules/DynamicUI/DynamicUI.docc/AuthoringScreens.md",
        "Modules/DynamicUI/DynamicUI.docc/OfflineFirst.md",
        "Modules/DynamicUI/DynamicUI.docc/Observability.md",
        "Modules/DynamicUI/DynamicUI.docc/Versioning.md",
        "Modules/Testing/DynamicUITesting.docc/WritingAHandlerPlugin.md",
        "Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md",
    ]

    @Test func theGuidesExist() {
        let articles = Set(GuideSnippets.articles(root: Self.root))
        for guide in Self.guides { #expect(articles.contains(guide), "\(guide) is missing") }
    }

    @Test func everySwiftBlockIsCompiledCode() throws {
        let products = GuideSnippets.libraryProducts(manifest: try Self.read("Package.swift"))
        #expect(products.count >= 14)
        var snippets = 0
        for path in GuideSnippets.articles(root: Self.root) {
            let article = try Self.read(path)
            snippets += ExampleSnippets.markers(in: article).count
            for problem in GuideSnippets.problems(article: article, path: path, products: products, load: Self.load) {
                Issue.record(Comment(rawValue: problem))
            }
        }
        #expect(snippets >= 10, "the guides have \(snippets) compiled snippets")
    }

    @Test func everyJSONBlockValidates() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guide-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [URL] = []
        var origin: [String: String] = [:]
        for path in GuideSnippets.articles(root: Self.root) {
            for block in GuideSnippets.blocks(in: try Self.read(path)) where block.language == "json" {
                let name = "\(files.count).json"
                let url = folder.appendingPathComponent(name)
                try Data(block.text.utf8).write(to: url)
                files.append(url)
                origin[name] = "\(path):\(block.line)"
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(block.text.utf8), options: [.fragmentsAllowed])) != nil,
                    "\(path):\(block.line): the JSON block is not JSON")
            }
        }
        #expect(files.count >= 3)
        var validator = ScreenValidator.shipped()
        validator.nativeComponents = try NativeComponentRegistry(ScreenValidator.shippedComponents)
        for finding in validator.validate(paths: files).findings where finding.severity == .error {
            let file = URL(fileURLWithPath: finding.file).lastPathComponent
            Issue.record("\(origin[file] ?? finding.file): \(finding.path): \(finding.message)")
        }
    }

    // The checker itself.

    static let source = """
        // snippet: plugin
        public import DynamicUIActions
        import DynamicUIModels

        struct P {}
        // snippet: end
        """

    static func check(_ article: String) -> [String] {
        GuideSnippets.problems(
            article: article, path: "A.md", products: ["DynamicUIActions", "DynamicUIModels", "DynamicUITesting"]
        ) { $0 == "Tests/X/P.swift" ? Self.source : nil }
    }

    @Test func aSwiftBlockWithoutAMarkerIsReported() {
        #expect(Self.check("# A\n\n```swift\nlet a = 1\n```\n").first?.contains("A.md:3: a Swift block must follow") == true)
    }

    @Test func aManifestMissingAnImportedProductIsReported() {
        let manifest = """
            <!-- manifest: Tests/X/P.swift#plugin -->
            ```swift
            .target(
                name: "P",
                dependencies: [.product(name: "DynamicUIActions", package: "DynamicUI")]),
            ```
            """
        #expect(
            Self.check(manifest) == [
                "A.md:2: Tests/X/P.swift#plugin imports DynamicUIModels, which the manifest's target does not name as a product"
            ])
        let complete = manifest.replacingOccurrences(
            of: "package: \"DynamicUI\")]",
            with: "package: \"DynamicUI\"), .product(name: \"DynamicUIModels\", package: \"DynamicUI\")]")
        #expect(Self.check(complete).isEmpty)
        let unknown = complete.replacingOccurrences(of: "DynamicUIModels\", package", with: "DynamicUIModelz\", package")
        #expect(Self.check(unknown).contains { $0.contains("DynamicUIModelz, which is not a library product") })
    }

    @Test func aSnippetThatDiffersIsReportedWithTheArticle() {
        let article = "<!-- snippet: Tests/X/P.swift#plugin -->\n```swift\npublic import DynamicUIActions\n```\n"
        #expect(
            Self.check(article).first?.hasPrefix("A.md:1: snippet Tests/X/P.swift#plugin: the README's block differs") == true)
    }
}
