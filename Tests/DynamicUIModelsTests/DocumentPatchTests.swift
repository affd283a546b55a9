import DynamicUIModels
import Testing

/// Patches: elements replaced, inserted and removed by id, all or nothing, with typed errors
/// that name the place in the patch.
@Suite("Document patches")
struct DocumentPatchTests {
    static let screen = """
        {"screen_id": "s1", "screen_key": "dashboard", "screen_name": "Panel", "pattern": "dashboard", "version": 1, "actions": [], "updated_at": "2026-11-25T00:00:00Z",
         "template": {"zones": [
           {"id": "summary", "type": "metric-grid", "slots": [
             {"id": "students", "control_type": "metric-card", "label": "Alumnos"},
             {"id": "materials", "control_type": "metric-card", "label": "Materiales"}]},
           {"id": "recent", "type": "simple-list", "item_layout": {"slots": [
             {"id": "row-title", "control_type": "label", "field": "title"}]},
            "zones": [{"id": "recent-footer", "type": "container", "slots": [
             {"id": "more", "control_type": "text-button", "label": "Más"}]}]}]}}
        """

    static func decoded(_ text: String) throws -> ScreenDefinition {
        try ScreenDefinition(json: try JSONReader().read(Array(text.utf8)))
    }

    static func patch(_ text: String) throws -> DocumentPatch {
        try DocumentPatch(json: try JSONReader().read(Array(text.utf8)))
    }

    static func slotIds(_ screen: ScreenDefinition) -> [String] {
        func visit(_ zones: [Zone]) -> [String] {
            zones.flatMap { ($0.slots ?? []).map(\.id) + ($0.itemLayout?.slots ?? []).map(\.id) + visit($0.zones ?? []) }
        }
        return visit(screen.template.zones)
    }

    /// The error `apply` throws, or a recorded issue.
    static func failure<T>(_ apply: () throws(PatchError) -> T) -> PatchError? {
        do throws(PatchError) {
            let result = try apply()
            Issue.record("applied: \(result)")
            return nil
        } catch {
            return error
        }
    }

    @Test func slotsAreReplacedInsertedAndRemovedWhereverTheyAre() throws {
        let screen = try Self.decoded(Self.screen)
        let patch = try Self.patch(
            """
            {"changes": [
              {"id": "students", "items": [{"id": "students", "control_type": "metric-card", "label": "Estudiantes"}]},
              {"id": "materials", "items": [
                {"id": "materials", "control_type": "metric-card", "label": "Materiales"},
                {"id": "pending", "control_type": "metric-card", "label": "Pendientes"}]},
              {"id": "row-title", "items": [{"id": "row-title", "control_type": "label", "field": "name"}]},
              {"id": "more"}
            ]}
            """)
        let patched = try screen.applying(patch)
        #expect(Self.slotIds(patched) == ["students", "materials", "pending", "row-title"])
        let summary = try #require(patched.template.zones.first?.slots)
        #expect(summary[0].label == "Estudiantes" && summary[2].label == "Pendientes")
        #expect(patched.template.zones[1].itemLayout?.slots.first?.field == "name")
        #expect(patched.template.zones[1].zones?.first?.slots == [], "the nested zone lost its only slot")
        // The original is untouched: a patch works on a copy.
        #expect(Self.slotIds(screen) == ["students", "materials", "row-title", "more"])
    }

    @Test func zonesAreReplacedAndALaterChangeSeesWhatAnEarlierOneBrought() throws {
        let screen = try Self.decoded(Self.screen)
        let patch = try Self.patch(
            """
            {"changes": [
              {"id": "recent-footer", "items": [{"id": "footer", "type": "container", "slots": [
                {"id": "all", "control_type": "text-button", "label": "Ver todo"}]}]},
              {"id": "all", "items": [{"id": "all", "control_type": "text-button", "label": "Todo"}]},
              {"id": "summary", "items": []}
            ]}
            """)
        let patched = try screen.applying(patch)
        #expect(patched.template.zones.map(\.id) == ["recent"])
        let footer = try #require(patched.template.zones[0].zones?.first)
        #expect(footer.id == "footer" && footer.slots?.first?.label == "Todo")
    }

