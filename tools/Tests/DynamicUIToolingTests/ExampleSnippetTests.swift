import Foundation
import Testing

// The README's code comes from the example apps in Examples/, which CI type-checks for iOS. A
// README line `<!-- snippet: Examples/EduGoApp/EduGoApp.swift#embedding -->` is followed by a
// fenced code block that must equal the region of that file between `// snippet: embedding` and
// `// snippet: end` (the marker lines left out, the region's common indentation removed).

/// Snippet markers of a README and regions of example files, and how they are compared.
enum ExampleSnippets {
    /// A README marker and the code block after it.
    struct Marker: Equatable {
        /// `Examples/EduGoApp/EduGoApp.swift#embedding`.
        var name: String
        /// The file, relative to the package root.
        var file: String
        /// The region of that file.
        var region: String
        /// The 1-based line of the marker in the README.
        var line: Int
        /// The code block's text, or `nil` when no fenced block follows the marker.
        var block: String?
    }

    static let markerPrefix = "<!-- snippet: "
    static let markerSuffix = " -->"
    static let regionPrefix = "// snippet: "
    static let regionEnd = "end"

    /// Every snippet marker of `readme`, with the fenced block on the line after it.
    static func markers(in readme: String) -> [Marker] {
        let lines = readme.components(separatedBy: "\n")
        var markers: [Marker] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(markerPrefix), trimmed.hasSuffix(markerSuffix) else { continue }
            let name = String(trimmed.dropFirst(markerPrefix.count).dropLast(markerSuffix.count))
                .trimmingCharacters(in: .whitespaces)
            let parts = name.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            var block: String?
            if index + 1 < lines.count, lines[index + 1].hasPrefix("```") {
                if let close = lines[(index + 2)...].firstIndex(where: { $0.hasPrefix("```") }) {
                    block = lines[(index + 2)..<close].joined(separator: "\n")
                }
            }
            markers.append(
                Marker(
                    name: name, file: parts[0], region: parts.count > 1 ? parts[1] : "", line: index + 1, block: block))
        }
        return markers
    }

    /// The regions of an example file by name, and what is wrong with its markers (a region
    /// opened twice, never closed, or closed without being opened).
    static func regions(in source: String) -> (regions: [String: String], problems: [String]) {
        var regions: [String: String] = [:]
        var problems: [String] = []
        var open: (name: String, lines: [String])?
        for (index, line) in source.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(regionPrefix) else {
                open?.lines.append(line)
                continue
            }
            let name = String(trimmed.dropFirst(regionPrefix.count)).trimmingCharacters(in: .whitespaces)
            if name == regionEnd {
                if let region = open {
                    regions[region.name] = dedent(region.lines)
                } else {
                    problems.append("line \(index + 1): `// snippet: end` closes no region")
                }
                open = nil
            } else if let region = open {
                problems.append("line \(index + 1): region '\(name)' starts inside region '\(region.name)'")
            } else if regions[name] != nil {
                problems.append("line \(index + 1): region '\(name)' is defined twice")
            } else {
                open = (name, [])
            }
        }
        if let region = open { problems.append("region '\(region.name)' has no `// snippet: end`") }
        return (regions, problems)
    }

    /// `lines` without their common leading spaces, joined.
    static func dedent(_ lines: [String]) -> String {
        let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }
        let common = indents.min() ?? 0
        return lines.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(common)) }
            .joined(separator: "\n")
    }

    /// What is wrong with `readme`'s snippets, one message per problem, each naming its snippet.
    /// `load` reads a file relative to the package root (`nil` when there is none).
    static func problems(readme: String, load: (String) -> String?) -> [String] {
        var problems: [String] = []
        for marker in markers(in: readme) {
            let label = "README.md:\(marker.line): snippet \(marker.name)"
            guard !marker.file.isEmpty, !marker.region.isEmpty else {
                problems.append("\(label): a marker names FILE#REGION")
                continue
            }
            guard let block = marker.block else {
                problems.append("\(label): no fenced code block follows the marker")
                continue
            }
            guard let source = load(marker.file) else {
                problems.append("\(label): there is no file \(marker.file)")
                continue
            }
            let (regions, fileProblems) = regions(in: source)
            problems += fileProblems.map { "\(marker.file): \($0)" }
            guard let region = regions[marker.region] else {
                let known = regions.keys.sorted().joined(separator: ", ")
                problems.append(
                    "\(label): \(marker.file) has no region '\(marker.region)' (it has: \(known.isEmpty ? "none" : known))")
                continue
            }
            if region != block {
                problems.append(
                    "\(label): the README's block differs from the example (- README, + \(marker.file)):\n"
                        + diff(block, region))
            }
        }
        return problems
    }

    /// A line diff of `old` and `new`: changed lines with `-`/`+` and their line numbers in the
    /// block, unchanged neighbours as context.
    static func diff(_ old: String, _ new: String) -> String {
        let a = old.components(separatedBy: "\n")
        let b = new.components(separatedBy: "\n")
        // Longest common subsequence, from the end.
        var length = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                length[i][j] = a[i] == b[j] ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
            }
        }
        var edits: [(kind: Character, line: Int, text: String)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append((" ", i + 1, a[i]))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || length[i + 1][j] >= length[i][j + 1] {
                edits.append(("-", i + 1, a[i]))
                i += 1
            } else {
                edits.append(("+", j + 1, b[j]))
                j += 1
            }
        }
        let changed = edits.indices.filter { edits[$0].kind != " " }
        return edits.indices.filter { index in changed.contains { abs($0 - index) <= 1 } }
            .map { "  \(edits[$0].kind) \(edits[$0].line): \(edits[$0].text)" }
            .joined(separator: "\n")
    }

    /// The README's sections whose Swift code must all come from examples.
    static let coveredSections = ["Embedding the SDK", "A node-dialect app", "Native components"]

    /// The 1-based lines of the ```swift blocks of `sections` that no snippet marker precedes.
    static func uncoveredSwiftBlocks(in readme: String, sections: [String]) -> [Int] {
        let lines = readme.components(separatedBy: "\n")
        var section = ""
        var inBlock = false
        var uncovered: [Int] = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                if !inBlock, line.hasPrefix("```swift"), sections.contains(section) {
                    let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                    if !previous.hasPrefix(markerPrefix) { uncovered.append(index + 1) }
                }
                inBlock.toggle()
            } else if !inBlock, line.hasPrefix("## ") {
                section = String(line.dropFirst(3))
            }
        }
        return uncovered
    }
}

