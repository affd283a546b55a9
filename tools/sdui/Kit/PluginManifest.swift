import DynamicUIActions
public import DynamicUIModels
public import DynamicUIRendering
public import Foundation

/// What a third-party plugin adds to an app, declared for the tools (`sdui validate --plugin`,
/// `sdui render --plugin`, `sdui capabilities --plugin`): the handler keys it serves and the
/// native components it registers, with the props they read and the events they fire.
///
///     {
///       "dynamicui_plugin": "bookmarks",
///       "handler_keys": ["bookmark-create", "bookmark-*"],
///       "components": [
///         {"type": "rating-stars", "events": ["onChange"], "props": ["value", "max"]}
///       ]
///     }
///
/// A handler key ending in `*` serves every key with that prefix. A component without `props`
/// takes any prop; with them, another prop is a validator warning. Its events are the action
/// names it fires (in a screen document, the action whose `trigger_slot_id` is the slot is `tap`).
public struct PluginManifest: Sendable, Hashable {
    /// One native component of the plugin.
    public struct Component: Sendable, Hashable {
        /// The type it draws (`rating-stars`; `rating_stars` in node documents matches too).
        public var type: String
        /// The action names it fires (`onChange`).
        public var events: [String]
        /// The props it reads; `nil` accepts any.
        public var props: [String]?

        /// Creates a component declaration.
        public init(type: String, events: [String] = [], props: [String]? = nil) {
            self.type = type
            self.events = events
            self.props = props
        }
    }

    /// The plugin's name (`bookmarks`), for messages.
    public var name: String
    /// The handler keys it serves; one ending in `*` is a prefix.
    public var handlerKeys: [String]
    /// The native components it registers.
    public var components: [Component]
    /// The file it was read from, for messages (`nil` when made in code).
    public var file: String?

    /// Creates a manifest.
    public init(name: String, handlerKeys: [String] = [], components: [Component] = []) {
        self.name = name
        self.handlerKeys = handlerKeys
        self.components = components
    }

    /// Reads a manifest from its JSON; every error names the member at fault.
    public init(json: JSONValue) throws(PluginManifestError) {
        guard let object = json.objectValue else { throw PluginManifestError(at: .root, "expected an object") }
        for key in object.keys where !["dynamicui_plugin", "handler_keys", "components"].contains(key) {
            throw PluginManifestError(
                at: .root.appending(key: key), "unknown member (a manifest has dynamicui_plugin, handler_keys and components)")
        }
        guard let name = object["dynamicui_plugin"]?.stringValue, !name.isEmpty else {
            throw PluginManifestError(
                at: .root.appending(key: "dynamicui_plugin"), "expected the plugin's name, a non-empty string")
        }
        let handlerKeys = try Self.strings(object["handler_keys"], at: .root.appending(key: "handler_keys")) ?? []
        var components: [Component] = []
        if let list = object["components"] {
            guard let items = list.arrayValue else {
                throw PluginManifestError(at: .root.appending(key: "components"), "expected an array")
            }
            for (index, item) in items.enumerated() {
                let at = JSONLocation.root.appending(key: "components").appending(index: index)
                guard let fields = item.objectValue else { throw PluginManifestError(at: at, "expected an object") }
                for key in fields.keys where !["type", "events", "props"].contains(key) {
                    throw PluginManifestError(
                        at: at.appending(key: key), "unknown member (a component has type, events and props)")
                }
                guard let type = fields["type"]?.stringValue, !type.isEmpty else {
                    throw PluginManifestError(at: at.appending(key: "type"), "expected the component's type, a non-empty string")
                }
                components.append(
                    Component(
                        type: type, events: try Self.strings(fields["events"], at: at.appending(key: "events")) ?? [],
                        props: try Self.strings(fields["props"], at: at.appending(key: "props"))))
            }
        }
        self.init(name: name, handlerKeys: handlerKeys, components: components)
    }

    /// Reads the manifest in the file at `url`.
    public init(contentsOf url: URL) throws(PluginManifestError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PluginManifestError(file: url.path, at: .root, "cannot be read (\(error.localizedDescription))")
        }
        do {
            try self.init(json: try JSONReader().read(data))
        } catch let error as PluginManifestError {
            throw PluginManifestError(file: url.path, at: error.location, error.message)
        } catch {
            throw PluginManifestError(file: url.path, at: .root, "is not JSON: \(error)")
        }
        file = url.path
    }

    /// The manifests in the files at `paths` (the tools' repeatable `--plugin`).
    public static func read(paths: [String]) throws(PluginManifestError) -> [PluginManifest] {
        try paths.map { path throws(PluginManifestError) in try PluginManifest(contentsOf: URL(fileURLWithPath: path)) }
    }

    /// The components as the tools register them: known by type, events and props, drawn in
    /// the web preview as a labelled box of their props.
    public var nativeComponents: [any NativeComponent] {
        components.map { DeclaredComponent(type: $0.type, actionNames: $0.events, propNames: $0.props) }
    }

    private static func strings(_ value: JSONValue?, at path: JSONLocation) throws(PluginManifestError) -> [String]? {
        guard let value else { return nil }
        guard let items = value.arrayValue else { throw PluginManifestError(at: path, "expected an array of strings") }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard let string = item.stringValue, !string.isEmpty else {
                throw PluginManifestError(at: path.appending(index: index), "expected a non-empty string")
            }
            strings.append(string)
        }
        return strings
    }
}

/// Why a plugin manifest could not be read: the file, the member and what is wrong.
public struct PluginManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest's file, when it was read from one.
    public var file: String?
    /// The member at fault (`components[0].type`).
    public var location: JSONLocation
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    public init(file: String? = nil, at location: JSONLocation, _ message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file: path: message`.
    public var description: String { [file, location.description, message].compactMap { $0 }.joined(separator: ": ") }
}

extension ScreenValidator {
    /// Knows what `plugin` adds: its handler keys (where keys are checked) and its components with
    /// their events and props; throws, changing nothing, when a component's type is known already.
    public mutating func declare(_ plugin: PluginManifest) throws(ComponentRegistrationError) {
        try register(plugin.nativeComponents)
        handlerPatterns = handlerPatterns.map { $0 + plugin.handlerKeys.map { HandlerKeyPattern($0) } }
    }

    /// Knows every plugin of `manifests`; a refused component names the manifest's file.
    public mutating func declare(_ manifests: [PluginManifest]) throws(PluginManifestError) {
        for manifest in manifests {
            do {
                try declare(manifest)
            } catch {
                throw PluginManifestError(file: manifest.file, at: .root.appending(key: "components"), error.description)
            }
        }
    }
}
