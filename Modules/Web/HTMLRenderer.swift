public import DynamicUIModels
public import DynamicUIRendering
import DynamicUIResolvers
import Foundation

/// Draws a render tree as an HTML page that looks like iOS (system font, grouped insets, light
/// and dark with `prefers-color-scheme`). Semantic elements, labelled inputs with the right
/// `type` and `autocomplete`, and forms that post the action they fire. Every text and
/// attribute is escaped and only `http(s)`, `mailto:`, `tel:` and relative URLs are written,
/// so no value from data can inject markup or script. Output is also well-formed XML.
public struct HTMLRenderer: Sendable {
    /// The action a confirmation dialog's Cancel posts (`{actionPath}/_cancel-confirmation`): the
    /// host declines the pending confirmation and shows the page again.
    public static let cancelConfirmationActionId = "_cancel-confirmation"

    /// The number of rows of the first list under `node`, if there is one.
    static func rowCount(in node: RenderNode) -> Int? {
        if case .list(_, let rows) = node.kind { return rows.count }
        for child in node.children {
            if let count = rowCount(in: child) { return count }
        }
        return nil
    }
    /// Where forms and buttons post: `{actionPath}/{actionId}`.
    public var actionPath: String
    /// Where links to screens go: `{screenPath}/{screenKey}?params`.
    public var screenPath: String
    /// Most rows drawn per list (the current page).
    public var rowLimit: Int
    /// Past this many bytes of output no more list rows are drawn, so lists nested in rows
    /// cannot multiply a page without bound.
    public var maxOutputBytes: Int = 16 << 20
    /// The app's native components, drawn through their `html(_:)`.
    public var components: NativeComponentRegistry = .empty
    /// The page language (`lang`); a page of a screen takes its chrome's language instead.
    public var language: String
    /// The SDK's words outside a screen's chrome (the navigation's label, row menus); a page
    /// of a screen uses the screen's words and writing direction.
    public var strings: DynamicUIStrings
    /// Where the back link goes (the page's own route with `back=1`, so its parameters stay).
    public var backPath = "?back=1"
    /// Hidden fields of the screen's search form (the page's own parameters, such as `id`), so
    /// a query keeps them and only replaces the list.
    public var searchParameters: [(String, String)] = []
    /// When set, a search field of a node document also goes to `?{name}=text` with script (the
    /// page's history entry replaced); without script it posts its action as before.
    public var searchParameter: String?
    /// A hidden field written into every form that posts (a host's per-session form token, so
    /// its server can tell its own forms from another site's); `nil` writes none.
    public var formToken: (name: String, value: String)?
    /// Actions whose change waits in the offline queue: their buttons are drawn disabled and
    /// marked `data-pending`, so the same change is not sent twice.
    public var pendingActions: Set<String> = []

    /// Creates a renderer.
    public init(actionPath: String = "/action", screenPath: String = "/screen", rowLimit: Int = 500, language: String = "es") {
        self.actionPath = actionPath
        self.screenPath = screenPath
        self.rowLimit = rowLimit
        self.language = language
        self.strings = DynamicUIStrings(identifier: language)
    }

    /// The colour scheme of a page.
    public enum Theme: String, Sendable, Hashable {
        /// Follows the system (`prefers-color-scheme`).
        case system
        /// Always light.
        case light
        /// Always dark.
        case dark
    }

    /// A complete page for `root`, with `navigation` (tab bar / sidebar links) above it.
    /// `preamble` is trusted HTML placed first in the body (a host's own toolbar) and
    /// `postscript` last (a host's script, such as `liveScript`); neither is escaped.
    public func page(
        _ root: RenderNode, navigation: [(title: String, href: String, selected: Bool, systemImage: String?)] = [],
        theme: Theme = .system,
        palette: DynamicUIModels.Theme? = nil, preamble: String = "", shortcuts: [String: String] = [:],
        postscript: String = ""
    ) -> String {
        var title = "DynamicUI"
        var renderer = self
        if case .screen(let chrome) = root.kind {
            if !chrome.title.isEmpty { title = chrome.title }
            // The screen's words and direction are the page's.
            renderer.strings = chrome.strings
            renderer.language = chrome.strings.language.rawValue
        }
        return renderer.document(
            root, title: title, navigation: navigation, theme: theme, palette: palette, preamble: preamble, shortcuts: shortcuts,
            postscript: postscript)
    }

