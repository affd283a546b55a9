import DynamicUICatalog
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

let environment = EvaluationEnvironment(
    now: Date(timeIntervalSince1970: 1_773_570_600), locale: Locale(identifier: "es_ES"), timeZone: TimeZone(identifier: "UTC")!)
let teacher = AuthUserInfo(id: "usr-002", firstName: "Lucía", lastName: "Fernández", email: "docente@edugo.test")
let teacherContext = UserContext(
    role: "teacher", roleName: "Docente", schoolId: "sch-001", schoolName: "Colegio San Martín", academicUnitId: "unit-001",
    academicUnitName: "3.º A")

let edugo = try! EduGoCatalog()

/// The demo data a screen shows: its endpoint's collection (first item for detail screens).
func demoData(for screen: ScreenDefinition, params: [String: String]) throws -> (JSONValue, [JSONValue]?) {
    guard let endpoint = screen.dataEndpoint else { return (.null, nil) }
    return try demoData(endpoint: endpoint, params: params)
}

/// The deferred sections of `screen`, loaded with the demo data of their endpoints.
func demoSections(for screen: ScreenDefinition, params: [String: String]) throws -> [String: SectionState] {
    var sections: [String: SectionState] = [:]
    for zone in screen.template.allZones {
        guard let endpoint = zone.dataEndpoint else { continue }
        sections[zone.id] = .loaded(try demoData(endpoint: endpoint, params: params).0)
    }
    return sections
}

/// The demo data `endpoint` answers.
func demoData(endpoint: String, params: [String: String]) throws -> (JSONValue, [JSONValue]?) {
    let endpoints = try edugo.data("endpoints")
    guard let entry = endpoints[endpoint] else { return (.null, nil) }
    if let document = entry["document"]?.stringValue { return (try edugo.data(document), nil) }
    guard let collection = entry["collection"]?.stringValue else { return (.null, nil) }
    let records = try edugo.data(collection).arrayValue ?? []
    if entry["kind"] == "item" {
        let key = entry["key"]?.stringValue ?? "id"
        let id = params["id"] ?? ""
        return (records.first { $0[key]?.text == id } ?? records.first ?? .null, nil)
    }
    let page = Array(records.prefix(20))
    return (.array(page), page)
}

/// The id of the first record of the collection behind a screen's endpoint.
func firstId(for screen: ScreenDefinition) throws -> String? {
    guard let endpoint = screen.dataEndpoint, let collection = try edugo.data("endpoints")[endpoint]?["collection"]?.stringValue
    else { return nil }
    let records = try edugo.data(collection).arrayValue ?? []
    let key = try edugo.data("endpoints")[endpoint]?["key"]?.stringValue ?? "id"
    return records.first?[key]?.text
}

/// Renders an EduGo screen with its demo data as the text renderer draws it.
func renderEduGo(_ key: String, options: RenderOptions, form: FormSnapshot = FormSnapshot()) throws -> String {
    TextRenderer().render(try lowerEduGo(key, options: options, form: form))
}

/// The render tree of an EduGo screen with its demo data (the first record for detail screens).
func lowerEduGo(_ key: String, options: RenderOptions, form: FormSnapshot = FormSnapshot()) throws -> RenderNode {
    let screen = try edugo.screen(key)
    let compiled = try ScreenCompiler().compile(screen)
    var params: [String: String] = [:]
    if let id = try firstId(for: screen) { params["id"] = id }
    let (data, items) = try demoData(for: screen, params: params)
    let context = try compiled.context(
        user: teacher, userContext: teacherContext, data: data,
        params: JSONObject(params.map { ($0.key, JSONValue.string($0.value)) }),
        environment: environment)
    return PatternRouter(options: options).render(
        ScreenInputs(
            screen: compiled, context: context, items: items.map(ListItems.init), form: form,
            pagination: PaginationState(hasMore: true, loadingMore: false),
            sections: try demoSections(for: screen, params: params)))
}

/// Compares `text` with the snapshot `name`; records it when missing or when
/// `DYNAMICUI_RECORD_SNAPSHOTS` is set.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt")
    let record = ProcessInfo.processInfo.environment["DYNAMICUI_RECORD_SNAPSHOTS"] != nil
    if record || !FileManager.default.fileExists(atPath: url.path) {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        if !record { Issue.record("recorded a new snapshot \(name); review it and run again", sourceLocation: sourceLocation) }
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(text == expected, "snapshot \(name) differs:\n\(text)", sourceLocation: sourceLocation)
}

/// Everything a tree draws, as text: each node without its children (controls with their
/// focus, texts, styles), then a list's ids and first rows; two trees that draw alike describe
/// alike.
func describeTree(_ node: RenderNode) -> [String] {
    var shallow = node
    shallow.children = []
    var lines = [String(describing: shallow)]
    if case .list(_, let rows) = node.kind {
        lines.append(rows.ids.joined(separator: ","))
        lines += rows.rows(limit: 3).flatMap(describeTree)
    }
    return lines + node.children.flatMap(describeTree)
}

/// The rows of the first list in `node`.
func firstList(in node: RenderNode) -> LazyRows? {
    if case .list(_, let rows) = node.kind { return rows }
    return node.children.lazy.compactMap(firstList).first
}
