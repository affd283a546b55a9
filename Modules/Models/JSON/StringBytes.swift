extension String {
    /// A string of `bytes` the reader has already validated as UTF-8 (no overlongs, no
    /// surrogates, nothing above U+10FFFF), made without validating them a second time.
    ///
    /// `String(decoding:as:)` checks every byte again and repairs what it finds broken: a
    /// third of the instructions of a non-ASCII string. Where the standard library has
    /// `UTF8Span` (built with Swift 6.2 or later; on Linux, or Apple's OS 26 releases) the
    /// string is copied as it is, marked ASCII when it is, as the standard library itself marks
    /// it; elsewhere `String(decoding:as:)` does the work. Only bytes known to be valid may come
    /// here: a `JSONDocument`'s string buffer, the reader's validated input, or whole strings'
    /// bytes joined (a template's rendering).
    @inline(__always)
    package init(validatedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        // Swift 6.1 (the package's tools version) has no `UTF8Span`: it validates.
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                let span = UTF8Span(unchecked: bytes.span, isKnownASCII: ValidatedUTF8.isASCII(bytes))
                self = String(copying: span)
            } else {
                self = String(decoding: bytes, as: UTF8.self)
            }
        #else
            self = String(decoding: bytes, as: UTF8.self)
        #endif
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, borrowed in place: `withUTF8` is mutating,
    /// and copying a string to call it costs a retain and a release of its storage, on every key
    /// a decoder looks up. A bridged string without contiguous bytes is copied.
    @inline(__always)
    package func withBorrowedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}

/// Helpers for text the reader has validated.
enum ValidatedUTF8 {
    /// Whether every byte is below 0x80, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let count = bytes.count
        let raw = UnsafeRawPointer(start)
        var index = 0
        var high: UInt64 = 0
        while index &+ 8 <= count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < count {
            high |= UInt64(start[index])
            index &+= 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
