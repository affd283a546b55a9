import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUIResolvers
import Foundation
import Testing

// Rows, chrome and search fields are built by the pattern lowering; these tests build them directly.
@testable import DynamicUIRendering
@testable import DynamicUIWeb

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parses a page as XML and collects what the structural checks need.
final class PageChecker: NSObject, XMLParserDelegate {
    var error: String?
    var ids: [String] = []
    var labelTargets: [String] = []
    var describedBy: [String] = []
    var formDepth = 0
    var nestedForm = false
    var inputsWithoutName = 0
    var attributes: [(element: String, name: String, value: String)] = []
    var elements: [String] = []

    static func check(_ html: String) -> PageChecker {
        let checker = PageChecker()
        let body = html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "")
        let parser = XMLParser(data: Data(body.utf8))
        parser.delegate = checker
        if !parser.parse() { checker.error = parser.parserError.map { "\($0)" } ?? "parse failed" }
        return checker
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(element)
        for (name, value) in attributes { self.attributes.append((element, name, value)) }
        if let id = attributes["id"] { ids.append(id) }
        if element == "label", let target = attributes["for"] { labelTargets.append(target) }
        if let target = attributes["aria-describedby"] { describedBy.append(target) }
        if element == "form" {
            if formDepth > 0 { nestedForm = true }
            formDepth += 1
        }
        if ["input", "select"].contains(element), attributes["name"] == nil { inputsWithoutName += 1 }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "form" { formDepth -= 1 }
    }

    func assertStructure(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error == nil, "\(name): not well-formed: \(error ?? "")", sourceLocation: sourceLocation)
        #expect(
            Set(ids).count == ids.count,
            "\(name): duplicate ids \(Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())",
            sourceLocation: sourceLocation)
        for target in labelTargets + describedBy {
            #expect(
                ids.contains(target), "\(name): label or description points at missing id \(target)",
                sourceLocation: sourceLocation)
        }
        #expect(!nestedForm, "\(name): nested forms", sourceLocation: sourceLocation)
        #expect(inputsWithoutName == 0, "\(name): inputs without a name", sourceLocation: sourceLocation)
        for attribute in attributes where ["href", "src", "action", "formaction"].contains(attribute.name) {
            let value = attribute.value.lowercased()
            #expect(
                !value.hasPrefix("javascript:") && !value.hasPrefix("data:") && !value.hasPrefix("file:"),
                "\(name): unsafe URL \(attribute.value)")
        }
        #expect(attributes.allSatisfy { !$0.name.lowercased().hasPrefix("on") }, "\(name): event handler attribute")
        // The only script is the renderer's own keyboard handling, in the head.
        #expect(elements.filter { $0 == "script" }.count <= 1, "\(name): a script element")
        if let script = elements.firstIndex(of: "script") {
            #expect(elements.firstIndex(of: "body").map { script < $0 } ?? false, "\(name): a script in the body")
        }
    }
}

let hostile = #"<script>alert("x")</script> "' onerror=alert(1) x="y" & </p><img src=x onerror=alert(2)>"#
let hostileURL = "javascript:alert(document.cookie)"

@Suite("HTML renderer: hostile input")
struct HostileInputTests {
    @Test(arguments: [ControlType.textInput, .select, .radioGroup])
    func aRequiredFieldIsMarkedWhateverItsControl(type: ControlType) {
        func html(required: Bool) -> String {
            let control = ControlNode(
                type: type, field: "subject", label: "Asignatura", value: .null, placeholder: nil, isRequired: required,
                isReadOnly: false, options: [SlotOption(value: "a", label: "A")])
            return HTMLRenderer().fragment(RenderNode(id: "f", kind: .control(control)))
        }
        #expect(html(required: true).contains("Asignatura <span aria-hidden=\"true\">*</span></"), "\(html(required: true))")
        #expect(!html(required: false).contains("*</span>"))
    }

