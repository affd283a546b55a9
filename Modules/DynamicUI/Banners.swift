import DynamicUIActions
import DynamicUIModels
import DynamicUIRendering

// The messages of both dialects' documents: a banner a model holds until it is closed or its
// lifetime passes. The screen model and the node document model show the same banners.

extension Banner {
    /// The banner of an action's message: an error, a success or a change waiting offline;
    /// `nil` for a result that says nothing.
    init?(_ result: ActionResult) {
        switch result {
        case .error(let message): self.init(kind: .error, message: message)
        case .fieldErrors(_, let message?): self.init(kind: .error, message: message)
        case .success(let message?): self.init(kind: .success, message: message)
        case .pendingOffline(let message): self.init(kind: .pending, message: message)
        default: return nil
        }
    }
}

/// Speaks `shown` when VoiceOver is on, then waits out its lifetime on `clock`. True when the
/// lifetime passed while the view stayed: the model then takes the banner down, unless another
/// replaced it.
@MainActor
func bannerLifetimePassed(
    _ shown: Banner, voiceOver: Bool, clock: any DynamicUIClock, announce: @MainActor (String) -> Void
) async -> Bool {
    if voiceOver { announce(shown.message) }
    guard let seconds = shown.lifetime(voiceOver: voiceOver) else { return false }
    do { try await clock.sleep(seconds: seconds) } catch { return false }
    return !Task.isCancelled
}
