import DynamicUIDemoBackend
public import Foundation

/// A DocC static-hosting site (`bash .ci/docs.sh --site`: all library products, built with
/// `--transform-for-static-hosting --hosting-base-path docs`) that the web preview serves under
/// `/docs/` and links from its bar.
///
/// Files are served as they are, a folder by its `index.html`. A page path under
/// `documentation/` or `tutorials/` with no file answers the site's `index.html`, whose script
/// draws the page from `data/` (or says it does not exist), as DocC's own preview server does.
/// A path is taken apart into percent-decoded names: `.` and `..` (also written `%2e%2e`), a
/// name holding `/`, `\` or NUL, and a symbolic link leading outside the folder are not found.
public struct DocumentationSite: Sendable {
    /// The URL path the site is served under; its pages expect it (`--hosting-base-path docs`).
    public static let prefix = "/docs/"
    /// The page the preview bar links to: the `DynamicUI` module's landing page.
    public static let landingPath = "/docs/documentation/dynamicui/"
    /// Where `bash .ci/docs.sh --site` writes the site, relative to the package's folder.
    public static let defaultFolder = ".build-docs/site"
    /// The command that builds the site.
    public static let buildCommand = "bash .ci/docs.sh --site"

    /// The site's folder, symbolic links resolved.
    public let folder: URL

    /// Serves the site in `folder`.
    public init(folder: URL) {
        self.folder = folder.standardizedFileURL.resolvingSymlinksInPath()
    }

    /// Why the folder would not show as the preview links it (no `index.html`, built without
    /// `--hosting-base-path docs`, no `DynamicUI` module page), or nil.
    public var problem: String? {
        guard let index = FileManager.default.contents(atPath: folder.appendingPathComponent("index.html").path) else {
            return "\(folder.path) has no index.html: not a DocC static-hosting site (\(Self.buildCommand) builds one)"
        }
        if !String(decoding: index, as: UTF8.self).contains("var baseUrl = \"\(Self.prefix)\"") {
            return "\(folder.path) was built without --hosting-base-path docs: its pages would not find their scripts"
        }
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/documentation/dynamicui.json").path) {
            return "\(folder.path) has no page of the DynamicUI module (\(Self.buildCommand) builds every product)"
        }
        return nil
    }

    /// The answer to `method` on `path` (percent-encoded as sent, starting with `/docs`).
    func response(method: String, path: String) -> LoopbackResponse {
        guard method == "GET" || method == "HEAD" else {
            return Self.plain(405, "method not allowed", extra: [("Allow", "GET, HEAD")])
        }
        if path == "/docs" { return Self.redirect(Self.prefix) }
        guard path.hasPrefix(Self.prefix) else { return Self.notFound }
        let rest = path.dropFirst(Self.prefix.count)
        var names: [String] = []
        for part in rest.split(separator: "/") {
            guard let name = part.removingPercentEncoding else { return Self.plain(400, "bad percent-encoding") }
            guard Self.isPlainName(name) else { return Self.notFound }
            names.append(name)
        }
        let asFolder = rest.isEmpty || rest.hasSuffix("/")
        let target = names.reduce(folder) { $0.appendingPathComponent($1) }
        switch kind(of: target) {
        case .file? where !asFolder:
            return file(target, head: method == "HEAD")
        case .folder? where !asFolder:
            // Relative links of the folder's index resolve against the path with its slash.
            return Self.redirect(path + "/")
        case .folder?:
            let index = target.appendingPathComponent("index.html")
            if kind(of: index) == .file { return file(index, head: method == "HEAD") }
        default:
            break
        }
        // The site's script asks for a theme, which a site without a custom one lacks: the default.
        if names == ["theme-settings.json"] {
            return LoopbackResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
        }
        // A page of the documentation with no file of its own: the site's script draws it.
        if names.first == "documentation" || names.first == "tutorials" {
            let index = folder.appendingPathComponent("index.html")
            if kind(of: index) == .file { return file(index, head: method == "HEAD") }
        }
        return Self.notFound
    }

    private enum Kind { case file, folder }

    /// Whether `url` is a file or a folder inside the site once its symbolic links are resolved;
    /// nil when it does not exist or leads outside.
    private func kind(of url: URL) -> Kind? {
        let resolved = url.resolvingSymlinksInPath().path
        guard resolved == folder.path || resolved.hasPrefix(folder.path.hasSuffix("/") ? folder.path : folder.path + "/")
        else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder) else { return nil }
        return isFolder.boolValue ? .folder : .file
    }

    private func file(_ url: URL, head: Bool) -> LoopbackResponse {
        guard let data = FileManager.default.contents(atPath: url.resolvingSymlinksInPath().path) else {
            return Self.notFound
        }
        return LoopbackResponse(
            status: 200,
            headers: [
                ("Content-Type", Self.contentType(of: url.pathExtension)), ("Cache-Control", "no-cache"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: head ? [] : Array(data))
    }

    /// A single path name that names nothing but itself.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\")
            && !name.contains("\u{0}")
    }

    /// The content type of a file with extension `pathExtension`.
    static func contentType(of pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "ttf": "font/ttf"
        case "otf": "font/otf"
        case "mp4": "video/mp4"
        case "txt", "md": "text/plain; charset=utf-8"
        case "xml": "application/xml"
        case "zip": "application/zip"
        default: "application/octet-stream"
        }
    }

    private static let notFound = plain(404, "not found")

    private static func plain(_ status: Int, _ text: String, extra: [(name: String, value: String)] = []) -> LoopbackResponse {
        LoopbackResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + extra,
            body: Array((text + "\n").utf8))
    }

    private static func redirect(_ location: String) -> LoopbackResponse {
        LoopbackResponse(status: 301, headers: [("Location", location), ("Cache-Control", "no-store")])
    }

    /// The page `/docs/…` answers when no site is served: how to build one.
    static let absentPage = LoopbackResponse(
        status: 404, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
        body: Array(
            WebPreview.errorPage(
                "No documentation is served. \(buildCommand) builds it into \(defaultFolder), where sdui serve finds it "
                    + "when started in the package's folder (or pass --docs FOLDER)."
            ).utf8))
}
