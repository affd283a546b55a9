import DynamicUIModels
import FuzzSupport

/// libFuzzer entry: any bytes through the JSON reader, as a tree and as a `JSONDocument` (the
/// same value, node by node, every array also as `ListItems`, or the same error). A document it accepts must write back to text
/// that reads as an equal value, and must read the same with duplicate keys rejected unless it
/// has one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJson(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 64, maxStringBytes: 1 << 16, maxValues: 100_000)
    let reader = JSONReader(limits: limits)
    let read = Result { () throws(JSONReadError) -> JSONValue in try reader.read(bytes) }
    let document = Result { () throws(JSONReadError) -> JSONDocument in try reader.document(bytes) }
    // The document reads exactly as the tree: the same value, or the same error at the same offset.
    switch (read, document) {
    case (.success(let value), .success(let document)):
        if document.value != value { fatalError("the document reads \(document.value), the tree \(value)") }
        agree(document.root, value)
    case (.failure(let expected), .failure(let error)):
        if error != expected { fatalError("the document failed with \(error), the tree with \(expected)") }
    default:
        fatalError("the tree read \(read), the document \(document)")
    }
    guard case .success(let value) = read else { return 0 }
    // Strings are made from what the reader validated, without a second check: an accepted text
    // must be valid UTF-8 by the standard library's own validator (outside strings a JSON text
    // is ASCII, so the whole input is checked).
    if String(validating: bytes, as: UTF8.self) == nil {
        fatalError("the reader accepted invalid UTF-8: \(Array(bytes))")
    }
    let written = JSONWriter().bytes(from: value)
    guard let again = try? JSONReader(limits: JSONReader.Limits(maxDepth: 64)).read(written) else {
        fatalError("written JSON does not read back: \(String(decoding: written, as: UTF8.self))")
    }
    if again != value { fatalError("round trip changed the value: \(value) → \(again)") }
    if let strict = try? JSONReader(limits: limits, rejectDuplicateKeys: true).read(bytes), strict != value {
        fatalError("strict reading changed the value")
    }
    // Every accessor on every number is safe.
    func visit(_ value: JSONValue) {
        switch value {
        case .number(let number):
            _ = (number.intValue, number.int64Value, number.doubleValue, number.description)
            _ = WireNumber.int(number.doubleValue)
            _ = WireNumber.sleepNanoseconds(seconds: number.doubleValue)
        case .array(let elements): elements.forEach(visit)
        case .object(let object): object.values.forEach(visit)
        default: break
        }
    }
    visit(value)
    return 0
}

/// Stops the process unless `node`, read through the node API alone, is `value`.
func agree(_ node: JSONNode, _ value: JSONValue) {
    switch value {
    case .null: if !node.isNull { fatalError("not null: \(node.value)") }
    case .bool(let bool): if node.boolValue != bool { fatalError("not \(bool): \(node.value)") }
    case .number(let number):
        if node.numberValue != number || node.numberValue?.isInteger != number.isInteger {
            fatalError("not \(number): \(node.value)")
        }
    case .string(let string):
        if node.withUTF8({ Array($0) }) != Array(string.utf8) { fatalError("not \(string): \(node.value)") }
    case .array(let elements):
        if node.count != elements.count { fatalError("not \(elements.count) elements: \(node.value)") }
        for (element, expected) in zip(node.elements, elements) { agree(element, expected) }
        // As list items read in place: each item, its `id`, and the items joined to built ones.
        guard let items = ListItems(array: node), items.count == elements.count, items.unbuiltCount == elements.count
        else { fatalError("list items of \(node.value)") }
        for index in items.indices where items[index] != elements[index] || items.member("id", at: index) != elements[index]["id"]
        {
            fatalError("item \(index) reads \(items[index]), the tree \(elements[index])")
        }
        let joined = ListItems([]) + items + ListItems(elements) + items
        if joined.values != elements + elements + elements || joined != ListItems(elements + elements + elements) {
            fatalError("joined items differ: \(joined.values)")
        }
        // A record patch applies in place as it applies to the built page (or fails the same way).
        for id in ["0", "1", "a", ""] {
            let patch = DocumentPatch(changes: [PatchChange(id: id, items: [["id": "fuzz"]])])
            let inPlace = Result { () throws(PatchError) -> [JSONValue] in try items.applying(patch).values }
            let built = Result { () throws(PatchError) -> [JSONValue] in
                try JSONValue.array(elements).applying(patch).arrayValue ?? []
            }
            if inPlace != built { fatalError("patching \(id) in place gave \(inPlace), the built page \(built)") }
        }
    case .object(let object):
        for (key, member) in object {
            guard let found = node[key] else { fatalError("member \(key) missing") }
            agree(found, member)
        }
        // The members in order, a repeated key where it was first written.
        var seen = Set<[UInt8]>()
        let keys = node.members.map { Array($0.key.utf8) }.filter { seen.insert($0).inserted }
        if keys != object.keys.map({ Array($0.utf8) }) { fatalError("members out of order: \(keys)") }
    }
}

/// The executable's entry point (SwiftPM names it `fuzz_json_main`): libFuzzer's driver on the target above.
@_cdecl("fuzz_json_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzJson)
}
