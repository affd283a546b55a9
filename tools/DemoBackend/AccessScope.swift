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

    /// Whether the account may create `record` (the new record, its derived fields filled in),
    /// every record it names (its unit, person, teacher, school, role) being one the account may
    /// choose.
    func canCreate(_ collection: String, _ record: JSONValue) throws -> Bool {
        if group == "superadmin" { return true }
        guard try unchoosable(in: record, before: nil, of: collection) == nil else { return false }
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

    /// Whether the account may write `record` of `collection` as changed from `before`: it may
    /// change `before`, and every record the change newly names is one it may choose (a teacher
    /// keeps his material in a unit of his school; a school admin names only people and teachers
    /// of his school).
    func canUpdate(_ collection: String, _ record: JSONValue, before: JSONValue) throws -> Bool {
        try canWrite(collection, record, deleting: false)
            && (group == "superadmin" || unchoosable(in: record, before: before, of: collection) == nil)
    }

    /// Collections whose records name other records the account must be allowed to choose.
    static let referencing: Set<String> = ["materials", "units", "memberships", "users"]

    /// The collection whose record a form field names (`unit_id` → `units`), or `nil`.
    static func collection(named field: String) -> String? {
        switch field {
        case "user_id", "teacher_id": "users"
        case "unit_id": "units"
        case "school_id": "schools"
        case "role": "roles"
        default: nil
        }
    }

    /// Whether the account may choose record `id` of `collection` in what it writes or picks
    /// (an option of a picker): a super admin anything; a school admin the people, units and
    /// roles of his school below his own; a teacher his school's units.
    func canChoose(_ collection: String, id: String) throws -> Bool {
        if group == "superadmin" { return true }
        let staff = group == "schooladmin" || group == "teacher"
        switch collection {
        case "users":
            guard group == "schooladmin", let user = try backend.record("users", id: id) else { return false }
            return try canRead("users", user)
        case "units":
            return try staff && backend.record("units", id: id)?["school_id"]?.text == school
        case "schools":
            return staff && id == school
        case "roles":
            return group == "schooladmin" && !Self.adminRoles.contains(id)
        default:
            return true
        }
    }

    /// The first field of `record` (of `collection`) naming a record the account may not choose,
    /// with that record's id; fields unchanged from `before` are the record's own and pass.
    func unchoosable(
        in record: JSONValue, before: JSONValue?, of collection: String
    ) throws -> (
        field: String, id: String
    )? {
        guard Self.referencing.contains(collection), let fields = record.objectValue else { return nil }
        for (field, value) in fields {
            guard let target = Self.collection(named: field), let id = value.stringValue, !id.isEmpty,
                before?[field]?.stringValue != id
            else { continue }
            if try !canChoose(target, id: id) { return (field, id) }
        }
        return nil
    }

    /// Why the account may not choose record `id` for `field`, in the words the app shows.
    static func refusal(field: String, id: String) -> String {
        switch collection(named: field) {
        case "users": "La persona elegida (\(id)) no es de tu escuela o no puedes asignarla"
        case "units": "La unidad académica elegida (\(id)) no es de tu escuela"
        case "schools": "Solo puedes elegir tu propia escuela"
        default: "No puedes asignar el rol «\(id)»"
        }
    }

    /// `screen` as the account receives it: each picker that names records (people, units,
    /// schools, roles) offers only those the account may choose.
    func shownScreen(_ screen: JSONValue) throws -> JSONValue {
        switch screen {
        case .object(var object):
            if let field = object["field"]?.stringValue, let target = Self.collection(named: field),
                let options = object["options"]?.arrayValue
            {
                object["options"] = .array(
                    try options.filter { option in try option["value"]?.stringValue.map { try canChoose(target, id: $0) } ?? true
                    })
            }
            var shown = JSONObject()
            for (key, value) in object { shown[key] = try shownScreen(value) }
            return .object(shown)
        case .array(let items):
            return .array(try items.map(shownScreen))
        default:
            return screen
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

    /// The dashboard figures and activity of the account, each figure computed from the records
    /// of its own scope: a school admin's school (the counts its detail screen shows), a
    /// teacher's units and materials, a student's own, a guardian's children's (and the children
    /// themselves); a super admin the platform's, counted from the records as they are now.
    func stats(_ document: JSONValue) throws -> JSONValue {
        guard case .object(var stats) = document else { return document }
        var activity: [JSONValue] = []
        for entry in stats["recent_activity"]?.arrayValue ?? [] where try group == "superadmin" || seesActivity(entry) {
            activity.append(entry)
        }
        for (key, value) in try figures() { stats[key] = value }
        // A student's own figures are the ones his guardian and his teachers see of him.
        if group == "student" { for (key, value) in try backend.figures(of: me).statsFields { stats[key] = value } }
        if group == "student" || group == "guardian" {
            let mine = try backend.records("attempts").filter { try sees(user: $0["user_id"]?.text ?? "", unit: nil) }
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
        if group == "guardian" {
            // A guardian's dashboard lists his children, each with the figures and status every
            // other view of the child shows.
            stats["children"] = .array(try backend.records("children").filter { $0["guardian_id"]?.text == me })
        }
        return .object(stats)
    }

    /// The figures of the dashboards over the account's scope.
    func figures() throws -> JSONObject {
        let users = try backend.records("users")
        let allUnits = try backend.records("units")
        let ownChildren = try children()
        let memberships = try backend.records("memberships")
        // The units, students and schools of the scope.
        let units: [JSONValue]
        let students: Set<String>
        switch group {
        case "superadmin":
            units = allUnits
            students = Set(users.filter { $0["role"]?.text == "student" }.compactMap { $0["id"]?.stringValue })
        case "schooladmin":
            units = allUnits.filter { $0["school_id"]?.text == school }
            students = Set(
                users.filter { $0["school_id"]?.text == school && $0["role"]?.text == "student" }.compactMap {
                    $0["id"]?.stringValue
                })
        case "teacher":
            units = allUnits.filter { $0["teacher_id"]?.text == me }
            let ids = Set(units.compactMap { $0["id"]?.stringValue })
            students = Set(
                memberships.filter { ids.contains($0["unit_id"]?.text ?? "") && $0["role"]?.text == "student" }
                    .compactMap { $0["user_id"]?.stringValue })
        default:
            students = group == "guardian" ? ownChildren : [me]
            let ids = Set(
                memberships.filter { students.contains($0["user_id"]?.text ?? "") }.compactMap { $0["unit_id"]?.stringValue })
            units = allUnits.filter { ids.contains($0["id"]?.text ?? "") }
        }
        let unitIds = Set(units.compactMap { $0["id"]?.stringValue })
        let schoolIds =
            group == "schooladmin" || group == "teacher" ? [school] : Set(units.compactMap { $0["school_id"]?.stringValue })
        let schools = try backend.records("schools").filter {
            group == "superadmin" || schoolIds.contains($0["id"]?.text ?? "")
        }
        let materials = try backend.records("materials").filter { material in
            switch group {
            case "superadmin": return true
            case "schooladmin": return material["school_id"]?.text == school
            case "teacher": return material["author"]?["id"]?.text == me
            default: return false
            }
        }
        let materialIds = Set(materials.compactMap { $0["id"]?.stringValue })
        let assessments = try backend.records("assessments").filter { materialIds.contains($0["material_id"]?.text ?? "") }
        let attempts = try backend.records("attempts").filter { students.contains($0["user_id"]?.text ?? "") }
        let progress = try backend.records("progress").filter {
            group == "teacher" ? unitIds.contains($0["unit_id"]?.text ?? "") : students.contains($0["user_id"]?.text ?? "")
        }
        // An assessment is pending for a student while a material of his progress has one he
        // has not attempted.
        let assessed = Set(try backend.records("assessments").compactMap { $0["material_id"]?.stringValue })
        let attempted = Set(attempts.map { "\($0["user_id"]?.text ?? "") \($0["material_id"]?.text ?? "")" })
        let pending = Set(
            progress.filter { students.contains($0["user_id"]?.text ?? "") }.map {
                "\($0["user_id"]?.text ?? "") \($0["material_id"]?.text ?? "")"
            }.filter { assessed.contains(String($0.split(separator: " ").last ?? "")) && !attempted.contains($0) })
        let scores = attempts.compactMap { attempt -> Double? in
            guard let score = attempt["score"]?.doubleValue, let max = attempt["max_score"]?.doubleValue, max > 0 else {
                return nil
            }
            return min(Swift.max(score / max * 100, 0), 100)
        }
        let percents = progress.map { min(max($0["percent"]?.doubleValue ?? 0, 0), 100) }
        let inProgress = percents.filter { $0 > 0 && $0 < 100 }.count
        // A school's own counts are those of its record, as its detail screen shows them.
        let schoolFigure = { (field: String) in schools.compactMap { $0[field]?.intValue }.reduce(0, +) }
        let admins = group == "schooladmin" || group == "superadmin"
        let studentCount =
            admins
            ? schoolFigure("student_count")
            : group == "teacher" ? units.compactMap { $0["student_count"]?.intValue }.reduce(0, +) : students.count
        let teacherCount =
            admins ? schoolFigure("teacher_count") : Set(units.compactMap { $0["teacher_id"]?.stringValue }).count
        let people =
            group == "superadmin"
            ? users.count
            : group == "schooladmin"
                ? users.filter { $0["school_id"]?.text == school }.count : students.count + (group == "student" ? 0 : 1)
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        func number(_ value: Double) -> JSONValue { .number(JSONNumber(Self.rounded(value))) }
        return [
            "total_students": number(studentCount), "total_teachers": number(teacherCount), "total_users": number(people),
            "total_schools": number(schools.count),
            "active_schools": number(schools.filter { $0["status"]?.text == "activa" }.count),
            "total_units": number(units.count), "total_materials": number(materials.count),
            "published_materials": number(materials.filter { $0["status"]?.text == "publicado" }.count),
            "total_assessments": number(assessments.count), "total_attempts": number(attempts.count),
            "pending_assessments": number(pending.count),
            "materials_in_progress": number(inProgress), "average_score": number(Self.mean(scores)),
            "pass_rate": number(Self.mean(attempts.map { $0["passed"]?.boolValue == true ? 100 : 0 })),
            "completion_rate": number(Self.mean(percents)),
        ]
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
