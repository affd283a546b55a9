import DynamicUICatalog
import Foundation
import PropertyBased
import Testing

@testable import DynamicUIModels

/// What reading `bytes` gives both ways: the tree, or the document; and their errors.
private func readBothWays(
    _ bytes: [UInt8], limits: JSONReader.Limits = .default, rejectDuplicateKeys: Bool = false
) -> (tree: Result<JSONValue, JSONReadError>, document: Result<JSONDocument, JSONReadError>) {
    let reader = JSONReader(limits: limits, rejectDuplicateKeys: rejectDuplicateKeys)
    let tree = Result { () throws(JSONReadError) -> JSONValue in try reader.read(bytes) }
    let document = Result { () throws(JSONReadError) -> JSONDocument in try reader.document(bytes) }
    return (tree, document)
}

/// Records an issue unless `node` reads, through the node API alone, as `value`.
private func expectNode(_ node: JSONNode, reads value: JSONValue, at path: String = "$") {
    switch value {
    case .null:
        #expect(node.kind == .null && node.isNull, "\(path)")
    case .bool(let bool):
        #expect(node.kind == .bool && node.boolValue == bool, "\(path)")
    case .number(let number):
        #expect(node.kind == .number, "\(path)")
        #expect(node.numberValue == number, "\(path)")
        #expect(node.numberValue?.isInteger == number.isInteger, "\(path)")
    case .string(let string):
        #expect(node.kind == .string, "\(path)")
        #expect(node.stringValue.map { Array($0.utf8) } == Array(string.utf8), "\(path)")
        #expect(node.withUTF8 { Array($0) } == Array(string.utf8), "\(path)")
    case .array(let elements):
        #expect(node.kind == .array && node.count == elements.count, "\(path)")
        let nodes = Array(node.elements)
        #expect(nodes.count == elements.count, "\(path)")
        for (offset, element) in zip(nodes.indices, elements) {
            expectNode(nodes[offset], reads: element, at: "\(path)[\(offset)]")
        }
        if let last = elements.indices.last {
            #expect(node[last].map(\.value) == elements[last], "\(path)[\(last)] by index")
        }
        #expect(node[elements.count] == nil && node[-1] == nil, "\(path)")
    case .object(let object):
        #expect(node.kind == .object && node.count == object.count || node.count > object.count, "\(path)")
        for (key, member) in object {
            guard let found = node[key] else {
                Issue.record("\(path).\(key) missing")
                continue
            }
            expectNode(found, reads: member, at: "\(path).\(key)")
        }
        // Every member written is there, in order (a repeated key where it was first written).
        var seen = Set<[UInt8]>()
        let firstOccurrences = node.members.map(\.key).filter { seen.insert(Array($0.utf8)).inserted }
        #expect(firstOccurrences.map { Array($0.utf8) } == object.keys.map { Array($0.utf8) }, "\(path)")
    }
    #expect(node.value == value, "\(path)")
}

/// Reads `text` both ways and expects the same outcome: equal values (node by node), or the
/// same error at the same offset.
private func expectAgreement(
    _ bytes: [UInt8], limits: JSONReader.Limits = .default, rejectDuplicateKeys: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let (tree, document) = readBothWays(bytes, limits: limits, rejectDuplicateKeys: rejectDuplicateKeys)
    switch (tree, document) {
    case (.success(let value), .success(let document)):
        #expect(document.value == value, sourceLocation: sourceLocation)
        expectNode(document.root, reads: value)
    case (.failure(let expected), .failure(let error)):
        #expect(error == expected, sourceLocation: sourceLocation)
        #expect(error.offset == expected.offset && error.code == expected.code, sourceLocation: sourceLocation)
    default:
        Issue.record(
            "the tree read \(tree), the document \(document) for \(String(decoding: bytes.prefix(200), as: UTF8.self))",
            sourceLocation: sourceLocation)
    }
}

@Suite("JSON document: the same reader, kept as a tape")
struct JSONDocumentTests {
    @Test func everyCatalogDocumentReadsTheSame() throws {
        let files = try #require(
            FileManager.default.enumerator(at: CatalogLocation.root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" })
        #expect(files.count > 50)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            expectAgreement(bytes)
            expectAgreement(bytes, rejectDuplicateKeys: true)
        }
    }

