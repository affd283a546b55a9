public import DynamicUIModels
import DynamicUIRendering
public import Foundation

/// The capability manifest of an app built with this SDK (`sdui capabilities`).
public enum CapabilityManifest {
    /// The manifest for `platform` with the native component types `components` registered.
    public static func manifest(platform: String, components: [String]) throws -> ClientCapabilities {
        guard let renderPlatform = RenderPlatform.allCases.first(where: { $0.rawValue == platform }) else {
            throw ManifestError(description: "'\(platform)' is not a platform; expected ios, ipad or mac")
        }
        let registry = try NativeComponentRegistry(
            components.map { DeclaredComponent(type: String($0.split(separator: ":").first ?? "")) })
        return ClientCapabilities.sdk(platform: renderPlatform, components: registry)
    }

    /// The manifest as pretty-printed JSON with sorted keys.
    public static func text(platform: String, components: [String]) throws -> String {
        JSONWriter(prettyPrinted: true, sortedKeys: true).string(
            from: try manifest(platform: platform, components: components).json)
            + "\n"
    }
}

extension ClientCapabilities {
    /// The capability manifest in the file at `url` (`--client`).
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ManifestError(description: "cannot be read (\(error.localizedDescription))")
        }
        self = try DocumentDecoder().decode(ClientCapabilities.self, from: data)
    }
}

extension ScreenValidator {
    /// Checks documents against the app version whose manifest is at `url`.
    public mutating func checkAgainstClient(manifestAt url: URL) throws {
        clientManifest = try ClientCapabilities(contentsOf: url)
    }
}

/// A manifest that cannot be made as asked.
struct ManifestError: Error, CustomStringConvertible {
    let description: String
}
