import Foundation

/// Small drawings of the SF Symbols navigations use, for the preview's tab bar (the web has no
/// SF Symbols). A symbol is looked up without its `.fill`/`.circle` variant; an unknown one has
/// no icon and the tab shows its title alone.
enum TabIcons {
    /// A `data:` URL of the symbol's drawing (a 24×24 SVG path used as a CSS mask), or `nil`.
    static func svg(_ symbol: String) -> String? {
        guard let path = path(symbol) else { return nil }
        return "data:image/svg+xml,"
            + "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'><path d='\(path)'/></svg>"
            .replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
            .replacingOccurrences(of: "#", with: "%23").replacingOccurrences(of: "'", with: "%27")
    }

    /// The symbol's drawing: the `d` of a path in a 24×24 box, or `nil` for a symbol not drawn.
    static func path(_ symbol: String) -> String? {
        // Whole name parts only: `clock.arrow.circlepath` keeps its `circlepath`.
        let base = symbol.split(separator: ".").filter { $0 != "fill" && $0 != "circle" }.joined(separator: ".")
        return paths[symbol] ?? paths[base]
    }

    /// A text glyph that stands for the symbol where a drawing cannot go (a button's label), or `nil`.
    static func glyph(_ symbol: String) -> String? {
        let base = symbol.split(separator: ".").filter { $0 != "fill" && $0 != "circle" }.joined(separator: ".")
        return glyphs[symbol] ?? glyphs[base]
    }

    private static let glyphs: [String: String] = [
        "plus": "+", "xmark": "×", "checkmark": "✓", "trash": "🗑", "pencil": "✎", "star": "★", "ellipsis": "…",
        "arrow.clockwise": "↻", "magnifyingglass": "⌕", "play": "▶", "pause": "⏸", "chevron.right": "›",
        "chevron.left": "‹", "square.and.arrow.up": "⇪",
    ]

