public import DynamicUIActions
public import DynamicUIModels
public import DynamicUINetwork
import DynamicUIResolvers

/// One entity form served by the generic CRUD handler.
public struct CRUDEntity: Sendable, Hashable {
    /// The handler key (`material-create`).
    public var handlerKey: String
    /// `POST` to create, `PUT` to edit.
    public var method: RequestMethod
    /// The endpoint (`admin:/v1/users/{id}`).
    public var endpoint: Endpoint
    /// Shown on success (the host's own words).
    public var successMessage: String
    /// Shown on success instead, in the configured language: one of the SDK's words.
    public var successKey: DynamicUIStrings.Key?
    /// Screens whose caches a change invalidates (the list and the detail).
    public var invalidates: [String]

    /// Creates an entity configuration with the host's success message.
    public init(handlerKey: String, method: RequestMethod, endpoint: Endpoint, successMessage: String, invalidates: [String]) {
        self.handlerKey = handlerKey
        self.method = method
        self.endpoint = endpoint
        self.successMessage = successMessage
        self.invalidates = invalidates
    }

    /// Creates an entity configuration whose success message is one of the SDK's words.
    public init(
        handlerKey: String, method: RequestMethod, endpoint: Endpoint, success: DynamicUIStrings.Key, invalidates: [String]
    ) {
        self.init(
            handlerKey: handlerKey, method: method, endpoint: endpoint,
            successMessage: DynamicUIStrings.current(success), invalidates: invalidates)
        successKey = success
    }
}

extension CRUDEntity {
    /// The two forms of one entity: `NAME-create` posts to `collection` and invalidates
    /// `NAMEs-list`; `NAME-edit` puts to `record` and invalidates the list and `NAME-detail`.
    public static func createAndEdit(
        _ name: String, collection: Endpoint, record: Endpoint, created: DynamicUIStrings.Key, updated: DynamicUIStrings.Key
    ) -> [CRUDEntity] {
        [
            CRUDEntity(
                handlerKey: "\(name)-create", method: .post, endpoint: collection, success: created,
                invalidates: ["\(name)s-list"]),
            CRUDEntity(
                handlerKey: "\(name)-edit", method: .put, endpoint: record, success: updated,
                invalidates: ["\(name)s-list", "\(name)-detail"]),
        ]
    }
}

/// The create/edit forms of the EduGo catalog as one generic handler configured per entity, plus
/// `assessment-take`.
public struct CRUDPlugin: ScreenHandlerPlugin {
    /// The entities served.
    public var entities: [CRUDEntity]

    /// Creates the plugin (EduGo's entities by default).
    public init(entities: [CRUDEntity] = CRUDPlugin.eduGo) { self.entities = entities }

    /// `crud`.
    public var name: String { "crud" }

    /// The handler table: screen key to entity.
    public static let eduGo: [CRUDEntity] =
        CRUDEntity.createAndEdit(
            "material", collection: "/v1/materials", record: "/v1/materials/{id}", created: .materialCreated,
            updated: .materialUpdated)
        + CRUDEntity.createAndEdit(
            "user", collection: "admin:/v1/users", record: "admin:/v1/users/{id}", created: .userCreated,
            updated: .userUpdated)
        + CRUDEntity.createAndEdit(
            "school", collection: "admin:/v1/schools", record: "admin:/v1/schools/{id}", created: .schoolCreated,
            updated: .schoolUpdated)
        + CRUDEntity.createAndEdit(
            "unit", collection: "admin:/v1/schools/{id}/units", record: "admin:/v1/units/{id}", created: .unitCreated,
            updated: .unitUpdated)
        + [
            CRUDEntity(
                handlerKey: "membership-add", method: .post, endpoint: "admin:/v1/memberships", success: .memberAdded,
                invalidates: ["memberships-list"])
        ]

    /// One `CRUDHandler` per entity and `assessment-take`.
    public func handlers(services: ActionServices) -> [(HandlerKeyPattern, any ScreenHandler)] {
        entities.map {
            (HandlerKeyPattern.exact($0.handlerKey), CRUDHandler(entity: $0, services: services) as any ScreenHandler)
        }
            + [("assessment-take", AssessmentTakeHandler(services: services))]
    }
}

/// Submits an entity form: validation, the entity's endpoint and method (whatever the screen
/// says), the form's `fields`, offline queuing, 422 field errors, cache invalidation, and back.
public struct CRUDHandler: ScreenHandler {
    /// The entity served.
    public let entity: CRUDEntity
    let services: ActionServices

    /// Handles `SUBMIT_FORM`; other actions fall through.
    public func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        guard action.type == .submitForm else { return nil }
        let validator = FormValidator(strings: services.strings)
        let errors = validator.validate(slots: context.formSlots, values: context.fieldValues)
        if !errors.isEmpty { return .fieldErrors(errors, message: services.strings(.checkFields)) }
        let fields = context.config["fields"]?.arrayValue?.compactMap(\.stringValue)
        let body = validator.body(slots: context.formSlots, values: context.fieldValues, fields: fields)
        let mutation = Mutation(
            method: entity.method, endpoint: entity.endpoint, body: .object(body),
            successMessage: context.config["success_message"]?.stringValue ?? entity.successKey.map { services.strings($0) }
                ?? entity.successMessage,
            invalidates: entity.invalidates + (context.config["invalidates"]?.arrayValue?.compactMap(\.stringValue) ?? []),
            onSuccess: .navigateBack)
        return await services.perform(mutation, context: context)
    }
}

/// `assessment-take`: posts the answers as an attempt and opens its result.
public struct AssessmentTakeHandler: ScreenHandler {
    let services: ActionServices

    /// Handles `SUBMIT_FORM`; other actions fall through.
    public func handle(_ action: ActionDefinition, context: ActionContext) async -> ActionResult? {
        guard action.type == .submitForm else { return nil }
        let named = context.config["fields"]?.arrayValue?.compactMap(\.stringValue) ?? context.formSlots.map(\.formFieldName)
        // A screen may name a question twice: each is asked once.
        var seen = Set<String>()
        let questions = named.filter { seen.insert($0).inserted }
        let unanswered = questions.filter { (context.fieldValues[$0] ?? "").isEmpty }
        // `"validate": false` sends what was answered (the time ran out): unanswered is wrong.
        if !unanswered.isEmpty, context.config["validate"] != .bool(false) {
            return .fieldErrors(
                Dictionary(
                    unanswered.map { ($0, services.strings(.answerQuestion)) }, uniquingKeysWith: { first, _ in first }),
                message: services.strings(.missingAnswers))
        }
        let message = context.config["success_message"]?.stringValue ?? services.strings(.assessmentSubmitted)
        var answers = JSONObject()
        for question in questions { answers[question] = .string(context.fieldValues[question] ?? "") }
        let mutation = Mutation(
            method: .post, endpoint: "/v1/materials/{id}/assessment/attempts", body: ["answers": .object(answers)],
            successMessage: message, invalidates: ["attempts-history", "progress-my"])
        return await services.perform(mutation, context: context) { json in
            guard let attempt = json["id"], !attempt.isNull else { return nil }
            return .sequence([
                .success(message: message),
                .navigateTo(screenKey: "assessment-result", params: ["id": .string(attempt.text)], presentation: .push),
            ])
        }
    }
}
