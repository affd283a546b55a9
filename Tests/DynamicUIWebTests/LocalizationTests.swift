import DynamicUIActions
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import DynamicUIWeb
import Foundation
import Testing

@Suite("The SDK's own words in Spanish and English, chosen by the locale")
struct LocalizationTests {
    @Test func everyWordHasBothLanguagesAndTheSamePlaceholders() {
        for key in DynamicUIStrings.Key.allCases {
            let spanish = DynamicUIStrings.text(key, in: .spanish)
            let english = DynamicUIStrings.text(key, in: .english)
            #expect(!spanish.isEmpty && !english.isEmpty, "\(key)")
            let placeholders = { (text: String) in text.matches(of: /\{\d\}/).map { String(text[$0.range]) }.sorted() }
            #expect(placeholders(spanish) == placeholders(english), "\(key): \(spanish) / \(english)")
        }
        #expect(DynamicUIStrings.spanish(.fieldRequired, "Título") == "Título: campo obligatorio")
        #expect(DynamicUIStrings.english(.fieldRequired, "Title") == "Title: required")
        #expect(DynamicUIStrings.english(.missingParameter, "id", "/v1/x") == "The parameter 'id' is missing for /v1/x")
    }

    @Test(arguments: [
        ("es_ES", SDKLanguage.spanish, TextDirection.leftToRight), ("es-419", .spanish, .leftToRight),
        ("en_US", .english, .leftToRight), ("fr_FR", .english, .leftToRight), ("ar", .english, .rightToLeft),
        ("he_IL", .english, .rightToLeft), ("fa-IR", .english, .rightToLeft), ("", .english, .leftToRight),
    ])
    func theLocaleChoosesLanguageAndDirection(identifier: String, language: SDKLanguage, direction: TextDirection) {
        let strings = DynamicUIStrings(locale: Locale(identifier: identifier))
        #expect(strings.language == language)
        #expect(strings.direction == direction)
    }

