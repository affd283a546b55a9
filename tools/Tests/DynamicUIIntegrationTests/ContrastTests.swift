import DynamicUI
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUIMediaPlayer
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUITesting
import Foundation
import Testing

@Suite("Contrast of the render tree: text 4.5:1, large text and controls 3:1, light and dark", .serialized)
@MainActor
struct ContrastTests {
    func text(
        _ id: String, _ text: String, style: RenderTextStyle = .body, foreground: String? = nil, font: String? = nil
    )
        -> RenderNode
    {
        RenderNode(
            id: id, kind: .text(text, style: style, lineLimit: nil),
            style: NodeStyle(font: font, foregroundColor: foreground))
    }

    func card(_ background: String, _ children: [RenderNode]) -> RenderNode {
        RenderNode(
            id: "card", kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false), children: children,
            style: NodeStyle(backgroundColor: background))
    }

    @Test func aPairBelowItsRatioIsReportedByNodeAndAPassingOneIsNot() throws {
        let tree = card(
            "#0A84FF",
            [text("white", "Guardar", foreground: "#FFFFFF"), text("black", "Guardar", foreground: "#000000")])
        let findings = ContrastAudit(dark: false).findings(in: tree)
        #expect(findings.map(\.nodeId) == ["white"])
        let finding = try #require(findings.first)
        #expect(abs(finding.ratio - 3.65) < 0.01 && finding.required == 4.5)
        #expect(finding.foreground == "#ffffff" && finding.background == "#0a84ff")
        #expect(finding.description.contains("white «Guardar»"))
    }

    @Test func largeTextAndBoldFourteenPointsNeedThreeToOne() throws {
        var theme = Theme()
        theme.fonts = ["big": FontSpec(size: 18), "bold": FontSpec(size: 14, weight: "bold"), "small": FontSpec(size: 14)]
        // #767676 is 4.54:1 on white, #949494 3.03:1, #999999 2.85:1.
        let tree = card(
            "#FFFFFF",
            [
                text("title", "Título", style: .title, foreground: "#949494"),
                text("big", "Grande", foreground: "#949494", font: "big"),
                text("bold", "Negrita", foreground: "#949494", font: "bold"),
                text("small", "Pequeña", foreground: "#949494", font: "small"),
                text("faint", "Tenue", style: .title, foreground: "#999999"),
                text("body", "Cuerpo", foreground: "#767676"),
            ])
        let findings = ContrastAudit(theme: theme, dark: false).findings(in: tree)
        #expect(findings.map(\.nodeId) == ["small", "faint"])
        #expect(findings.map(\.required) == [4.5, 3])
    }

    @Test func themeTokensResolveLightAndDarkAndOpacityFadesText() throws {
        var theme = Theme()
        theme.colors = ["accent": "#872EC4", "on_accent": "#FFFFFF", "background": "#FFFFFF"]
        theme.darkColors = ["accent": "#BF7AF0", "background": "#000000"]
        let button = RenderNode(
            id: "button", kind: .text("Play", style: .body, lineLimit: nil),
            style: NodeStyle(foregroundColor: "on_accent", backgroundColor: "accent"))
        #expect(ContrastAudit(theme: theme, dark: false).findings(in: button).isEmpty)
        // White on the dark accent, #BF7AF0, is 2.89:1.
        #expect(ContrastAudit(theme: theme, dark: true).findings(in: button).map(\.nodeId) == ["button"])
        // Black on white at 20 % opacity is a light grey.
        let faded = RenderNode(
            id: "faded", kind: .text("Apenas", style: .body, lineLimit: nil),
            style: NodeStyle(foregroundColor: "#000000", opacity: 0.2))
        #expect(ContrastAudit(theme: theme, dark: false).findings(in: faded).map(\.nodeId) == ["faded"])
        #expect(ContrastAudit.ratio("#FFFFFF", "#000000").map { abs($0 - 21) < 0.01 } == true)
        #expect(ContrastAudit.ratio("teal", "#000") == nil)
    }

    @Test func rowsOfAnInsetGroupedListSitOnTheGroupedCellBackground() throws {
        // A theme token keeps its value (a literal this dark would get a lighter dark variant):
        // #767676 is 4.6:1 on black, 3.7:1 on the dark grouped cell, #1C1C1E.
        var theme = Theme()
        theme.colors = ["grey": "#767676"]
        let row = text("row", "Fila", foreground: "grey")
        let rows = LazyRows(count: 1, id: { _ in "row" }, build: { _ in row })
        let plain = RenderNode(id: "plain", kind: .list(style: .plain, rows: rows))
        let grouped = RenderNode(id: "grouped", kind: .list(style: .insetGrouped, rows: rows))
        #expect(ContrastAudit(theme: theme, dark: true).findings(in: plain).isEmpty)
        let finding = try #require(ContrastAudit(theme: theme, dark: true).findings(in: grouped).first)
        #expect(finding.nodeId == "row" && finding.background == "#1c1c1e")
    }

    @Test func everyEduGoScreenPassesLightAndDark() async throws {
        var failures: [String] = []
        for email in Set(screenVisits.map { $0.email ?? "" }) {
            let runtime = try await Live()
            defer { Task { await runtime.stop() } }
            if !email.isEmpty { try await runtime.signIn(email) }
            for visit in screenVisits where (visit.email ?? "") == email {
                let model = await runtime.loaded(visit.key, params: visit.params)
                let tree = try model.render(options: RenderOptions(sizeClass: .compact, platform: .ios))
                for dark in [false, true] {
                    failures += ContrastAudit(dark: dark).findings(in: tree).map { "\(visit.key): \($0)" }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) pairs:\n\(failures.prefix(40).joined(separator: "\n"))")
    }

    @Test func everyPodcastDocumentPassesLightAndDarkWithItsTheme() async throws {
        let backend = try DemoBackend()
        try await backend.start()
        defer { Task { await backend.stop() } }
        let app = try NodeAppRuntime(
            configuration: NodeAppConfiguration(
                baseURL: backend.mobileURL, documents: .remote("/v1/documents/{name}"), allowInsecureLoopback: true,
                timeout: 5, retryPolicy: .none),
            components: [MediaPlayerComponent()])
        await app.start()
        let browse = app.model(for: try #require(app.current))
        await browse.load()
        var trees: [(String, RenderNode)] = [("browse", browse.render(options: RenderOptions()).root)]
        let card = try #require(nodes(trees[0].1).first { if case .button = $0.kind { true } else { false } })
        guard case .button(let openPodcast) = card.kind else { return }
        await browse.perform(openPodcast)
        let detail = app.model(for: try #require(app.stack.last))
        await detail.load()
        trees.append(("podcast_detail", detail.render(options: RenderOptions()).root))
        let link = try #require(
            nodes(trees[1].1, rows: 5).first {
                if case .navigationLink("episode_detail", _) = $0.kind { true } else { false }
            })
        guard case .navigationLink(let screen, let params) = link.kind else { return }
        detail.open(screen: screen, params: params)
        for route in [
            try #require(app.stack.last), NodeRoute(document: "genre", params: ["genreId": 1304, "title": "Education"]),
            NodeRoute(document: "search"),
        ] {
            let model = app.model(for: route)
            await model.load()
            trees.append((route.document, model.render(options: RenderOptions()).root))
        }
        var failures: [String] = []
        for (name, tree) in trees {
            for dark in [false, true] {
                failures += ContrastAudit(theme: app.theme, dark: dark).findings(in: tree).map { "\(name): \($0)" }
            }
        }
        #expect(trees.count == 5)
        #expect(failures.isEmpty, "\(failures.count) pairs:\n\(failures.prefix(40).joined(separator: "\n"))")
    }
}
