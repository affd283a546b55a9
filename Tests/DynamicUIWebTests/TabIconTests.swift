import DynamicUICatalog
import DynamicUIModels
import Testing

@testable import DynamicUIWeb

@Suite("The preview's tab bar draws every symbol the navigations use")
struct TabIconTests {
    @Test func everyTabOfEveryRoleHasAnIcon() throws {
        let catalog = try EduGoCatalog()
        var missing: [String] = []
        for role in try catalog.navigationRoles() {
            for item in try catalog.navigation(role: role).bottomNav where TabIcons.svg(item.icon) == nil {
                missing.append("\(role): \(item.icon)")
            }
        }
        #expect(missing.isEmpty, "tabs without an icon: \(missing)")
    }

    @Test func variantsAreWholeNameParts() {
        #expect(TabIcons.svg("house.fill") == TabIcons.svg("house"))
        #expect(TabIcons.svg("gearshape.circle.fill") == TabIcons.svg("gearshape"))
        #expect(TabIcons.svg("clock.arrow.circlepath") != nil, "'circlepath' is not the '.circle' variant")
        #expect(TabIcons.svg("no.such.symbol") == nil)
    }
}
