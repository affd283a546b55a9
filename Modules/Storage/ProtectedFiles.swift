import Foundation

/// What the SDK keeps of a user on disk (queued changes, cached responses and screens, the saved
/// session) is protected on Apple platforms: unreadable while the device is locked after a
/// restart (`completeUntilFirstUserAuthentication`) and excluded from backups. A folder passes
/// both to the files created in it.
enum ProtectedFiles {
    /// Protects `url` (a file or a folder) if it exists; elsewhere than on iOS, nothing to do.
    static func protect(_ url: URL) {
        #if os(iOS)
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            try? FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
            var url = url
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        #endif
    }
}

/// A value read and written from any thread under a lock.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// The value now.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
