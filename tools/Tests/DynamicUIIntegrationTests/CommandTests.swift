import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIDemoBackend
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
            let groups = MenuCommands.groups(
                items: Self.teacherTabs, screen: try catalog.screen("materials-list"), capabilities: capabilities)
            #expect(groups.isEmpty == !capabilities.hasKeyboardShortcuts, "\(platform) \(sizeClass)")
        }
        let ipadWithKeyboard = PlatformCapabilities(platform: .ipad, sizeClass: .regular, hasHardwareKeyboard: true)
        #expect(!MenuCommands.groups(items: Self.teacherTabs, screen: nil, capabilities: ipadWithKeyboard).isEmpty)
    }

    @Test func navigationCreateAndRefreshOnTheMac() throws {
        let mac = PlatformCapabilities(platform: .mac, sizeClass: .regular)
        let list = try catalog.screen("materials-list")
        let groups = MenuCommands.groups(items: Self.teacherTabs, screen: list, capabilities: mac, strings: .spanish)
        #expect(groups.map(\.title) == ["Navegación", list.screenName])
        let navigation = groups[0].items
        #expect(
            navigation.prefix(Self.teacherTabs.count).map(\.shortcut?.description)
                == (1...Self.teacherTabs.count).map { "⌘\($0)" })
        #expect(
            navigation.prefix(Self.teacherTabs.count).map(\.command) == Self.teacherTabs.map { .select(screenKey: $0.screenKey) })
        let settings = try #require(navigation.first { $0.shortcut == KeyShortcut(",") })
        #expect(settings.command == .select(screenKey: "app-settings"))
        #expect(groups[1].items.map(\.shortcut?.description) == ["⌘N", "⌘R"])
        #expect(groups[1].items[0].command == .perform(actionId: "create"))
        #expect(MenuCommands.command(for: KeyShortcut("n"), in: groups)?.command == .perform(actionId: "create"))
        #expect(
            MenuCommands.command(for: KeyShortcut("2"), in: groups)?.command == .select(screenKey: Self.teacherTabs[1].screenKey))
        #expect(MenuCommands.command(for: KeyShortcut("n", modifiers: [.command, .shift]), in: groups) == nil)
        // A screen without data cannot refresh, and one without a create action has no ⌘N.
        let settingsScreen = try catalog.screen("app-settings")
        let settingsGroups = MenuCommands.groups(
            items: Self.teacherTabs, screen: settingsScreen, capabilities: mac, strings: .spanish)
        #expect(settingsGroups[1].items.map(\.title) == ["Actualizar"])
        #expect(settingsGroups[1].items[0].isEnabled == (settingsScreen.dataEndpoint != nil))
        #expect(MenuCommands.command(for: KeyShortcut("r"), in: settingsGroups) == nil || settingsScreen.dataEndpoint != nil)
    }

    @Test func moreThanNineItemsGetNoDigitBeyondNine() {
        let items = (0..<12).map { NavItem(key: "k\($0)", label: "L\($0)", icon: "circle", screenKey: "s\($0)", sortOrder: $0) }
        let groups = MenuCommands.groups(
            items: items, screen: nil, capabilities: PlatformCapabilities(platform: .mac, sizeClass: .regular))
        #expect(groups[0].items.compactMap(\.shortcut).map(\.key) == (1...9).map(String.init))
        #expect(KeyShortcut("n", modifiers: [.shift, .command]).description == "⇧⌘N")
    }
}

@Suite("Menu commands and focus through the runtime", .serialized)
@MainActor
struct RuntimeCommandTests {
    @Test func commandsActOnTheActiveScreenAndAFailedSubmitFocusesTheFirstError() async throws {
        let runtime = try await Live.signedIn(as: "docente@edugo.test")
        let mac = PlatformCapabilities(platform: .mac, sizeClass: .regular)
        // The runtime holds the shown screen's model weakly: the list stays shown to the end.
        let list = await runtime.loaded("materials-list")
        defer { withExtendedLifetime(list) {} }
        #expect(runtime.sdk.activeScreen?.screenKey == "materials-list")
        let groups = runtime.sdk.commands(for: mac)
        let create = try #require(MenuCommands.command(for: KeyShortcut("n"), in: groups))
        await runtime.sdk.run(create.command)
        #expect(runtime.navigation.stack.last?.screenKey == "material-create")
        #expect(runtime.navigation.stack.last?.presentation == .sheet)
        let second = try #require(MenuCommands.command(for: KeyShortcut("2"), in: groups))
        await runtime.sdk.run(second.command)
        #expect(runtime.navigation.stack.isEmpty)
        #expect(runtime.navigation.selectedScreenKey == runtime.navigation.items(regular: true)[1].screenKey)

        // A create with nothing filled in: the first field with an error takes the focus.
        let form = await runtime.loaded("material-create")
        await form.perform(actionId: "submit")
        #expect(!form.formState.fieldErrors.isEmpty)
        let tree = try form.render(options: RenderOptions())
        #expect(form.focusedField == FormFocus.order(in: tree).first { form.formState.fieldErrors[$0] != nil })
        #expect(form.focusedField == "title")
        await runtime.stop()
    }
}
