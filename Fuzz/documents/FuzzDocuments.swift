import DynamicUIModels
import DynamicUIResolvers
import FuzzSupport

/// libFuzzer entry: any bytes decoded as each kind of document (screen, node, component
/// library, theme, navigation), from the tree and from a `JSONDocument` (which must agree),
/// and, when that works, compiled. Decoding and compiling either
/// succeed or throw their typed errors; a model that decodes must encode to JSON that decodes
/// to an equal model.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocuments(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 64, maxStringBytes: 1 << 16, maxValues: 100_000)
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let json = try? JSONReader(limits: limits).read(bytes), let document = try? JSONReader(limits: limits).document(bytes)
    else { return 0 }
    let modelLimits = ModelLimits(maxNodeDepth: 32, maxNodeCount: 2_000)
    if let screen = decoded(ScreenDefinition.self, json, document, limits: modelLimits) {
        roundTrip(screen, limits: modelLimits)
        _ = try? ScreenCompiler().compile(screen)
    }
    if let node = decoded(ViewNode.self, json, document, limits: modelLimits) {
        roundTrip(node, limits: modelLimits)
        _ = try? NodeCompiler().compile(node)
    }
    if let library = decoded(ComponentLibrary.self, json, document, limits: modelLimits) {
        _ = try? NodeCompiler().compile(library)
    }
    if let theme = decoded(Theme.self, json, document, limits: modelLimits) { roundTrip(theme, limits: modelLimits) }
    if let navigation = decoded(NavigationDefinition.self, json, document, limits: modelLimits) {
        roundTrip(navigation, limits: modelLimits)
    }
    if let patch = decoded(DocumentPatch.self, json, document, limits: modelLimits) {
        // A patch applies or throws its typed error, on each kind of document; a screen it
        // leaves must still be within the limits and compile or throw.
        roundTrip(patch, limits: modelLimits)
        if let patched = try? patchTargets.screen.applying(patch, limits: modelLimits) {
            _ = try? ScreenCompiler().compile(patched, reusing: patchTargets.compiled)
        }
        _ = try? patchTargets.node.applying(patch, limits: modelLimits)
        _ = try? patchTargets.data.applying(patch)
    }
    return 0
}

/// `T` decoded from the tree and from the document, which must agree: the same model, or the
/// same error at the same place.
func decoded<T: JSONModel>(_ type: T.Type, _ json: JSONValue, _ document: JSONDocument, limits: ModelLimits) -> T? {
    let fromTree = Result { () throws(ModelDecodingError) -> T in try T(json: json, limits: limits) }
    let fromNode = Result { () throws(ModelDecodingError) -> T in try T(node: document.root, limits: limits) }
    switch (fromTree, fromNode) {
    case (.success(let expected), .success(let model)):
        if model != expected { fatalError("\(T.self) from the document differs: \(model) ≠ \(expected)") }
        return expected
    case (.failure(let expected), .failure(let error)):
        if error != expected { fatalError("\(T.self) from the document failed with \(error), from the tree \(expected)") }
        return nil
    default:
        fatalError("\(T.self): the tree gave \(fromTree), the document \(fromNode)")
    }
}

/// The documents fuzzed patches are applied to: a screen with nested zones, slots and an item
/// layout, a node document, and data with records in nested arrays.
let patchTargets: (screen: ScreenDefinition, compiled: CompiledScreen?, node: ViewNode, data: JSONValue) = {
    let screen = try! ScreenDefinition(json: [
        "screen_id": "s", "screen_key": "k", "screen_name": "n", "pattern": "list", "version": 1, "updated_at": "",
        "actions": [],
        "template": [
            "zones": [
                ["id": "a", "type": "container", "slots": [["id": "s1", "control_type": "label", "label": "{data.x}"]]],
                [
                    "id": "b", "type": "simple-list", "item_layout": ["slots": [["id": "s2", "control_type": "list-item"]]],
                    "zones": [["id": "c", "type": "container", "slots": [["id": "s3", "control_type": "chip"]]]],
                ],
            ]
        ],
    ])
    let node = try! ViewNode(json: [
        "type": "vstack", "id": "root",
        "children": [["type": "text", "id": "t", "props": ["content": "x"]], ["type": "spacer", "id": "sp"]],
    ])
    let data: JSONValue = ["items": [["id": "r1", "nested": [["id": "r2"]]], ["id": 7]], "other": [["id": "r3"]]]
    return (screen, try? ScreenCompiler().compile(screen), node, data)
}()

/// A decoded model written back decodes to an equal model.
func roundTrip<Model: JSONModel & Equatable>(_ model: Model, limits: ModelLimits) {
    do {
        let again = try Model(json: model.json, limits: limits)
        if again != model { fatalError("\(Model.self) changed in a round trip:\n\(model)\n\(again)") }
    } catch {
        fatalError("\(Model.self) written back does not decode: \(error)")
    }
}

/// The executable's entry point (SwiftPM names it `fuzz_documents_main`): libFuzzer's driver on the target above.
@_cdecl("fuzz_documents_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzDocuments)
}