    @Test func oneBadChangeRejectsThePatchAndNamesItsPlace() throws {
        let screen = try Self.decoded(Self.screen)
        let unknown = try Self.patch(
            #"{"changes": [{"id": "students", "items": []}, {"id": "nowhere", "items": []}]}"#)
        let error = try #require(Self.failure { () throws(PatchError) in try screen.applying(unknown) })
        #expect(error.code == .noTarget)
        #expect(error.location.description == "changes[1].id")
        #expect(error.message == "no zone or slot has the id 'nowhere'")

        let invalid = try Self.patch(#"{"changes": [{"id": "students", "items": [{"id": "x", "label": "?"}]}]}"#)
        let invalidError = try #require(Self.failure { () throws(PatchError) in try screen.applying(invalid) })
        #expect(invalidError.code == .invalidItem)
        #expect(invalidError.location.description == "changes[0].items[0].control_type")

        let wrongKind = try Self.patch(#"{"changes": [{"id": "summary", "items": [42]}]}"#)
        let wrongKindError = try #require(Self.failure { () throws(PatchError) in try screen.applying(wrongKind) })
        #expect(wrongKindError.code == .invalidItem && wrongKindError.location.description == "changes[0].items[0]")
    }

    @Test func anItemMayNotBringAnIdTheDocumentHasElsewhere() throws {
        let screen = try Self.decoded(Self.screen)
        let patch = try Self.patch(
            """
            {"changes": [{"id": "students", "items": [
              {"id": "students", "control_type": "metric-card"}, {"id": "more", "control_type": "label"}]}]}
            """)
        let error = try #require(Self.failure { () throws(PatchError) in try screen.applying(patch) })
        #expect(error.code == .duplicateId)
        #expect(error.location.description == "changes[0].items[1]")
        #expect(error.message.contains("'more'"))
        // A zone bringing a slot whose id is taken counts too.
        let zone = try Self.patch(
            """
            {"changes": [{"id": "recent-footer", "items": [{"id": "f", "type": "container", "slots": [
              {"id": "students", "control_type": "label"}]}]}]}
            """)
        #expect(Self.failure { () throws(PatchError) in try screen.applying(zone) }?.code == .duplicateId)
    }

    @Test func anIdTheDocumentUsesTwiceIsNoTarget() throws {
        var screen = try Self.decoded(Self.screen)
        screen.template.zones[1].zones?[0].slots?[0].id = "students"
        let patch = try Self.patch(#"{"changes": [{"id": "students", "items": []}]}"#)
        let error = try #require(Self.failure { () throws(PatchError) in try screen.applying(patch) })
        #expect(error.code == .noTarget && error.message == "2 elements have the id 'students'")
        // A zone and a slot may share an id (the validator allows it): the patch cannot tell them apart.
        var shared = try Self.decoded(Self.screen)
        shared.template.zones[0].slots?[0].id = "recent"
        let sharedError = try #require(
            Self.failure { () throws(PatchError) in
                try shared.applying(DocumentPatch(changes: [PatchChange(id: "recent")]))
            })
        #expect(sharedError.message == "2 elements have the id 'recent'")
        // A new zone may take an id a slot has.
        let zoneNamedLikeASlot = DocumentPatch(changes: [
            PatchChange(id: "recent-footer", items: [["id": "students", "type": "container"]])
        ])
        #expect(try screen.applying(zoneNamedLikeASlot).template.zones[1].zones?.first?.id == "students")
    }

    @Test func hostilePatchesGetTypedErrors() throws {
        let screen = try Self.decoded(Self.screen)
        // Too many changes.
        let many = DocumentPatch(changes: Array(repeating: PatchChange(id: "students"), count: DocumentPatch.maxChanges + 1))
        let manyError = try #require(Self.failure { () throws(PatchError) in try screen.applying(many) })
        #expect(manyError.code == .limitExceeded && manyError.location.description == "changes")
        // An item nested deeper than the decoding limits.
        var deep: JSONValue = ["id": "z-last", "type": "container"]
        for level in 0..<100 { deep = ["id": .string("z\(level)"), "type": "container", "zones": [deep]] }
        let deepPatch = DocumentPatch(changes: [PatchChange(id: "recent-footer", items: [deep])])
        let deepError = try #require(Self.failure { () throws(PatchError) in try screen.applying(deepPatch) })
        #expect(deepError.code == .invalidItem && deepError.message.contains("deep"))
        // More elements than a document may hold.
        let huge = (0..<25_000).map { JSONValue.object(["id": .string("s\($0)"), "control_type": "label"]) }
        let hugeError = try #require(
            Self.failure { () throws(PatchError) in
                try screen.applying(DocumentPatch(changes: [PatchChange(id: "more", items: huge)]))
            })
        #expect(hugeError.code == .invalidItem)
        // Changes that each stay within the limits but together nest too deep.
        func chain(_ prefix: String, _ depth: Int) -> JSONValue {
            var zone: JSONValue = ["id": .string("\(prefix)\(depth)"), "type": "container"]
            for level in stride(from: depth - 1, through: 1, by: -1) {
                zone = ["id": .string("\(prefix)\(level)"), "type": "container", "zones": [zone]]
            }
            return zone
        }
        let deeper = DocumentPatch(changes: [
            PatchChange(id: "recent-footer", items: [chain("a", 30)]), PatchChange(id: "a30", items: [chain("b", 30)]),
        ])
        let deeperError = try #require(
            Self.failure { () throws(PatchError) in try screen.applying(deeper, limits: ModelLimits(maxNodeDepth: 40)) })
        #expect(deeperError.code == .limitExceeded && deeperError.location.description == "changes[1]")
        // Many changes that each add little: the size is counted once the document grows.
        let growing = DocumentPatch(
            changes: (0..<DocumentPatch.maxChanges).map { index in
                PatchChange(
                    id: index == 0 ? "more" : "g\(index - 1)-0",
                    items: (0..<300).map { JSONValue.object(["id": .string("g\(index)-\($0)"), "control_type": "label"]) })
            })
        let growingError = try #require(Self.failure { () throws(PatchError) in try screen.applying(growing) })
        #expect(growingError.code == .limitExceeded, "\(growingError)")
        // A zone replaced by one that holds it again: its id is then used twice.
        let same = try #require(screen.template.zones.first?.json)
        let sameId = try #require(screen.template.zones.first?.id)
        let nested: JSONValue = [
            "id": .string(sameId), "type": "container", "zones": [["id": .string(sameId), "type": "container"]],
        ]
        let cycleError = try #require(
            Self.failure { () throws(PatchError) in
                try screen.applying(DocumentPatch(changes: [PatchChange(id: sameId, items: [nested])]))
            })
        #expect(cycleError.code == .duplicateId, "\(cycleError)")
        // The same element replaced by itself a hundred times is a hundred changes, not a loop.
        let again = DocumentPatch(
            changes: Array(repeating: PatchChange(id: sameId, items: [same]), count: DocumentPatch.maxChanges))
        #expect(try screen.applying(again) == screen)
        // A missing or non-string id is a decoding error of the patch itself.
        #expect(throws: ModelDecodingError.self) { try Self.patch(#"{"changes": [{"items": []}]}"#) }
        #expect(throws: ModelDecodingError.self) { try Self.patch(#"{"changes": [{"id": 7}]}"#) }
    }