@Suite("README snippets from Examples/")
struct ExampleSnippetTests {
    /// The repository: this file is tools/Tests/DynamicUIToolingTests/ExampleSnippetTests.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func readme() throws -> String {
        try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    static func load(_ path: String) -> String? {
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        return try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func readmeSnippetsEqualTheirExampleRegions() throws {
        let readme = try Self.readme()
        #expect(!ExampleSnippets.markers(in: readme).isEmpty, "README.md has no snippet markers")
        for problem in ExampleSnippets.problems(readme: readme, load: Self.load) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func everySwiftBlockOfTheEmbeddingSectionsIsASnippet() throws {
        let readme = try Self.readme()
        for section in ExampleSnippets.coveredSections {
            #expect(readme.contains("\n## \(section)\n"), "README.md has no section '\(section)'")
        }
        let uncovered = ExampleSnippets.uncoveredSwiftBlocks(in: readme, sections: ExampleSnippets.coveredSections)
        #expect(
            uncovered.isEmpty,
            "README.md: the Swift blocks at lines \(uncovered) have no `<!-- snippet: FILE#REGION -->` line before them")
    }

    @Test func everyExampleRegionIsWellFormed() throws {
        let examples = Self.root.appendingPathComponent("Examples")
        let files = try #require(FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty, "Examples/ has no Swift files")
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            for problem in ExampleSnippets.regions(in: source).problems {
                Issue.record("\(file.lastPathComponent): \(problem)")
            }
        }
    }

    // The checker itself, on small inputs.

    static let example = """
        import SwiftUI

        struct App {
            // snippet: body
            var body: some Scene {
                WindowGroup { Text("Hi") }
            }
            // snippet: end
        }
        """

    static func readme(_ block: String, marker: String = "Examples/App/App.swift#body") -> String {
        "## Embedding the SDK\n\n<!-- snippet: \(marker) -->\n```swift\n\(block)\n```\n"
    }

    static func check(_ readme: String) -> [String] {
        ExampleSnippets.problems(readme: readme) { $0 == "Examples/App/App.swift" ? Self.example : nil }
    }

    @Test func aRegionIsItsLinesWithoutMarkersOrCommonIndentation() {
        let (regions, problems) = ExampleSnippets.regions(in: Self.example)
        #expect(problems.isEmpty)
        #expect(regions == ["body": "var body: some Scene {\n    WindowGroup { Text(\"Hi\") }\n}"])
        #expect(Self.check(Self.readme("var body: some Scene {\n    WindowGroup { Text(\"Hi\") }\n}")).isEmpty)
    }

    @Test func oneChangedCharacterIsReportedWithTheSnippetAndTheDifference() throws {
        let problems = Self.check(Self.readme("var body: some Scene {\n    WindowGroup { Text(\"Ho\") }\n}"))
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.contains("snippet Examples/App/App.swift#body"))
        #expect(problem.contains("- 2:     WindowGroup { Text(\"Ho\") }"))
        #expect(problem.contains("+ 2:     WindowGroup { Text(\"Hi\") }"))
    }

    @Test func aMissingFileOrRegionOrBlockIsReported() {
        let block = "var body: some Scene {\n    WindowGroup { Text(\"Hi\") }\n}"
        #expect(
            Self.check(Self.readme(block, marker: "Examples/Gone/App.swift#body")).first?.contains("there is no file") == true)
        #expect(
            Self.check(Self.readme(block, marker: "Examples/App/App.swift#scene")).first?.contains("no region 'scene'") == true)
        #expect(Self.check(Self.readme(block, marker: "Examples/App/App.swift")).first?.contains("names FILE#REGION") == true)
        #expect(
            Self.check("<!-- snippet: Examples/App/App.swift#body -->\n\ntext\n").first?.contains("no fenced code block") == true)
    }

    @Test func unbalancedRegionsAreReported() {
        #expect(ExampleSnippets.regions(in: "// snippet: a\nx\n").problems == ["region 'a' has no `// snippet: end`"])
        #expect(ExampleSnippets.regions(in: "x\n// snippet: end\n").problems == ["line 2: `// snippet: end` closes no region"])
        #expect(
            ExampleSnippets.regions(in: "// snippet: a\n// snippet: b\n// snippet: end\n").problems == [
                "line 2: region 'b' starts inside region 'a'"
            ])
    }

    @Test func aSwiftBlockWithoutAMarkerInACoveredSectionIsFound() {
        let readme = "## Embedding the SDK\n\n```swift\nlet a = 1\n```\n\n## Layout\n\n```swift\nlet b = 2\n```\n"
        #expect(ExampleSnippets.uncoveredSwiftBlocks(in: readme, sections: ["Embedding the SDK"]) == [3])
    }
}