    @Test(arguments: [
        "null", "true", "false", "0", "-0", "-0.0", "1.5e300", "\"\"", "[]", "{}", "[[]]", "[{}]", "{\"a\":{}}",
        "[1,[2,[3,[4]]],{\"x\":[{}]}]", " \n\t[ 1 , 2 ]\r\n", "\u{FEFF}{\"bom\":1}",
        "36028797018963967", "36028797018963968", "-36028797018963968", "-36028797018963969",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "0.1", "1e-400", "1E+2", "[1.7976931348623157e308]",
        "\"\\u00e9\\u0301\\uD83D\\uDE0A\\/\\\\\\\"\\b\\f\\n\\r\\t\"", "\"ñandú 日本語 🎉\"",
        "{\"é\":1,\"e\\u0301\":2}", "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":2,\"a\":3}", "[{\"k\":1},{\"k\":2,\"k\":3}]",
        "{\"\\u0061\":1,\"a\":2}", "{\"\":1,\"a\":2}", "[{\"\":1,\"children\":[]},{\"children\":[],\"\":3}]",
        "{\"\":{\"\":{\"x\":\"\"}},\"\\u0000\":0}",
        // Errors: each must be the same error at the same offset.
        "", " ", "[", "[1,", "[1,]", "{\"a\"}", "{\"a\":}", "{,}", "01", "-", "1.", "1e", "\"\\x\"", "\"\\uD800\"",
        "\"\\uDC00\"", "\"a\u{01}\"", "[1]x", "{\"a\":1,}", "tru", "nul", "[\"\\u12\"]",
    ])
    func smallDocumentsAgree(_ text: String) {
        expectAgreement(Array(text.utf8))
        expectAgreement(Array(text.utf8), rejectDuplicateKeys: true)
    }

