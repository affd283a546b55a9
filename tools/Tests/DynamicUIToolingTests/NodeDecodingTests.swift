import DynamicUICatalog
import DynamicUIModels
import Foundation
import Testing

/// Decodes `T` from `value` and from `node` (the same JSON) and records an issue unless both
/// give the same model or the same error at the same location.
private func expectSameDecoding<T: JSONModel>(
    _ type: T.Type, value: JSONValue, node: JSONNode, at location: JSONLocation, in file: String
) {
    let fromTree = Result { () throws(ModelDecodingError) -> T in try T(json: value, at: location) }
    let fromNode = Result { () throws(ModelDecodingError) -> T in try T(node: node, at: location) }
    switch (fromTree, fromNode) {
    case (.success(let expected), .success(let decoded)):
        #expect(decoded == expected, "\(T.self) at \(location) in \(file)")
    case (.failure(let expected), .failure(let error)):
        #expect(error == expected, "\(T.self) at \(location) in \(file): \(error) ≠ \(expected)")
    default:
        Issue.record("\(T.self) at \(location) in \(file): the tree gave \(fromTree), the node \(fromNode)")
    }
}

/// The objects and arrays of a document down to `depth`, each as a value, a node and a location.
private func parts(
    of value: JSONValue, _ node: JSONNode, at location: JSONLocation = .root, depth: Int
) -> [(JSONValue, JSONNode, JSONLocation)] {
    var found: [(JSONValue, JSONNode, JSONLocation)] = [(value, node, location)]
    guard depth > 0 else { return found }
    switch value {
    case .object(let object):
        for (key, member) in object {
            guard let child = node[key] else {
                Issue.record("\(location).\(key) missing in the document")
                continue
            }
            if member.objectValue != nil || member.arrayValue != nil {
                found += parts(of: member, child, at: location.appending(key: key), depth: depth - 1)
            }
        }
    case .array(let elements):
        for (offset, (element, child)) in zip(elements, node.elements).enumerated().prefix(4)
        where element.objectValue != nil || element.arrayValue != nil {
            found += parts(of: element, child, at: location.appending(index: offset), depth: depth - 1)
        }
    default: break
    }
    return found
}

@Suite("Models decoded from a JSONDocument")
struct NodeDecodingTests {
    @Test func everyModelDecodesEveryCatalogPartAsFromTheTree() throws {
        let files = try #require(
            FileManager.default.enumerator(at: CatalogLocation.root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" })
        var decoded = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let value = try JSONReader().read(bytes)
            let document = try JSONReader().document(bytes)
            for (part, node, location) in parts(of: value, document.root, depth: 3).prefix(40) {
                for model in WireSchemaTests.models {
                    expectSameDecoding(model.type, value: part, node: node, at: location, in: file.lastPathComponent)
                    decoded += 1
                }
            }
        }
        #expect(decoded > 10_000)
    }

    @Test func mutatedScreensFailAtTheSamePlace() throws {
        // The composed screen, as the backend sends it.
        let screen = try EduGoCatalog().screenJSON("materials-list")
        let replacements: [JSONValue] = [.null, 7, 2.5, "text", true, [], [:], ["id": 1], [1, "a"]]
        var failures = 0
        for round in 0..<400 {
            var mutated = screen
            let paths = Self.scalarPaths(in: screen)
            let path = paths[(round * 7919) % paths.count]
            mutated = Self.replacing(path, in: mutated, with: replacements[round % replacements.count])
            let bytes = JSONWriter().bytes(from: mutated)
            let tree = Result { () throws(ModelDecodingError) -> ScreenDefinition in
                try ScreenDefinition(json: try! JSONReader().read(bytes))
            }
            let node = Result { () throws(ModelDecodingError) -> ScreenDefinition in
                try ScreenDefinition(node: try! JSONReader().document(bytes).root)
            }
            switch (tree, node) {
            case (.success(let expected), .success(let decoded)): #expect(decoded == expected)
            case (.failure(let expected), .failure(let error)):
                failures += 1
                #expect(error == expected)
            default: Issue.record("at \(path): the tree gave \(tree), the node \(node)")
            }
        }
        #expect(failures > 50)
    }

    @Test func theDocumentDecoderReadsThroughTheDocument() throws {
        let bytes = Array(#"{"id": "x", "type": "list", "slots": [{"id": "a", "control_type": "label", "label": 5}]}"#.utf8)
        let error = #expect(throws: ModelDecodingError.self) { try DocumentDecoder().decode(Zone.self, from: bytes) }
        #expect(error?.location.description == "slots[0].label")
        #expect(error?.message == "expected a string, found integer")
        let zone = try DocumentDecoder().decode(Zone.self, from: Data(#"{"id": "z", "type": "list", "id": "again"}"#.utf8))
        #expect(zone.id == "again")
    }

    /// Paths to every scalar of `value`.
    static func scalarPaths(in value: JSONValue, at path: [JSONLocation.Component] = []) -> [[JSONLocation.Component]] {
        switch value {
        case .object(let object):
            return object.flatMap { scalarPaths(in: $0.value, at: path + [.key($0.key)]) } + (path.isEmpty ? [] : [path])
        case .array(let elements):
            return elements.enumerated().flatMap { scalarPaths(in: $0.element, at: path + [.index($0.offset)]) } + [path]
        default:
            return [path]
        }
    }

    /// `value` with the part at `path` replaced.
    static func replacing(_ path: [JSONLocation.Component], in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let first = path.first else { return replacement }
        switch (first, value) {
        case (.key(let key), .object(var object)):
            object[key] = replacing(Array(path.dropFirst()), in: object[key] ?? .null, with: replacement)
            return .object(object)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            elements[index] = replacing(Array(path.dropFirst()), in: elements[index], with: replacement)
            return .array(elements)
        default:
            return value
        }
    }
}
