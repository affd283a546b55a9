import DynamicUICatalog
import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// The rules that keep the demo data consistent, as a real backend's constraints would: a record
/// created under a parent names an existing one, an e-mail belongs to one user, and the names
/// and labels a record shows follow the ids and codes it stores.
extension DemoRouter {
    /// The collection a parent id field of a route names (`school_id` → `schools`).
    static let parentCollections: [String: String] = [
        "school_id": "schools", "unit_id": "units", "material_id": "materials",
    ]

    /// Why a create under a route's parent cannot go on, if it cannot: a route parameter left
    /// empty or unfilled (`/v1/schools/{id}/units`) is a 400 naming the field, a parent that does
    /// not exist a 404.
    func routeProblem(in filter: [(String, String)]) throws -> DemoBackend.Reply? {
        for (field, value) in filter {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.contains("{") || trimmed.contains("}") {
                return DemoBackend.Reply(
                    status: 400,
                    body: [
                        "error": "missing_parameter", "field": .string(field),
                        "message": .string("Falta el valor de «\(field)» en la dirección de la petición"),
                    ])
            }
            if let parents = Self.parentCollections[field], try backend.record(parents, id: trimmed) == nil {
                return DemoBackend.Reply(
                    status: 404,
                    body: [
                        "error": "not found", "field": .string(field),
                        "message": .string("No existe el registro «\(trimmed)» al que se refiere «\(field)»"),
                    ])
            }
        }
        return nil
    }

    /// `records` in the order `sort` asks (`name`, or `-created_at` for newest first): numbers
    /// by value, text as people read it ("5º A" before "10º A", accents and case aside), records
    /// without the field last; records that compare equal keep their order.
    static func sorted(_ records: [JSONValue], by sort: String) -> [JSONValue] {
        let descending = sort.hasPrefix("-")
        let field = String(sort.drop { $0 == "-" || $0 == "+" })
        guard !field.isEmpty else { return records }
        return records.enumerated().sorted { left, right in
            let (a, b) = (left.element[path: field], right.element[path: field])
            let order: ComparisonResult
            switch (a, b) {
            case (.number(let x)?, .number(let y)?):
                order =
                    x.doubleValue < y.doubleValue
                    ? .orderedAscending : x.doubleValue > y.doubleValue ? .orderedDescending : .orderedSame
            case (nil, nil), (.null?, .null?): order = .orderedSame
            case (nil, _), (.null?, _): return false
            case (_, nil), (_, .null?): return true
            default:
                order = (a?.text ?? "").compare(
                    b?.text ?? "", options: [.numeric, .caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "es"))
            }
            if order == .orderedSame { return left.offset < right.offset }
            return descending ? order == .orderedDescending : order == .orderedAscending
        }.map(\.element)
    }

    /// An e-mail as it is compared and stored: trimmed and in lower case.
    static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The refusal of a user whose e-mail another user (not `id`) already has, ignoring case and
    /// surrounding spaces; `nil` when the e-mail is free.
    func emailTaken(_ record: JSONObject, by id: String?) throws -> DemoBackend.Reply? {
        guard let email = record["email"]?.stringValue else { return nil }
        let wanted = Self.normalizedEmail(email)
        guard !wanted.isEmpty else { return nil }
        let taken = try backend.records("users").contains { user in
            user["id"]?.text != id && Self.normalizedEmail(user["email"]?.text ?? "") == wanted
        }
        guard taken else { return nil }
        let message = "Ya existe un usuario con ese correo"
        return DemoBackend.Reply(
            status: 422, body: ["error": "duplicate_email", "message": .string(message), "errors": ["email": .string(message)]])
    }

    /// The refusal of a temporary password too short to sign in with; `nil` when there is none
    /// or it will do.
    static func passwordProblem(_ record: JSONObject) -> DemoBackend.Reply? {
        guard let password = record["password"]?.stringValue, !password.isEmpty, password.count < 8 else { return nil }
        let message = "La contraseña debe tener al menos 8 caracteres"
        return DemoBackend.Reply(status: 422, body: ["message": .string(message), "errors": ["password": .string(message)]])
    }

    /// The password sent with a user, taken out of the record (which never keeps one).
    static func takePassword(from record: inout JSONObject) -> String? {
        defer { record["password"] = nil }
        guard let password = record["password"]?.stringValue, !password.isEmpty else { return nil }
        return password
    }

    /// The fields a real backend derives, as the seeded records carry them, recomputed from the
    /// ids and codes `input` stores (the unit's, school's, teacher's and person's names, the
    /// labels of codes) and `updated_at`.
    func derived(_ collection: String, _ input: JSONObject) throws -> JSONObject {
        var record = try backend.labelled(collection, input)
        record["updated_at"] = .string(ISO8601DateFormatter().string(from: Date()))
        return record
    }
}

extension DemoBackend {
    /// Display labels of the codes records store, by field.
    static let codeLabels: [String: [String: String]] = [
        "status": [
            "activo": "Activo", "inactivo": "Inactivo", "pendiente": "Pendiente", "activa": "Activa", "inactiva": "Inactiva",
            "borrador": "Borrador", "publicado": "Publicado", "archivado": "Archivado",
        ],
        "shift": ["mañana": "Mañana", "tarde": "Tarde", "noche": "Noche"],
        "type": ["grado": "Grado"],
    ]

    /// The MIME type of each file type a material may have.
    static let mimeTypes = [
        "PDF": "application/pdf", "MP4": "video/mp4",
        "DOCX": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "PPTX": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ]

