import ArgumentParser
import DynamicUICatalog
import DynamicUIDemoBackend
import DynamicUITooling
import Foundation

/// `sdui`: validate, render and serve DynamicUI screens.
@main
struct SDUI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdui",
        abstract: "Validate, render and preview DynamicUI screen definitions.",
        subcommands: [Serve.self, Validate.self, Render.self, Schema.self, Capabilities.self],
        defaultSubcommand: Serve.self)
}

/// `sdui serve`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the demo backend and the web preview on 127.0.0.1 and print the address.")

    @Option(help: "edugo, podcasts, or a catalog folder in either format (see tools/catalog/FORMAT.md).")
    var catalog: String = "edugo"

    @Option(help: "Port of the web preview (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(help: "SQLite file of the demo data (changes persist across restarts); default: in memory.")
    var database: String?

    @Flag(help: "Do not log each request.")
    var quiet = false

    @Flag(
        help: ArgumentHelp(
            "Serve on this machine's network address too, so an app on a phone can follow the preview.",
            discussion: "Prints the address and its QR code. Anyone on the network can then open the preview and its demo data."))
    var lan = false

    @Option(
        name: .customLong("plugin"),
        help: "A plugin's manifest: the preview registers its components and live reload validates with it (repeatable).")
    var plugins: [String] = []

    @Option(help: "Locale of the EduGo runtime: the SDK's words, dates and numbers (es_ES, en_US, ar, …).")
    var locale: String = "es_ES"

    @Option(
        help: ArgumentHelp(
            "A DocC static-hosting site to serve under /docs/ and link from the preview (default: .build-docs/site when it exists).",
            discussion: "bash .ci/docs.sh --site builds it (every library product, --hosting-base-path docs)."))
    var docs: String?

    /// The site `--docs` names (which must be a folder), else `.build-docs/site` when it exists.
    var documentation: DocumentationSite? {
        get throws {
            var isFolder: ObjCBool = false
            let path = docs ?? DocumentationSite.defaultFolder
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                if let docs { throw ValidationError("--docs \(docs): no such folder") }
                return nil
            }
            return DocumentationSite(folder: URL(fileURLWithPath: path))
        }
    }

    func run() async throws {
        let documentation = try self.documentation
        let manifests: [PluginManifest]
        var validator = ScreenValidator.shipped()
        do {
            manifests = try PluginManifest.read(paths: plugins)
            try validator.declare(manifests)
        } catch {
            throw ValidationError("--plugin: \(error)")
        }
        let catalog: PreviewCatalog
        do {
            catalog = try PreviewCatalog(argument: self.catalog)
        } catch {
            throw ValidationError(error.description)
        }
        let backend = try catalog.backend(databasePath: database)
        try await backend.start()
        let quiet = self.quiet
        let preview = WebPreview(backend: backend, locale: Locale(identifier: locale), documentation: documentation) { line in
            if !quiet { emit(line) }
        }
        preview.pluginComponents = manifests.flatMap(\.nativeComponents)
        // Live reload of a catalog folder: open pages reload, following apps take the change.
        preview.liveReload = catalog.liveReload(backend: backend, preview: preview, validator: validator)
        preview.liveReload?.start()
        let lanAddress = lan ? LocalNetwork.addresses().first : nil
        if lan, lanAddress == nil { throw ValidationError("--lan: this machine has no network address (only loopback is up)") }
        if let lanAddress { preview.allowedHosts.insert(lanAddress) }
        try await preview.start(port: port, host: lan ? "0.0.0.0" : "127.0.0.1")
        let root = preview.url.absoluteString
        emit("DynamicUI preview: \(root)\(catalog.startPath.dropFirst())")
        if let reload = preview.liveReload {
            emit(
                "  live reload: watching \(reload.folder.path)"
                    + (reload.errors.isEmpty ? "" : " (\(reload.errors.count) errors)"))
        }
        // The documentation's address (or how to build it) shares the line of the other addresses.
        let docsNote =
            if let address = preview.documentationURL {
                address.absoluteString + (documentation?.problem.map { " (warning: \($0))" } ?? "")
            } else {
                "not built (\(DocumentationSite.buildCommand) builds it into \(DocumentationSite.defaultFolder))"
            }
        emit("  EduGo: \(root)  ·  Podcasts: \(root)podcasts  ·  Documentation: \(docsNote)")
        emit("  demo API: mobile \(backend.mobileURL.absoluteString), admin \(backend.adminURL.absoluteString)")
        // How an app follows the preview: the scheme's environment, or the QR code on a phone.
        let followed = lanAddress.map { "http://\($0):\(preview.url.port ?? 80)/" } ?? root
        emit(
            "  follow from an app (debug build): DYNAMICUI_PREVIEW=\(followed)"
                + (lanAddress.map {
                    LocalNetwork.isPrivate($0) ? "" : " (not a private network's address: add \($0) to allowedHosts)"
                }
                    ?? ""))
        if lanAddress != nil, let code = QRCode(followed) {
            emit(code.terminalText(ansi: isatty(STDOUT_FILENO) != 0))
            emit("  on the network: anyone who can reach \(followed) can use the preview and its demo data")
        }
        emit(
            "  accounts: docente@edugo.test, estudiante@edugo.test, tutor@edugo.test, admin.escuela@edugo.test, "
                + "superadmin@edugo.test — password edugo123")
        while !Task.isCancelled { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }
}

