import DynamicUICatalog
import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// Routes one request of the demo backend.
struct DemoRouter {
    let backend: DemoBackend
    let api: String
    let method: String
    let path: String
    let query: [String: String]
    let headers: [String: String]
    let body: JSONValue?

    typealias Reply = DemoBackend.Reply

    func route() -> Reply {
        do {
            if method == "GET" || method == "HEAD" { return try dispatch() }
            // One transaction from the idempotency lookup to the stored reply: a duplicate sent at
            // the same time waits for the first one's answer, and a crash keeps neither the change
            // nor its key.
            return try backend.atomically {
                let key = headers["idempotency-key"].flatMap { $0.isEmpty ? nil : $0 }
                // A key is the signed-in account's own: looked up only once the caller is known,
                // so a caller without a token, or another account, never gets a stored reply.
                let owner = try key == nil ? nil : account()?["email"]?.stringValue
                let request = "\(method) \(api):\(path) \(fingerprint)"
                if let key, let owner, let stored = try backend.idempotent(account: owner, key: key) {
                    guard stored.request == request else {
                        return Reply(
                            status: 422,
                            body: [
                                "error": "idempotency_key_reused", "message": "Idempotency-Key already used for another request",
                            ])
                    }
                    return stored.reply
                }
                let reply = try dispatch()
                if let key, let owner, Self.isFinal(reply.status) {
                    try backend.remember(account: owner, key: key, request: request, reply)
                }
                let recordId = reply.body?["id"]?.text ?? path.split(separator: "/").last.map(String.init)
                try backend.logMutation(
                    key: key, method: method, path: "\(api):\(path)", status: reply.status, recordId: recordId, body: body)
                return reply
            }
        } catch {
            return Reply(status: 500, body: ["error": .string("\(error)")])
        }
    }

    /// Whether a reply is what any retry of its request must get: a success, or a refusal the
    /// request itself earned (malformed, not found, a conflict, invalid). Refusals that depend on
    /// the moment (a missing or expired token, a role, a rate limit, a server error) are not.
    static func isFinal(_ status: Int) -> Bool {
        (200..<300).contains(status) || [400, 404, 405, 409, 410, 422].contains(status)
    }