    private static let seal =
        "M12 1.5l2.6 1.9 3.2-.2 1 3 2.7 1.8-.9 3.1.9 3.1-2.7 1.8-1 3-3.2-.2L12 22.5l-2.6-1.9-3.2.2-1-3-2.7-1.8.9-3.1-.9-3.1 2.7-1.8 1-3 3.2.2z"
    private static let house = "M12 3 2 11h3v9h5v-6h4v6h5v-9h3z"
    private static let person = "M12 12a4 4 0 1 0-4-4 4 4 0 0 0 4 4m0 2c-4 0-8 2-8 5v2h16v-2c0-3-4-5-8-5"
    private static let people =
        "M9 11a3.5 3.5 0 1 0-3.5-3.5A3.5 3.5 0 0 0 9 11m7 0a3 3 0 1 0-3-3 3 3 0 0 0 3 3M9 13c-3.3 0-7 1.6-7 4.5V20h14v-2.5C16 14.6 12.3 13 9 13m7 0-1 .1a5 5 0 0 1 3 4.4V20h4v-2.5c0-2.9-3-4.5-6-4.5"
    private static let building = "M3 21V8l9-5 9 5v13h-6v-6H9v6zM7 10v2h2v-2zm4 0v2h2v-2zm4 0v2h2v-2z"
    private static let paths: [String: String] = [
        "house": house,
        "books.vertical": "M4 3h4v18H4zm5 0h4v18H9zm5.5 1.2 3.9-1 4.4 17.4-3.9 1z",
        "book": "M4 4.5C6 3 9 3 12 5c3-2 6-2 8-.5V20c-2-1.5-5-1.5-8 .5-3-2-6-2-8-.5z",
        "gearshape":
            "M12 8.5a3.5 3.5 0 1 0 3.5 3.5A3.5 3.5 0 0 0 12 8.5m8.4 4.6 1.9 1.5-2 3.4-2.3-.9a7.8 7.8 0 0 1-2.1 1.2L15.6 21h-3.9l-.4-2.7a7.8 7.8 0 0 1-2.1-1.2l-2.3.9-2-3.4 1.9-1.5a7.6 7.6 0 0 1 0-2.2L4.9 9.4l2-3.4 2.3.9a7.8 7.8 0 0 1 2.1-1.2L11.7 3h3.9l.3 2.7a7.8 7.8 0 0 1 2.1 1.2l2.3-.9 2 3.4-1.9 1.5a7.6 7.6 0 0 1 0 2.2",
        "gear":
            "M12 8.5a3.5 3.5 0 1 0 3.5 3.5A3.5 3.5 0 0 0 12 8.5m8.4 4.6 1.9 1.5-2 3.4-2.3-.9a7.8 7.8 0 0 1-2.1 1.2L15.6 21h-3.9l-.4-2.7a7.8 7.8 0 0 1-2.1-1.2l-2.3.9-2-3.4 1.9-1.5a7.6 7.6 0 0 1 0-2.2L4.9 9.4l2-3.4 2.3.9a7.8 7.8 0 0 1 2.1-1.2L11.7 3h3.9l.3 2.7a7.8 7.8 0 0 1 2.1 1.2l2.3-.9 2 3.4-1.9 1.5a7.6 7.6 0 0 1 0 2.2",
        "chart.bar": "M4 20V10h4v10zm6 0V4h4v16zm6 0v-7h4v7z",
        "person.3": people,
        "person.2": people,
        "person.2.badge.gearshape": people,
        "person.badge.key": person,
        "person.badge.plus": person,
        "person": person,
        "figure.2.and.child.holdinghands": people,
        "list.bullet.clipboard":
            "M9 2h6v3H9zM6 4h2v2h8V4h2a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2m2 6v2h2v-2zm4 0v2h4v-2zm-4 4v2h2v-2zm4 0v2h4v-2z",
        "building.columns": "M12 2 2 7v2h20V7zM4 11v7h3v-7zm6.5 0v7h3v-7zM17 11v7h3v-7zM2 20v2h20v-2z",
        "building.2": building,
        "lock.shield": "M12 2 4 5v6c0 5 3.4 9.5 8 11 4.6-1.5 8-6 8-11V5zm-2 9V9a2 2 0 0 1 4 0v2h1v5H9v-5z",
        "clock.arrow.circlepath":
            "M13 3a9 9 0 0 0-9 9H1l4 4 4-4H6a7 7 0 1 1 2 4.9l-1.4 1.4A9 9 0 1 0 13 3m-1 5v5l4.3 2.5.7-1.2-3.5-2.1V8z",
        "cube": "M12 2 3 7v10l9 5 9-5V7zm0 2.3L18.9 8 12 11.7 5.1 8z",
        "graduationcap": "M12 3 1 9l11 6 9-4.9V17h2V9zM5 13.2V17c0 1.7 3.1 3 7 3s7-1.3 7-3v-3.8l-7 3.8z",
        "square.and.arrow.up": "M12 2 7.5 6.5 9 8l2-2v9h2V6l2 2 1.5-1.5zM5 10v11h14V10h-3v2h1v7H7v-7h1v-2z",
        "square.grid.2x2": "M3 3h8v8H3zm10 0h8v8h-8zM3 13h8v8H3zm10 0h8v8h-8z",
        "magnifyingglass": "M10 3a7 7 0 1 0 4.2 12.6l5.1 5.1 1.4-1.4-5.1-5.1A7 7 0 0 0 10 3m0 2a5 5 0 1 1-5 5 5 5 0 0 1 5-5",
        "checkmark.seal": seal + "M10.6 16.2l6.4-6.4-1.4-1.4-5 5-2.2-2.2-1.4 1.4z",
        "checkmark": "M9.5 16.6 4.9 12l-1.4 1.4 6 6L21 7.9l-1.4-1.4z",
        "xmark": "M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z",
        "clock": "M12 2a10 10 0 1 0 10 10A10 10 0 0 0 12 2m0 2a8 8 0 1 1-8 8 8 8 0 0 1 8-8m-1 3v6l5 3 1-1.6-4-2.4V7z",
        "star": "M12 2.5l2.9 6.2 6.6.7-5 4.5 1.4 6.6L12 17.1l-5.9 3.4 1.4-6.6-5-4.5 6.6-.7z",
        "tray": "M4 4h16l2 9v7H2v-7zm1.6 2-1.5 7H9a3 3 0 0 0 6 0h4.9l-1.5-7z",
        "doc.text": "M6 2h8l6 6v14H4V2zm7 1.5V9h5.5M7 12v2h10v-2zm0 4v2h10v-2z",
        "folder": "M2 5h8l2 2h10v13H2z",
    ]
}
