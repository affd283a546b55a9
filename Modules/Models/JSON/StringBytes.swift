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
    /// Whether every byte is below 0x80, never reading past `count`: from eight bytes, a word at a
    /// time, stopping at the first word with a byte above, the last word overlapping the one
    /// before; four to seven bytes as their first four and last four; fewer, a byte at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let count = bytes.count
        let raw = UnsafeRawPointer(start)
        if count >= 8 {
            var index = 0
            while index &+ 8 < count {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                    return false
                }
                index &+= 8
            }
            return raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        }
        if count >= 4 {
            let words =
                raw.loadUnaligned(as: UInt32.self) | raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            return words & 0x8080_8080 == 0
        }
        var high: UInt8 = 0
        for index in 0..<count { high |= start[index] }
        return high & 0x80 == 0
    }
}

/// Multi-byte UTF-8 characters validated eight bytes at a time, for the reader's string scan.
enum UTF8Words {
    /// The eight bytes at `pointer`, the first in the lowest byte.
    @inline(__always)
    static func word(at pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Whether the eight bytes of `word` (first byte lowest) are four two-byte characters: each
    /// lead C2–DF (110xxxxx, not the overlong C0 or C1), each continuation 10xxxxxx.
    @inline(__always)
    static func isFourTwoByteCharacters(_ word: UInt64) -> Bool {
        guard word & 0xC0E0_C0E0_C0E0_C0E0 == 0x80C0_80C0_80C0_80C0 else { return false }
        // A lead with none of the bits 0x1E set is C0 or C1; adding 0xFF to each lead's bits
        // carries into bit 8 of its 16-bit lane exactly when one is set.
        let leadBits = word & 0x001E_001E_001E_001E
        return (leadBits &+ 0x00FF_00FF_00FF_00FF) & 0x0100_0100_0100_0100 == 0x0100_0100_0100_0100
    }

    /// Whether the first six bytes of `word` (first byte lowest) are two three-byte characters:
    /// each lead 1110xxxx, each continuation 10xxxxxx, and each second byte in its lead's range.
    @inline(__always)
    static func isTwoThreeByteCharacters(_ word: UInt64) -> Bool {
        guard word & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 else { return false }
        return isValidSecond(UInt8(truncatingIfNeeded: word &>> 8), afterThreeByteLead: UInt8(truncatingIfNeeded: word))
            && isValidSecond(
                UInt8(truncatingIfNeeded: word &>> 32), afterThreeByteLead: UInt8(truncatingIfNeeded: word &>> 24))
    }

    /// Whether `second`, a continuation byte (10xxxxxx), may follow `lead`, which the caller knows
    /// is a three-byte lead (1110xxxx): A0–BF after E0 (no overlong), 80–9F after ED (no
    /// surrogate), any after the rest. (For any other lead the answer means nothing.)
    @inline(__always)
    static func isValidSecond(_ second: UInt8, afterThreeByteLead lead: UInt8) -> Bool {
        // Bit 2n + h is clear only for E0 with h = 0 (second byte 80–9F) and ED with h = 1
        // (A0–BF), where n is the lead's low nibble and h bit 5 of the second byte.
        let index = UInt32(lead & 0x0F) &<< 1 | UInt32(second &>> 5) & 1
        return (0xF7FF_FFFE as UInt32) &>> index & 1 != 0
    }
}

/// Byte comparison of object keys, shared by the reader's key table and a document's key search.
enum KeyBytes {
    /// Whether `count` bytes at `lhs` and `rhs` are equal: eight at a time, the last eight (or
    /// four, or two) as one overlapping load, never past `count` (keys are short; a call to
    /// `memcmp` costs more than they do).
    @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                {
                    return false
                }
                offset &+= 8
            }
            // The last eight bytes, overlapping those compared already.
            return left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
                && left.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == right.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        if count >= 2 {
            return left.loadUnaligned(as: UInt16.self) == right.loadUnaligned(as: UInt16.self)
                && lhs[count &- 1] == rhs[count &- 1]
        }
        return count == 0 || lhs[0] == rhs[0]
    }
}