    @Test func aLoadingSectionIsABusySkeleton() {
        let html = HTMLRenderer().fragment(RenderNode(id: "zone:recent", kind: .skeleton(lines: 3)))
        #expect(
            html.contains("class=\"skeleton\"") && html.contains("aria-busy=\"true\"") && html.contains("Cargando"), "\(html)")
        #expect(html.components(separatedBy: "class=\"bar\"").count == 4)
        // A server cannot make it draw without bound.
        let huge = HTMLRenderer().fragment(RenderNode(id: "z", kind: .skeleton(lines: .max)))
        #expect(huge.components(separatedBy: "class=\"bar\"").count == 13)
    }

    @Test func aTransitionAnimatesTheElementAndRespectsReducedMotion() {
        let node = RenderNode(
            id: "zone:card", kind: .text("Hola", style: .body, lineLimit: nil),
            transition: RenderTransition(kind: .slide, duration: 0.3, curve: .easeOut))
        let html = HTMLRenderer().fragment(node)
        #expect(
            html.hasPrefix(
                "<div class=\"transition t-slide\" style=\"animation-duration:300ms;animation-timing-function:ease-out\">"),
            "\(html)")
        let chrome = ScreenChrome(pattern: "dashboard", title: "Panel", largeTitle: false, showsBack: false)
        let page = HTMLRenderer().page(RenderNode(id: "screen", kind: .screen(chrome), children: [node]))
        #expect(page.contains("@media (prefers-reduced-motion:reduce){.t-slide,.t-scale{animation-name:dui-fade}}"))
    }

    @Test func everyTextAttributeAndURLPositionIsEscaped() throws {
        let rows = LazyRows(count: 1, id: { _ in "row/\(hostile)" }) { _ in
            RenderNode(
                id: "row/\(hostile)",
                kind: .row(
                    RowNode(
                        title: hostile, subtitles: [hostile], badge: hostile, icon: hostile, showsChevron: true,
                        actionId: hostile, swipeActionIds: [], contextActionIds: [])),
                accessibility: AccessibilityInfo(label: hostile))
        }
        let control = { (type: ControlType, kind: InputKind?) in
            ControlNode(
                type: type, field: hostile, label: hostile, value: .string(hostile), placeholder: hostile, isRequired: true,
                isReadOnly: false,
                error: hostile, inputKind: kind, options: [SlotOption(value: hostile, label: hostile)], icon: hostile,
                role: .primary,
                actionId: hostile, styleName: hostile)
        }
        var chrome = ScreenChrome(
            pattern: hostile, title: hostile, largeTitle: true, showsBack: true,
            toolbar: [
                RenderToolbarItem(
                    placement: .confirmation, title: hostile, systemImage: nil, actionId: hostile, isDestructive: true)
            ],
            search: RenderSearchField(prompt: hostile, field: hostile, text: hostile), refreshActionId: hostile,
            pagination: PaginationState(hasMore: true, loadingMore: false))
        chrome.banner = Banner(kind: .error, message: hostile)
        chrome.confirmation = ConfirmationRequest(
            title: hostile, message: hostile, confirmLabel: hostile, cancelLabel: hostile, destructive: true,
            action: ActionDefinition(id: hostile, trigger: .buttonClick, type: .apiCall))
        let nodes: [RenderNode] = [
            RenderNode(id: "t\(hostile)", kind: .text(hostile, style: .largeTitle, lineLimit: nil)),
            RenderNode(id: "l", kind: .labeledContent(label: hostile, value: hostile)),
            RenderNode(id: "m", kind: .metric(label: hostile, value: hostile, icon: hostile)),
            RenderNode(id: "c", kind: .chip(hostile, style: RenderChipStyle(wire: hostile))),
            RenderNode(
                id: "s", kind: .section(header: hostile),
                children: [RenderNode(id: "e", kind: .emptyState(title: hostile, message: hostile, systemImage: hostile))]),
            RenderNode(
                id: "i", kind: .image(source: hostileURL, isSymbol: false, contentMode: nil),
                accessibility: AccessibilityInfo(label: hostile)),
            RenderNode(
                id: "i2", kind: .image(source: hostile, isSymbol: true, contentMode: nil),
                accessibility: AccessibilityInfo(label: hostile)),
            RenderNode(id: "a", kind: .avatar(source: "data:text/html,<script>alert(1)</script>", initials: hostile)),
            RenderNode(id: "tabs", kind: .tabView([TabItem(title: hostile, icon: hostile, screen: hostile)])),
            RenderNode(
                id: "link", kind: .navigationLink(screen: hostile, params: [hostile: .string(hostile)]),
                children: [RenderNode(id: "lt", kind: .text(hostile, style: .body, lineLimit: nil))]),
            RenderNode(id: "list", kind: .list(style: .plain, rows: rows)),
            RenderNode(id: "tf", kind: .textField(placeholder: hostile, binding: hostile, text: hostile)),
            RenderNode(id: "u", kind: .unknown(hostile)),
            RenderNode(
                id: "b", kind: .button(actionKey: hostile),
                children: [RenderNode(id: "bt", kind: .text(hostile, style: .body, lineLimit: nil))]),
            RenderNode(
                id: "form", kind: .form,
                children: [
                    RenderNode(id: "text", kind: .control(control(.textInput, .text))),
                    RenderNode(id: "email", kind: .control(control(.emailInput, .email))),
                    RenderNode(id: "select", kind: .control(control(.select, nil))),
                    RenderNode(id: "radio", kind: .control(control(.radioGroup, nil))),
                    RenderNode(id: "switch", kind: .control(control(.switch, nil))),
                    RenderNode(id: "button", kind: .control(control(.filledButton, nil))),
                ]),
        ]
        let page = HTMLRenderer().page(
            RenderNode(
                id: "screen", kind: .screen(chrome),
                children: [
                    RenderNode(
                        id: "content", kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false), children: nodes)
                ]),
            navigation: [(hostile, hostileURL, true, hostile)])
        let checker = PageChecker.check(page)
        checker.assertStructure("hostile page")
        // One script: the renderer's own (avatar pictures, keyboard handling), before the body.
        #expect(page.components(separatedBy: "<script").count == 2)
        #expect(page.contains("<script>//<![CDATA[\ndocument.addEventListener('error'"))
        #expect(page.range(of: "<script")!.lowerBound < page.range(of: "<body>")!.lowerBound)
        #expect(!page.lowercased().contains("javascript:"))
        #expect(!page.contains("data:text"))
        // "onerror=" survives only as escaped text: no element carries an on* attribute (checked above).
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        // Every hostile string came back as text, never as markup.
        #expect(checker.elements.filter { $0 == "script" }.count == 1)
        #expect(checker.elements.allSatisfy { !["p2", "img2"].contains($0) })
        // Two real images (the picture and the avatar, both with their unsafe sources replaced);
        // the hostile text's <img> never became an element.
        #expect(checker.elements.filter { $0 == "img" }.count == 2)
        #expect(checker.attributes.filter { $0.element == "img" && $0.name == "src" }.allSatisfy { $0.value == "#" })
    }

    @Test func urlPolicy() {
        #expect(HTMLRenderer.url("javascript:alert(1)") == "#")
        #expect(HTMLRenderer.url(" JaVaScRiPt:alert(1)") == "#")
        #expect(HTMLRenderer.url("\tjavascript:alert(1)") == "#")
        #expect(HTMLRenderer.url("vbscript:x") == "#")
        #expect(HTMLRenderer.url("data:text/html,x") == "#")
        #expect(HTMLRenderer.url("file:///etc/passwd") == "#")
        #expect(HTMLRenderer.url("https://a.test/x?y=1&z=\"2\"") == "https://a.test/x?y=1&amp;z=&quot;2&quot;")
        #expect(HTMLRenderer.url("/screen/x?a=b:c") == "/screen/x?a=b:c")
        #expect(HTMLRenderer.url("mailto:ana@edugo.test") == "mailto:ana@edugo.test")
    }
}