    @Test func invalidUTF8AgreesWithTheTree() {
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0xFF],
        ] {
            expectAgreement(bytes)
        }
    }

    @Test func escapesAtEveryPositionOfAWord() {
        // An escape, a surrogate pair and a multi-byte character at each offset of an 8-byte
        // scan word, in values and in keys.
        for padding in 0..<17 {
            let pad = String(repeating: "x", count: padding)
            for piece in ["\\n", "\\u00e9", "\\uD83D\\uDE0A", "é", "日", "🎉", "\\\""] {
                let text = "{\"\(pad)\(piece)\":\"\(pad)\(piece)\(pad)\",\"k\(pad)\":[\"\(piece)\(pad)\"]}"
                expectAgreement(Array(text.utf8))
            }
        }
    }

    @Test func longStringsKeepTheirLength() throws {
        for length in [65_534, 65_535, 65_536, 200_000] {
            let text = "[\"\(String(repeating: "é", count: length / 2))\(length % 2 == 1 ? "x" : "")\",1]"
            let document = try JSONReader().document(text)
            let string = try #require(document.root[0]?.stringValue)
            #expect(string.utf8.count == length)
            #expect(document.root[1]?.numberValue == 1)
            #expect(document.root.count == 2)
            expectAgreement(Array(text.utf8))
        }
        let longKey = String(repeating: "k", count: 70_000)
        expectAgreement(Array("{\"\(longKey)\":1,\"\(longKey)\":2}".utf8))
        expectAgreement(Array("{\"\(longKey)\":1,\"\(longKey)\":2}".utf8), rejectDuplicateKeys: true)
    }

    @Test func numbersAtTheInlineBoundaryStayExact() throws {
        for value: Int64 in [0, 1, -1, (1 << 55) - 1, 1 << 55, -(1 << 55), -(1 << 55) - 1, .max, .min] {
            let node = try JSONReader().document("\(value)").root
            #expect(node.numberValue?.int64Value == value)
            #expect(node.numberValue?.isInteger == true)
        }
        let double = try JSONReader().document("[-0.0, 0.30000000000000004, 5e-324]").root
        #expect(double[0]?.numberValue?.doubleValue.sign == .minus)
        #expect(double[1]?.numberValue?.doubleValue == 0.30000000000000004)
        #expect(double[2]?.numberValue?.doubleValue == Double.leastNonzeroMagnitude)
    }

    @Test func repeatedKeysReadAsTheTreeReadsThem() throws {
        let document = try JSONReader().document("{\"a\":1,\"b\":[2],\"a\":{\"c\":3}}")
        #expect(document.root["a"]?["c"]?.numberValue == 3)
        #expect(document.root.count == 3)
        #expect(document.root.members.map(\.key) == ["a", "b", "a"])
        #expect(document.value == ["a": ["c": 3], "b": [2]])
        #expect(document.value.objectValue?.keys == ["a", "b"])
        // Rejected at the repeated key's own offset.
        let error = #expect(throws: JSONReadError.self) {
            try JSONReader(rejectDuplicateKeys: true).document("{\"a\":1,\"b\":[2],\"a\":{}}")
        }
        #expect(error?.code == .duplicateKey)
        #expect(error?.offset == 15)
        // More than 128 distinct keys (the intern table's slots): keys compared by bytes.
        let many = (0..<300).map { "\"key-\($0)\":\($0)" }.joined(separator: ",")
        expectAgreement(Array("{\(many),\"key-7\":\"again\"}".utf8))
        expectAgreement(Array("{\(many),\"key-7\":\"again\"}".utf8), rejectDuplicateKeys: true)
        expectAgreement(Array("{\(many)}".utf8), rejectDuplicateKeys: true)
    }

    @Test func limitsAreTheReadersLimits() {
        let limits = JSONReader.Limits(maxBytes: 64, maxDepth: 3, maxStringBytes: 5, maxValues: 6)
        for text in [
            "[[[1]]]", "[[[[1]]]]", "\"abcde\"", "\"abcdef\"", "\"ab\\u00e9de\"", "[1,2,3,4,5]", "[1,2,3,4,5,6]",
            String(repeating: " ", count: 65) + "1",
        ] {
            expectAgreement(Array(text.utf8), limits: limits)
        }
    }

    @Test func deepNestingMaterializesWithoutRecursion() throws {
        let depth = 200_000
        let text = String(repeating: "[", count: depth) + "\"deep\"" + String(repeating: "]", count: depth)
        let document = try JSONReader(limits: JSONReader.Limits(maxDepth: depth)).document(text)
        var node = document.root
        for _ in 0..<depth { node = try #require(node[0]) }
        #expect(node.stringValue == "deep")
        // A part of it as a `JSONValue`, built without recursion (a shallower part: tearing a
        // `JSONValue` down recurses through its arrays).
        var part = document.root
        for _ in 0..<(depth - 1_000) { part = try #require(part.elements.first(where: { _ in true })) }
        var expected: JSONValue = "deep"
        for _ in 0..<1_000 { expected = [expected] }
        #expect(part.value == expected)
    }

    @Test func nodesKeepTheirDocumentAlive() throws {
        let node = try { () throws -> JSONNode? in
            let document = try JSONReader().document("{\"items\":[{\"title\":\"Álgebra\"},{\"title\":\"Física\"}]}")
            return document.root["items"]?[1]
        }()
        #expect(node?["title"]?.stringValue == "Física")
        #expect(node?["missing"] == nil)
        #expect(node?["title"]?["nested"] == nil)
        #expect(node?["title"]?[0] == nil)
        #expect(node?["title"]?.count == 0)
    }

    @Test func aListHoldsItsTapeAndItsStringsOnly() throws {
        let items = (0..<1_000).map { index in
            "{\"id\":\"mat-\(index)\",\"title\":\"Álgebra lineal \(index)\",\"grade\":\(index % 12),\"score\":\(Double(index) / 4)}"
        }
        let text = "{\"items\":[\(items.joined(separator: ","))],\"total\":1000}"
        let document = try JSONReader().document(text)
        // Keys are stored once however many objects repeat them.
        #expect(document.stringCount < text.utf8.count / 2)
        #expect(document.storageBytes < text.utf8.count * 2)
        #expect(document.root["items"]?.count == 1_000)
        #expect(document.root["items"]?[999]?["id"]?.stringValue == "mat-999")
        #expect(document.root["total"]?.numberValue == 1_000)
        expectAgreement(Array(text.utf8))
    }

    @Test func randomMutationsAgreeWithTheTree() throws {
        var generator = Xoshiro(seed: (0x70CE, 3, 1, 4))
        let interesting: [UInt8] = Array("{}[],:\"\\0123456789-+.eEtrufalsnu \n\t".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xE2, 0xFF]
        var accepted = 0
        for name in ["podcasts/theme.json", "podcasts/podcast_detail.json"] {
            let original = try [UInt8](Data(contentsOf: CatalogLocation.root.appendingPathComponent(name)))
            for _ in 0..<800 {
                let bytes = mutated(original, using: &generator, from: interesting)
                if (try? JSONReader().read(bytes)) != nil { accepted += 1 }
                expectAgreement(bytes)
                expectAgreement(bytes, rejectDuplicateKeys: true)
            }
        }
        #expect(accepted > 0)
    }
}