/// `sdui validate`.
struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check screens, navigation and node documents the way a compiler would.",
        discussion: "Prints `file: json.path: error|warning: message` per finding and a summary; exits 1 on errors.")

    @Argument(help: "Files or folders of JSON documents.")
    var paths: [String]

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .customLong("allow-host"), help: "A host the app's OPEN_URL policy allows (repeatable; subdomains too).")
    var allowedHosts: [String] = []

    @Option(name: .customLong("allow-scheme"), help: "A scheme the app's OPEN_URL policy allows besides https (repeatable).")
    var allowedSchemes: [String] = []

    @Option(
        name: .customLong("native-component"),
        help: "A native component the app registers: TYPE or TYPE:action,action (repeatable).")
    var nativeComponents: [String] = []

    @Option(
        help: "An app version's capability manifest (sdui capabilities): elements it cannot draw without a fallback are errors.")
    var client: String?

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "A plugin's manifest: the handler keys it serves and the components it registers (repeatable).",
            discussion:
                #"{"dynamicui_plugin": "name", "handler_keys": ["key", "prefix-*"], "components": [{"type": "t", "events": ["onChange"], "props": ["value"]}]}"#
        ))
    var plugins: [String] = []

    enum OutputFormat: String, ExpressibleByArgument {
        case text, json
    }

    func run() async throws {
        var validator = ScreenValidator.shipped()
        validator.allowOpenURL(hosts: allowedHosts, schemes: allowedSchemes)
        do {
            try validator.declareNativeComponents(nativeComponents)
            try validator.declare(PluginManifest.read(paths: plugins))
        } catch {
            throw ValidationError("\(error)")
        }
        if let client {
            do {
                try validator.checkAgainstClient(manifestAt: URL(fileURLWithPath: client))
            } catch {
                throw ValidationError("\(client): \(error)")
            }
        }
        let report = validator.validate(paths: paths.map { URL(fileURLWithPath: $0) })
        switch format {
        case .text: print(report.text)
        case .json: print(report.jsonText())
        }
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}

/// `sdui render`.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a screen (a catalog key or a JSON file) as text, HTML or the render tree's JSON.")

    @Argument(help: "A screen key of the EduGo catalog, a podcast document name, or a screen/node JSON file.")
    var screen: String

    @Option(help: "A JSON file with the data (a list response or a detail object).")
    var data: String?

    @Option(help: "A JSON file with the user: {\"user\": {...}, \"context\": {...}}.")
    var user: String?

    @Option(name: .customLong("size-class"), help: "compact or regular.")
    var sizeClass: String = "compact"

    @Option(help: "ios, ipad or mac.")
    var platform: String = "ios"

    @Option(help: "text, html or json.")
    var format: String = "text"

    @Option(
        name: .customLong("plugin"),
        help: "A plugin's manifest (as for sdui validate): its components draw as a labelled box of their props (repeatable).")
    var plugins: [String] = []

    @Option(help: "An app version's capability manifest: draw what that version draws (fallbacks where it lacks a component).")
    var client: String?

    @Option(help: "Locale of the SDK's words, dates and numbers (es_ES, en_US, ar, …), whatever the machine's.")
    var locale: String = "es_ES"

    func run() async throws {
        do {
            let output = try ScreenRendering.render(
                screen: screen, dataFile: data, userFile: user, sizeClass: sizeClass, platform: platform, format: format,
                plugins: plugins, client: client, locale: Locale(identifier: locale))
            print(output, terminator: output.hasSuffix("\n") ? "" : "\n")
        } catch {
            FileHandle.standardError.write(Data("sdui render: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// `sdui schema`.
struct Schema: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the JSON Schema (or TypeScript declarations) of both dialects (screen and node documents).")

    /// What `sdui schema` writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, typescript
    }

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "json (JSON Schema, draft 2020-12) or typescript (declarations for backends).")
    var format: Format = .json

    func run() async throws {
        let text = format == .json ? DynamicUISchema.text() : DynamicUISchema.typeScript()
        if let output {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            print(text)
        }
    }
}

/// Writes a line to standard output at once (unbuffered, so a pipe sees it as it happens).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `sdui capabilities`.
struct Capabilities: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the capability manifest of an app built with this SDK, as JSON.",
        discussion:
            "Backends validate screens against it (sdui validate --client FILE) so a change that would break this app version fails in their CI."
    )

    @Option(help: "The platform: ios, ipad or mac.")
    var platform: String = "ios"

    @Option(name: .customLong("native-component"), help: "A native component the app registers (repeatable).")
    var nativeComponents: [String] = []

    @Option(name: .customLong("plugin"), help: "A plugin's manifest: the app registers its components (repeatable).")
    var plugins: [String] = []

    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.")
    var output: String?

    func run() async throws {
        let text: String
        do {
            let declared = try PluginManifest.read(paths: plugins).flatMap { $0.components.map(\.type) }
            text = try CapabilityManifest.text(platform: platform, components: nativeComponents + declared)
        } catch {
            throw ValidationError("\(error)")
        }
        if let output {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output))
        } else {
            print(text, terminator: "")
        }
    }
}
