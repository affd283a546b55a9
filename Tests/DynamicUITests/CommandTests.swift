import DynamicUI
import DynamicUICatalog
import DynamicUIModels
import DynamicUIRendering
import Foundation
import Testing

@Suite("Menu commands and keyboard shortcuts")
struct CommandTests {
    static let teacherTabs = try! catalog.navigation(role: "teacher").bottomNav.sorted { $0.sortOrder < $1.sortOrder }

    @Test(arguments: RenderPlatform.allCases)
    func shortcutsExistWhereThereIsAKeyboard(platform: RenderPlatform) throws {
        for sizeClass in SizeClass.allCases {
            let capabilities = PlatformCapabilities(platform: platform, sizeClass: sizeClass)
            let groups = CommandMenu.groups(items: Self.teacherTabs, screen: try catalog.screen("materials-list"), capabilities: capabilities)
            #expect(groups.isEmpty == !capabilities.hasKeyboardShortcuts, "\(platform) \(sizeClass)")
        }
        let ipadWithKeyboard = PlatformCapabilities(platform: .ipad, sizeClass: .regular, hasHardwareKeyboard: true)
        #expect(!CommandMenu.groups(items: Self.teacherTabs, screen: nil, capabilities: ipadWithKeyboard).isEmpty)
    }

    @Test func navigationCreateAndRefreshOnTheMac() throws {
        let mac = PlatformCapabilities(platform: .mac, sizeClass: .regular)
        let list = try catalog.screen("materials-list")
        let groups = CommandMenu.groups(items: Self.teacherTabs, screen: list, capabilities: mac)
        #expect(groups.map(\.title) == ["Navegación", list.screenName])
        let navigation = groups[0].items
        #expect(navigation.prefix(Self.teacherTabs.count).map(\.shortcut?.description) == (1...Self.teacherTabs.count).map { "⌘\($0)" })
        #expect(navigation.prefix(Self.teacherTabs.count).map(\.command) == Self.teacherTabs.map { .select(screenKey: $0.screenKey) })
        let settings = try #require(navigation.first { $0.shortcut == KeyShortcut(",") })
        #expect(settings.command == .select(screenKey: "app-settings"))
        #expect(groups[1].items.map(\.shortcut?.description) == ["⌘N", "⌘R"])
        #expect(groups[1].items[0].command == .perform(actionId: "create"))
        #expect(CommandMenu.command(for: KeyShortcut("n"), in: groups)?.command == .perform(actionId: "create"))
        #expect(CommandMenu.command(for: KeyShortcut("2"), in: groups)?.command == .select(screenKey: Self.teacherTabs[1].screenKey))
        #expect(CommandMenu.command(for: KeyShortcut("n", modifiers: [.command, .shift]), in: groups) == nil)
        // A screen without data cannot refresh, and one without a create action has no ⌘N.
        let settingsScreen = try catalog.screen("app-settings")
        let settingsGroups = CommandMenu.groups(items: Self.teacherTabs, screen: settingsScreen, capabilities: mac)
        #expect(settingsGroups[1].items.map(\.title) == ["Actualizar"])
        #expect(settingsGroups[1].items[0].isEnabled == (settingsScreen.dataEndpoint != nil))
        #expect(CommandMenu.command(for: KeyShortcut("r"), in: settingsGroups) == nil || settingsScreen.dataEndpoint != nil)
    }

    @Test func moreThanNineItemsGetNoDigitBeyondNine() {
        let items = (0..<12).map { NavItem(key: "k\($0)", label: "L\($0)", icon: "circle", screenKey: "s\($0)", sortOrder: $0) }
        let groups = CommandMenu.groups(items: items, screen: nil, capabilities: PlatformCapabilities(platform: .mac, sizeClass: .regular))
        #expect(groups[0].items.compactMap(\.shortcut).map(\.key) == (1...9).map(String.init))
        #expect(KeyShortcut("n", modifiers: [.shift, .command]).description == "⇧⌘N")
    }
}
