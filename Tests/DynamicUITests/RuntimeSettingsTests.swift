import DynamicUIModels
import DynamicUINetwork
import DynamicUITesting
import Foundation
import Logging
import Testing

@testable import DynamicUI

@Suite("Runtime settings: one set for both dialects")
struct RuntimeSettingsTests {
    @Test func bothConfigurationsReadAndWriteTheirSettingsAsTheirOwn() {
        var screens = DynamicUIConfiguration(
            adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL, timeout: 12,
            locale: Locale(identifier: "fr_FR"))
        var nodes = NodeAppConfiguration(
            baseURL: HandlerHarness.mobileURL, documents: .remote("/{name}"), timeout: 12, locale: Locale(identifier: "fr_FR"))
        #expect(screens.timeout == 12 && nodes.timeout == 12)
        #expect(screens.settings.locale.identifier == "fr_FR" && nodes.locale.identifier == "fr_FR")
        screens.timeout = 5
        nodes.limits.maxDataItems = 7
        #expect(screens.settings.timeout == 5)
        #expect(nodes.settings.limits.maxDataItems == 7)
        #expect(screens.logger.label == "DynamicUI" && nodes.logger.label == "DynamicUI.nodes")
        #expect(screens.settings.logger("network").label == "DynamicUI.network")
    }

    @Test func followingAPreviewPointsEachDialectAtItsBackend() throws {
        let preview = try DevelopmentPreview(url: URL(string: "http://192.168.1.20:8088")!, allowedHosts: ["192.168.1.20"])
        var screens = DynamicUIConfiguration(adminBaseURL: HandlerHarness.adminURL, mobileBaseURL: HandlerHarness.mobileURL)
        var nodes = NodeAppConfiguration(baseURL: HandlerHarness.mobileURL, documents: .folder(URL(fileURLWithPath: "/tmp")))
        screens.follow(preview)
        nodes.follow(preview)
        #expect(screens.allowInsecureLoopback && nodes.allowInsecureLoopback)
        #expect(screens.developmentPreview == preview && nodes.developmentPreview == preview)
        #expect(screens.mobileBaseURL == preview.mobileURL && screens.adminBaseURL == preview.adminURL)
        #expect(nodes.baseURL == preview.mobileURL && nodes.documents == .remote("/v1/documents/{name}"))
        // The client takes the preview's loopback hosts as allowed over plain http.
        #expect(
            screens.settings.api(adminBaseURL: screens.adminBaseURL, mobileBaseURL: screens.mobileBaseURL).insecureHosts
                == ["192.168.1.20"])
        nodes.followDevelopmentPreview(environment: ["DYNAMICUI_PREVIEW": "http://198.51.100.7:8088"])
        #expect(nodes.developmentPreview == nil && nodes.developmentPreviewProblem != nil)
    }
}