    /// A fingerprint of the body, so a key stands for one request, not just one path.
    private var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.map({ JSONWriter().bytes(from: $0) }) ?? [] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    private func dispatch() throws -> Reply {
        switch (method, path) {
        case ("POST", "/v1/auth/login"): return try login()
        case ("POST", "/v1/auth/refresh"): return try refresh()
        case ("POST", "/v1/auth/logout"):
            // Signing out ends the whole session: the access token presented (even an expired
            // one) and every refresh token issued with it, and the session of a refresh token
            // sent in the body.
            if let token = bearer { try backend.endSession(of: token) }
            if let token = body?["refresh_token"]?.stringValue { try backend.endSession(of: token) }
            return Reply(status: 204, body: nil)
        case ("GET", "/search"), ("GET", "/lookup"): return try itunes()
        default: break
        }
        // The podcast app's node documents (app, screens, theme, components), with ETags.
        if method == "GET", path.hasPrefix("/v1/documents/") {
            let name = String(path.dropFirst("/v1/documents/".count))
            let known = PodcastsCatalog.documentNames + ["theme", "components"]
            guard known.contains(name) else { return Reply(status: 404, body: ["error": .string("no document \(name)")]) }
            return try cached(try backend.podcastCatalog.json(name))
        }
        if method == "GET", path == "/v1/screens/navigation" {
            guard let account = try account() else { return unauthorized }
            let role = dashboardGroup(account["role"]?.text ?? "student")
            return try cached(try backend.edugo.navigation(role: role).json)
        }
        if method == "GET", path.hasPrefix("/v1/screens/") {
            let key = String(path.dropFirst("/v1/screens/".count))
            guard backend.edugo.screenKeys.contains(key) else {
                return Reply(status: 404, body: ["error": .string("no screen \(key)")])
            }
            return try screen(key)
        }
        if path == "/v1/users/me/preferences" {
            // The signed-in user's preferences: read, or merged with what is sent.
            guard let account = try account(), let me = account["user_id"]?.stringValue else { return unauthorized }
            var stored = try backend.record("preferences", id: me)?.objectValue ?? ["id": .string(me)]
            if method == "PUT", case .object(let changes)? = body {
                for (key, value) in changes where key != "id" { stored[key] = value }
                try backend.save("preferences", id: me, .object(stored))
            } else if method != "GET" {
                return Reply(status: 405, body: ["error": "method not allowed"])
            }
            return Reply(status: 200, body: .object(stored))
        }
        guard let (entry, parameters) = matchEndpoint() else {
            return Reply(status: 404, body: ["error": .string("no route \(method) \(path)")])
        }
        guard let account = try account() else { return unauthorized }
        let methods = entry["methods"]?.arrayValue?.compactMap(\.stringValue) ?? ["GET"]
        guard methods.contains(method) else { return Reply(status: 405, body: ["error": "method not allowed"]) }
        let me = account["user_id"]?.text ?? ""
        let group = dashboardGroup(account["role"]?.text ?? "student")
        let allowed = entry[method == "GET" || method == "HEAD" ? "roles" : "write_roles"]?.arrayValue ?? []
        guard allowed.contains(.string(group)) else { return forbidden }
        let scope = AccessScope(group: group, me: me, school: account["school_id"]?.text ?? "", backend: backend)
        if let document = entry["document"]?.stringValue {
            let json = try backend.edugo.data(document)
            var reply = Reply(status: 200, body: document == "stats_global" ? try scope.stats(json) : json)
            // A slow document (a deferred section's): at most five seconds; one the app may keep
            // (`max_age` seconds, at most a day) is answered with `Cache-Control: max-age`.
            reply.delay = min(max(entry["latency_ms"]?.doubleValue ?? 0, 0), 5000) / 1000
            if let seconds = entry["max_age"]?.intValue, seconds > 0 {
                reply.headers["Cache-Control"] = "max-age=\(min(seconds, 86_400))"
            }
            return reply
        }
        guard let collection = entry["collection"]?.stringValue else {
            return Reply(status: 500, body: ["error": "bad endpoint table"])
        }
        // A list under another record (`units/{id}/progress`, `schools/{id}/units`) is that
        // record's: someone who may not see it gets nothing of it.
        if entry["kind"]?.stringValue == "list", let parent = parameters["id"],
            try !scope.canReadParent(of: collection, id: parent)
        {
            return forbidden
        }
        let filter = (entry["filter"]?.objectValue ?? [:]).map {
            ($0.key, resolve($0.value.text, parameters: parameters, me: me))
        }
        switch (entry["kind"]?.stringValue, method) {
        case ("list", "GET"):
            let grants = try Grants(collection: collection, role: account["role"]?.text ?? "", router: self, scope: scope)
            let members = try parentMembers(entry["parent"], id: parameters["id"], scope: scope)
            if case .missing = members { return Reply(status: 404, body: ["error": "not found"]) }
            return try list(
                collection, filter: filter, search: entry["search"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                visible: { try members.holds($0) && scope.canRead(collection, $0) },
                decorate: { scope.shown(collection, try grants.apply($0)) })
        case ("list", "POST"):
            if let (field, id) = try scope.unchoosable(in: body ?? .null, before: nil, of: collection) {
                return refused(AccessScope.refusal(field: field, id: id))
            }
            return try create(collection, filter: filter, me: me, allowed: { try scope.canCreate(collection, $0) })
        case ("item", "GET"):
            let key = entry["key"]?.stringValue ?? "id"
            let id = parameters["id"] ?? ""
            let found =
                key == "id"
                ? try backend.record(collection, id: id) : try backend.records(collection).first { $0[key]?.text == id }
            // A record the account may not see does not exist for it.
            guard let found, try scope.canRead(collection, found) else { return Reply(status: 404, body: ["error": "not found"]) }
            let grants = try Grants(collection: collection, role: account["role"]?.text ?? "", router: self, scope: scope)
            var shown = scope.shown(collection, try grants.apply(found))
            if collection == "assessments", group == "student", case .object(var object) = shown {
                // A student opening an assessment starts (or goes on with) an attempt.
                let start = try openAttempt(material: found["material_id"]?.text ?? id, me: me, limit: found)
                for (name, value) in start { object[name] = value }
                shown = .object(object)
            }
            return Reply(status: 200, body: shown)
        case ("item", "PUT"), ("item", "DELETE"):
            let id = parameters["id"] ?? ""
            guard let current = try backend.record(collection, id: id), try scope.canRead(collection, current) else {
                return Reply(status: 404, body: ["error": "not found"])
            }
            guard try scope.canWrite(collection, current, deleting: method == "DELETE") else { return forbiddenRecord }
            if method == "PUT" {
                // A change naming a record outside the account's scope (another school's unit,
                // person or teacher) is refused, saying which.
                if let (field, id) = try scope.unchoosable(in: body ?? .null, before: current, of: collection) {
                    return refused(AccessScope.refusal(field: field, id: id))
                }
                return try update(collection, id: id, allowed: { try scope.canUpdate(collection, $0, before: current) })
            }
            return try backend.delete(collection, id: id)
                ? Reply(status: 204, body: nil) : Reply(status: 404, body: ["error": "not found"])
        default:
            return Reply(status: 405, body: ["error": "method not allowed"])
        }
    }

    private var unauthorized: Reply { Reply(status: 401, body: ["error": "unauthorized"]) }

    /// Which records a list under a parent record holds, when the parent names them in one of
    /// its fields (a role's `permissions`).
    enum ParentMembers {
        /// The list has no such parent: every record may be in it.
        case any
        /// The parent named by the route does not exist, or the account may not see it.
        case missing
        /// The ids the parent names.
        case ids(Set<String>)

        /// Whether `record` is in the list.
        func holds(_ record: JSONValue) -> Bool {
            switch self {
            case .any: true
            case .missing: false
            case .ids(let ids): ids.contains(record["id"]?.text ?? "")
            }
        }
    }

    /// The records an endpoint's `parent` (`{"collection": "roles", "field": "permissions"}`)
    /// lets its list show for the route's `{id}`.
    private func parentMembers(_ parent: JSONValue?, id: String?, scope: AccessScope) throws -> ParentMembers {
        guard let collection = parent?["collection"]?.stringValue, let field = parent?["field"]?.stringValue else {
            return .any
        }
        guard let owner = try backend.record(collection, id: id ?? ""), try scope.canRead(collection, owner) else {
            return .missing
        }
        return .ids(Set(owner[field]?.arrayValue?.compactMap(\.stringValue) ?? []))
    }

    /// The screen `key` for the signed-in account: refused (403) unless its role's navigation
    /// and permissions reach it, its pickers offering only what the account may choose. Before
    /// signing in only the sign-in screen is served.
    private func screen(_ key: String) throws -> Reply {
        guard let account = try account() else {
            guard ScreenAccess.signedOut.contains(key) else { return unauthorized }
            return try cached(fittedForClient(try backend.edugo.screenJSON(key)))
        }
        let role = account["role"]?.text ?? ""
        let group = dashboardGroup(role)
        let access = ScreenAccess(catalog: backend.edugo, endpoints: backend.endpointTable)
        guard try access.screens(role: role, group: group, permissions: permissions(ofRole: role)).contains(key) else {
            return Reply(
                status: 403,
                body: ["error": "forbidden", "message": "No tienes acceso: tu cuenta no tiene permiso para ver esta pantalla"])
        }
        let scope = AccessScope(
            group: group, me: account["user_id"]?.text ?? "", school: account["school_id"]?.text ?? "", backend: backend)
        var reply = try cached(fittedForClient(try scope.shownScreen(try backend.edugo.screenJSON(key))))
        // The screen is this account's: no cache shares it with another.
        reply.headers["Cache-Control"] = "private, max-age=3600"
        reply.headers["Vary"] = "Authorization"
        return reply
    }

    /// A write refused because it names a record outside the account's scope.
    private func refused(_ message: String) -> Reply {
        Reply(status: 403, body: ["error": "forbidden", "message": .string(message)])
    }

    private var forbidden: Reply {
        Reply(status: 403, body: ["error": "forbidden", "message": "Tu rol no tiene acceso a este recurso"])
    }

    private var forbiddenRecord: Reply {
        Reply(status: 403, body: ["error": "forbidden", "message": "No puedes cambiar este registro"])
    }

    private var bearer: String? {
        guard let header = headers["authorization"], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst(7))
    }

