import DynamicUIDemoBackend
import DynamicUITooling
import Foundation
import Testing

/// A school's phone, e-mail and web site are rows that open them in the web preview (a web
/// site that is no address stays text: `ContactLinkTests`).
@Suite("Web preview: phone, e-mail and web site rows", .serialized)
struct PreviewContactRowsTests {
    /// The `href` of the labeled link row that says `label`, unescaped.
    static func href(of label: String, in html: String) -> String? {
        for row in html.matches(of: /<a class="labeled link" id="[^"]*" href="([^"]*)"[^>]*><span class="label">([^<]*)<\/span>/)
        where row.2 == label {
            return String(row.1).replacingOccurrences(of: "&amp;", with: "&")
        }
        return nil
    }

    @Test func aSchoolsContactRowsOpenThePhoneTheMailAndTheSite() async throws {
        let (browser, _, _, stop) = try await signedInPreview(as: "superadmin@edugo.test")
        defer { stop() }
        let address = "/screen/school-detail?id=sch-001"
        let detail = try await browser.open(address)
        #expect(Self.href(of: "Teléfono", in: detail.body) == "tel:+5114712290")
        #expect(Self.href(of: "Correo electrónico", in: detail.body) == "mailto:contacto@colsanmartin.edu.pe")
        #expect(Self.href(of: "Sitio web", in: detail.body) == "https://www.colsanmartin.edu.pe")
        #expect(Self.href(of: "Dirección", in: detail.body) == nil)
        // A person's e-mail too.
        let person = try await browser.open("/screen/user-detail?id=usr-021")
        #expect(Self.href(of: "Correo electrónico", in: person.body)?.hasPrefix("mailto:") == true)
    }
}
