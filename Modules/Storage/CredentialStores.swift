public import DynamicUIModels
public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tokens of a signed-in session.
public struct AuthTokens: JSONModel {
    /// Bearer token sent as `Authorization: Bearer …`.
    public var accessToken: String
    /// Token exchanged for a new access token after a 401.
    public var refreshToken: String?
    /// When the access token expires, if known.
    public var expiresAt: Date?

    /// Creates tokens.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        accessToken = try context.required("access_token", in: o)
        refreshToken = try context.optional("refresh_token", in: o)
        expiresAt = (try context.optional("expires_at", in: o) as Double?).map(Date.init(timeIntervalSince1970:))
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("access_token", accessToken)
        b.set("refresh_token", refreshToken)
        b.set("expires_at", expiresAt?.timeIntervalSince1970)
        return b.json
    }
}

/// Where session tokens are kept. Apple builds use the Keychain; on Linux a file readable only
/// by its owner; tests use memory.
public protocol TokenStore: Sendable {
    /// The stored tokens, if any.
    func load() async throws -> AuthTokens?
    /// Replaces the stored tokens.
    func save(_ tokens: AuthTokens) async throws
    /// Removes the stored tokens.
    func clear() async throws
}

/// Tokens in memory.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: AuthTokens?

    /// A store holding `tokens`.
    public init(_ tokens: AuthTokens? = nil) { self.tokens = tokens }

    /// The stored tokens.
    public func load() -> AuthTokens? { tokens }
    /// Replaces the stored tokens.
    public func save(_ tokens: AuthTokens) { self.tokens = tokens }
    /// Removes the stored tokens.
    public func clear() { tokens = nil }
}

/// Tokens in a JSON file created with permissions 0600 (owner read/write only) and replaced
/// atomically.
public struct FileTokenStore: TokenStore {
    /// The file.
    public let url: URL

    /// A store at `url`.
    public init(url: URL) { self.url = url }

    /// The stored tokens; `nil` when there is no file or it cannot be read back.
    public func load() async throws -> AuthTokens? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? DocumentDecoder().decode(AuthTokens.self, from: data)
    }

    /// Writes the tokens with permissions 0600.
    public func save(_ tokens: AuthTokens) async throws {
        try writePrivateFile(JSONWriter().data(from: tokens.json), to: url)
    }

    /// Deletes the file.
    public func clear() async throws {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

/// Writes `data` to `url` atomically with permissions 0600 from the first byte: a temporary file
/// created with those permissions, then renamed over the destination.
func writePrivateFile(_ data: Data, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { throw StorageError(.file, "cannot create \(temporary.path): errno \(errno)") }
    let written = data.withUnsafeBytes { raw in write(descriptor, raw.baseAddress, raw.count) }
    let synced = fsync(descriptor)
    close(descriptor)
    guard written == data.count, synced == 0 else {
        try? FileManager.default.removeItem(at: temporary)
        throw StorageError(.file, "cannot write \(temporary.path)")
    }
    guard rename(temporary.path, url.path) == 0 else {
        try? FileManager.default.removeItem(at: temporary)
        throw StorageError(.file, "cannot replace \(url.path): errno \(errno)")
    }
    // The saved session and settings: protected on the device and never in a backup.
    ProtectedFiles.protect(url)
}

/// Key–value app settings (theme, notification switches, …).
public protocol SettingsStore: Sendable {
    /// The value for `key`.
    func value(for key: String) async -> JSONValue?
    /// Sets (or with `nil` removes) the value for `key`.
    func set(_ value: JSONValue?, for key: String) async throws
}

/// Settings in memory.
public actor InMemorySettingsStore: SettingsStore {
    private var values: [String: JSONValue]

    /// A store holding `values`.
    public init(_ values: [String: JSONValue] = [:]) { self.values = values }

    /// The value for `key`.
    public func value(for key: String) -> JSONValue? { values[key] }
    /// Sets the value for `key`.
    public func set(_ value: JSONValue?, for key: String) { values[key] = value }
}

/// Settings in a JSON file (permissions 0600), rewritten atomically on each change.
public actor FileSettingsStore: SettingsStore {
    /// The file.
    public let url: URL
    private var values: JSONObject

    /// A store at `url`; an unreadable file starts empty.
    public init(url: URL) {
        self.url = url
        if let data = try? Data(contentsOf: url), case .object(let object)? = try? JSONReader().read(data) {
            values = object
        } else {
            values = [:]
        }
    }

    /// The value for `key`.
    public func value(for key: String) -> JSONValue? { values[key] }

    /// Sets the value for `key` and writes the file.
    public func set(_ value: JSONValue?, for key: String) throws {
        values[key] = value
        try writePrivateFile(JSONWriter(prettyPrinted: true).data(from: .object(values)), to: url)
    }
}

#if canImport(Security)
    import Security

    /// Tokens in the Keychain (generic password item, this device only, after first unlock).
    public struct KeychainTokenStore: TokenStore {
        /// The Keychain service name.
        public let service: String
        /// The Keychain account name.
        public let account: String

        /// A store for `service` and `account`.
        public init(service: String, account: String = "session") {
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        /// The stored tokens.
        public func load() async throws -> AuthTokens? {
            var query = self.query
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw StorageError(.file, "Keychain read failed: \(status)")
            }
            return try? DocumentDecoder().decode(AuthTokens.self, from: data)
        }

        /// Replaces the stored tokens.
        public func save(_ tokens: AuthTokens) async throws {
            let data = JSONWriter().data(from: tokens.json)
            let attributes: [String: Any] = [
                kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                status = SecItemAdd(query.merging(attributes) { $1 } as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw StorageError(.file, "Keychain write failed: \(status)") }
        }

        /// Removes the stored tokens.
        public func clear() async throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw StorageError(.file, "Keychain delete failed: \(status)")
            }
        }
    }
#endif
