import Foundation
import Testing

@Test func guideMatchesTheCompiledExample() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let root = tests.deletingLastPathComponent().deletingLastPathComponent()
    let guide = try String(
        contentsOf: root.appendingPathComponent("Modules/Testing/DynamicUITesting.docc/WritingAHandlerPlugin.md"), encoding: .utf8
    )
    let example = try String(contentsOf: tests.appendingPathComponent("ExamplePlugin.swift"), encoding: .utf8)
    let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    #expect(blocks.count == 3)
    for block in blocks {
        #expect(example.contains(block), "the guide's code block is not in ExamplePlugin.swift:\n\(block)")
    }
}

@Test func componentGuideMatchesTheCompiledExample() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let root = tests.deletingLastPathComponent().deletingLastPathComponent()
    let guide = try String(
        contentsOf: root.appendingPathComponent("Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md"),
        encoding: .utf8)
    let example = try String(
        contentsOf: root.appendingPathComponent("Tests/DynamicUITests/ComponentGuideExample.swift"), encoding: .utf8)
    let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    #expect(blocks.count == 3)
    for block in blocks {
        #expect(example.contains(block), "the guide's code block is not in ComponentGuideExample.swift:\n\(block)")
    }
}
