/// What a libFuzzer target fuzzes: the bytes of one input.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer's driver on `target` with the process's arguments. Each fuzz executable's
/// entry point (SwiftPM names it `<target>_main`) calls this, since the targets are built with
/// `-parse-as-library` and have no `main` of their own.
public func runLibFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ target: FuzzTarget
) -> CInt {
    var argc = argc
    var argv = Optional(argv)
    return LLVMFuzzerRunDriver(&argc, &argv, target)
}

/// libFuzzer's driver (compiler-rt): parses the flags and fuzzes `callback`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTarget
) -> CInt