    private func accounts() throws -> [JSONValue] { try backend.accounts() }

    private func account() throws -> JSONValue? {
        guard let token = bearer, let email = try backend.email(forAccessToken: token) else { return nil }
        return try accounts().first { $0["email"]?.text == email }
    }

    private func dashboardGroup(_ role: String) -> String {
        switch role {
        case "super_admin", "platform_admin": "superadmin"
        case "school_admin", "school_director": "schooladmin"
        case "teacher": "teacher"
        case "guardian": "guardian"
        default: "student"
        }
    }

    /// The tokens, user and context of a session of `account` (`family`: the session a refresh
    /// continues; a new one when `nil`).
    private func session(for account: JSONValue, email: String, family: String? = nil) throws -> Reply {
        let (access, refresh) = try backend.issueTokens(for: email, family: family)
        var context = JSONObject()
        for key in ["role", "role_name", "school_id", "school_name", "academic_unit_id", "academic_unit_name"] {
            context[key] = account[key]
        }
        // The role's permissions (admin:/v1/roles, admin:/v1/permissions): what the app offers.
        context["permissions"] = .array(try permissions(ofRole: account["role"]?.text ?? "").sorted().map(JSONValue.string))
        let user: JSONValue = [
            "id": account["user_id"] ?? .null, "first_name": account["first_name"] ?? .null,
            "last_name": account["last_name"] ?? .null,
            "email": .string(email), "full_name": account["full_name"] ?? .null,
        ]
        return Reply(
            status: 200,
            body: [
                "access_token": .string(access), "refresh_token": .string(refresh),
                "expires_in": .number(JSONNumber(Int(backend.sessionPolicy.accessTokenLifetime))), "user": user,
                "context": .object(context),
            ])
    }

