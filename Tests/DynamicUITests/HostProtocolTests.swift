import Foundation
import Testing

/// The SwiftUI views (compiled only on Apple platforms) and the host driver reach the runtime and
/// its models only through the host protocols: a member they call on a model that the protocols
/// do not name fails here, on every platform.
@Suite("Host protocols: the views call nothing else")
struct HostProtocolTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The members the host protocols declare.
    static func protocolMembers() throws -> Set<String> {
        var text = try String(contentsOf: root.appendingPathComponent("Modules/DynamicUI/Hosting.swift"), encoding: .utf8)
        // The SwiftUI refinement adds what only a view can give: a screen node's view, the layout.
        let views = try String(contentsOf: root.appendingPathComponent("Modules/SwiftUI/RenderTreeView.swift"), encoding: .utf8)
        if let start = views.range(of: "protocol RenderTreeHost:"),
            let end = views.range(of: "\n    }\n", range: start.upperBound..<views.endIndex)
        {
            text += views[start.lowerBound..<end.upperBound]
        }
        let pattern = try NSRegularExpression(
            pattern: #"^\s*(?:@discardableResult\s+)?(?:static\s+)?(?:var|func)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
            options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            pattern.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    /// Every `receiver.member` in `files` where the receiver names a model, with its place.
    static func modelCalls(in folder: String, receivers: [String]) throws -> [(member: String, place: String)] {
        let directory = root.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
        let pattern = try NSRegularExpression(
            pattern: #"(?<![A-Za-z0-9_.])(\#(receivers.joined(separator: "|")))\.([A-Za-z_][A-Za-z0-9_]*)"#)
        var calls: [(String, String)] = []
        for file in files.sorted() {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                for match in pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    guard let member = Range(match.range(at: 2), in: line) else { continue }
                    calls.append((String(line[member]), "\(folder)/\(file):\(number + 1)"))
                }
            }
        }
        return calls
    }

    /// Receivers through which the views hold a model: screen models, documents, runtimes, the
    /// navigation, the tree's host.
    static let receivers = ["model", "runtime", "app", "host", "navigation", "scope"]

    @Test func theSwiftUIViewsCallOnlyHostMembers() throws {
        let members = try Self.protocolMembers()
        #expect(members.contains("appeared") && members.contains("scenePhaseChanged"))
        let outside = try Self.modelCalls(in: "Modules/SwiftUI", receivers: Self.receivers).filter {
            !members.contains($0.member)
        }
        #expect(
            outside.isEmpty, "views reach members the host protocols do not name: \(outside.map { "\($0.place) \($0.member)" })")
    }

    @Test func theHostDriverCallsOnlyHostMembers() throws {
        let members = try Self.protocolMembers()
        let outside = try Self.modelCalls(in: "Modules/Testing", receivers: ["model", "runtime", "app", "navigation"])
            .filter { !members.contains($0.member) }
        #expect(
            outside.isEmpty,
            "the driver reaches members the host protocols do not name: \(outside.map { "\($0.place) \($0.member)" })")
    }

    @Test func aMemberOutsideTheProtocolsIsCaught() throws {
        let members = try Self.protocolMembers()
        #expect(!members.contains("loadAndStartPolling") && !members.contains("formState"))
    }
}