    @Test func validationAndActionMessagesFollowTheLocale() {
        let slots = [Slot(id: "title", controlType: .textInput, label: "Title", required: true)]
        #expect(FormValidator(strings: .english).validate(slots: slots, values: [:]) == ["title": "Title: required"])
        #expect(FormValidator(strings: .spanish).validate(slots: slots, values: [:]) == ["title": "Title: campo obligatorio"])
        let link = [Slot(id: "file_url", controlType: .textInput, label: "File")]
        #expect(
            FormValidator(strings: .english).validate(slots: link, values: ["file_url": "not a link"])
                == ["file_url": "File: enter a link starting with https://"])
        #expect(FormValidator().validate(slots: link, values: ["file_url": "https://edugo.test/a.pdf"]).isEmpty)
        #expect(RowAction(ActionDefinition(id: "x", trigger: .longPress, type: .navigate), strings: .english).title == "Open")
    }

    /// A list screen rendered in `locale`, as HTML.
    func page(locale: String) throws -> (tree: RenderNode, html: String) {
        let screen = try ScreenCompiler().compile(
            ScreenDefinition(
                screenId: "s", screenKey: "test", screenName: "Materials", pattern: .list, version: 1,
                template: ScreenTemplate(zones: [
                    Zone(
                        id: "items", type: .simpleList,
                        itemLayout: ItemLayout(slots: [Slot(id: "t", controlType: .label, field: "title")]))
                ]),
                dataEndpoint: "/v1/materials", dataConfig: DataConfig(pagination: PaginationConfig(pageSize: 20)),
                actions: [ActionDefinition(id: "more", trigger: .swipe, type: .refresh)],
                updatedAt: "2026-01-01T00:00:00Z"))
        let environment = EvaluationEnvironment(now: Date(), locale: Locale(identifier: locale))
        let items: [JSONValue] = [["id": "1", "title": "Fractions"]]
        let context = try screen.context(user: nil, userContext: nil, data: .array(items), environment: environment)
        let tree = PatternRouter().render(
            ScreenInputs(
                screen: screen, context: context, items: ListItems(items),
                pagination: PaginationState(hasMore: true, loadingMore: false), canGoBack: true))
        return (tree, HTMLRenderer().page(tree))
    }

    @Test func aScreenInEnglishSaysBackLoadMoreAndMoreActions() throws {
        let english = try page(locale: "en_US").html
        #expect(english.contains("<html lang=\"en\" dir=\"ltr\">"))
        #expect(
            english.contains("‹ Back</a>") && english.contains(">Load more</a>") && english.contains("More actions: Fractions"))
        #expect(!english.contains("Atrás") && !english.contains("Cargar más"))
        let spanish = try page(locale: "es_ES").html
        #expect(spanish.contains("<html lang=\"es\" dir=\"ltr\">"))
        #expect(spanish.contains("‹ Atrás</a>") && spanish.contains(">Cargar más</a>"))
    }

    @Test func aRightToLeftLocaleMirrorsTheScreen() throws {
        let (tree, html) = try page(locale: "ar")
        guard case .screen(let chrome) = tree.kind else {
            Issue.record("not a screen")
            return
        }
        #expect(chrome.strings.direction == .rightToLeft)
        #expect(html.contains("dir=\"rtl\">"))
        #expect(html.contains("<section class=\"screen list\"") && html.contains("dir=\"rtl\""))
    }

    @Test func failureStatesAreInTheLocale() {
        let tree = LoadFailure.notAllowed.screen(title: "", canGoBack: false, strings: .english)
        let html = HTMLRenderer().page(tree)
        #expect(html.contains("Not allowed") && html.contains("Your account may not see this screen."))
        #expect(!html.contains("acceso"))
    }

    /// String literals in the SDK's sources that read like words for a person (an accented
    /// letter, ¿ or ¡, capitalised prose of two or more words, or any word of the table in
    /// either language, such as "Eliminar" or "Open"), outside the string table. Multi-line
    /// literals (scripts, styles) and comments are skipped.
    static func userVisibleLiterals(in root: URL) throws -> [String] {
        let allowed: [(file: String, text: String, reason: String)] = [
            ("CredentialStores.swift", "Keychain read failed", "a developer's storage error"),
            ("CredentialStores.swift", "Keychain write failed", "a developer's storage error"),
            ("CredentialStores.swift", "Keychain delete failed", "a developer's storage error"),
            ("JSONValue.swift", "Not a JSON value", "Codable's debug description"),
        ]
        let accented = /[áéíóúñ¿¡ÁÉÍÓÚÑ]/
        let prose = /^[A-ZÁÉÍÓÚ¿¡][a-záéíóúñ]+(?: [a-záéíóúñA-Z]+)+/
        let words = Set(
            DynamicUIStrings.Key.allCases.flatMap { key in SDKLanguage.allCases.map { DynamicUIStrings.text(key, in: $0) } }
                .filter { !$0.contains("{") })
        var found: [String] = []
        for folder in ["Modules", "Plugins"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                guard file.lastPathComponent != "DynamicUIStrings.swift" else { continue }
                var inMultiline = false
                for (number, line) in try String(contentsOf: file, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false
                ).enumerated() {
                    let quotes = line.components(separatedBy: "\"\"\"").count - 1
                    if quotes > 0 {
                        if quotes % 2 == 1 { inMultiline.toggle() }
                        continue
                    }
                    if inMultiline { continue }
                    for literal in literals(in: String(line))
                    where literal.contains(accented) || literal.contains(prose) || words.contains(literal) {
                        let permitted = allowed.contains { file.lastPathComponent == $0.file && literal.hasPrefix($0.text) }
                        if !permitted { found.append("\(folder)/…/\(file.lastPathComponent):\(number + 1): \(literal)") }
                    }
                }
            }
        }
        return found
    }

    /// The string literals of one line of Swift, up to a `//` comment outside a literal.
    static func literals(in line: String) -> [String] {
        var literals: [String] = []
        var current: String?
        var escaped = false
        var previous: Character = " "
        for character in line {
            if var text = current {
                if escaped {
                    text.append(character)
                    escaped = false
                } else if character == "\\" {
                    text.append(character)
                    escaped = true
                } else if character == "\"" {
                    literals.append(text)
                    current = nil
                    previous = character
                    continue
                } else {
                    text.append(character)
                }
                current = text
            } else if character == "\"" {
                current = ""
            } else if character == "/" && previous == "/" {
                break
            }
            previous = character
        }
        return literals
    }

    @Test func noUserVisibleWordIsLeftOutsideTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let found = try Self.userVisibleLiterals(in: root)
        #expect(found.isEmpty, "user-visible literals outside DynamicUIStrings:\n\(found.joined(separator: "\n"))")
        // The scan itself finds a word put back in the code.
        #expect(Self.literals(in: #"label = "Atrás" // "ignored""#) == ["Atrás"])
        #expect(Self.literals(in: #"let url = "https://x.test" // "Atrás""#) == ["https://x.test"])
        #expect(Self.literals(in: #"  text("\(a): campo obligatorio")"#) == [#"\(a): campo obligatorio"#])
    }
}
