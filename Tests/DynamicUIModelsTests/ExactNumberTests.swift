import PropertyBased
import Testing

@testable import DynamicUIModels

/// Every finite double the writer writes reads back as the same double, bit for bit (the sign
/// of zero included), in the tree and in the document, alone and inside containers.
@Suite("JSON numbers: written doubles read back exactly")
struct ExactNumberTests {
    /// The doubles at the edges: zeros, subnormals, the normal range's ends, powers of two and
    /// ten, sums that do not round to their decimal, integers beyond 2^53.
    static let edgeCases: [Double] = {
        var values: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
            -.leastNormalMagnitude, Double.leastNormalMagnitude.nextDown, Double.leastNormalMagnitude.nextUp,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, Double.greatestFiniteMagnitude.nextDown,
            0.1 + 0.2, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, .pi, -.pi, .ulpOfOne, 1 + .ulpOfOne, 1 - .ulpOfOne / 2,
            9_007_199_254_740_992, 9_007_199_254_740_994, 18_014_398_509_481_988, 9_223_372_036_854_775_808,
            -9_223_372_036_854_775_808, 18_446_744_073_709_551_616, 1e15, 1e15 - 1, -1e15, 1e15 + 2, 1e16, 1e21,
            1e22, 1e23, 2.2250738585072014e-308, 1.7976931348623157e308, Double(123_456_789_012_345_678 as Int64),
            Double(Int64.max), Double(Int64.min), Double(UInt64.max), 0.000_001, 1e-7, 123.456, -0.5, 0.5,
        ]
        for exponent in -1074...1023 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, -power, power.nextUp, power.nextDown]
        }
        for exponent in -323...308 {
            if let power = Double("1e\(exponent)") { values += [power, -power, power.nextUp, power.nextDown] }
        }
        return values.filter(\.isFinite)
    }()

    @Test func negativeZeroIsWrittenWithItsSign() throws {
        let text = JSONWriter().string(from: [.number(JSONNumber(-0.0)), .number(JSONNumber(0.0))])
        #expect(text == "[-0.0,0]")
        let read = try JSONReader().read(text)
        #expect(read[0]?.numberValue?.doubleValue.sign == .minus)
        #expect(read[1]?.numberValue?.doubleValue.sign == .plus)
        #expect(try JSONReader().document(text).root[0]?.numberValue?.doubleValue.sign == .minus)
    }

    @Test func edgeCasesReadBackExactly() throws {
        for value in Self.edgeCases {
            try expectRoundTrip(value)
        }
    }

    @Test func randomBitPatternsReadBackExactly() throws {
        var generator = Xoshiro(seed: (0xD0B1E, 0x5EED, 2, 53))
        var tried = 0
        while tried < 100_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            try expectRoundTrip(value)
            tried += 1
        }
        // Doubles near whole numbers and small magnitudes, where the writer picks integer text.
        for _ in 0..<20_000 {
            let scale = Double(sign: .plus, exponent: Int(generator.next() % 120) - 20, significand: 1)
            let value = (Double(Int64(bitPattern: generator.next()) >> 12) / 4096) * scale
            try expectRoundTrip(value)
            try expectRoundTrip(value.rounded())
        }
    }

    /// `value` written alone, in an array and in an object, read as a tree and as a document,
    /// is the same double; and the document's value written again is the same text.
    private func expectRoundTrip(_ value: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let writer = JSONWriter()
        let number = JSONValue.number(JSONNumber(value))
        let alone = writer.bytes(from: number)
        let nested = writer.bytes(from: ["n": [number, number]])
        let tree = try JSONReader().read(alone).numberValue?.doubleValue
        let nestedTree = try JSONReader().read(nested)["n"]?[1]?.numberValue?.doubleValue
        let document = try JSONReader().document(alone)
        let nestedDocument = try JSONReader().document(nested)
        let documentValue = document.root.numberValue?.doubleValue
        let nestedDocumentValue = nestedDocument.root["n"]?[1]?.numberValue?.doubleValue
        let text = String(decoding: alone, as: UTF8.self)
        for (path, read) in [
            ("tree", tree), ("nested tree", nestedTree), ("document", documentValue),
            ("nested document", nestedDocumentValue),
        ] {
            #expect(
                read?.bitPattern == value.bitPattern,
                "\(value) written as \(text) reads back as \(String(describing: read)) (\(path))",
                sourceLocation: sourceLocation)
        }
        #expect(writer.bytes(from: nestedDocument.value) == nested, "\(text)", sourceLocation: sourceLocation)
    }
}