    /// The account's grants on each record it reads: its role's update and delete permissions of
    /// the collection that the record allows it (`"permissions": ["materials.update"]` on a
    /// teacher's own material, none on a colleague's), so the app offers edit and delete only
    /// where they work; on an attempt, see `attemptCodes`. Collections whose records have fields
    /// of that name are left as they are.
    struct Grants {
        /// Collections whose records carry the account's grants.
        static let collections: Set<String> = ["materials", "users", "schools", "units", "memberships", "attempts"]
        /// What an attempt grants: taking the assessment again and reading one's own history to
        /// the student who made it; reading the student's progress to those who follow him.
        static let attemptCodes: Set<String> = ["assessments.take", "progress.read_own", "progress.read_unit"]
        let collection: String
        let codes: [String]
        let scope: AccessScope

        init(collection: String, role: String, router: DemoRouter, scope: AccessScope) throws {
            self.collection = collection
            self.scope = scope
            let held = try router.permissions(ofRole: role)
            codes =
                collection == "attempts"
                ? held.intersection(Self.attemptCodes).sorted()
                : Self.collections.contains(collection) ? held.filter { $0.hasPrefix(collection + ".") }.sorted() : []
        }

        /// `record` with the account's grants on it.
        func apply(_ record: JSONValue) throws -> JSONValue {
            guard Self.collections.contains(collection), case .object(var object) = record else { return record }
            if collection == "attempts" {
                // An attempt is its student's: whether it is the reader's own decides what its
                // result says and offers.
                let mine = object["user_id"]?.text == scope.me
                let student = object["user_id"]?.text ?? ""
                let granted = try codes.filter { code in
                    code == "progress.read_unit" ? try !mine && scope.sees(user: student, unit: nil) : mine
                }
                object["is_mine"] = .bool(mine)
                object["permissions"] = .array(granted.map(JSONValue.string))
                return .object(object)
            }
            var granted: [JSONValue] = []
            for code in codes {
                let edits = code.hasSuffix(".update") || code.hasSuffix(".manage")
                let deletes = code.hasSuffix(".delete") || code.hasSuffix(".manage")
                let mayEdit = try edits && scope.canWrite(collection, record, deleting: false)
                let mayDelete = try deletes && scope.canWrite(collection, record, deleting: true)
                if mayEdit || mayDelete { granted.append(.string(code)) }
            }
            object["permissions"] = .array(granted)
            return .object(object)
        }
    }

