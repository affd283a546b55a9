import DynamicUIModels
import DynamicUIResolvers
import FuzzSupport

/// libFuzzer entry: any bytes decoded as each kind of document (screen, node, component
/// library, theme, navigation) and, when that works, compiled. Decoding and compiling either
/// succeed or throw their typed errors; a model that decodes must encode to JSON that decodes
/// to an equal model.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocuments(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 64, maxStringBytes: 1 << 16, maxValues: 100_000)
    guard let json = try? JSONReader(limits: limits).read(UnsafeRawBufferPointer(start: start, count: count)) else { return 0 }
    let modelLimits = ModelLimits(maxNodeDepth: 32, maxNodeCount: 2_000)
    if let screen = try? ScreenDefinition(json: json, limits: modelLimits) {
        roundTrip(screen, limits: modelLimits)
        _ = try? ScreenCompiler().compile(screen)
    }
    if let node = try? ViewNode(json: json, limits: modelLimits) {
        roundTrip(node, limits: modelLimits)
        _ = try? NodeCompiler().compile(node)
    }
    if let library = try? ComponentLibrary(json: json, limits: modelLimits) {
        _ = try? NodeCompiler().compile(library)
    }
    if let theme = try? Theme(json: json, limits: modelLimits) { roundTrip(theme, limits: modelLimits) }
    if let navigation = try? NavigationDefinition(json: json, limits: modelLimits) { roundTrip(navigation, limits: modelLimits) }
    return 0
}

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
