/// Decimal to binary conversion of the reader's numbers, apart from the parser (which is
/// generic over its builder) so there is one copy of it.
enum DecimalConversion {
    /// The `Double` nearest to `significand` × 10^`exponent` (ties to even; infinity past the
    /// largest), by the Eisel–Lemire algorithm: the significand times a 128-bit 5^exponent
    /// (`PowersOfFive`) gives the answer's bits, and that product is always precise enough.
    static func nearestDouble(significand: UInt64, exponent: Int) -> Double {
        if significand == 0 || exponent < PowersOfFive.smallestExponent { return 0 }
        if exponent > PowersOfFive.largestExponent { return .infinity }
        let leadingZeros = significand.leadingZeroBitCount
        let normalized = significand << UInt64(leadingZeros)
        let index = 2 * (exponent - PowersOfFive.smallestExponent)
        var (high, low) = normalized.multipliedFullWidth(by: PowersOfFive.words[index])
        // The low bits of the top word all set: the truncated 5^q may have carried; add the
        // next 64 bits of the product.
        let precisionMask = UInt64.max >> 55
        if high & precisionMask == precisionMask {
            let second = normalized.multipliedFullWidth(by: PowersOfFive.words[index + 1]).high
            let (sum, carried) = low.addingReportingOverflow(second)
            low = sum
            if carried { high &+= 1 }
        }
        let upperBit = Int(high >> 63)
        var mantissa = high >> UInt64(upperBit + 9)
        // The binary exponent: floor(exponent × log2(10)) + 63, plus the bias.
        var power = ((217_706 * exponent) >> 16) + 63 + upperBit - leadingZeros + 1023
        if power <= 0 {
            // Subnormal (or zero): shifted into place, then rounded.
            if 1 - power >= 64 { return 0 }
            mantissa >>= UInt64(1 - power)
            mantissa += mantissa & 1
            mantissa >>= 1
            return Double(bitPattern: mantissa)
        }
        // Exactly between two doubles (only possible for small exponents): ties to even.
        if low <= 1, exponent >= -4, exponent <= 23, mantissa & 3 == 1, mantissa << UInt64(upperBit + 9) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power += 1
        }
        if power >= 0x7FF { return .infinity }
        return Double(bitPattern: UInt64(power) << 52 | mantissa & ~(1 << 52))
    }
}