    /// The permission codes (`materials.create`) of a role code (`teacher`).
    fileprivate func permissions(ofRole role: String) throws -> Set<String> {
        let codes = Dictionary(
            (try backend.edugo.data("permissions").arrayValue ?? []).compactMap { permission in
                permission["id"]?.stringValue.map { ($0, permission["code"]?.text ?? "") }
            }, uniquingKeysWith: { first, _ in first })
        let roles = try backend.edugo.data("roles").arrayValue ?? []
        let ids = roles.first { $0["code"]?.text == role }?["permissions"]?.arrayValue ?? []
        return Set(ids.compactMap { $0.stringValue.flatMap { codes[$0] } })
    }

    private func login() throws -> Reply {
        let email = body?["email"]?.text.lowercased() ?? ""
        let password = body?["password"]?.text ?? ""
        var errors = JSONObject()
        if email.isEmpty { errors["email"] = "El correo es obligatorio" }
        if password.isEmpty { errors["password"] = "La contraseña es obligatoria" }
        if !errors.isEmpty { return Reply(status: 422, body: ["errors": .object(errors)]) }
        // Throttled per account: after too many wrong passwords in a row it waits, whatever the
        // password now (so guessing goes no faster).
        if let until = backend.signInLockedUntil(email) {
            let seconds = max(1, Int(until.timeIntervalSince(backend.clock()).rounded(.up)))
            return Reply(
                status: 429,
                body: [
                    "error": "too_many_attempts",
                    "message": .string("Demasiados intentos fallidos: vuelve a intentarlo en \((seconds + 59) / 60) min"),
                ], headers: ["Retry-After": String(seconds)])
        }
        guard let account = try accounts().first(where: { $0["email"]?.text == email && $0["password"]?.text == password }) else {
            backend.signInFailed(email)
            return Reply(status: 401, body: ["error": "invalid_credentials"])
        }
        backend.signInSucceeded(email)
        return try session(for: account, email: email)
    }

    /// A new access and refresh token for a refresh token, which works once (it rotates); a
    /// reused one is refused and ends its session.
    private func refresh() throws -> Reply {
        guard let token = body?["refresh_token"]?.stringValue, let (email, family) = try backend.redeem(refreshToken: token),
            let account = try accounts().first(where: { $0["email"]?.text == email })
        else { return unauthorized }
        return try session(for: account, email: email, family: family)
    }

    /// A GET answer with an ETag of its body, `Cache-Control: max-age=3600` and 304 on a match.
    /// The screen as this client can draw it. Apps that speak schema 2 or later fit screens
    /// themselves (`requires`, `fallback`); older ones ignore those members, so the backend
    /// fits the screen for them from the manifest of their SDK version
    /// (`tools/catalog/manifests/dynamicui-<sdk>-<platform>.json`) and the components they report.
    private func fittedForClient(_ json: JSONValue) -> JSONValue {
        let fields = ClientCapabilities.parseCompact(headers["dynamicui-capabilities"] ?? "")
        guard let schema = fields["schema"].flatMap({ Int($0) }), schema < 2, let sdk = fields["sdk"],
            sdk.allSatisfy({ $0.isNumber || $0 == "." })
        else { return json }
        let platform = ["ios", "ipad", "mac"].contains(fields["platform"] ?? "") ? fields["platform"]! : "ios"
        let file = CatalogLocation.root.appendingPathComponent("manifests/dynamicui-\(sdk)-\(platform).json")
        guard let data = try? Data(contentsOf: file),
            var manifest = try? DocumentDecoder().decode(ClientCapabilities.self, from: data),
            let screen = try? ScreenDefinition(json: json)
        else { return json }
        manifest.components = Set(
            (fields["components"] ?? "").split(separator: ",").map { ClientCapabilities.componentKey(String($0)) })
        return RequirementResolver(capabilities: manifest).resolve(screen).0.json
    }

    private func cached(_ json: JSONValue) throws -> Reply {
        let bytes = JSONWriter().bytes(from: json)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let etag = "\"\(String(hash, radix: 16))\""
        let headers = ["ETag": etag, "Cache-Control": "max-age=3600"]
        if self.headers["if-none-match"] == etag { return Reply(status: 304, body: nil, headers: headers) }
        return Reply(status: 200, body: json, headers: headers)
    }