    private func document(
        _ root: RenderNode, title: String, navigation: [(title: String, href: String, selected: Bool, systemImage: String?)],
        theme: Theme,
        palette: DynamicUIModels.Theme?, preamble: String, shortcuts: [String: String], postscript: String
    ) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"\(Self.attribute(language))\" dir=\"\(strings.direction.rawValue)\""
        if theme != .system { out += " data-theme=\"\(theme.rawValue)\"" }
        out += "><head><meta charset=\"utf-8\" />"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" /><title>\(Self.escape(title))</title>"
        out += "<style>\(Self.stylesheet)</style>"
        if let palette { out += "<style>\(Self.paletteStyle(palette))</style>" }
        out +=
            shortcuts.isEmpty
            ? Self.plainKeyboardScript : "<script>//<![CDATA[\n\(Self.keyboardScript(shortcuts))\n//]]></script>"
        out += "</head><body>" + preamble
        if !navigation.isEmpty {
            out += "<nav class=\"tabs\" aria-label=\"\(Self.attribute(strings(.navigation)))\"><ul>"
            for item in navigation {
                // The tab's SF Symbol as a mask over the text color (a known symbol; else none).
                let icon =
                    item.systemImage.flatMap(TabIcons.svg).map { " style=\"--icon:url('\($0)')\" class=\"has-icon\"" } ?? ""
                out +=
                    "<li><a href=\"\(Self.url(item.href))\"\(icon)\(item.selected ? " aria-current=\"page\"" : "")>\(Self.escape(item.title))</a></li>"
            }
            out += "</ul></nav>"
        }
        out += "<main>" + fragment(root) + "</main>" + postscript + "</body></html>\n"
        return out
    }

    /// The HTML of one node and its children.
    public func fragment(_ node: RenderNode) -> String {
        var out = ""
        draw(node, into: &out)
        return out
    }

    /// The hidden `formToken` field of a form that posts, or nothing.
    private var tokenField: String {
        guard let formToken else { return "" }
        return "<input type=\"hidden\" name=\"\(Self.attribute(formToken.name))\" value=\"\(Self.attribute(formToken.value))\" />"
    }

    // MARK: Drawing

    private func domId(_ id: String) -> String {
        // ASCII letters and digits stay; any other character (whatever its UTF-8 length) is one `_`.
        var bytes = Array("n-".utf8)
        bytes.reserveCapacity(id.utf8.count + 2)
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case 0x80...0xBF: continue  // a continuation byte of a character already written as `_`
            default: bytes.append(UInt8(ascii: "_"))
            }
        }
        // ASCII only: nothing to validate.
        return bytes.withUnsafeBufferPointer { String(validatedUTF8: $0) }
    }

    private func styleAttribute(_ style: NodeStyle?) -> String {
        guard let style else { return "" }
        var css: [String] = []
        // A literal color gets its dark variant (`light-dark()` follows the page's color scheme).
        func color(_ name: String, _ role: AdaptiveColor.Role) -> String {
            if let adaptive = AdaptiveColor(name, role: role) {
                return adaptive.light == adaptive.dark ? adaptive.light : "light-dark(\(adaptive.light),\(adaptive.dark))"
            }
            return name.hasPrefix("#") ? Self.cssColor(name) : "var(--\(Self.cssIdent(name)))"
        }
        if let value = style.foregroundColor { css.append("color:\(color(value, .foreground))") }
        if let value = style.backgroundColor { css.append("background:\(color(value, .background))") }
        switch style.padding {
        case .all(let value)?: css.append("padding:\(Self.number(value))px")
        case .edges(let top, let bottom, let leading, let trailing)?:
            css.append(
                "padding:\(Self.number(top))px \(Self.number(trailing))px \(Self.number(bottom))px \(Self.number(leading))px")
        case nil: break
        }
        if let value = style.cornerRadius { css.append("border-radius:\(Self.number(value))px") }
        for (name, dimension) in [
            ("width", style.width), ("height", style.height), ("max-width", style.maxWidth), ("max-height", style.maxHeight),
        ] {
            switch dimension {
            case .points(let value)?: css.append("\(name):\(Self.number(value))px")
            case .infinity?: css.append("\(name):100%")
            case nil: break
            }
        }
        if let value = style.opacity { css.append("opacity:\(Self.number(value))") }
        if style.clipShape == "circle" { css.append("border-radius:50%;overflow:hidden") }
        return css.isEmpty ? "" : " style=\"\(Self.attribute(css.joined(separator: ";")))\""
    }

    /// `open`, the children of `node`, then `</div>`.
    private func division(_ open: String, _ node: RenderNode, into out: inout String, inForm: Bool) {
        out += open
        children(node, into: &out, inForm: inForm)
        out += "</div>"
    }

    private func children(_ node: RenderNode, into out: inout String, inForm: Bool) {
        for child in node.children { draw(child, into: &out, inForm: inForm) }
    }

    /// Draws `node`; `inForm` when inside the screen's `<form>` (buttons then use `formaction`
    /// instead of forms of their own, which HTML does not allow nested). A node with a `log_id`
    /// carries it as `data-log-id` on its element, for impressions (an IntersectionObserver), and
    /// one with visibility actions its id and thresholds (`data-visibility`, `data-thresholds`).
    private func draw(_ node: RenderNode, into out: inout String, inForm: Bool = false) {
        if let transition = node.transition {
            // Animated as it appears; `prefers-reduced-motion` turns a slide or scale into a fade.
            out += "<div class=\"transition t-\(transition.kind.rawValue)\" style=\"\(Self.animation(transition))\">"
            var plain = node
            plain.transition = nil
            draw(plain, into: &out, inForm: inForm)
            out += "</div>"
            return
        }
        if let css = Self.sizing(node.layout) {
            // A slot's width or weight: a flex item around the element.
            out += "<div class=\"sized\" style=\"\(css)\">"
            drawLogged(node, into: &out, inForm: inForm)
            out += "</div>"
            return
        }
        drawLogged(node, into: &out, inForm: inForm)
    }

    /// The CSS animation timing of a transition.
    static func animation(_ transition: RenderTransition) -> String {
        let curve =
            switch transition.curve {
            case .linear: "linear"
            case .easeIn: "ease-in"
            case .easeOut: "ease-out"
            case .spring: "cubic-bezier(.34,1.56,.64,1)"
            default: "ease-in-out"
            }
        return "animation-duration:\(Int((transition.duration * 1000).rounded()))ms;animation-timing-function:\(curve)"
    }

    /// The CSS of a slot's `width` and `weight` (`flex` in a row), or `nil` when it has neither.
    static func sizing(_ layout: LayoutHints?) -> String? {
        guard let layout, layout.width != nil || layout.weight != nil else { return nil }
        var css: [String] = []
        switch layout.width {
        case .points(let value)?: css.append("flex:none;width:\(number(value))px")
        case .fraction(let value)?: css.append("flex:none;width:\(number(value * 100))%")
        case .fill?: css.append("flex:1 1 0;width:100%")
        case nil: break
        }
        if let weight = layout.weight, layout.width == nil || layout.width == .fill {
            css.append("flex:\(number(weight)) 1 0")
        }
        return css.joined(separator: ";")
    }

    private func drawLogged(_ node: RenderNode, into out: inout String, inForm: Bool) {
        guard node.logId != nil || node.visibility != nil else {
            drawElement(node, into: &out, inForm: inForm)
            return
        }
        var attributes = node.logId.map { " data-log-id=\"\(Self.attribute($0))\"" } ?? ""
        if let visibility = node.visibility {
            // The page reports the element's visible share as it crosses these thresholds.
            let thresholds = visibility.thresholds.map { Self.number($0) }.joined(separator: " ")
            attributes += " data-visibility=\"\(Self.attribute(node.id))\" data-thresholds=\"\(thresholds)\""
        }
        let start = out.utf8.count
        drawElement(node, into: &out, inForm: inForm)
        // After the first tag name: `<div class=…` becomes `<div data-log-id="…" class=…`.
        let drawn = out.utf8.dropFirst(start)
        guard drawn.first == UInt8(ascii: "<"),
            let nameEnd = drawn.firstIndex(where: {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "/")
            })
        else { return }
        out.insert(contentsOf: attributes, at: nameEnd)
    }

    private func drawElement(_ node: RenderNode, into out: inout String, inForm: Bool) {
        let id = domId(node.id)
        let style = styleAttribute(node.style)
        let label = node.accessibility?.label.map { " aria-label=\"\(Self.attribute($0))\"" } ?? ""
        switch node.kind {
        case .screen(let chrome):
            let formId = "\(id)-form"
            let hasForm = Self.containsControls(node)
            let direction = chrome.strings.direction == .rightToLeft ? " dir=\"rtl\"" : ""
            // The screen itself is plain background whatever its pattern's name (a `list` screen
            // is not a list card): only its rows sit in inset groups.
            out +=
                "<section class=\"screen \(Self.cssIdent(chrome.pattern))\" id=\"\(id)\"\(direction) style=\"background:transparent;border-radius:0;margin:0\">"
            // As iOS draws it: a large title sits under the bar's row of back and toolbar buttons;
            // an inline title sits between them.
            let title = "<h1 class=\"\(chrome.largeTitle ? "large" : "inline")\">\(Self.escape(chrome.title))</h1>"
            let rowed = chrome.largeTitle && (chrome.showsBack || !chrome.toolbar.isEmpty)
            // An inline title is centred on the bar, whatever is beside it: the buttons before
            // and after it sit in two sides of equal share.
            out +=
                rowed
                ? "<header class=\"bar large\"><div class=\"bar-row\">"
                : "<header class=\"bar\"><span class=\"bar-side\">"
            if chrome.showsBack {
                out +=
                    "<a class=\"back\" href=\"\(Self.attribute(backPath))\" rel=\"prev\">‹ \(Self.escape(chrome.strings(.back)))</a>"
            }
            for item in chrome.toolbar where item.placement == .cancellation {
                out += toolbarButton(item, form: hasForm ? formId : nil)
            }
            out += rowed ? "<span class=\"bar-space\"></span>" : "</span>\(title)<span class=\"bar-side trailing\">"
            for item in chrome.toolbar where item.placement != .cancellation {
                out += toolbarButton(item, form: hasForm ? formId : nil)
            }
            out += rowed ? "</div>\(title)</header>" : "</span></header>"
            if let banner = chrome.banner {
                out +=
                    "<div class=\"banner \(banner.kind.rawValue)\" role=\"\(banner.kind == .error ? "alert" : "status")\">\(Self.escape(banner.message))</div>"
            }
            if let confirmation = chrome.confirmation {
                // Over a dimmed screen, as iOS presents a confirmation.
                out += "<div class=\"dim\" aria-hidden=\"true\"></div>"
                out +=
                    "<dialog open=\"open\" class=\"confirm\" aria-modal=\"true\" aria-labelledby=\"\(id)-confirm\"><h2 id=\"\(id)-confirm\">\(Self.escape(confirmation.title))</h2>"
                if let message = confirmation.message { out += "<p>\(Self.escape(message))</p>" }
                out +=
                    "<form method=\"post\" action=\"\(Self.url("\(actionPath)/\(confirmation.action.id)"))\">\(tokenField)<input type=\"hidden\" name=\"confirmed\" value=\"1\" />"
                out +=
                    "<button type=\"submit\" class=\"\(confirmation.destructive ? "destructive" : "primary")\">\(Self.escape(confirmation.confirmLabel))</button></form>"
                // Declining is an action of its own: the page it returns to keeps its parameters
                // (`?id=`) and what was typed, and the dialog closes.
                out +=
                    "<form method=\"post\" action=\"\(Self.url("\(actionPath)/\(Self.cancelConfirmationActionId)"))\">\(tokenField)<button type=\"submit\">\(Self.escape(confirmation.cancelLabel))</button></form></dialog>"
            }
            if let search = chrome.search {
                out +=
                    "<form class=\"search\" role=\"search\" method=\"get\" action=\"\"><label class=\"visually-hidden\" for=\"\(id)-search\">\(Self.escape(search.prompt))</label>"
                out += searchParameters.filter { $0.0 != search.field }.map {
                    "<input type=\"hidden\" name=\"\(Self.attribute($0.0))\" value=\"\(Self.attribute($0.1))\" />"
                }.joined()
                out +=
                    "<input type=\"search\" id=\"\(id)-search\" name=\"\(Self.attribute(search.field))\" value=\"\(Self.attribute(search.text))\" placeholder=\"\(Self.attribute(search.prompt))\" autocomplete=\"off\" /></form>"
            }
            if hasForm {
                out +=
                    "<form id=\"\(formId)\" method=\"post\" action=\"\(Self.url(actionPath))\" novalidate=\"novalidate\">\(tokenField)"
                children(node, into: &out, inForm: true)
                out += "</form>"
            } else {
                children(node, into: &out, inForm: inForm)
            }
            if let pagination = chrome.pagination, pagination.hasMore {
                // The link says how many rows it was drawn under: the next page follows them,
                // within the page's own parameters and its search.
                let shown = Self.rowCount(in: node) ?? 0
                var fields = searchParameters.filter { $0.0 != chrome.search?.field }
                if let search = chrome.search, !search.text.isEmpty { fields.append((search.field, search.text)) }
                fields += [("page", "next"), ("shown", String(shown))]
                let next = Self.attribute("?" + fields.map { "\(Self.query($0.0))=\(Self.query($0.1))" }.joined(separator: "&"))
                if pagination.failed {
                    out +=
                        "<p class=\"more failed\" role=\"alert\">\(Self.escape(strings(.loadMoreFailed))) <a href=\"\(next)\" rel=\"next\">\(Self.escape(strings(.retry)))</a></p>"
                } else {
                    out +=
                        "<p class=\"more\"><a href=\"\(next)\" rel=\"next\">\(Self.escape(strings(.loadMore)))</a></p>"
                }
            }
            out += "</section>"
        case .stack(let axis, _, let alignment, _):
            let aligned = alignment.map { " align-\($0.rawValue)" } ?? ""
            division("<div class=\"stack \(axis.rawValue)\(aligned)\" id=\"\(id)\"\(style)>", node, into: &out, inForm: inForm)
        case .zstack(let alignment):
            let aligned = alignment.map { " align-\($0.rawValue)" } ?? ""
            division("<div class=\"zstack\(aligned)\" id=\"\(id)\"\(style)>", node, into: &out, inForm: inForm)
        case .grid(let columns, _):
            division(
                "<div class=\"grid\" id=\"\(id)\" style=\"grid-template-columns:repeat(\(RenderKind.gridColumns(columns)),minmax(0,1fr))\">",
                node, into: &out, inForm: inForm)
        case .flow:
            division("<div class=\"flow\" id=\"\(id)\"\(style)>", node, into: &out, inForm: inForm)
        case .scroll(let axis):
            division("<div class=\"scroll \(axis.rawValue)\" id=\"\(id)\"\(style)>", node, into: &out, inForm: inForm)
        case .form:
            division("<div class=\"form\" id=\"\(id)\">", node, into: &out, inForm: inForm)
        case .section(let header):
            out += "<section class=\"group\" id=\"\(id)\"\(style)>"
            if let header { out += "<h2>\(Self.escape(header))</h2>" }
            out += "<div class=\"group-body\">"
            children(node, into: &out, inForm: inForm)
            out += "</div></section>"
        case .list(let listStyle, let rows):
            let separators = node.layout?.showsSeparators == false ? " no-separators" : ""
            out += "<ul class=\"list \(listStyle.rawValue)\(separators)\" id=\"\(id)\">"
            for index in 0..<max(0, min(rowLimit, rows.count)) {
                if out.utf8.count > maxOutputBytes {
                    out += "<li class=\"more\">…</li>"
                    break
                }
                out += "<li>"
                draw(rows.row(at: index), into: &out, inForm: inForm)
                out += "</li>"
            }
            out += "</ul>"
        case .text(let text, let textStyle, _):
            let tag = [.largeTitle, .title].contains(textStyle) ? "h2" : "p"
            out += "<\(tag) class=\"text \(textStyle.rawValue)\" id=\"\(id)\"\(style)>\(Self.escape(text))</\(tag)>"
        case .control(let control):
            out += self.control(control, id: id, accessibilityLabel: node.accessibility?.label)
        case .metric(let title, let value, _):
            out +=
                "<div class=\"metric\" id=\"\(id)\"><span class=\"value\">\(Self.escape(value))</span><span class=\"label\">\(Self.escape(title))</span></div>"
        case .labeledContent(let title, let value):
            let content = "<span class=\"label\">\(Self.escape(title))</span><span class=\"value\">\(Self.escape(value))</span>"
            if let link = node.link, let href = Self.contactHref(link) {
                // A phone, e-mail or web site opens outside the app, as its row does on iOS.
                let external = href.hasPrefix("http") ? " target=\"_blank\" rel=\"noopener noreferrer\"" : ""
                out += "<a class=\"labeled link\" id=\"\(id)\" href=\"\(Self.attribute(href))\"\(external)>\(content)</a>"
            } else {
                out += "<div class=\"labeled\" id=\"\(id)\">\(content)</div>"
            }
        case .row(let row):
            let content =
                (row.avatar.map { Self.avatar($0, id: nil, label: nil) } ?? "")
                + "<span class=\"row-text\"><span class=\"row-title\">\(Self.escape(row.title))</span>"
                + row.subtitles.map { "<span class=\"row-subtitle\">\(Self.escape($0))</span>" }.joined() + "</span>"
                + (row.badge.map { "<span class=\"badge\">\(Self.escape($0))</span>" } ?? "")
            let item = node.id.split(separator: "/").last.map(String.init) ?? ""
            let hasMenu = !row.menuActions.isEmpty
            // With a menu, the row and its trailing "…" button share one line.
            if hasMenu { out += "<div class=\"row-with-menu\" style=\"display:flex;align-items:center\">" }
            let fill = hasMenu ? " style=\"flex:1 1 auto;min-width:0\"" : ""
            if let action = row.actionId {
                out +=
                    "<a class=\"row\(row.showsChevron ? " chevron" : "")\" id=\"\(id)\" href=\"\(Self.url("\(actionPath)/\(action)?item=\(Self.query(item))"))\"\(label)\(fill)>\(content)</a>"
            } else {
                out += "<div class=\"row\" id=\"\(id)\"\(fill)>\(content)</div>"
            }
            if hasMenu {
                // The row's swipe and long-press actions, in a menu behind a trailing "…" button
                // (no swiping with a pointer): the others first, a destructive one last.
                out += "<details class=\"row-menu\" style=\"position:relative;flex:none\">"
                out += "<summary aria-label=\"\(Self.attribute(strings(.moreActionsFor, row.title)))\" "
                out +=
                    "style=\"list-style:none;cursor:pointer;padding:10px 16px;font-weight:600;color:var(--accent)\">…</summary>"
                out += "<div role=\"menu\" style=\"position:absolute;inset-inline-end:8px;top:100%;z-index:5;min-width:180px;"
                out += "padding:4px 0;background:var(--surface);border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.25)\">"
                let ordered = row.menuActions.filter { !$0.isDestructive } + row.menuActions.filter(\.isDestructive)
                for action in ordered {
                    let target = Self.url("\(actionPath)/\(Self.query(action.id))?item=\(Self.query(item))")
                    out += "<form method=\"post\" action=\"\(target)\" style=\"margin:0\">\(tokenField)"
                    out += "<button type=\"submit\" role=\"menuitem\""
                    out += action.isDestructive ? " class=\"destructive\"" : ""
                    out +=
                        " style=\"display:block;width:100%;margin:0;padding:11px 16px;border:0;border-radius:0;background:none;"
                    out += "font:inherit;text-align:start;color:\(action.isDestructive ? "var(--destructive)" : "inherit")\">"
                    out += "\(Self.escape(action.title))</button></form>"
                }
                out += "</div></details></div>"
            }
        case .image(let source, let isSymbol, let contentMode):
            if isSymbol, let path = TabIcons.path(source) {
                // The web has no SF Symbols: a drawing of the symbol in the text's color, its size
                // the node's frame (else a hero's), so a logo or a hero never leaves a blank band.
                let size: String
                switch node.style?.height ?? node.style?.width {
                case .points(let value)?: size = "\(Self.number(value))px"
                default: size = "44px"
                }
                out +=
                    "<svg class=\"symbol\" id=\"\(id)\" data-symbol=\"\(Self.attribute(source))\" viewBox=\"0 0 24 24\" width=\"\(size)\" height=\"\(size)\" fill=\"currentColor\" focusable=\"false\" style=\"flex:none;align-self:center;color:var(--accent)\"\(label.isEmpty ? " aria-hidden=\"true\"" : " role=\"img\"" + label)><path d=\"\(Self.attribute(path))\" /></svg>"
            } else if isSymbol {
                // A symbol without a drawing takes no room and is not read.
                out +=
                    "<span class=\"symbol\" id=\"\(id)\" data-symbol=\"\(Self.attribute(source))\"\(label.isEmpty ? " aria-hidden=\"true\"" : " role=\"img\"" + label)></span>"
            } else {
                let alt = node.accessibility?.label ?? ""
                var imageStyle = style
                if let ratio = node.layout?.aspectRatio {
                    // The frame keeps the ratio; `fill` crops into it, anything else fits.
                    let fit = contentMode == .fill ? "cover" : "contain"
                    imageStyle = " style=\"aspect-ratio:\(Self.number(ratio));object-fit:\(fit)\""
                }
                let resizable = node.layout?.resizable == true || node.layout?.aspectRatio != nil ? " class=\"resizable\"" : ""
                out +=
                    "<img id=\"\(id)\"\(resizable) src=\"\(Self.url(source))\" alt=\"\(Self.attribute(alt))\" loading=\"lazy\"\(imageStyle) />"
            }
        case .avatar(let source, let initials):
            out += Self.avatar(AvatarImage(source: source, initials: initials), id: id, label: node.accessibility?.label)
        case .chip(let text, let style):
            let tint = style == .neutral ? "" : " \(style.rawValue)"
            out += "<span class=\"chip\(tint)\" id=\"\(id)\">\(Self.escape(text))</span>"
        case .rating(let value):
            let stars = RenderKind.ratingStars(value)
            out +=
                "<span class=\"rating\" id=\"\(id)\" role=\"img\" aria-label=\"\(Self.attribute(strings(.ratingOutOfFive, String(stars))))\">\(String(repeating: "★", count: stars))\(String(repeating: "☆", count: 5 - stars))</span>"
        case .divider:
            out += "<hr id=\"\(id)\" />"
        case .spacer:
            out += "<div class=\"spacer\" id=\"\(id)\"></div>"
        case .skeleton(let lines):
            out +=
                "<div class=\"skeleton\" id=\"\(id)\" role=\"status\" aria-busy=\"true\" aria-label=\"\(Self.attribute(strings(.loading)))\">"
            out += String(repeating: "<span class=\"bar\"></span>", count: max(1, min(lines, 12)))
            out += "</div>"
        case .emptyState(let title, let message, _):
            out += "<div class=\"empty\" id=\"\(id)\" role=\"status\"><h2>\(Self.escape(title))</h2>"
            if let message { out += "<p>\(Self.escape(message))</p>" }
            children(node, into: &out, inForm: inForm)
            out += "</div>"
        case .tabView(let tabs):
            out += "<nav class=\"tabs\" id=\"\(id)\"><ul>"
            for tab in tabs {
                out += "<li><a href=\"\(Self.url("\(screenPath)/\(tab.screen)"))\">\(Self.escape(tab.title))</a></li>"
            }
            out += "</ul></nav>"
        case .navigationLink(let screen, let params):
            let query = params.map { "\(Self.query($0.key))=\(Self.query($0.value.text))" }.joined(separator: "&")
            // A tappable row or card, as on iOS: its texts keep their own colors, not underlined.
            out +=
                "<a class=\"link\" id=\"\(id)\" href=\"\(Self.url("\(screenPath)/\(screen)" + (query.isEmpty ? "" : "?" + query)))\" style=\"color:inherit;text-decoration:none\">"
            children(node, into: &out, inForm: inForm)
            out += "</a>"
        case .button(let key):
            let action = Self.url("\(actionPath)/\(Self.query(key))")
            if inForm {
                out += "<button type=\"submit\" id=\"\(id)\" formaction=\"\(action)\" formmethod=\"post\">"
                children(node, into: &out, inForm: true)
                out += "</button>"
            } else {
                out +=
                    "<form class=\"inline\" method=\"post\" action=\"\(action)\">\(tokenField)<button type=\"submit\" id=\"\(id)\">"
                children(node, into: &out, inForm: true)
                out += "</button></form>"
            }
        case .searchField(let placeholder, let binding, let text, let actionKey?) where !inForm:
            // A search field outside a form gets its own, so Enter submits it to its action.
            out +=
                "<form class=\"search\" role=\"search\" method=\"post\" action=\"\(Self.url("\(actionPath)/\(Self.query(actionKey))"))\"\(searchParameter.map { " data-search-parameter=\"\(Self.attribute($0))\"" } ?? "")>\(tokenField)"
            var field = node
            field.kind = .searchField(placeholder: placeholder, binding: binding, text: text, actionKey: actionKey)
            draw(field, into: &out, inForm: true)
            out += "</form>"
        case .textField(let placeholder, let binding, let text), .searchField(let placeholder, let binding, let text, _):
            let name = binding ?? node.id
            out +=
                "<label class=\"field\" for=\"\(id)\"><span class=\"visually-hidden\">\(Self.escape(placeholder ?? name))</span>"
            out +=
                "<input id=\"\(id)\" type=\"search\" name=\"\(Self.attribute(name))\" value=\"\(Self.attribute(text))\" placeholder=\"\(Self.attribute(placeholder ?? ""))\" /></label>"
        case .navigationStack, .sheet:
            division("<div class=\"container\" id=\"\(id)\">", node, into: &out, inForm: inForm)
        case .custom(let custom):
            out += "<div class=\"custom\" id=\"\(id)\" data-type=\"\(Self.attribute(custom.type))\"\(style)>"
            if let component = components.component(for: custom.type) {
                fragment(component.html(custom), of: custom, into: &out, inForm: inForm)
            } else {
                // Registered for lowering but not given to this renderer: its props, readable.
                out += "<dl>"
                for (key, value) in custom.props { out += "<dt>\(Self.escape(key))</dt><dd>\(Self.escape(value.text))</dd>" }
                out += "</dl>"
            }
            out += "</div>"
        case .unknown(let name):
            out += "<div class=\"unknown\" id=\"\(id)\" role=\"note\">\(Self.escape(strings(.unsupportedElement, name)))</div>"
        }
    }

    /// The keyboard script of a page without shortcuts, made once.
    /// A picture that fails to load: an avatar's is removed, so its initials show; any other
    /// becomes the artwork placeholder rather than its alt text (a listener on the document,
    /// capturing `error`, which does not bubble; no handler attributes).
    static let avatarScript = """
        document.addEventListener('error', (e) => {
          const t = e.target;
          if (t.tagName !== 'IMG') return;
          if (t.parentElement && t.parentElement.classList.contains('avatar')) { t.remove(); return; }
          t.classList.add('missing');
        }, true);
        """

    static let plainKeyboardScript = "<script>//<![CDATA[\n\(keyboardScript([:]))\n//]]></script>"

    /// The page's keyboard handling: return moves along the focus chain (`data-next-field`) and
    /// submits on the last field (`data-submit-action`); ⌘/Ctrl plus a key runs a shortcut
    /// (`href:<url>`, `action:<id>` or `reload`); the first field with an error takes the focus.
    static func keyboardScript(_ shortcuts: [String: String]) -> String {
        var map = JSONWriter(sortedKeys: true).string(from: .object(JSONObject(shortcuts.map { ($0.key, .string($0.value)) })))
        if map.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "]") }) {
            map = map.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: "&", with: "\\u0026")
                .replacingOccurrences(of: "]]>", with: "]]\\u003e")
        }
        return avatarScript + "\n" + """
            document.documentElement.classList.add('js');
            // A switch applies as it changes (its Apply button is for pages without script).
            document.addEventListener('change', (event) => {
              const target = event.target;
              if (!target.matches || !target.matches('input[role=switch]')) return;
              target.setAttribute('aria-checked', target.checked ? 'true' : 'false');
              const apply = target.parentElement && target.parentElement.querySelector('button.apply');
              if (apply) apply.click();
            });
            (() => {
              const shortcuts = \(map);
              const byAction = id => document.querySelector('[formaction$="/' + id + '"], form[action$="/' + id + '"] button');
              document.addEventListener('keydown', event => {
                const field = event.target;
                if (event.key === 'Enter' && field.matches && field.matches('input[data-next-field], input[data-submit-action]')) {
                  event.preventDefault();
                  const next = field.dataset.nextField && field.form ? field.form.elements[field.dataset.nextField] : null;
                  if (next) { next.focus(); return; }
                  const submit = field.dataset.submitAction ? byAction(field.dataset.submitAction) : null;
                  if (submit) { submit.click(); } else if (field.form) { field.form.requestSubmit(); }
                  return;
                }
                if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
                const target = shortcuts[event.key.toLowerCase()];
                if (!target) return;
                event.preventDefault();
                if (target === 'reload') { location.reload(); }
                else if (target.startsWith('href:')) { location.href = target.slice(5); }
                else if (target.startsWith('action:')) { const button = byAction(target.slice(7)); if (button) button.click(); }
              });
              document.addEventListener('DOMContentLoaded', () => {
                const invalid = document.querySelector('[aria-invalid="true"]');
                if (invalid) invalid.focus();
              });
            })();
            // A search replaces the list in place: the page's history entry is replaced (no entry
            // per query, so back leaves the list), and a pause in typing searches.
            (() => {
              const field = form => form.querySelector('input[type=search]');
              const go = form => {
                const input = field(form);
                if (!input) return false;
                const url = new URL(location.href);
                if (form.dataset.searchParameter) {
                  url.search = '';
                  url.searchParams.set(form.dataset.searchParameter, input.value);
                } else if (form.method.toLowerCase() === 'get') {
                  url.search = new URLSearchParams(new FormData(form)).toString();
                } else {
                  return false;
                }
                sessionStorage.setItem('dynamicui-search', '1');
                location.replace(url.toString());
                return true;
              };
              document.addEventListener('submit', event => {
                const form = event.target;
                if (form.matches && form.matches('form[role=search]') && go(form)) event.preventDefault();
              });
              let timer = null;
              document.addEventListener('input', event => {
                const input = event.target;
                if (!input.matches || !input.matches('form[role=search] input[type=search]')) return;
                clearTimeout(timer);
                timer = setTimeout(() => go(input.form), 500);
              });
              document.addEventListener('DOMContentLoaded', () => {
                if (!sessionStorage.getItem('dynamicui-search')) return;
                sessionStorage.removeItem('dynamicui-search');
                const form = document.querySelector('form[role=search]');
                const input = form && field(form);
                if (input) { input.focus(); input.setSelectionRange(input.value.length, input.value.length); }
              });
            })();
            """
    }

    /// CSS custom properties of a theme's colors (`--accent: #872ec4`), light and dark: the
    /// mode follows the system unless the page's `theme` forces one.
    static func paletteStyle(_ palette: DynamicUIModels.Theme) -> String {
        func declarations(_ colors: [String: String]) -> String {
            colors.sorted { $0.key < $1.key }.map { "--\(cssIdent($0.key)):\(cssColor($0.value))" }.joined(separator: ";")
        }
        let light = declarations(palette.colors)
        let dark = declarations(palette.colors.merging(palette.darkColors) { $1 })
        // Without dark colors the theme's light ones would be unreadable on a dark page: dark
        // mode then keeps the stylesheet's own.
        var css = "@media (prefers-color-scheme:light){:root:not([data-theme=dark]){\(light)}}:root[data-theme=light]{\(light)}"
        if !palette.darkColors.isEmpty {
            css += "@media (prefers-color-scheme:dark){:root:not([data-theme=light]){\(dark)}}:root[data-theme=dark]{\(dark)}"
        }
        return css
    }

    /// Tags a native component may draw; anything else is drawn as its children only.
    static let componentTags: Set<String> = [
        "div", "span", "p", "strong", "em", "small", "ul", "ol", "li", "figure", "figcaption", "img", "video", "audio",
        "source", "track", "a", "h3", "h4", "time", "progress", "meter", "dl", "dt", "dd", "br",
    ]
    /// Attributes a native component may set (besides `aria-*` and `data-*`); URLs are checked.
    static let componentAttributes: Set<String> = [
        "class", "role", "title", "alt", "src", "href", "poster", "width", "height", "controls", "preload", "muted", "loop",
        "playsinline", "type", "kind", "label", "srclang", "datetime", "value", "max", "min", "lang", "dir",
    ]
    private static let urlAttributes: Set<String> = ["src", "href", "poster"]
    private static let voidTags: Set<String> = ["img", "source", "track", "br"]

    /// Writes a component's fragment: safe tags and attributes only, every value escaped, every
    /// URL checked, and `action` as a button that posts the component's action.
    private func fragment(_ fragment: HTMLFragment, of custom: CustomNode, into out: inout String, inForm: Bool) {
        switch fragment {
        case .text(let text):
            out += Self.escape(text)
        case .group(let parts):
            for part in parts { self.fragment(part, of: custom, into: &out, inForm: inForm) }
        case .element(let rawTag, let attributes, let children):
            let tag = rawTag.lowercased()
            guard Self.componentTags.contains(tag) else {
                for child in children { self.fragment(child, of: custom, into: &out, inForm: inForm) }
                return
            }
            out += "<\(tag)"
            for attribute in attributes {
                let name = attribute.name.lowercased()
                guard
                    Self.componentAttributes.contains(name)
                        || ((name.hasPrefix("aria-") || name.hasPrefix("data-"))
                            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D })
                else { continue }
                let value = Self.urlAttributes.contains(name) ? Self.url(attribute.value) : Self.attribute(attribute.value)
                out += " \(name)=\"\(value)\""
            }
            if Self.voidTags.contains(tag) {
                out += " />"
                return
            }
            out += ">"
            for child in children { self.fragment(child, of: custom, into: &out, inForm: inForm) }
            out += "</\(tag)>"
        case .action(let name, let label):
            guard let key = custom.actions[name] else {
                for part in label { self.fragment(part, of: custom, into: &out, inForm: inForm) }
                return
            }
            let action = Self.url("\(actionPath)/\(Self.query(key))")
            out +=
                inForm
                ? "<button type=\"submit\" formaction=\"\(action)\" formmethod=\"post\" data-action=\"\(Self.attribute(name))\">"
                : "<form class=\"inline\" method=\"post\" action=\"\(action)\">\(tokenField)<button type=\"submit\" data-action=\"\(Self.attribute(name))\">"
            for part in label { self.fragment(part, of: custom, into: &out, inForm: true) }
            out += inForm ? "</button>" : "</button></form>"
        }
    }

    /// Whether a subtree has form controls (inputs or buttons), so the screen needs a `<form>`.
    static func containsControls(_ node: RenderNode) -> Bool {
        if case .control = node.kind { return true }
        return node.children.contains(where: containsControls)
    }

    /// A navigation-bar button: it submits the screen's form (so a confirm button sends the
    /// fields) or, without one, posts on its own.
    private func toolbarButton(_ item: RenderToolbarItem, form: String?) -> String {
        let title = item.systemImage == "plus" ? "+" : item.title
        let action = Self.url("\(actionPath)/\(item.actionId)")
        let classes = "toolbar \(item.placement.rawValue)\(item.isDestructive ? " destructive" : "")"
        let button =
            "<button type=\"submit\" class=\"\(classes)\" aria-label=\"\(Self.attribute(item.title))\""
            + (form.map { " form=\"\($0)\" formaction=\"\(action)\" formmethod=\"post\"" } ?? "")
            + (pendingActions.contains(item.actionId)
                ? " disabled=\"disabled\" aria-disabled=\"true\" data-pending=\"true\"" : "")
            + ">\(Self.escape(title))</button>"
        return form == nil ? "<form class=\"inline\" method=\"post\" action=\"\(action)\">\(tokenField)\(button)</form>" : button
    }

    private func control(_ control: ControlNode, id: String, accessibilityLabel: String? = nil) -> String {
        // Every control has a name: its label, else what the placeholder or the node's
        // accessibility label says, else its field (in a label only a screen reader reads).
        let written = control.label.flatMap { $0.isEmpty ? nil : $0 }
        let spoken = [written, control.placeholder, accessibilityLabel, control.field].compactMap { $0 }.first { !$0.isEmpty }
        let label = Self.escape(spoken ?? "")
        let labelClass = written == nil ? " class=\"visually-hidden\"" : ""
        let errorId = "\(id)-error"
        let error = control.error.map { "<p class=\"error\" id=\"\(errorId)\">\(Self.escape($0))</p>" } ?? ""
        let invalid = control.error != nil ? " aria-invalid=\"true\" aria-describedby=\"\(errorId)\"" : ""
        let name = Self.attribute(control.field ?? id)
        let required = control.isRequired ? " required=\"required\"" : ""
        let readOnly = control.isReadOnly ? " readonly=\"readonly\"" : ""
        let value = control.value.isNull ? "" : control.value.text
        // A required field's label carries an asterisk, whatever the control.
        let mark = control.isRequired ? " <span aria-hidden=\"true\">*</span>" : ""
        switch control.type {
        case .textInput, .emailInput, .passwordInput, .numberInput:
            let (type, autocomplete): (String, String) =
                switch control.inputKind {
                case .email?: ("email", "email")
                case .password?: ("password", "current-password")
                case .number?: ("number", "off")
                default: ("text", "on")
                }
            let placeholder = control.placeholder.map { " placeholder=\"\(Self.attribute($0))\"" } ?? ""
            // The focus chain: what return says, where it moves, and what it submits on the last field.
            var focus = control.returnKey.map { " enterkeyhint=\"\($0.rawValue)\"" } ?? ""
            if let next = control.nextField { focus += " data-next-field=\"\(Self.attribute(next))\"" }
            if let submit = control.submitActionId { focus += " data-submit-action=\"\(Self.attribute(submit))\"" }
            // A password is never written back into a page (its source, a later GET of it).
            let shown = type == "password" ? "" : value
            return
                "<div class=\"field\"><label for=\"\(id)\"\(labelClass)>\(label)\(mark)</label>"
                + "<input id=\"\(id)\" name=\"\(name)\" type=\"\(type)\" autocomplete=\"\(autocomplete)\" value=\"\(Self.attribute(shown))\"\(placeholder)\(required)\(readOnly)\(invalid)\(focus) />\(error)</div>"
        case .checkbox, .switch:
            let checked = value == "true" ? " checked=\"checked\"" : ""
            // iOS draws both as a switch (there are no checkboxes), and so does the preview: a
            // switch says whether it is on (the page's script keeps it current as it changes).
            let role = " role=\"switch\" aria-checked=\"\(value == "true")\""
            let submit = control.actionId.map { " formaction=\"\(Self.url("\(actionPath)/\($0)"))\"" } ?? ""
            return
                "<div class=\"field toggle\"><input id=\"\(id)\" name=\"\(name)\" type=\"checkbox\" value=\"true\"\(role)\(checked)\(invalid) /><label for=\"\(id)\"\(labelClass)>\(label)</label>\(submit.isEmpty ? "" : "<button type=\"submit\" class=\"apply\"\(submit)>\(Self.escape(strings(.apply)))</button>")\(error)</div>"
        case .select:
            var html =
                "<div class=\"field\"><label for=\"\(id)\"\(labelClass)>\(label)\(mark)</label><select id=\"\(id)\" name=\"\(name)\"\(required)\(invalid)>"
            html += "<option value=\"\">—</option>"
            for option in control.options {
                html +=
                    "<option value=\"\(Self.attribute(option.value))\"\(option.value == value ? " selected=\"selected\"" : "")>\(Self.escape(option.label))</option>"
            }
            return html + "</select>\(error)</div>"
        case .radioGroup:
            var html = "<fieldset class=\"field\" id=\"\(id)\"\(invalid)><legend>\(label)\(mark)</legend>"
            for (index, option) in control.options.enumerated() {
                html +=
                    "<label for=\"\(id)-\(index)\"><input type=\"radio\" id=\"\(id)-\(index)\" name=\"\(name)\" value=\"\(Self.attribute(option.value))\"\(option.value == value ? " checked=\"checked\"" : "")\(required) /> \(Self.escape(option.label))</label>"
            }
            return html + "\(error)</fieldset>"
        default:
            let role = control.role?.rawValue ?? "secondary"
            let action = control.actionId.map { Self.url("\(actionPath)/\($0)") } ?? Self.url(actionPath)
            // A button drawn as its icon only is named by its label.
            let named = written == nil && !label.isEmpty ? " aria-label=\"\(label)\"" : ""
            let content = written == nil ? (control.icon.flatMap(TabIcons.glyph) ?? label) : label
            let pending =
                control.actionId.map(pendingActions.contains) == true
                ? " disabled=\"disabled\" aria-disabled=\"true\" data-pending=\"true\"" : ""
            return
                "<button type=\"submit\" id=\"\(id)\" class=\"button \(role)\" formaction=\"\(action)\" formmethod=\"post\"\(named)\(pending)>\(content)</button>"
        }
    }

    // MARK: Escaping

    /// Text content with `&`, `<`, `>`, `"` and `'` escaped.
    public static func escape(_ text: String) -> String {
        // Most text needs nothing: find the first byte that does, on the UTF-8 bytes (an escaped
        // character is always one ASCII byte; other bytes are copied as they are).
        // Text that needs nothing is returned as it is (no copy); escaped text is the input's
        // valid UTF-8 with some ASCII bytes replaced by ASCII, so it is not validated again.
        text.withBorrowedUTF8 { utf8 -> String? in
            guard let first = utf8.firstIndex(where: needsEscape) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(utf8.count + 16)
            output.append(contentsOf: utf8[..<first])
            for byte in utf8[first...] {
                switch byte {
                case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
                case _ where byte < 0x20 && byte != 0x0A && byte != 0x09: output.append(contentsOf: "&#xFFFD;".utf8)
                default: output.append(byte)
                }
            }
            return output.withUnsafeBufferPointer { String(validatedUTF8: $0) }
        } ?? text
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        case 0x0A, 0x09: false
        default: byte < 0x20
        }
    }

    /// An attribute value (same escaping as text; always written inside double quotes).
    public static func attribute(_ text: String) -> String { escape(text) }

    /// The `href` of a node's link: only a `tel:`, `mailto:` or `http(s)` address.
    static func contactHref(_ link: URL) -> String? {
        let address = link.absoluteString
        let scheme = address.prefix { $0 != ":" }.lowercased()
        return ["tel", "mailto", "http", "https"].contains(scheme) ? address : nil
    }

    /// A round avatar: the initials, covered by the picture once it loads (the page's script
    /// removes a picture that fails, so the initials stay). Without `label` it is decoration.
    static func avatar(_ avatar: AvatarImage, id: String?, label: String?) -> String {
        var out = "<span class=\"avatar\"" + (id.map { " id=\"\($0)\"" } ?? "")
        if let label, !label.isEmpty {
            out += " role=\"img\" aria-label=\"\(attribute(label))\""
        } else {
            out += " aria-hidden=\"true\""
        }
        out += "><span class=\"initials\">\(escape(avatar.initials))</span>"
        if let source = avatar.source {
            out += "<img src=\"\(url(source))\" alt=\"\" loading=\"lazy\" />"
        }
        return out + "</span>"
    }

    /// A URL for `href`/`src`: relative, `http(s)`, `mailto:` or `tel:`; anything else
    /// (`javascript:`, `data:`, `file:`, `vbscript:`) becomes `#`.
    public static func url(_ text: String) -> String {
        // Trimming (a costly character-set walk) only when an end is not plain printable ASCII.
        let plainEnds = [text.unicodeScalars.first, text.unicodeScalars.last].allSatisfy { scalar in
            scalar.map { (0x21...0x7E).contains($0.value) } ?? true
        }
        let trimmed = plainEnds ? text : text.trimmingCharacters(in: urlTrimmed)
        // A scheme is what comes before a ':' that precedes any '/', '?' or '#'.
        var schemeLength: Int?
        for (offset, byte) in trimmed.utf8.enumerated() {
            if byte == UInt8(ascii: ":") {
                schemeLength = offset
                break
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
        }
        if let schemeLength {
            let scheme = String(decoding: trimmed.utf8.prefix(schemeLength), as: UTF8.self).lowercased()
            if !["https", "http", "mailto", "tel"].contains(scheme) { return "#" }
        }
        return escape(trimmed)
    }

    private static let urlTrimmed = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)

    /// A query component, percent-encoded: ASCII letters, digits and `-._~` stay, every other
    /// UTF-8 byte becomes `%XX`.
    public static func query(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        // ASCII only: nothing to validate.
        return output.withUnsafeBufferPointer { String(validatedUTF8: $0) }
    }

    static func cssIdent(_ text: String) -> String {
        String(
            text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" }.map(
                Character.init))
    }

    static func cssColor(_ text: String) -> String {
        let hex = text.dropFirst().filter(\.isHexDigit)
        return hex.count == 6 || hex.count == 8 || hex.count == 3 ? "#\(hex)" : "inherit"
    }

    static func number(_ value: Double) -> String { value.isFinite ? JSONNumber(value).description : "0" }
}
