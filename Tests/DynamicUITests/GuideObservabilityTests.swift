// The tests of the DynamicUI guide Observability.md: the region between snippet lines is the
// guide's code block (GuideSnippetTests).

// snippet: test
import DynamicUI
import DynamicUINetwork
import Foundation
import Testing

@Test func theObserverHearsEveryKindOfEvent() {
    let lines = GuideLines()
    let observers = DynamicUIObservers(guideConfiguration(report: lines.append).observers ?? [])
    observers.emit(.impression(screen: "materials-list", logId: "material_video_player"))
    observers.emit(.error(ErrorEvent(.fallbackUsed, screen: "material-detail", path: "template.zones[1]", message: "video")))
    #expect(
        lines.all == [
            "seen material_video_player on materials-list",
            "fallback used on material-detail at template.zones[1]: video",
        ])
}

@Test func logsNeverCarryCredentials() {
    let url = URL(string: "https://api.edugo.app/v1/me?access_token=abc123&page=2")!
    #expect(!Redaction.url(url).contains("abc123"))
    #expect(Redaction.url(url).contains("page=2"))
    #expect(Redaction.isSensitive("Authorization"))
    #expect(Redaction.isSensitive("X-Refresh-Token"))
    #expect(!Redaction.isSensitive("Accept-Language"))
}
// snippet: end

@Test func theGuideConfigurationMergesConflicts() {
    #expect(guideConfiguration(report: { _ in }).conflictStrategy == .merge)
}
