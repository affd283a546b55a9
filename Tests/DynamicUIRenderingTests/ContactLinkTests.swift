import DynamicUICatalog
import DynamicUIModels
import DynamicUIResolvers
import Foundation
import Testing

@testable import DynamicUIRendering

/// A labeled phone, e-mail or web site is a row that opens it; anything else stays text.
@Suite("Rendering: phone, e-mail and web site rows")
struct ContactLinkTests {
    @Test(arguments: [
        ("+51 1 471 2290", "phone", "tel:+5114712290"), ("(01) 234-5678", "phone", "tel:012345678"),
        ("601.555.0199", "phone", "tel:6015550199"),
        ("contacto@colsanmartin.edu.pe", "email", "mailto:contacto@colsanmartin.edu.pe"),
        ("ana.o'neil+1@mail.example.org", "email", "mailto:ana.o'neil+1@mail.example.org"),
        ("https://www.colsanmartin.edu.pe", "link", "https://www.colsanmartin.edu.pe"),
        ("  http://edugo.test/escuela?id=1  ", "link", "http://edugo.test/escuela?id=1"),
    ])
    func aValueOfItsKindOpensIt(text: String, style: String, address: String) {
        #expect(ContactLink.url(for: text, style: style)?.absoluteString == address)
    }

    @Test(
        arguments: [
            ("notaurl", "link"), ("javascript:alert(1)", "link"), ("ftp://files.edugo.test", "link"), ("https://", "link"),
            ("https://user@evil.test", "link"), ("https://edugo.test/a b", "link"), ("www.edugo.test", "link"),
            ("abc", "phone"), ("12", "phone"), ("471 2290 ext. 3", "phone"), ("1+2", "phone"), ("123456789012345678901", "phone"),
            ("a@b", "email"), ("a b@c.de", "email"), ("x@y.com?subject=hola", "email"), ("@edugo.test", "email"),
            ("ana@-edugo.test", "email"), ("ana@@edugo.test", "email"), ("javascript:x@y.de", "email"),
            ("https://www.colsanmartin.edu.pe", "body"), ("+51 1 471 2290", nil), ("", "phone"),
        ] as [(String, String?)])
    func anythingElseStaysText(text: String, style: String?) {
        #expect(ContactLink.url(for: text, style: style) == nil)
    }

    /// The school-detail screen with `school` as its record.
    func schoolDetail(_ school: JSONValue) throws -> [RenderNode] {
        let compiled = try ScreenCompiler().compile(try edugo.screen("school-detail"))
        let context = try compiled.context(
            user: teacher, userContext: teacherContext, data: school, params: ["id": .string(school["id"]?.text ?? "")],
            environment: environment)
        return flatten(PatternRouter(options: RenderOptions()).render(ScreenInputs(screen: compiled, context: context)))
    }

    /// The labeled row that says `label`.
    func row(_ label: String, in nodes: [RenderNode]) -> RenderNode? {
        nodes.first { if case .labeledContent(label, _) = $0.kind { true } else { false } }
    }

    @Test func aSchoolsPhoneEmailAndWebSiteAreRowsThatOpenThem() throws {
        let schools = try #require(try edugo.data("schools").arrayValue)
        let school = try #require(schools.first { $0["id"] == "sch-001" })
        let nodes = try schoolDetail(school)
        #expect(row("Teléfono", in: nodes)?.link?.absoluteString == "tel:+5114712290")
        #expect(row("Correo electrónico", in: nodes)?.link?.absoluteString == "mailto:contacto@colsanmartin.edu.pe")
        #expect(row("Sitio web", in: nodes)?.link?.absoluteString == "https://www.colsanmartin.edu.pe")
        #expect(row("Sitio web", in: nodes)?.accessibility?.traits == ["link"])
        #expect(row("Dirección", in: nodes).map { $0.link == nil } == true, "an address is text")
        #expect(row("Código", in: nodes).map { $0.link == nil } == true)
    }

    @Test func aWebSiteThatIsNoAddressStaysText() throws {
        var school = try #require(try edugo.data("schools").arrayValue?.first?.objectValue)
        school["website"] = "notaurl"
        school["phone"] = "pregunte en secretaría"
        let nodes = try schoolDetail(.object(school))
        let web = try #require(row("Sitio web", in: nodes))
        #expect(web.link == nil && web.kind == .labeledContent(label: "Sitio web", value: "notaurl"))
        #expect(web.accessibility?.traits == [])
        #expect(row("Teléfono", in: nodes).map { $0.link == nil } == true)
        #expect(row("Correo electrónico", in: nodes)?.link != nil)
    }
}
