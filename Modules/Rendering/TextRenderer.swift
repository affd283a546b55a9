import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// Draws a render tree as indented text: stable, readable, one node per line. Used by snapshot
/// tests and the command line.
public struct TextRenderer: Sendable {
    /// Rows drawn per list; the rest are summarised.
    public var rowLimit: Int
    /// Past this many lines no more list rows are drawn (lists nested in rows multiply).
    public var maxLines: Int = 100_000

    /// Creates a renderer.
    public init(rowLimit: Int = 3) { self.rowLimit = rowLimit }

    /// The text of `node`.
    public func render(_ node: RenderNode) -> String {
        var lines: [String] = []
        draw(node, depth: 0, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` width:… weight:… ratio:… resizable separators:…` for the hints that are set.
    static func describe(_ layout: LayoutHints) -> String {
        var text = ""
        switch layout.width {
        case .points(let value)?: text += " width:\(JSONNumber(value).description)pt"
        case .fraction(let value)?: text += " width:\(JSONNumber(value * 100).description)%"
        case .fill?: text += " width:fill"
        case nil: break
        }
        if let weight = layout.weight { text += " weight:\(JSONNumber(weight).description)" }
        if let ratio = layout.aspectRatio { text += " ratio:\(JSONNumber(ratio).description)" }
        if layout.resizable == true { text += " resizable" }
        if let separators = layout.showsSeparators { text += " separators:\(separators)" }
        return text
    }

    private func draw(_ node: RenderNode, depth: Int, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        var line = indent + describe(node.kind)
        if let style = node.style, style != NodeStyle() {
            line += " style(\(JSONWriter(sortedKeys: true).string(from: style.json)))"
        }
        if let label = node.accessibility?.label, !label.isEmpty, !line.contains(quote(label)) { line += " a11y:\(quote(label))" }
        if let layout = node.layout { line += Self.describe(layout) }
        if let transition = node.transition {
            line +=
                " transition:\(transition.kind.rawValue) \(Int((transition.duration * 1000).rounded()))ms \(transition.curve.rawValue)"
        }
        lines.append(line)
        for child in node.children { draw(child, depth: depth + 1, into: &lines) }
        if case .list(_, let rows) = node.kind {
            var drawn = 0
            for index in 0..<max(0, min(rowLimit, rows.count)) where lines.count < maxLines {
                draw(rows.row(at: index), depth: depth + 1, into: &lines)
                drawn += 1
            }
            if rows.count > drawn { lines.append(indent + "  … \(rows.count - drawn) more rows") }
        }
    }

    private func quote(_ text: String) -> String { "\"\(text.replacingOccurrences(of: "\n", with: "\\n"))\"" }

    private func describe(_ kind: RenderKind) -> String {
        switch kind {
        case .screen(let chrome):
            var parts = ["screen \(chrome.pattern) \(quote(chrome.title))", chrome.largeTitle ? "large-title" : "inline-title"]
            if chrome.showsBack { parts.append("back") }
            if chrome.presentation == .sheet { parts.append("sheet") }
            if let search = chrome.search { parts.append("searchable(\(quote(search.prompt)) field:\(search.field))") }
            if let refresh = chrome.refreshActionId { parts.append("refreshable(\(refresh))") }
            if let pagination = chrome.pagination { parts.append("paginated(\(pagination.hasMore ? "more" : "end"))") }
            if let confirmation = chrome.confirmation {
                parts.append(
                    "confirm(\(quote(confirmation.title)) \(confirmation.destructive ? "destructive " : "")→\(confirmation.action.id))"
                )
            }
            if let banner = chrome.banner { parts.append("\(banner.kind.rawValue)(\(quote(banner.message)))") }
            for item in chrome.toolbar {
                parts.append(
                    "toolbar.\(item.placement.rawValue)(\(quote(item.title))\(item.systemImage.map { " symbol:\($0)" } ?? "")→\(item.actionId))"
                )
            }
            return parts.joined(separator: " ")
        case .stack(let axis, let spacing, let alignment, let lazy):
            return "\(lazy ? "lazy-" : "")\(axis == .vertical ? "vstack" : "hstack")"
                + (spacing.map { " spacing:\(format($0))" } ?? "")
                + (alignment.map { " align:\($0.rawValue)" } ?? "")
        case .zstack(let alignment): return "zstack" + (alignment.map { " align:\($0.rawValue)" } ?? "")
        case .grid(let columns, _): return "grid columns:\(columns)"
        case .flow: return "flow"
        case .scroll(let axis): return "scroll \(axis.rawValue)"
        case .form: return "form"
        case .section(let header): return "section" + (header.map { " \(quote($0))" } ?? "")
        case .list(let style, let rows): return "list \(style.rawValue) rows:\(rows.count)"
        case .text(let text, let style, let lineLimit):
            return "text \(style.rawValue) \(quote(text))" + (lineLimit.map { " lines:\($0)" } ?? "")
        case .control(let control): return describe(control)
        case .metric(let label, let value, let icon):
            return "metric \(quote(label)) = \(quote(value))" + (icon.map { " symbol:\($0)" } ?? "")
        case .labeledContent(let label, let value): return "labeled \(quote(label)): \(quote(value))"
        case .row(let row):
            var text = "row " + (row.avatar.map { "(\($0.initials)) " } ?? "") + quote(row.title)
            if !row.subtitles.isEmpty { text += " | " + row.subtitles.map(quote).joined(separator: " | ") }
            if let badge = row.badge { text += " [\(badge)]" }
            if let icon = row.icon { text += " symbol:\(icon)" }
            if row.showsChevron { text += " >" }
            if let action = row.actionId { text += " →\(action)" }
            if !row.swipeActionIds.isEmpty { text += " swipe:\(row.swipeActionIds.joined(separator: ","))" }
            if !row.contextActionIds.isEmpty { text += " menu:\(row.contextActionIds.joined(separator: ","))" }
            return text
        case .image(let source, let isSymbol, let mode):
            return isSymbol ? "symbol \(source)" : "image \(quote(source))" + (mode.map { " \($0.rawValue)" } ?? "")
        case .avatar(let source, let initials): return "avatar \(quote(initials))" + (source.map { " \(quote($0))" } ?? "")
        case .chip(let text, let style): return "chip \(quote(text))" + (style == .neutral ? "" : " \(style.rawValue)")
        case .rating(let value): return "rating \(format(value))/5"
        case .divider: return "divider"
        case .spacer(let minLength): return "spacer" + (minLength.map { " min:\(format($0))" } ?? "")
        case .emptyState(let title, let message, let image):
            return "empty-state \(quote(title))" + (message.map { " \(quote($0))" } ?? "") + (image.map { " symbol:\($0)" } ?? "")
        case .skeleton(let lines): return "skeleton lines:\(lines)"
        case .tabView(let tabs): return "tabs " + tabs.map { "\(quote($0.title))→\($0.screen)" }.joined(separator: " ")
        case .navigationLink(let screen, let params):
            return "link →\(screen)"
                + (params.isEmpty ? "" : " \(JSONWriter(sortedKeys: true).string(from: .object(params)).prefix(120))")
        case .button(let key): return "button →\(key)"
        case .textField(let placeholder, let binding, let text):
            return "text-field \(quote(text))" + (placeholder.map { " placeholder:\(quote($0))" } ?? "")
                + (binding.map { " bind:\($0)" } ?? "")
        case .searchField(let placeholder, let binding, let text, let action):
            return "search-field \(quote(text))" + (placeholder.map { " placeholder:\(quote($0))" } ?? "")
                + (binding.map { " bind:\($0)" } ?? "")
                + (action.map { " submit→\($0)" } ?? "")
        case .navigationStack: return "navigation-stack"
        case .sheet: return "sheet"
        case .custom(let custom):
            var text = "custom \(custom.type)"
            if !custom.props.isEmpty {
                text += " \(JSONWriter(sortedKeys: true).string(from: .object(custom.props)).prefix(160))"
            }
            if !custom.actions.isEmpty {
                text += " " + custom.actions.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: " ")
            }
            if let binding = custom.binding { text += " bind:\(binding)=\(quote(custom.value.text))" }
            return text
        case .unknown(let name): return "unknown \(name)"
        }
    }

    private func describe(_ control: ControlNode) -> String {
        var text = "\(control.type.rawValue)"
        if let label = control.label { text += " \(quote(label))" }
        if let field = control.field { text += " field:\(field)" }
        if let kind = control.inputKind { text += " keyboard:\(kind.rawValue)" }
        if !control.value.isNull { text += " value:\(quote(control.value.text))" }
        if let placeholder = control.placeholder { text += " placeholder:\(quote(placeholder))" }
        if control.isRequired { text += " required" }
        if control.isReadOnly { text += " read-only" }
        if !control.options.isEmpty {
            text += " options:" + control.options.map { "\($0.value)=\(quote($0.label))" }.joined(separator: ",")
        }
        if let role = control.role { text += " role:\(role.rawValue)" }
        if let icon = control.icon { text += " symbol:\(icon)" }
        if let action = control.actionId { text += " →\(action)" }
        if let error = control.error { text += " error:\(quote(error))" }
        return text
    }

    private func format(_ value: Double) -> String { JSONNumber(value).description }
}