@Suite("HTML renderer: a valid page per EduGo pattern")
struct PatternPageTests {
    static let catalog = try! EduGoCatalog()
    static let environment = EvaluationEnvironment(
        now: Date(timeIntervalSince1970: 1_773_570_600), locale: Locale(identifier: "es_ES"))

    @Test(arguments: [
        "app-login", "dashboard-teacher", "materials-list", "material-detail", "material-edit", "app-settings", "users-list",
        "assessment-take",
    ])
    func page(key: String) throws {
        let screen = try Self.catalog.screen(key)
        let compiled = try ScreenCompiler().compile(screen)
        var data: JSONValue = .null
        var items: [JSONValue]?
        switch key {
        case "dashboard-teacher": data = try Self.catalog.data("stats_global")
        case "materials-list":
            items = Array((try Self.catalog.data("materials").arrayValue ?? []).prefix(20))
            data = .array(items!)
        case "users-list":
            items = Array((try Self.catalog.data("users").arrayValue ?? []).prefix(20))
            data = .array(items!)
        case "material-detail", "material-edit": data = try Self.catalog.data("materials")[0] ?? .null
        case "assessment-take": data = try Self.catalog.data("assessments")[0] ?? .null
        default: break
        }
        let context = try compiled.context(
            user: AuthUserInfo(id: "usr-1", firstName: "Ana", lastName: "Pérez", email: "ana@edugo.test"),
            userContext: UserContext(role: "teacher", roleName: "Docente"), data: data, environment: Self.environment)
        for sizeClass in SizeClass.allCases {
            let tree = PatternRouter(options: RenderOptions(sizeClass: sizeClass)).render(
                ScreenInputs(
                    screen: compiled, context: context, items: items.map(ListItems.init),
                    form: FormSnapshot(errors: ["title": "Título: campo obligatorio"]),
                    pagination: PaginationState(hasMore: true, loadingMore: false)))
            let html = HTMLRenderer().page(
                tree,
                navigation: [
                    ("Inicio", "/screen/dashboard-teacher", false, "house.fill"),
                    ("Materiales", "/screen/materials-list", true, "books.vertical.fill"),
                ])
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"es\" dir=\"ltr\">"))
            PageChecker.check(html).assertStructure("\(key) \(sizeClass)")
            #expect(html.contains("<h1"))
        }
    }

    @Test func formsPostTheirActionsAndInputsHaveTypes() throws {
        let compiled = try ScreenCompiler().compile(try Self.catalog.screen("app-login"))
        let context = try compiled.context(user: nil, userContext: nil, data: .null, environment: Self.environment)
        let html = HTMLRenderer().page(
            PatternRouter().render(
                ScreenInputs(
                    screen: compiled, context: context, form: FormSnapshot(errors: ["email": "Correo: campo obligatorio"]))))
        #expect(html.contains("<form id=\"n-screen_app_login-form\" method=\"post\" action=\"/action\""))
        #expect(html.contains("type=\"email\" autocomplete=\"email\""))
        #expect(html.contains("type=\"password\" autocomplete=\"current-password\""))
        #expect(html.contains("formaction=\"/action/submit-login\""))
        #expect(html.contains("aria-invalid=\"true\""))
        #expect(html.contains("Correo: campo obligatorio"))
        #expect(html.contains("prefers-color-scheme:dark"))
    }
}

