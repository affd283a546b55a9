import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// What one signed-in account may read and change, record by record, as a real backend scopes
/// data: the endpoint table says which roles may call an endpoint at all; this says which records
/// of it the account sees and may change.
///
/// - a super or platform admin: everything;
/// - a school admin or director: the records of their school (and published materials), and no
///   account of a higher role;
/// - a teacher: published materials and their own (drafts included), their units' progress,
///   their school's activity;
/// - a student: published materials, their own attempts, progress and activity;
/// - a guardian: their children and their children's attempts and progress.
struct AccessScope {
    /// `superadmin`, `schooladmin`, `teacher`, `student` or `guardian`.
    let group: String
    /// The account's user id.
    let me: String
    /// The account's school.
    let school: String
    let backend: DemoBackend

    /// Roles a school admin may neither see nor change.
    static let adminRoles: Set<String> = ["super_admin", "platform_admin"]

    /// Whether the account sees `record` of `collection`.
    func canRead(_ collection: String, _ record: JSONValue) throws -> Bool {
        if group == "superadmin" { return true }
        switch collection {
        case "users":
            return group == "schooladmin" && record["school_id"]?.text == school
                && !Self.adminRoles.contains(record["role"]?.text ?? "")
        case "schools":
            return group == "schooladmin" && record["id"]?.text == school
        case "units", "memberships":
            return group == "schooladmin" && record["school_id"]?.text == school
        case "materials":
            // Published for every reader; a draft or an archived material only for its author
            // (and the admins of its school).
            if record["status"]?.text == "publicado" || record["author"]?["id"]?.text == me { return true }
            return group == "schooladmin" && record["school_id"]?.text == school
        case "attempts", "progress":
            return try sees(user: record["user_id"]?.text ?? "", unit: record["unit_id"]?.stringValue)
        case "children":
            switch group {
            case "guardian": return record["guardian_id"]?.text == me
            case "schooladmin", "teacher": return record["school_id"]?.text == school
            default: return false
            }
        default:
            return true
        }
    }

    /// Groups that grade assessments, and so may read their answer keys.
    static let graders: Set<String> = ["superadmin", "schooladmin", "teacher"]

    /// `record` of `collection` as the account receives it: an assessment's questions lose
    /// their answers (`correct`) for anyone who takes the assessment rather than grades it.
    func shown(_ collection: String, _ record: JSONValue) -> JSONValue {
        guard collection == "assessments", !Self.graders.contains(group), case .object(var object) = record,
            let questions = object["questions"]?.arrayValue
        else { return record }
        object["questions"] = .array(
            questions.map { question in
                guard case .object(var fields) = question else { return question }
                fields["correct"] = nil
                return .object(fields)
            })
        return .object(object)
    }

    /// Whether the account may change (edit or delete) `record` of `collection`.
    func canWrite(_ collection: String, _ record: JSONValue, deleting: Bool) throws -> Bool {
        if group == "superadmin" { return true }
        switch collection {
        case "schools":
            // A school admin edits their own school; only a super admin deletes one.
            return try !deleting && canRead(collection, record)
        case "users", "units", "memberships":
            return try canRead(collection, record)
        case "materials":
            if group == "schooladmin" { return record["school_id"]?.text == school }
            return group == "teacher" && record["author"]?["id"]?.text == me
        case "attempts":
            return group == "student" && record["user_id"]?.text == me
        default:
            return false
        }
    }

    /// Whether the account may create `record` (the new record, its derived fields filled in).
    func canCreate(_ collection: String, _ record: JSONValue) throws -> Bool {
        if group == "superadmin" { return true }
        switch collection {
        case "users":
            // A user of their own school, of no higher role.
            return group == "schooladmin" && (record["school_id"]?.stringValue ?? school) == school
                && !Self.adminRoles.contains(record["role"]?.text ?? "")
        case "units", "memberships":
            return group == "schooladmin" && record["school_id"]?.text == school
        case "materials":
            return ["schooladmin", "teacher"].contains(group) && (record["school_id"]?.stringValue ?? school) == school
        case "attempts":
            return group == "student"
        default:
            return false
        }
    }

    /// Whether a record of user `user` (in unit `unit`, when known) is the account's to see.
    func sees(user: String, unit: String?) throws -> Bool {
        switch group {
        case "superadmin": return true
        case "student": return user == me
        case "guardian": return try children().contains(user)
        case "teacher":
            if let unit { return try backend.record("units", id: unit)?["teacher_id"]?.text == me }
            return try schoolOf(user: user) == school
        case "schooladmin":
            if let unit { return try backend.record("units", id: unit)?["school_id"]?.text == school }
            return try schoolOf(user: user) == school
        default: return false
        }
    }

