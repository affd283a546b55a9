public import DynamicUIModels
public import Foundation

/// Locates and loads the catalogs shipped in `tools/catalog` (the EduGo screens and the
/// podcast node documents). Set `DYNAMICUI_CATALOG` to use a catalog folder elsewhere.
public enum CatalogLocation {
    /// The `tools/catalog` folder.
    public static var root: URL {
        if let path = ProcessInfo.processInfo.environment["DYNAMICUI_CATALOG"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// A catalog file could not be read or decoded; names the file and, inside it, the place.
public struct CatalogError: Error, CustomStringConvertible {
    /// The file that failed.
    public let file: String
    /// The underlying error (`JSONReadError`, `ModelDecodingError` or a file error).
    public let underlying: any Error

    public var description: String { "\(file): \(underlying)" }
}

/// Reads one JSON file of a catalog.
func readJSON(_ url: URL) throws(CatalogError) -> JSONValue {
    do {
        let data = try Data(contentsOf: url)
        return try JSONReader().read(data)
    } catch {
        throw CatalogError(file: url.path, underlying: error)
    }
}

/// `json` decoded as a `T`; a failure names `file`.
func decodeModel<T: JSONModelDecodable>(_ json: JSONValue, as type: T.Type, file: String) throws(CatalogError) -> T {
    do {
        return try T(json: json)
    } catch {
        throw CatalogError(file: file, underlying: error)
    }
}

/// The `.json` files directly inside `folder`, sorted by name.
func jsonFiles(in folder: URL) throws(CatalogError) -> [URL] {
    do {
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    } catch {
        throw CatalogError(file: folder.path, underlying: error)
    }
}

/// The EduGo catalog: screen templates, screen instances, navigation per role and demo data.
public struct EduGoCatalog: Sendable {
    /// The `edugo` folder.
    public let folder: URL
    /// Template documents keyed by `template_id`.
    public let templates: [String: JSONValue]
    /// Screen instances keyed by `screen_key`.
    public let instances: [String: JSONValue]

    /// Loads the catalog from `folder` (default: the shipped one).
    public init(folder: URL = CatalogLocation.root.appendingPathComponent("edugo")) throws(CatalogError) {
        self.folder = folder
        var templates: [String: JSONValue] = [:]
        for url in try jsonFiles(in: folder.appendingPathComponent("templates")) {
            let json = try readJSON(url)
            templates[json["template_id"]?.stringValue ?? url.deletingPathExtension().lastPathComponent] = json
        }
        var instances: [String: JSONValue] = [:]
        for url in try jsonFiles(in: folder.appendingPathComponent("screens")) {
            let json = try readJSON(url)
            instances[json["screen_key"]?.stringValue ?? url.deletingPathExtension().lastPathComponent] = json
        }
        self.templates = templates
        self.instances = instances
    }

    /// Every screen key, sorted.
    public var screenKeys: [String] { instances.keys.sorted() }

    /// The composed screen JSON for `key`, as the backend serves it.
    public func screenJSON(_ key: String) throws(CatalogError) -> JSONValue {
        let file = "screens/\(key).json"
        guard let instance = instances[key] else {
            throw CatalogError(file: file, underlying: ModelDecodingError(.invalidValue, at: .root, "no screen '\(key)'"))
        }
        let templateId = instance["template_id"]?.stringValue ?? ""
        guard let template = templates[templateId] else {
            throw CatalogError(
                file: file, underlying: ModelDecodingError(.invalidValue, at: "template_id", "no template '\(templateId)'"))
        }
        do {
            return try ScreenComposer.compose(template: template, instance: instance)
        } catch {
            throw CatalogError(file: file, underlying: error)
        }
    }

    /// The composed, decoded screen for `key`.
    public func screen(_ key: String) throws(CatalogError) -> ScreenDefinition {
        try decodeModel(screenJSON(key), as: ScreenDefinition.self, file: "screens/\(key).json")
    }

    /// The roles that have a navigation definition (`superadmin`, `teacher`, …).
    public func navigationRoles() throws(CatalogError) -> [String] {
        try jsonFiles(in: folder.appendingPathComponent("navigation")).map { $0.deletingPathExtension().lastPathComponent }
    }

    /// The navigation definition of a role group.
    public func navigation(role: String) throws(CatalogError) -> NavigationDefinition {
        let url = folder.appendingPathComponent("navigation/\(role).json")
        return try decodeModel(readJSON(url), as: NavigationDefinition.self, file: url.path)
    }

    /// The names of the demo data files (without `.json`).
    public func dataFiles() throws(CatalogError) -> [String] {
        try jsonFiles(in: folder.appendingPathComponent("data")).map { $0.deletingPathExtension().lastPathComponent }
    }

    /// A demo data file (`materials`, `users`, `endpoints`, …).
    public func data(_ name: String) throws(CatalogError) -> JSONValue {
        try readJSON(folder.appendingPathComponent("data/\(name).json"))
    }
}

/// The podcast catalog: node-dialect documents, theme, components and recorded iTunes
/// responses.
public struct PodcastsCatalog: Sendable {
    /// The `podcasts` folder.
    public let folder: URL
    /// The top-level files as read by `loaded()`; `nil` reads each from the folder when asked.
    private var files: [String: JSONValue]?

    /// The catalog at `folder` (default: the shipped one), read from the folder when asked.
    public init(folder: URL = CatalogLocation.root.appendingPathComponent("podcasts")) {
        self.folder = folder
    }

    /// The catalog with its top-level files read now, so that later edits of the folder do not
    /// reach it (live reload serves a validated copy while the folder is being edited).
    public func loaded() throws(CatalogError) -> PodcastsCatalog {
        var copy = self
        var files: [String: JSONValue] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".json") {
            files[String(name.dropLast(5))] = try readJSON(folder.appendingPathComponent(name))
        }
        copy.files = files
        return copy
    }

    /// The screen documents' names (`app`, `browse`, `search`, `podcast_detail`, `episode_detail`).
    public static let documentNames = ["app", "browse", "search", "podcast_detail", "episode_detail", "genre"]

    /// The raw JSON of a top-level file (`browse`, `theme`, …).
    public func json(_ name: String) throws(CatalogError) -> JSONValue {
        if let files {
            guard let file = files[name] else {
                throw CatalogError(
                    file: "\(name).json", underlying: ModelDecodingError(.missingField, at: .root, "no such file in the catalog"))
            }
            return file
        }
        return try readJSON(folder.appendingPathComponent("\(name).json"))
    }

    /// A screen document.
    public func document(_ name: String) throws(CatalogError) -> ViewNode {
        try decodeModel(json(name), as: ViewNode.self, file: "\(name).json")
    }

    /// The theme.
    public func theme() throws(CatalogError) -> Theme {
        try decodeModel(json("theme"), as: Theme.self, file: "theme.json")
    }

    /// The component library.
    public func components() throws(CatalogError) -> ComponentLibrary {
        try decodeModel(json("components"), as: ComponentLibrary.self, file: "components.json")
    }

    /// Canonical request (`/lookup?entity=podcastEpisode&id=1`) → file name.
    public func recordingIndex() throws(CatalogError) -> [String: String] {
        let json = try readJSON(folder.appendingPathComponent("itunes/index.json"))
        guard case .object(let object) = json else {
            throw CatalogError(
                file: "itunes/index.json", underlying: ModelDecodingError(.typeMismatch, at: .root, "expected an object"))
        }
        var index: [String: String] = [:]
        for (key, value) in object { index[key] = value.stringValue }
        return index
    }

    /// The recorded response file `name` in `itunes/`.
    public func recording(_ name: String) throws(CatalogError) -> JSONValue {
        try readJSON(folder.appendingPathComponent("itunes/\(name)"))
    }
}
