import DynamicUIModels
import DynamicUINetwork
import DynamicUIStorage
import Foundation
import Testing

@testable import DynamicUI

/// Following a development preview: only in debug builds, only to loopback or an allowed host,
/// and what it changes in a configuration.
@Suite("Development preview")
struct DevelopmentPreviewTests {
    let local = URL(string: "http://127.0.0.1:8080")!

    @Test func aReleaseBuildCannotFollowAPreviewWhateverItIsGiven() throws {
        #expect(throws: DevelopmentPreviewError.releaseBuild) {
            try DevelopmentPreview(url: local, allowedHosts: [], appName: "a", build: .release)
        }
        let environment = [DevelopmentPreview.environmentVariable: "http://127.0.0.1:8080/"]
        #expect(try DevelopmentPreview.fromEnvironment(environment, allowedHosts: [], appName: "a", build: .release) == nil)
        #expect(try DevelopmentPreview.fromEnvironment(environment, allowedHosts: [], appName: "a", build: .debug) != nil)
    }

    @Test func thisTestBuildIsADebugBuild() {
        // The tests run in a debug build, where following is possible (the release check in
        // .ci/long runs a release build of the SDK and finds it impossible).
        #expect(DevelopmentPreview.isAvailable)
    }

    @Test func onlyLoopbackOrAnAllowedHost() throws {
        for address in ["http://127.0.0.1:8080", "http://localhost:9000/", "http://[::1]:8080/", "https://localhost/"] {
            #expect(throws: Never.self) { try DevelopmentPreview(url: URL(string: address)!) }
        }
        #expect(throws: DevelopmentPreviewError.hostNotAllowed("192.168.1.20")) {
            try DevelopmentPreview(url: URL(string: "http://192.168.1.20:8080/")!)
        }
        let lan = try DevelopmentPreview(url: URL(string: "http://192.168.1.20:8080")!, allowedHosts: ["192.168.1.20"])
        #expect(lan.url.absoluteString == "http://192.168.1.20:8080/")
        #expect(lan.insecureHosts == ["192.168.1.20"])
        #expect(try DevelopmentPreview(url: local).insecureHosts.isEmpty)
        for address in [
            "ftp://127.0.0.1/", "http://user:pw@127.0.0.1/", "http://127.0.0.1/?x=1", "http://127.0.0.1/#a", "/relative",
        ] {
            #expect(throws: DevelopmentPreviewError.notAPreviewAddress(address)) {
                try DevelopmentPreview(url: URL(string: address)!)
            }
        }
    }

    @Test func theEnvironmentNamesThePreviewAndItsHost() throws {
        #expect(try DevelopmentPreview.fromEnvironment([:]) == nil)
        #expect(try DevelopmentPreview.fromEnvironment([DevelopmentPreview.environmentVariable: "  "]) == nil)
        let lan = try #require(
            try DevelopmentPreview.fromEnvironment([DevelopmentPreview.environmentVariable: "http://10.0.0.5:8080/"]))
        #expect(lan.mobileURL.absoluteString == "http://10.0.0.5:8080/api/mobile")
        #expect(lan.adminURL.absoluteString == "http://10.0.0.5:8080/api/admin")
        #expect(try DevelopmentPreview.fromEnvironment([DevelopmentPreview.environmentVariable: "http://mac.local:8080/"]) != nil)
        #expect(throws: DevelopmentPreviewError.hostNotAllowed("172.32.0.1")) {
            try DevelopmentPreview.fromEnvironment([DevelopmentPreview.environmentVariable: "http://172.32.0.1:8080/"])
        }
        #expect(throws: DevelopmentPreviewError.notAPreviewAddress("http://10.0.0.5:8080/?a")) {
            try DevelopmentPreview.fromEnvironment([DevelopmentPreview.environmentVariable: "http://10.0.0.5:8080/?a"])
        }
    }

    @Test @MainActor func aConfigurationFollowingAPreviewTalksToItAndABadAddressIsShown() throws {
        var configuration = DynamicUIConfiguration(
            adminBaseURL: URL(string: "https://admin.example.com")!, mobileBaseURL: URL(string: "https://m.example.com")!)
        configuration.follow(try DevelopmentPreview(url: local))
        #expect(configuration.mobileBaseURL.absoluteString == "http://127.0.0.1:8080/api/mobile")
        #expect(configuration.adminBaseURL.absoluteString == "http://127.0.0.1:8080/api/admin")
        #expect(configuration.allowInsecureLoopback)

        var refused = DynamicUIConfiguration(
            adminBaseURL: URL(string: "https://admin.example.com")!, mobileBaseURL: URL(string: "https://m.example.com")!)
        refused.followDevelopmentPreview(environment: [DevelopmentPreview.environmentVariable: "http://example.com:8080/"])
        #expect(refused.developmentPreview == nil)
        #expect(refused.mobileBaseURL.absoluteString == "https://m.example.com", "a refused preview changes nothing")
        #expect(refused.developmentPreviewProblem == .hostNotAllowed("example.com"))
        let runtime = try DynamicUIRuntime(
            configuration: refused, plugins: [], tokens: InMemoryTokenStore(), settings: InMemorySettingsStore())
        guard case .refused(let message)? = runtime.previewFollow else {
            Issue.record("\(String(describing: runtime.previewFollow))")
            return
        }
        #expect(message.contains("example.com"))

        var nodes = NodeAppConfiguration(baseURL: URL(string: "https://itunes.apple.com")!, documents: .folder(local))
        nodes.follow(try DevelopmentPreview(url: local))
        #expect(nodes.baseURL.absoluteString == "http://127.0.0.1:8080/api/mobile")
        #expect(nodes.documents == .remote("/v1/documents/{name}"))
    }

    @Test func plainHTTPReachesOnlyLoopbackAndThePreviewsHost() throws {
        var guardian = SecurityGuardInterceptor(
            origins: [URL(string: "http://192.168.1.20:8080/api/mobile")!, URL(string: "http://10.0.0.9/api")!],
            allowInsecureLoopback: true)
        #expect(throws: NetworkError.self) { try guardian.check(URL(string: "http://192.168.1.20:8080/api/mobile/v1/x")!) }
        guardian.insecureHosts = ["192.168.1.20"]
        #expect(throws: Never.self) { try guardian.check(URL(string: "http://192.168.1.20:8080/api/mobile/v1/x")!) }
        #expect(throws: NetworkError.self) { try guardian.check(URL(string: "http://10.0.0.9/api/v1/x")!) }
    }

    @Test func theBannerSaysWhereItFollowsAndWhatIsBroken() {
        #expect(PreviewFollowState.following(local, generation: 3).summary(.english) == "Following the preview at 127.0.0.1:8080")
        #expect(
            PreviewFollowState.following(local, generation: 3).summary(.spanish) == "Siguiendo la vista previa en 127.0.0.1:8080")
        let broken = PreviewFollowState.broken(local, errors: ["screens/a.json: $.slots: error: x"])
        #expect(broken.isProblem && broken.errors.count == 1)
        #expect(broken.summary(.english).contains("catalog: 1;"))
        #expect(!PreviewFollowState.connecting(local).isProblem)
    }
}
