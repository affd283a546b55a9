import DynamicUI
import DynamicUIActions
import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

@Suite("Configuration defaults: the SDK's own, no product's")
@MainActor
struct ConfigurationDefaultsTests {
    @Test func bothDialectsDefaultToTheDevicesLanguage() {
        let screens = DynamicUIConfiguration(adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL)
        let nodes = NodeAppConfiguration(baseURL: HandlerHarness.mobileURL, documents: .remote("/{name}"))
        #expect(screens.locale == Locale.current && nodes.locale == Locale.current)
        #expect(screens.fallbackNavigation == .standard)
        #expect(DynamicUIStrings.current == DynamicUIStrings(locale: .current))
    }

    @Test func aRestoredSessionWithoutItsNavigationGetsTheConfiguredFallback() async throws {
        for (fallback, role, expected) in [
            (FallbackNavigation.standard, "teacher", ["home", "app-settings"]),
            (
                FallbackNavigation(
                    homes: ["teacher": "classes"], home: "start",
                    tabs: [.init(key: "help", label: .text("Help"), icon: "questionmark", screenKey: "help")]),
                "teacher", ["classes", "help"]
            ),
        ] {
            let tokens = InMemoryTokenStore()
            let settings = InMemorySettingsStore()
            await tokens.save(AuthTokens(accessToken: "tok"))
            try await SessionPersistence.save(
                SessionInfo(
                    user: AuthUserInfo(id: "u-1", firstName: "Ana", lastName: "Pérez", email: "ana@example.com"),
                    context: UserContext(role: role, roleName: "Teacher")),
                in: settings)
            let transport = ScriptedTransport()
            await transport.on(.get, "/v1/screens/navigation", .json(503, ["error": "unavailable"]))
            let runtime = try DynamicUIRuntime(
                configuration: DynamicUIConfiguration(
                    adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL, retryPolicy: .none,
                    fallbackNavigation: fallback),
                plugins: [], tokens: tokens, settings: settings, transport: transport)
            await runtime.start()
            #expect(runtime.isSignedIn)
            #expect(runtime.navigation.isFallback)
            #expect(runtime.navigation.items(regular: false).map(\.screenKey) == expected)
            #expect(runtime.navigation.selectedScreenKey == expected[0])
            await runtime.signOut()
            // Signed out, no role: the fallback's own home.
            #expect(runtime.navigation.items(regular: false).first?.screenKey == fallback.home)
        }
    }
}
