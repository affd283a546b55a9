import DynamicUIWeb
import Testing

@Suite("HTML escaping")
struct EscapeTests {
    /// The obvious, scalar-by-scalar escaping the fast byte-level one must equal.
    static func reference(_ text: String) -> String {
        let entities: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
        return text.unicodeScalars.map { scalar in
            if let entity = entities[scalar] { return entity }
            let isControl = scalar.value < 0x20 && scalar != "\n" && scalar != "\t"
            return isControl ? "&#xFFFD;" : String(scalar)
        }.joined()
    }

    @Test func equalsTheScalarByScalarReferenceOnHostileText() {
        let alphabet: [Character] = [
            "a", "Z", "&", "<", ">", "\"", "'", "\n", "\t", "\u{0}", "\u{1F}", "é", "€", "𝄞", "ñ", " ", "\u{7F}",
        ]
        var state: UInt64 = 0x5EED
        for length in 0..<40 {
            for _ in 0..<40 {
                let text = String(
                    (0..<length).map { _ in
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        return alphabet[Int(state >> 33) % alphabet.count]
                    })
                let escaped = HTMLRenderer.escape(text)
                // Byte for byte (`==` would excuse a canonically equivalent spelling), and a
                // string that hashes as the reference does.
                #expect(Array(escaped.utf8) == Array(Self.reference(text).utf8), "\(text.debugDescription)")
                #expect(escaped.hashValue == Self.reference(text).hashValue)
            }
        }
        #expect(HTMLRenderer.escape("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
        #expect(HTMLRenderer.escape("plain text, nothing to do") == "plain text, nothing to do")
    }
}