    private func matchEndpoint() -> (JSONObject, [String: String])? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (key, value) in backend.endpointTable {
            guard key.hasPrefix(api + ":"), let entry = value.objectValue else { continue }
            let template = key.dropFirst(api.count + 1).split(separator: "/", omittingEmptySubsequences: true)
            guard template.count == segments.count else { continue }
            var parameters: [String: String] = [:]
            var matches = true
            for (pattern, segment) in zip(template, segments) {
                if pattern.hasPrefix("{"), pattern.hasSuffix("}") {
                    parameters[String(pattern.dropFirst().dropLast())] =
                        String(segment).removingPercentEncoding ?? String(segment)
                } else if pattern != segment {
                    matches = false
                    break
                }
            }
            if matches { return (entry, parameters) }
        }
        return nil
    }

    private func resolve(_ text: String, parameters: [String: String], me: String) -> String {
        var result = text.replacingOccurrences(of: "{me}", with: me)
        for (name, value) in parameters { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }

    private func list(
        _ collection: String, filter: [(String, String)], search: [String], visible: (JSONValue) throws -> Bool,
        decorate: (JSONValue) throws -> JSONValue
    ) throws -> Reply {
        var records = try backend.records(collection).filter { record in
            try filter.allSatisfy { record[$0.0]?.text == $0.1 } && visible(record)
        }
        if let term = query["q"].map(Self.folded), !term.isEmpty {
            records = records.filter { record in
                search.contains { record[path: $0].map { Self.folded($0.text).contains(term) } == true }
            }
        }
        if collection == "attempts" {
            // Attempts read as a history: the latest finished first, and of two finished in the
            // same second the one recorded later.
            records = records.enumerated().sorted { left, right in
                let (a, b) = (left.element["finished_at"]?.text ?? "", right.element["finished_at"]?.text ?? "")
                return a != b ? a > b : left.offset > right.offset
            }.map(\.element)
        }
        if let sort = query["sort"], !sort.isEmpty { records = Self.sorted(records, by: sort) }
        let total = records.count
        let offset = max(0, Int(query["offset"] ?? "") ?? 0)
        let limit = max(1, min(100, Int(query["limit"] ?? "") ?? 20))
        let page = try records.dropFirst(offset).prefix(limit).map(decorate)
        // The admin API wraps lists in `items`, the mobile API in `data`, as real APIs differ.
        return Reply(status: 200, body: [api == "admin" ? "items" : "data": .array(page), "total": .number(JSONNumber(total))])
    }

    /// Fields each collection requires on create.
    static let required: [String: [String]] = [
        "materials": ["title", "subject"], "users": ["first_name", "email"], "schools": ["name"], "units": ["name"],
        "memberships": ["user_id", "unit_id"],
    ]

    private func create(
        _ collection: String, filter: [(String, String)], me: String, allowed: (JSONValue) throws -> Bool
    ) throws -> Reply {
        guard case .object(var record) = body ?? .object([:]) else {
            return Reply(status: 400, body: ["error": "expected an object"])
        }
        if let problem = try routeProblem(in: filter) { return problem }
        var errors = JSONObject()
        for field in Self.required[collection] ?? []
        where (record[field]?.text ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            errors[field] = "Este campo es obligatorio"
        }
        if let email = record["email"]?.stringValue, !email.contains("@") { errors["email"] = "Correo no válido" }
        for (field, message) in Self.invalidLinks(in: record) { errors[field] = .string(message) }
        if !errors.isEmpty { return Reply(status: 422, body: ["message": "Revisa los campos", "errors": .object(errors)]) }
        if collection == "users" {
            if let taken = try emailTaken(record, by: nil) { return taken }
            if let short = Self.passwordProblem(record) { return short }
        }
        let password = collection == "users" ? Self.takePassword(from: &record) : nil
        for (key, value) in filter { record[key] = .string(value) }
        if collection == "attempts" {
            // The server grades: of what the client sent only the answers count.
            guard let graded = try gradedAttempt(record, me: me) else {
                return Reply(status: 404, body: ["error": "not found", "message": "Este material no tiene evaluación"])
            }
            record = graded
        }
        let prefix = String(collection.prefix(3))
        let id = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        record["id"] = .string(id)
        record["version"] = 1
        record["created_at"] = .string(ISO8601DateFormatter().string(from: Date()))
        if collection == "materials", let author = try account() {
            record["author"] = ["id": .string(me), "name": author["full_name"] ?? .string(me)]
            record["views"] = 0
            record["has_assessment"] = false
        }
        record = try derived(collection, record)
        guard try allowed(.object(record)) else { return forbiddenRecord }
        try backend.save(collection, id: id, .object(record))
        if let password { try backend.setPassword(password, forUser: id) }
        try backend.refreshDependents(of: collection, id: id)
        // As it reads back: with the figures computed on reading (a school's units).
        return Reply(status: 201, body: try backend.record(collection, id: id) ?? .object(record))
    }

    /// The attempt `sent` (its `material_id` and `user_id` already the endpoint's) as the server
    /// records it: the answers to the material's assessment, given as `answers` or as one field
    /// per question (what the quiz form posts), graded against the assessment's key. A score,
    /// `passed`, another user or any other field the client sent is ignored. `nil` when the
    /// material has no assessment.
    private func gradedAttempt(_ sent: JSONObject, me: String) throws -> JSONObject? {
        let material = sent["material_id"]?.stringValue ?? ""
        guard let assessment = try backend.records("assessments").first(where: { $0["material_id"]?.text == material }) else {
            return nil
        }
        let given = sent["answers"]?.objectValue ?? sent
        let questions = assessment["questions"]?.arrayValue ?? []
        var answers = JSONObject()
        var correct = 0
        for question in questions {
            // Only an answer that is one of the question's options counts.
            guard let id = question["id"]?.stringValue, let answer = given[id]?.stringValue,
                question["options"]?.arrayValue?.contains(where: { $0["value"]?.text == answer }) == true
            else { continue }
            answers[id] = .string(answer)
            if question["correct"]?.text == answer { correct += 1 }
        }
        let maxScore = assessment["max_score"]?.doubleValue ?? 100
        let passing = assessment["passing_score"]?.doubleValue ?? 60
        let score = questions.isEmpty ? 0 : (Double(correct) / Double(questions.count) * maxScore).rounded()
        let passed = score >= passing
        let format = ISO8601DateFormatter()
        let now = Date()
        let finished = JSONValue.string(format.string(from: now))
        // The attempt began when the assessment was opened (at submit, if it never was).
        let start = try backend.record("attempt_starts", id: "\(me):\(material)")?.objectValue
        _ = try backend.delete("attempt_starts", id: "\(me):\(material)")
        let started = start?["started_at"] ?? finished
        let began = format.date(from: started.text) ?? now
        let minutes = max(0, Int((now.timeIntervalSince(began) / 60).rounded(.up)))
        return [
            "material_id": .string(material), "material_title": assessment["material_title"] ?? .null,
            "assessment_title": assessment["title"] ?? .null, "user_id": .string(me),
            "user_name": try account()?["full_name"] ?? .null, "score": .number(JSONNumber(Int(score))),
            "max_score": assessment["max_score"] ?? 100, "passing_score": assessment["passing_score"] ?? 60,
            "correct_answers": .number(JSONNumber(correct)), "total_questions": .number(JSONNumber(questions.count)),
            "passed": .bool(passed), "result_label": passed ? "Aprobado" : "No aprobado", "answers": .object(answers),
            "started_at": started, "deadline": start?["deadline"] ?? .null, "finished_at": finished,
            "duration_minutes": .number(JSONNumber(minutes)),
        ]
    }

    /// The attempt `me` has under way on `material`: when it started, its `deadline` (the start
    /// plus the assessment's time limit) and the milliseconds left. Started on first opening and
    /// kept, across reloads, until an attempt is submitted.
    private func openAttempt(material: String, me: String, limit assessment: JSONValue) throws -> JSONObject {
        let key = "\(me):\(material)"
        let format = ISO8601DateFormatter()
        var start = try backend.record("attempt_starts", id: key)?.objectValue
        if start == nil {
            let now = Date()
            let minutes = assessment["time_limit_minutes"]?.doubleValue ?? 15
            let opened: JSONObject = [
                "started_at": .string(format.string(from: now)),
                "deadline": .string(format.string(from: now.addingTimeInterval(minutes * 60))),
            ]
            try backend.save("attempt_starts", id: key, .object(opened))
            start = opened
        }
        var open = start ?? [:]
        let deadline = format.date(from: open["deadline"]?.text ?? "") ?? Date()
        let left = max(0, Int((deadline.timeIntervalSinceNow * 1000).rounded()))
        open["remaining_ms"] = .number(JSONNumber(left))
        return open
    }

    private func update(_ collection: String, id: String, allowed: (JSONValue) throws -> Bool) throws -> Reply {
        guard case .object(var current)? = try backend.record(collection, id: id) else {
            return Reply(status: 404, body: ["error": "not found"])
        }
        guard case .object(var changes) = body ?? .object([:]) else {
            return Reply(status: 400, body: ["error": "expected an object"])
        }
        let currentVersion = current["version"]?.intValue ?? 1
        if let sent = changes["version"]?.intValue, sent != currentVersion {
            return Reply(status: 409, body: ["error": "stale version", "current": .object(current)])
        }
        for field in Self.required[collection] ?? [] where changes[field] != nil && (changes[field]?.text ?? "").isEmpty {
            return Reply(status: 422, body: ["errors": [field: "Este campo es obligatorio"]])
        }
        let links = Self.invalidLinks(in: changes)
        if !links.isEmpty {
            let errors = JSONObject(links.map { ($0.field, JSONValue.string($0.message)) })
            return Reply(status: 422, body: ["message": "Revisa los campos", "errors": .object(errors)])
        }
        var password: String?
        if collection == "users" {
            if let taken = try emailTaken(changes, by: id) { return taken }
            if let short = Self.passwordProblem(changes) { return short }
            password = Self.takePassword(from: &changes)
        }
        for (key, value) in changes where key != "id" { current[key] = value }
        current["version"] = .number(JSONNumber(currentVersion + 1))
        current = try derived(collection, current)
        // The record as changed must still be the account's (no moving a user to another
        // school, nor promoting one to a higher role).
        guard try allowed(.object(current)) else { return forbiddenRecord }
        try backend.save(collection, id: id, .object(current))
        if let password { try backend.setPassword(password, forUser: id) }
        try backend.refreshDependents(of: collection, id: id)
        return Reply(status: 200, body: try backend.record(collection, id: id) ?? .object(current))
    }

    /// Fields that hold a link (named `*_url`, or a school's `website`) but are not an `http(s)`
    /// address, with the message for each.
    static func invalidLinks(in record: JSONObject) -> [(field: String, message: String)] {
        record.compactMap { key, value in
            guard key.hasSuffix("_url") || key == "website", let text = value.stringValue, !text.isEmpty else { return nil }
            let url = URL(string: text)
            let valid = ["http", "https"].contains(url?.scheme?.lowercased() ?? "") && !(url?.host ?? "").isEmpty
            return valid ? nil : (key, "Debe ser un enlace que empiece por https://")
        }
    }

    private func itunes() throws -> Reply {
        let canonical =
            path + "?"
            + query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.encode($0.value))" }.joined(separator: "&")
        let index = try backend.podcastCatalog.recordingIndex()
        if let file = index[canonical] { return Reply(status: 200, body: try backend.podcastCatalog.recording(file)) }
        // An unrecorded search: the recorded podcasts whose name or artist contains the term.
        if path == "/search", let term = query["term"]?.lowercased() {
            var seen = Set<String>()
            var results: [JSONValue] = []
            for file in Set(index.values) where file.hasPrefix("search-") {
                for podcast in try backend.podcastCatalog.recording(file)["results"]?.arrayValue ?? [] {
                    let id = podcast["trackId"]?.text ?? ""
                    let text = Self.folded("\(podcast["trackName"]?.text ?? "") \(podcast["artistName"]?.text ?? "")")
                    if text.contains(Self.folded(term)), seen.insert(id).inserted { results.append(podcast) }
                }
            }
            return Reply(status: 200, body: ["resultCount": .number(JSONNumber(results.count)), "results": .array(results)])
        }
        return Reply(status: 200, body: ["resultCount": 0, "results": []])
    }

    /// `text` as search compares it: without accents, in lower case, trimmed ("Pérez" and
    /// " PEREZ" are both "perez").
    static func folded(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "es"))
            .lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func encode(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        allowed.remove(charactersIn: "")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
