import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

@Suite("What a person reads: avatars, dates, numbers, sizes, lists in forms, back")
struct PresentationTests {
    @Test func anAvatarsInitialsComeFromTheNameNeverFromThePicture() {
        let picture = AvatarImage(value: "https://cdn.edugo.test/avatars/usr-021.png", name: "Alejandro Pérez Zúñiga")
        #expect(picture.source == "https://cdn.edugo.test/avatars/usr-021.png")
        #expect(picture.initials == "AP")
        #expect(AvatarImage(value: "https://cdn.edugo.test/a.png", name: nil).initials == "")
        #expect(AvatarImage(value: "ana maría", name: nil) == AvatarImage(source: nil, initials: "AM"))
        // Only http(s) is a picture; other schemes are neither a picture nor a name.
        #expect(AvatarImage(value: "javascript:alert(1)", name: "Eva").source == nil)
        #expect(AvatarImage(value: "file:///etc/passwd", name: nil) == AvatarImage(source: nil, initials: ""))
        #expect(AvatarImage.name(in: ["first_name": "Ana", "last_name": "Ríos"]) == "Ana Ríos")
        #expect(AvatarImage.name(in: ["full_name": "Jorge Castro", "title": "x"]) == "Jorge Castro")
    }

    @Test func aListRowsAvatarIsAPictureNotText() throws {
        let screen = try compiledScreen(zones: [
            Zone(
                id: "items", type: .cardList,
                itemLayout: ItemLayout(slots: [
                    Slot(id: "avatar", controlType: .avatar, field: "avatar_url"),
                    Slot(id: "name", controlType: .label, field: "full_name"),
                ]))
        ])
        let items: [JSONValue] = [["id": "u1", "full_name": "Lucía Fernández", "avatar_url": "https://cdn.test/u1.png"]]
        let tree = try render(screen, data: .array(items), items: items)
        guard
            case .list(_, let rows) = try #require(flatten(tree).first { if case .list = $0.kind { true } else { false } }).kind,
            case .row(let row) = rows.row(at: 0).kind
        else {
            Issue.record("no row")
            return
        }
        #expect(row.title == "Lucía Fernández")
        #expect(row.subtitles.isEmpty)
        #expect(row.avatar == AvatarImage(source: "https://cdn.test/u1.png", initials: "LF"))
        #expect(rows.row(at: 0).accessibility?.label == "Lucía Fernández")
    }

    @Test func timestampsAndFractionsReadInTheLocale() {
        let spanish = EvaluationEnvironment(
            now: Date(), locale: Locale(identifier: "es_ES"), timeZone: TimeZone(identifier: "UTC")!)
        let english = EvaluationEnvironment(
            now: Date(), locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!)
        let stamp: JSONValue = "2025-09-19T17:32:08Z"
        let es = spanish.displayText(stamp)
        let en = english.displayText(stamp)
        #expect(es.contains("19") && es.contains("2025") && es.contains("17:32") && !es.contains("T17"))
        #expect(en.contains("Sep") && en.contains("2025") && en.contains("5:32"))
        #expect(!spanish.displayText("2025-09-19").contains("-"))
        #expect(spanish.displayText(.number(JSONNumber(35.2))) == "35,2")
        #expect(english.displayText(.number(JSONNumber(35.2))) == "35.2")
        #expect(spanish.displayText(.number(JSONNumber(137))) == "137")
        // Text that only looks like a date stays as it is.
        for text in ["2025-13-45T10:00:00Z", "1234-abc-def", "mat-2025-01", "2025-09-19 extra", ""] {
            #expect(spanish.displayText(.string(text)) == text)
        }
        #expect(spanish.displayText(.number(JSONNumber(Double.infinity))) == JSONValue.number(JSONNumber(Double.infinity)).text)
    }