    // MARK: Node documents

    static let document = """
        {"type": "screen", "id": "root", "props": {"body": {"type": "vstack", "id": "body", "children": [
          {"type": "text", "id": "title", "props": {"content": "Hola"}},
          {"type": "button", "id": "play", "props": {"label": {"type": "text", "id": "play-label", "props": {"content": "▶"}}}},
          {"type": "list", "id": "episodes", "props": {"items": "$.episodes", "itemTemplate":
            {"type": "text", "id": "episode", "props": {"content": "$.title"}}}}]}}}
        """

    static func node(_ text: String) throws -> ViewNode { try ViewNode(json: try JSONReader().read(Array(text.utf8))) }

    @Test func nodesAreReplacedInChildrenAndInTheirProps() throws {
        let document = try Self.node(Self.document)
        let patch = try Self.patch(
            """
            {"changes": [
              {"id": "title", "items": [{"type": "text", "id": "title", "props": {"content": "Adiós"}},
                                        {"type": "divider", "id": "rule"}]},
              {"id": "play-label", "items": [{"type": "image", "id": "play-icon", "props": {"source": "system:play"}}]},
              {"id": "episode", "items": [{"type": "text", "id": "episode", "props": {"content": "$.name"}}]}
            ]}
            """)
        let patched = try document.applying(patch)
        guard case .screen(_, let body?, _, _, _) = patched.props else { throw PatchTestError.shape("\(patched.props)") }
        #expect(body.children.map(\.nodeId) == ["title", "rule", "play", "episodes"])
        guard case .button(let label?, _) = body.children[2].props, case .list(_, let template, _) = body.children[3].props
        else { throw PatchTestError.shape("\(body.children)") }
        #expect(label.nodeId == "play-icon")
        #expect(template.props == .text(content: "$.name", lineLimit: nil))
    }