    /// What a school's name is for an account of no school (a platform role).
    static let platformName = "Plataforma EduGo"

    /// `input` of `collection` with every field derived from another recomputed: names from the
    /// ids (unit, school, teacher, person), labels from the codes (role, status, shift), counts
    /// from the records they count.
    func labelled(_ collection: String, _ input: JSONObject) throws -> JSONObject {
        var record = input
        func label(_ field: String, _ target: String? = nil) {
            guard let code = record[field]?.stringValue else { return }
            record[target ?? field + "_label"] = Self.codeLabels[field]?[code].map(JSONValue.string) ?? .string(code)
        }
        func text(_ field: String) -> String? {
            let value = record[field]?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return value.isEmpty ? nil : value
        }
        if let unitId = text("unit_id"), let unit = try self.record("units", id: unitId) {
            record["unit_name"] = unit["name"]
            record["school_id"] = unit["school_id"]
            record["school_name"] = unit["school_name"]
        }
        switch collection {
        case "users":
            let name = [text("first_name"), text("last_name")].compactMap { $0 }
            if !name.isEmpty { record["full_name"] = .string(name.joined(separator: " ")) }
            if let email = record["email"]?.stringValue { record["email"] = .string(DemoRouter.normalizedEmail(email)) }
            if let role = text("role") { record["role_name"] = try roleName(role).map(JSONValue.string) ?? .string(role) }
            if let school = text("school_id") {
                record["school_name"] = try self.record("schools", id: school)?["name"] ?? .null
            } else {
                // An account of no school is a platform's (a platform role) or has none yet.
                let platform = ["super_admin", "platform_admin"].contains(text("role") ?? "")
                record["school_id"] = .null
                record["school_name"] = platform ? .string(Self.platformName) : .null
            }
            if record["status"] == nil || record["status"] == .null { record["status"] = "activo" }
            label("status")
            record["password"] = nil
        case "schools":
            if record["status"] == nil || record["status"] == .null { record["status"] = "activa" }
            label("status")
            for field in ["student_count", "teacher_count"] where record[field] == nil || record[field] == .null {
                record[field] = 0
            }
        case "units":
            if let school = text("school_id") {
                record["school_name"] = try self.record("schools", id: school)?["name"] ?? .null
            }
            if let teacher = text("teacher_id") {
                record["teacher_name"] = try self.record("users", id: teacher)?["full_name"] ?? .null
            } else {
                record["teacher_id"] = .null
                record["teacher_name"] = .null
            }
            if record["type"] == nil || record["type"] == .null { record["type"] = "grado" }
            if record["status"] == nil || record["status"] == .null { record["status"] = "activa" }
            if record["student_count"] == nil || record["student_count"] == .null { record["student_count"] = 0 }
            label("type")
            label("status")
            label("shift")
        case "memberships":
            if let userId = text("user_id"), let user = try self.record("users", id: userId) {
                record["user_name"] = user["full_name"]
                record["user_email"] = user["email"]
                if text("role") == nil { record["role"] = user["role"] }
            }
            if let role = text("role") { record["role_name"] = try roleName(role).map(JSONValue.string) ?? .string(role) }
            if record["status"] == nil || record["status"] == .null { record["status"] = "activa" }
            if record["joined_at"] == nil || record["joined_at"] == .null, let created = record["created_at"] {
                record["joined_at"] = created
            }
        case "materials":
            if let grade = record["grade"]?.intValue ?? Int(record["grade"]?.text ?? "") {
                record["grade_label"] = .string("\(grade)º grado")
            }
            label("status")
            if let type = record["file_type"]?.stringValue {
                record["mime_type"] = Self.mimeTypes[type.uppercased()].map(JSONValue.string)
            }
        default:
            break
        }
        return record
    }

    /// What deleting a school with `units` units also deletes, as the confirmation says it.
    static func deleteNote(units: Int) -> String {
        switch units {
        case 0: ""
        case 1: " junto con su unidad académica y sus membresías"
        default: " junto con sus \(units) unidades académicas y sus membresías"
        }
    }

    /// The display name of a role code (`teacher` → "Docente").
    func roleName(_ code: String) throws -> String? {
        try edugo.data("roles").arrayValue?.first { $0["code"]?.text == code }?["name"]?.stringValue
    }

    /// Collections whose records copy a name from a record of another, by the field that links
    /// them: a change of that record is copied into them.
    static let dependents: [String: [(collection: String, field: String)]] = [
        "users": [("units", "teacher_id"), ("memberships", "user_id")],
        "schools": [("units", "school_id"), ("users", "school_id"), ("memberships", "school_id"), ("materials", "school_id")],
        "units": [("memberships", "unit_id"), ("materials", "unit_id")],
    ]

    /// After record `id` of `collection` changed: the records that show its names (a unit its
    /// teacher's, a user his school's) are recomputed, without touching their versions.
    func refreshDependents(of collection: String, id: String) throws {
        for (dependent, field) in Self.dependents[collection] ?? [] {
            for match in try records(dependent).filter({ $0[field]?.text == id }) {
                guard case .object(let object) = match, let matchId = object["id"]?.stringValue else { continue }
                let relabelled = try labelled(dependent, object)
                if relabelled != object { try save(dependent, id: matchId, .object(relabelled)) }
            }
        }
    }
}

/// Counts that read as Spanish: "1 usuario", "2 usuarios".
enum Counted {
    /// `count` with `singular` or `plural` after it.
    static func label(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }
}
