import DynamicUICatalog
public import DynamicUIDemoBackend
public import Foundation

/// Which catalog `sdui serve` previews: the shipped EduGo screens, the shipped podcast
/// documents, or a folder in either format (see `tools/catalog/FORMAT.md`).
public enum PreviewCatalog: Sendable, Hashable {
    /// The shipped EduGo catalog (screen dialect); the preview opens on its login.
    case edugo
    /// The shipped podcast catalog (node dialect); the preview opens on `/podcasts`.
    case podcasts
    /// A folder holding an EduGo-format catalog (`screens/`, `templates/`, `data/`, `navigation/`).
    case eduGoFolder(URL)
    /// A folder holding a podcast-format catalog (`app.json`, the documents, `itunes/`).
    case podcastsFolder(URL)

    /// Reads `edugo`, `podcasts` or a folder path; a folder in neither format is an error that says
    /// what was expected.
    public init(argument: String) throws(PreviewCatalogError) {
        switch argument {
        case "edugo": self = .edugo
        case "podcasts": self = .podcasts
        default:
            let folder = URL(fileURLWithPath: argument)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PreviewCatalogError(
                    description: "--catalog \(argument): not 'edugo', 'podcasts' or an existing folder")
            }
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("screens").path) {
                self = .eduGoFolder(folder)
            } else if FileManager.default.fileExists(atPath: folder.appendingPathComponent("app.json").path) {
                self = .podcastsFolder(folder)
            } else {
                throw PreviewCatalogError(
                    description:
                        "--catalog \(argument): expected an EduGo-format folder (with screens/ and templates/) "
                        + "or a podcast-format folder (with app.json)")
            }
        }
    }

    /// The folder of a catalog given as a folder (watched for live reload); `nil` for a shipped one.
    public var folder: URL? {
        switch self {
        case .edugo, .podcasts: nil
        case .eduGoFolder(let folder), .podcastsFolder(let folder): folder
        }
    }

    /// The page the preview opens on.
    public var startPath: String {
        switch self {
        case .edugo, .eduGoFolder: "/"
        case .podcasts, .podcastsFolder: "/podcasts"
        }
    }

    /// A demo backend serving this catalog (the other one stays the shipped one).
    public func backend(databasePath: String?) throws -> DemoBackend {
        switch self {
        case .edugo, .podcasts: try DemoBackend(databasePath: databasePath)
        case .eduGoFolder(let folder): try DemoBackend(databasePath: databasePath, catalog: try EduGoCatalog(folder: folder))
        case .podcastsFolder(let folder):
            try DemoBackend(
                databasePath: databasePath,
                podcasts: (try? PodcastsCatalog(folder: folder).loaded()) ?? PodcastsCatalog(folder: folder))
        }
    }

    /// Live reload of this catalog's folder (`nil` for a shipped catalog): an edit is validated
    /// with `validator`; a valid catalog is handed to `backend` and `preview`, so open pages
    /// reload and following apps take the change, while a broken one is reported and the last
    /// good one stays served. Call `start()` on it.
    public func liveReload(backend: DemoBackend, preview: WebPreview, validator: ScreenValidator) -> LiveReload? {
        guard let folder else { return nil }
        return LiveReload(
            folder: folder,
            validate: { folder in
                // A podcast catalog's documents are its top-level files (`itunes/` holds recordings).
                let paths =
                    if case .podcastsFolder = self {
                        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
                            $0.hasSuffix(".json")
                        }
                        .sorted().map { folder.appendingPathComponent($0) }
                    } else {
                        [folder]
                    }
                return validator.validate(paths: paths).findings.filter { $0.severity == .error }.map(\.description)
            },
            apply: {
                switch self {
                case .eduGoFolder(let folder): try backend.replaceCatalog(try EduGoCatalog(folder: folder))
                case .podcastsFolder(let folder): backend.replacePodcasts(try PodcastsCatalog(folder: folder).loaded())
                case .edugo, .podcasts: break
                }
                await preview.catalogChanged()
            })
    }
}

/// A `--catalog` argument that names no catalog.
public struct PreviewCatalogError: Error, Sendable, CustomStringConvertible {
    /// What was wrong and what was expected.
    public let description: String
}