    /// Whether the account sees the parent record an endpoint's `{id}` names (a unit's progress,
    /// a school's units, a student's progress).
    func canReadParent(of collection: String, id: String) throws -> Bool {
        if group == "superadmin" { return true }
        switch collection {
        case "progress":
            // `units/{id}/progress` names a unit, `students/{id}/progress` a student.
            if let unit = try backend.record("units", id: id) {
                return try group == "teacher" ? unit["teacher_id"]?.text == me : canRead("units", unit)
            }
            return try sees(user: id, unit: nil)
        case "units":
            return try backend.record("schools", id: id).map { try canRead("schools", $0) } ?? false
        default:
            return true
        }
    }

    /// The dashboard figures and activity of the account: a student's own, a guardian's
    /// children's, a school's for its staff, everything for a super admin.
    func stats(_ document: JSONValue) throws -> JSONValue {
        guard case .object(var stats) = document, group != "superadmin" else { return document }
        var activity: [JSONValue] = []
        for entry in stats["recent_activity"]?.arrayValue ?? [] where try seesActivity(entry) { activity.append(entry) }
        if group == "student" || group == "guardian" {
            let mine = try backend.records("attempts").filter { try sees(user: $0["user_id"]?.text ?? "", unit: nil) }
            let progress = try backend.records("progress").filter { try sees(user: $0["user_id"]?.text ?? "", unit: nil) }
            let scores = mine.compactMap { attempt -> Double? in
                guard let score = attempt["score"]?.doubleValue, let max = attempt["max_score"]?.doubleValue, max > 0 else {
                    return nil
                }
                return score / max * 100
            }
            let percents = progress.compactMap { $0["percent"]?.doubleValue }
            stats["total_attempts"] = .number(JSONNumber(mine.count))
            stats["average_score"] = .number(JSONNumber(Self.rounded(Self.mean(scores))))
            stats["pass_rate"] = .number(
                JSONNumber(Self.rounded(Self.mean(mine.map { $0["passed"]?.boolValue == true ? 100 : 0 }))))
            stats["completion_rate"] = .number(JSONNumber(Self.rounded(Self.mean(percents))))
            stats["materials_in_progress"] = .number(
                JSONNumber(
                    progress.filter { ($0["percent"]?.doubleValue ?? 0) > 0 && ($0["percent"]?.doubleValue ?? 0) < 100 }.count))
            // Their own attempts are their activity.
            activity = mine.sorted { ($0["finished_at"]?.text ?? "") > ($1["finished_at"]?.text ?? "") }.prefix(5).map {
                attempt in
                let passed = attempt["passed"]?.boolValue == true
                let title = attempt["assessment_title"]?.text ?? attempt["material_title"]?.text ?? ""
                return [
                    "id": .string("act-\(attempt["id"]?.text ?? "")"), "type": "attempt", "icon": "checkmark.seal",
                    "title": .string(
                        group == "student" ? "Completaste «\(title)»" : "\(attempt["user_name"]?.text ?? "") completó «\(title)»"),
                    "subtitle": .string(
                        "Puntaje \(attempt["score"]?.text ?? "0")/\(attempt["max_score"]?.text ?? "100") · \(passed ? "Aprobado" : "No aprobado")"
                    ),
                    "occurred_at": attempt["finished_at"] ?? .null,
                ]
            }
        }
        stats["recent_activity"] = .array(activity)
        return .object(stats)
    }

    private func seesActivity(_ entry: JSONValue) throws -> Bool {
        let id = entry["id"]?.text ?? ""
        guard id.hasPrefix("act-") else { return false }
        let record = String(id.dropFirst(4))
        switch entry["type"]?.text {
        case "attempt":
            return try backend.record("attempts", id: record).map { try canRead("attempts", $0) } ?? false
        case "material":
            guard let material = try backend.record("materials", id: record) else { return false }
            return group == "schooladmin" || group == "teacher"
                ? material["school_id"]?.text == school : try canRead("materials", material)
        case "membership":
            return try backend.record("memberships", id: record).map { $0["school_id"]?.text == school } ?? false
                && ["schooladmin", "teacher"].contains(group)
        case "user":
            return try ["schooladmin", "teacher"].contains(group) && schoolOf(user: record) == school
        default:
            return false
        }
    }

    private func children() throws -> Set<String> {
        Set(try backend.records("children").filter { $0["guardian_id"]?.text == me }.compactMap { $0["id"]?.stringValue })
    }

    private func schoolOf(user: String) throws -> String? {
        try backend.record("users", id: user)?["school_id"]?.stringValue
    }

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
