/// The signed-in user, as the login endpoint returns it (`first_name`, `last_name`, `email`).
public struct AuthUserInfo: JSONModel, Identifiable {
    /// User id.
    public var id: String
    /// Given name.
    public var firstName: String
    /// Family name.
    public var lastName: String
    /// E-mail address.
    public var email: String
    /// Display name; `firstName lastName` when the server sends none.
    public var fullName: String

    /// Creates a user.
    public init(id: String, firstName: String, lastName: String, email: String, fullName: String? = nil) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.fullName = fullName ?? [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        self.init(
            id: try context.required("id", in: o),
            firstName: try context.required("first_name", in: o),
            lastName: try context.optional("last_name", in: o) ?? "",
            email: try context.required("email", in: o),
            fullName: try context.optional("full_name", in: o))
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("id", id)
        b.set("first_name", firstName)
        b.set("last_name", lastName)
        b.set("email", email)
        b.set("full_name", fullName)
        return b.json
    }

    /// The value bound to the `user` root of expressions (`{user.firstName}`).
    public var scopeValue: JSONValue {
        [
            "id": .string(id), "firstName": .string(firstName), "lastName": .string(lastName), "email": .string(email),
            "fullName": .string(fullName),
        ]
    }
}

/// The user's active role and organisation (`{context.roleName}`, `{context.schoolName}`).
public struct UserContext: JSONModel {
    /// Role key (`teacher`, `school_admin`, …); decides the dashboard.
    public var role: String
    /// Display name of the role.
    public var roleName: String
    /// School id.
    public var schoolId: String?
    /// School name.
    public var schoolName: String?
    /// Academic unit id.
    public var academicUnitId: String?
    /// Academic unit name.
    public var academicUnitName: String?
    /// What the user may do (`materials.create`, `users.delete`, …), from the role's
    /// permissions; `nil` when the server did not say (then nothing is hidden).
    public var permissions: Set<String>?

    /// Creates a user context.
    public init(
        role: String, roleName: String, schoolId: String? = nil, schoolName: String? = nil, academicUnitId: String? = nil,
        academicUnitName: String? = nil, permissions: Set<String>? = nil
    ) {
        self.role = role
        self.roleName = roleName
        self.schoolId = schoolId
        self.schoolName = schoolName
        self.academicUnitId = academicUnitId
        self.academicUnitName = academicUnitName
        self.permissions = permissions
    }

    public init(json: JSONValue, context: inout ModelDecodingContext) throws(ModelDecodingError) {
        let o = try context.object(json)
        let role: String = try context.required("role", in: o)
        self.init(
            role: role,
            roleName: try context.optional("role_name", in: o) ?? role,
            schoolId: try context.optional("school_id", in: o),
            schoolName: try context.optional("school_name", in: o),
            academicUnitId: try context.optional("academic_unit_id", in: o),
            academicUnitName: try context.optional("academic_unit_name", in: o),
            permissions: (try context.optional("permissions", in: o) as [String]?).map(Set.init))
    }

    public var json: JSONValue {
        var b = JSONObjectBuilder()
        b.set("role", role)
        b.set("role_name", roleName)
        b.set("school_id", schoolId)
        b.set("school_name", schoolName)
        b.set("academic_unit_id", academicUnitId)
        b.set("academic_unit_name", academicUnitName)
        b.set("permissions", permissions.map { $0.sorted() })
        return b.json
    }

    /// The value bound to the `context` root of expressions.
    public var scopeValue: JSONValue {
        var object: JSONObject = ["role": .string(role), "roleName": .string(roleName)]
        object["schoolId"] = schoolId.map(JSONValue.string)
        object["schoolName"] = schoolName.map(JSONValue.string)
        object["academicUnitId"] = academicUnitId.map(JSONValue.string)
        object["academicUnitName"] = academicUnitName.map(JSONValue.string)
        return .object(object)
    }
}