    @Test func whereOneNodeFitsAChangeMustGiveOne() throws {
        let document = try Self.node(Self.document)
        let removeRoot = try Self.patch(#"{"changes": [{"id": "root"}]}"#)
        let rootError = try #require(Self.failure { () throws(PatchError) in try document.applying(removeRoot) })
        #expect(rootError.code == .invalidItem && rootError.location.description == "changes[0].items")
        let removeTemplate = try Self.patch(#"{"changes": [{"id": "episode"}]}"#)
        let templateError = try #require(Self.failure { () throws(PatchError) in try document.applying(removeTemplate) })
        #expect(templateError.message == "'itemTemplate' of a list node holds one node; the change gives 0")
        // An optional member may be emptied.
        let removeLabel = try Self.patch(#"{"changes": [{"id": "play-label"}]}"#)
        guard case .screen(_, let body?, _, _, _) = try document.applying(removeLabel).props,
            case .button(nil, _) = body.children[1].props
        else { throw PatchTestError.shape("the label is still there") }
        // A new root keeps the document whole.
        let newRoot = try Self.patch(#"{"changes": [{"id": "root", "items": [{"type": "text", "id": "root"}]}]}"#)
        #expect(try document.applying(newRoot).type == .text)
    }

    // MARK: Data

    @Test func recordsAreReplacedByIdWhereverTheirArrayIs() throws {
        let data: JSONValue = [
            "items": [["id": "m1", "title": "Uno"], ["id": 2, "title": "Dos"]],
            "recent": ["entries": [["id": "m3", "title": "Tres"]]],
        ]
        let patch = try Self.patch(
            """
            {"changes": [{"id": "m1", "items": [{"id": "m1", "title": "Uno (procesado)"}]},
                         {"id": "2"},
                         {"id": "m3", "items": [{"id": "m3", "title": "Tres"}, {"id": "m4", "title": "Cuatro"}]}]}
            """)
        let patched = try data.applying(patch)
        #expect(patched["items"] == [["id": "m1", "title": "Uno (procesado)"]])
        #expect(patched["recent"]?["entries"]?.arrayValue?.count == 2)
        let missing = try Self.patch(#"{"changes": [{"id": "m9"}]}"#)
        let error = try #require(Self.failure { () throws(PatchError) in try data.applying(missing) })
        #expect(error.code == .noTarget && error.message == "no record has the id 'm9'")
        // A record inside another record is the other's, not a target; items are records.
        let nested: JSONValue = ["items": [["id": "m1", "comments": [["id": "c1", "text": "¡Bien!"]]]]]
        #expect(
            Self.failure { () throws(PatchError) in try nested.applying(DocumentPatch(changes: [PatchChange(id: "c1")])) }?.code
                == .noTarget)
        let notARecord = DocumentPatch(changes: [PatchChange(id: "m1", items: ["texto"])])
        let notARecordError = try #require(Self.failure { () throws(PatchError) in try nested.applying(notARecord) })
        #expect(notARecordError.code == .invalidItem && notARecordError.location.description == "changes[0].items[0]")
    }
}

enum PatchTestError: Error {
    case shape(String)
}
