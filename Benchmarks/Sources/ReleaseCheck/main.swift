// Built in release (`.ci/long release`): a release build of the SDK must not follow a
// development preview, whatever the app's configuration or environment says. Exits 1 when it can.
import DynamicUI
import DynamicUINetwork
import Foundation

var failures: [String] = []
if DevelopmentPreview.isAvailable { failures.append("DevelopmentPreview.isAvailable is true") }
do {
    _ = try DevelopmentPreview(url: URL(string: "http://127.0.0.1:8080/")!)
    failures.append("a DevelopmentPreview was made")
} catch {
    if error != .releaseBuild { failures.append("refused for another reason: \(error)") }
}
let environment = [DevelopmentPreview.environmentVariable: "http://127.0.0.1:8080/"]
do {
    if let followed = try DevelopmentPreview.fromEnvironment(environment) { failures.append("followed \(followed.url)") }
} catch {
    failures.append("DYNAMICUI_PREVIEW was read and refused (\(error)) instead of ignored")
}
var configuration = DynamicUIConfiguration(
    adminBaseURL: URL(string: "https://admin.example.com")!, mobileBaseURL: URL(string: "https://mobile.example.com")!)
configuration.followDevelopmentPreview(environment: environment)
if configuration.developmentPreview != nil || configuration.mobileBaseURL.host != "mobile.example.com" {
    failures.append("the configuration follows \(configuration.mobileBaseURL)")
}
var nodes = NodeAppConfiguration(baseURL: URL(string: "https://api.example.com")!, documents: .remote("/{name}"))
nodes.followDevelopmentPreview(environment: environment)
if nodes.developmentPreview != nil || nodes.baseURL.host != "api.example.com" {
    failures.append("the node configuration follows \(nodes.baseURL)")
}
if failures.isEmpty {
    print("release check: this release build cannot follow a development preview (5 ways tried)")
} else {
    for failure in failures { print("release check: \(failure)") }
    exit(1)
}
