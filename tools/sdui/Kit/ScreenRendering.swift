import DynamicUI
import DynamicUICatalog
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIWeb
public import Foundation

/// Why `sdui render` could not render.
public struct RenderCommandError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the file or option.
    public let description: String
}

/// `sdui render`: one screen, drawn offline from a definition and optional data and user.
public enum ScreenRendering {
    /// Renders `screen` (an EduGo key, a podcast document name, or a JSON file of either dialect)
    /// as `text`, `html` or `json` (the render tree). The components of the plugins whose
    /// manifests are at `plugins` draw as a labelled box of their props; with `client` (an app
    /// version's capability manifest) the screen is drawn as that version draws it, with the
    /// fallbacks of what it lacks. `locale` chooses the SDK's words and the format of dates and
    /// numbers.
    public static func render(
        screen: String, dataFile: String?, userFile: String?, sizeClass: String, platform: String, format: String,
        plugins: [String] = [], client: String? = nil, locale: Locale = Locale(identifier: "es_ES")
    ) throws(RenderCommandError) -> String {
        guard let size = SizeClass(rawValue: sizeClass) else {
            throw RenderCommandError(description: "--size-class must be compact or regular, not '\(sizeClass)'")
        }
        guard let target = RenderPlatform(rawValue: platform) else {
            throw RenderCommandError(description: "--platform must be ios, ipad or mac, not '\(platform)'")
        }
        guard ["text", "html", "json"].contains(format) else {
            throw RenderCommandError(description: "--format must be text, html or json, not '\(format)'")
        }
        let options = RenderOptions(sizeClass: size, platform: target, showUnknownMarkers: true)
        // The components an app built with the SDK has: the shipped media player, and the plugins'.
        let components: NativeComponentRegistry
        do {
            let declared = try PluginManifest.read(paths: plugins).flatMap(\.nativeComponents)
            components = try NativeComponentRegistry(ScreenValidator.shippedComponents + declared)
        } catch {
            throw RenderCommandError(description: "--plugin: \(error)")
        }
        let resolver = try client.map { path throws(RenderCommandError) in
            do {
                return RequirementResolver(capabilities: try ClientCapabilities(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw RenderCommandError(description: "--client \(path): \(error)")
            }
        }
        var data: JSONValue = .null
        if let dataFile { data = try read(dataFile) }
        let environment = EvaluationEnvironment(now: Date(), locale: locale)
        let root: RenderNode
        let document = try definition(of: screen)
        do {
            switch document {
            case .screen(var definition):
                if let resolver {
                    let missing = resolver.missing(for: definition)
                    guard missing.isEmpty else {
                        throw RenderCommandError(
                            description:
                                "\(screen): that app version cannot open this screen (it lacks \(missing.joined(separator: ", ")))"
                        )
                    }
                    definition = resolver.resolve(definition).0
                }
                let compiled = try ScreenCompiler().compile(definition)
                var user: AuthUserInfo?
                var userContext: UserContext?
                if let userFile {
                    let json = try read(userFile)
                    user = try AuthUserInfo(json: json["user"] ?? .null)
                    userContext = try UserContext(json: json["context"] ?? .null)
                }
                let context = try compiled.context(user: user, userContext: userContext, data: data, environment: environment)
                let items = definition.dataEndpoint == nil ? nil : DataLoader.items(in: data)
                root = PatternRouter(options: options, components: components).render(
                    ScreenInputs(
                        screen: compiled, context: context, items: items.map(ListItems.init),
                        permissions: userContext?.permissions))
            case .node(var node, let name):
                if let resolver {
                    guard let fitted = resolver.resolve(node).0 else {
                        throw RenderCommandError(description: "\(screen): that app version draws nothing of this document")
                    }
                    node = fitted
                }
                let catalog = PodcastsCatalog()
                let library = (try? catalog.components()) ?? ComponentLibrary(components: [:])
                let renderer = NodeRenderer(
                    theme: (try? catalog.theme()) ?? Theme(), library: library, components: try NodeCompiler().compile(library),
                    options: options, nativeComponents: components,
                    permissions: try userFile.flatMap { try UserContext(json: read($0)["context"] ?? .null).permissions })
                let bindings = (data.objectValue ?? [:]).map { ($0.key, $0.value) }
                let context = DataContext(
                    [("env", .object([:])), ("state", .object([:]))] + bindings, defaultObject: data, environment: environment)
                root = renderer.render(try NodeCompiler().compile(node), context: context, name: name).root
            }
        } catch let error as RenderCommandError {
            throw error
        } catch {
            throw RenderCommandError(description: "\(screen): \(error)")
        }
        switch format {
        case "html":
            var renderer = HTMLRenderer()
            renderer.components = components
            return renderer.page(root)
        case "json": return JSONWriter().string(from: RenderTreeJSON.json(root))
        default: return TextRenderer().render(root)
        }
    }

    private enum Document {
        /// A screen-dialect definition.
        case screen(ScreenDefinition)
        /// A node-dialect document.
        case node(ViewNode, name: String)
    }

    private static func definition(of screen: String) throws(RenderCommandError) -> Document {
        if FileManager.default.fileExists(atPath: screen) {
            let json = try read(screen)
            let name = URL(fileURLWithPath: screen).deletingPathExtension().lastPathComponent
            do {
                if json["screen_key"] != nil || json["template"] != nil {
                    return .screen(try ScreenDefinition(json: json))
                }
                return .node(try ViewNode(json: json), name: name)
            } catch {
                throw RenderCommandError(description: "\(screen): \(error)")
            }
        }
        if PodcastsCatalog.documentNames.contains(screen) {
            do {
                return .node(try PodcastsCatalog().document(screen), name: screen)
            } catch {
                throw RenderCommandError(description: "\(error)")
            }
        }
        do {
            let catalog = try EduGoCatalog()
            guard catalog.screenKeys.contains(screen) else {
                throw RenderCommandError(
                    description:
                        "'\(screen)' is neither a file nor a catalog screen (EduGo: \(catalog.screenKeys.joined(separator: ", ")); "
                        + "podcasts: \(PodcastsCatalog.documentNames.joined(separator: ", ")))")
            }
            return .screen(try catalog.screen(screen))
        } catch let error as RenderCommandError {
            throw error
        } catch {
            throw RenderCommandError(description: "\(error)")
        }
    }

    private static func read(_ path: String) throws(RenderCommandError) -> JSONValue {
        do {
            return try JSONReader().read(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RenderCommandError(description: "\(path): \(error)")
        }
    }
}

/// The render tree as JSON: `{"id", "kind", <the kind's values>, "children"}`, built by
/// reflection so that every kind is covered; lazy list rows are built (up to 500 a list and
/// 100,000 nodes in all, so lists nested in rows cannot multiply without bound).
final class RenderTreeJSON {
    private var remainingNodes = 100_000

    static func json(_ node: RenderNode) -> JSONValue { RenderTreeJSON().json(node) }

    private func json(_ node: RenderNode) -> JSONValue {
        remainingNodes -= 1
        var object: JSONObject = ["id": .string(node.id)]
        let (name, payload) = kind(node.kind)
        object["kind"] = .string(name)
        if let payload { object["values"] = payload }
        if let style = node.style { object["style"] = value(style) }
        if let accessibility = node.accessibility { object["accessibility"] = value(accessibility) }
        if !node.children.isEmpty { object["children"] = .array(node.children.map(json)) }
        return .object(object)
    }

    private func kind(_ kind: RenderKind) -> (String, JSONValue?) {
        let mirror = Mirror(reflecting: kind)
        guard let child = mirror.children.first else { return ("\(kind)", nil) }
        return (child.label ?? "\(kind)", value(child.value))
    }

    private func value(_ any: Any) -> JSONValue {
        switch any {
        case let json as JSONValue: return json
        case let object as JSONObject: return .object(object)
        case let string as String: return .string(string)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .number(JSONNumber(number))
        case let number as Double: return .number(JSONNumber(number))
        case let rows as LazyRows:
            var built: [JSONValue] = []
            for index in 0..<min(rows.count, 500) where remainingNodes > 0 { built.append(json(rows.row(at: index))) }
            return .array(built)
        case let node as RenderNode: return json(node)
        default: break
        }
        let mirror = Mirror(reflecting: any)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { value($0.value) } ?? .null
        case .collection, .set:
            return .array(mirror.children.map { value($0.value) })
        case .dictionary:
            var object: JSONObject = [:]
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                if pair.count == 2 { object["\(pair[0].value)"] = value(pair[1].value) }
            }
            return .object(object)
        case .enum:
            guard let child = mirror.children.first else { return .string("\(any)") }
            return .object(JSONObject([(child.label ?? "value", value(child.value))]))
        case .struct, .class, .tuple:
            var object: JSONObject = [:]
            // A model's `memberwise` token is not part of what it holds.
            for (index, child) in mirror.children.enumerated() where child.label != "memberwise" {
                object[child.label ?? "\(index)"] = value(child.value)
            }
            return .object(object)
        default:
            if let raw = any as? any RawRepresentable { return .string("\(raw.rawValue)") }
            return .string("\(any)")
        }
    }
}
