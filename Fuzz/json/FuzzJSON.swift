import DynamicUIModels
import FuzzSupport

/// libFuzzer entry: any bytes through the JSON reader. A document it accepts must write back
/// to text that reads as an equal value, and must read the same with duplicate keys rejected
/// unless it has one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJson(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 64, maxStringBytes: 1 << 16, maxValues: 100_000)
    guard let value = try? JSONReader(limits: limits).read(bytes) else { return 0 }
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

/// The executable's entry point (SwiftPM names it `fuzz_json_main`): libFuzzer's driver on the target above.
@_cdecl("fuzz_json_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzJson)
}