    @Test func slotWidthsAndWeightsAreParsedAndClamped() {
        #expect(LayoutHints.width("fill") == .fill)
        #expect(LayoutHints.width(" Half ") == .fraction(0.5))
        #expect(LayoutHints.width("40%") == .fraction(0.4))
        #expect(LayoutHints.width("120pt") == .points(120))
        #expect(LayoutHints.width("wide") == nil)
        #expect(LayoutHints.width("nan") == nil)
        #expect(LayoutHints.width("inf") == nil)
        #expect(LayoutHints(width: "1e300", weight: nil)?.width == .points(10_000))
        #expect(LayoutHints(width: "-5", weight: nil)?.width == .points(0))
        #expect(LayoutHints(width: "900%", weight: nil)?.width == .fraction(1))
        #expect(LayoutHints(width: nil, weight: 1e300)?.weight == 1_000)
        #expect(LayoutHints(width: nil, weight: -1)?.weight == 0.01)
        #expect(LayoutHints(width: nil, weight: .nan)?.weight == nil)
        #expect(LayoutHints(width: nil, weight: nil) == nil)
        #expect(LayoutHints(aspectRatio: 1e9).aspectRatio == 100)
    }

    @Test func aSlotsWidthAndWeightReachTheTree() throws {
        let screen = try compiledScreen(
            zones: [
                Zone(
                    id: "row", type: .container, distribution: .sideBySide,
                    slots: [
                        Slot(id: "a", controlType: .label, value: "A", weight: 2),
                        Slot(id: "b", controlType: .label, value: "B", width: "30%"),
                    ])
            ], pattern: .dashboard)
        let nodes = flatten(try render(screen))
        #expect(nodes.first { $0.id.hasSuffix("/a") }?.layout?.weight == 2)
        #expect(nodes.first { $0.id.hasSuffix("/b") }?.layout?.width == .fraction(0.3))
        #expect(TextRenderer().render(try render(screen)).contains("weight:2"))
    }

    @Test(arguments: [ScreenPattern.form, .modal, .settings])
    func aListInAFormKeepsItsRows(pattern: ScreenPattern) throws {
        let screen = try compiledScreen(
            zones: [
                Zone(id: "fields", type: .formSection, slots: [Slot(id: "name", controlType: .textInput, label: "Nombre")]),
                Zone(
                    id: "members", type: .simpleList, title: "Miembros", field: "members",
                    itemLayout: ItemLayout(slots: [Slot(id: "who", controlType: .label, field: "name")])),
            ], pattern: pattern)
        let data: JSONValue = ["members": [["id": "1", "name": "Ana"], ["id": "2", "name": "Luis"]]]
        let tree = try render(screen, data: data)
        let lists = flatten(tree).compactMap { node -> LazyRows? in
            if case .list(_, let rows) = node.kind { return rows }
            return nil
        }
        #expect(lists.map(\.count) == [2], "\(pattern): \(TextRenderer().render(tree))")
    }

    @Test func backFollowsTheStackNotTheTemplate() throws {
        let screen = try compiledScreen(zones: [], pattern: .list)
        let context = try screen.context(user: teacher, userContext: teacherContext, data: .null, environment: environment)
        func showsBack(_ canGoBack: Bool?) -> Bool {
            let tree = PatternRouter().render(ScreenInputs(screen: screen, context: context, canGoBack: canGoBack))
            guard case .screen(let chrome) = tree.kind else { return false }
            return chrome.showsBack
        }
        #expect(showsBack(nil) == true)  // unknown: the template (a list shows back)
        #expect(showsBack(false) == false)  // a tab's root
        #expect(showsBack(true) == true)
    }

    @Test(arguments: [
        "2025-01-01T25:61:61Z", "0000-01-01", "9999-12-31T23:59:59Z", "2025-02-30", "2025-01-01T00:00:00+99:99",
        "2025-01-01T00:00:00.99999999999999999999Z", "1970-01-01T00:00:00-00:00", "2025-01-01\u{0}", "2025-١٢-٠١",
    ])
    func hostileTimestampsNeverTrapAndStayReadable(text: String) {
        for locale in ["es_ES", "en_US", "ar"] {
            let environment = EvaluationEnvironment(now: Date(), locale: Locale(identifier: locale))
            let shown = environment.displayText(.string(text))
            #expect(!shown.isEmpty, "\(text) in \(locale)")
        }
    }
}