@Suite("HTML of hostile values")
struct HostileHTMLTests {
    @Test(arguments: [1e19, -1e19, 1e300, -1e300, Double.nan, Double.infinity, -0.0, Double(Int64.max)])
    func ratingsOfAnySizeDrawFiveStars(value: Double) {
        let html = HTMLRenderer().fragment(RenderNode(id: "r", kind: .rating(value)))
        #expect(html.filter { $0 == "★" || $0 == "☆" }.count == 5, "\(html)")
        #expect(PageChecker.check("<div>\(html)</div>").error == nil)
    }

    @Test func gridsDrawABoundedColumnCount() {
        let html = HTMLRenderer().fragment(RenderNode(id: "g", kind: .grid(columns: .max, spacing: nil)))
        #expect(html.contains("repeat(\(RenderKind.maxGridColumns),"))
        #expect(HTMLRenderer().fragment(RenderNode(id: "g", kind: .grid(columns: .min, spacing: nil))).contains("repeat(1,"))
    }
}

@Suite("HTML of multiplying documents")
struct MultiplyingHTMLTests {
    @Test func nestedListsStopAtTheOutputBudget() throws {
        let document = try ViewNode(
            json: try JSONReader().read(
                #"""
                {"type": "list", "props": {"items": "$.rows", "itemTemplate":
                  {"type": "list", "props": {"items": "$.rows", "itemTemplate":
                    {"type": "list", "props": {"items": "$.rows", "itemTemplate":
                      {"type": "text", "props": {"content": "$.item.name"}}}}}}}}
                """#))
        let rows = JSONValue.array((0..<500).map { ["name": .string("row \($0)")] })
        let rendered = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])
            .render(
                try NodeCompiler().compile(document),
                context: DataContext([("rows", rows)], environment: EvaluationEnvironment(now: Date())), name: "doc")
        var renderer = HTMLRenderer()
        renderer.maxOutputBytes = 1 << 20
        let html = renderer.fragment(rendered.root)
        #expect(html.utf8.count < 2 << 20, "\(html.utf8.count) bytes")
        #expect(html.contains("<li class=\"more\">…</li>"))
        #expect(PageChecker.check(html).error == nil)
    }
}

@Suite("HTML of layout hints, avatars and the back link")
struct HTMLPresentationTests {
    @Test func sizesSeparatorsAndImageRatios() {
        let renderer = HTMLRenderer()
        let weighted = RenderNode(id: "a", kind: .text("A", style: .body, lineLimit: nil), layout: LayoutHints(weight: 2))
        let fixed = RenderNode(
            id: "b", kind: .text("B", style: .body, lineLimit: nil), layout: LayoutHints(width: .fraction(0.25)))
        let row = renderer.fragment(
            RenderNode(
                id: "r", kind: .stack(axis: .horizontal, spacing: 8, alignment: nil, lazy: false), children: [weighted, fixed]))
        #expect(row.contains("<div class=\"sized\" style=\"flex:2 1 0\">"))
        #expect(row.contains("style=\"flex:none;width:25%\""))
        let rows = LazyRows(count: 2, id: { "row\($0)" }) {
            RenderNode(id: "row\($0)", kind: .text("x", style: .body, lineLimit: nil))
        }
        let plain = renderer.fragment(RenderNode(id: "l", kind: .list(style: .plain, rows: rows)))
        let bare = renderer.fragment(
            RenderNode(id: "l", kind: .list(style: .plain, rows: rows), layout: LayoutHints(showsSeparators: false)))
        #expect(!plain.contains("no-separators") && bare.contains("class=\"list plain no-separators\""))
        let image = renderer.fragment(
            RenderNode(
                id: "i", kind: .image(source: "https://cdn.test/p.jpg", isSymbol: false, contentMode: .fill),
                layout: LayoutHints(aspectRatio: 1.5)))
        #expect(image.contains("aspect-ratio:1.5;object-fit:cover") && image.contains("class=\"resizable\""))
    }

    /// Every alignment, content mode and chip style the tree carries is drawn: a class the
    /// stylesheet styles, or an `object-fit` (SwiftUI's mapping is an exhaustive switch, checked
    /// when it compiles for iOS).
    @Test func everyTypedValueIsDrawn() {
        let renderer = HTMLRenderer()
        let css = HTMLRenderer.stylesheet
        for alignment in RenderAlignment.allCases {
            for axis in [RenderAxis.vertical, .horizontal] {
                let html = renderer.fragment(
                    RenderNode(id: "s", kind: .stack(axis: axis, spacing: nil, alignment: alignment, lazy: false)))
                #expect(html.contains("class=\"stack \(axis.rawValue) align-\(alignment.rawValue)\""))
                let styled =
                    css.contains(".stack.\(axis.rawValue).align-\(alignment.rawValue){")
                    || css.contains(".stack.\(axis.rawValue).align-\(alignment.rawValue),")
                // A horizontal stack is centred vertically already: its leading, trailing and
                // centre need no rule.
                let centredAlready = axis == .horizontal && [.center, .leading, .trailing].contains(alignment)
                #expect(styled || centredAlready, "\(axis) \(alignment)")
            }
            let layered = renderer.fragment(RenderNode(id: "z", kind: .zstack(alignment: alignment)))
            #expect(layered.contains("class=\"zstack align-\(alignment.rawValue)\""))
            #expect(
                css.contains(".zstack.align-\(alignment.rawValue){") || [.center, .firstTextBaseline].contains(alignment),
                "\(alignment): centred by the grid's own rule otherwise")
        }
        for style in RenderChipStyle.allCases {
            let html = renderer.fragment(RenderNode(id: "c", kind: .chip("Listo", style: style)))
            #expect(html.contains(style == .neutral ? "class=\"chip\"" : "class=\"chip \(style.rawValue)\""))
            #expect(style == .neutral || css.contains(".chip.\(style.rawValue){"))
        }
        for mode in RenderContentMode.allCases {
            let html = renderer.fragment(
                RenderNode(
                    id: "i", kind: .image(source: "https://cdn.test/p.jpg", isSymbol: false, contentMode: mode),
                    layout: LayoutHints(aspectRatio: 1)))
            #expect(html.contains("object-fit:\(mode == .fill ? "cover" : "contain")"))
        }
        #expect(RenderAlignment(wire: "start") == .leading && RenderAlignment(wire: "top_trailing") == .topTrailing)
        #expect(RenderAlignment(wire: "diagonal") == nil && RenderContentMode(wire: "stretch") == nil)
        #expect(RenderChipStyle(wire: "error") == .danger && RenderChipStyle(wire: "published") == .neutral)
    }

    @Test func anAvatarShowsInitialsUnderItsPictureAndNoURLAsText() {
        let html = HTMLRenderer().fragment(
            RenderNode(
                id: "a", kind: .avatar(source: "https://cdn.test/u.png", initials: "LF"),
                accessibility: AccessibilityInfo(label: "Lucía Fernández")))
        #expect(html.contains("role=\"img\" aria-label=\"Lucía Fernández\""))
        #expect(html.contains("<span class=\"initials\">LF</span>"))
        #expect(html.contains("<img src=\"https://cdn.test/u.png\" alt=\"\""))
        #expect(!html.contains(" on"))
    }

    @Test func theBackLinkKeepsTheRoute() {
        var renderer = HTMLRenderer()
        renderer.backPath = "/screen/material-detail?id=mat-003&back=1"
        let page = renderer.fragment(
            RenderNode(
                id: "s", kind: .screen(ScreenChrome(pattern: "detail", title: "Material", largeTitle: false, showsBack: true))))
        #expect(page.contains("href=\"/screen/material-detail?id=mat-003&amp;back=1\""))
    }
}
