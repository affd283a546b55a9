/// A QR code (ISO/IEC 18004, byte mode, error correction M) of a short text: the address
/// `sdui serve --lan` prints, so a phone's camera opens it. Versions 1 to 10 (up to 213 bytes).
public struct QRCode: Sendable, Hashable {
    /// Modules per side.
    public let size: Int
    /// The version chosen (1–10): the smallest that holds the text.
    public let version: Int
    /// The mask chosen (0–7): the one with the lowest penalty.
    public private(set) var mask = 0
    /// Dark modules, row by row (`modules[y * size + x]`).
    private var modules: [Bool]
    private var isFunction: [Bool]

    /// The most bytes of ASCII a code holds (text beyond ASCII holds one less).
    public static let capacity = 213

    /// The code of `text`; `nil` when it is longer than `capacity` bytes.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        // Text beyond ASCII says it is UTF-8 (ECI 26), so readers do not guess another charset.
        let eciBits = bytes.allSatisfy { $0 < 0x80 } ? 0 : 12
        guard
            let version = (1...10).first(where: {
                Self.dataCodewords($0) * 8 >= eciBits + 4 + Self.countBits($0) + bytes.count * 8
            })
        else { return nil }
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = modules
        drawFunctionPatterns()
        let codewords = Self.interleaved(Self.dataBits(bytes, version: version, utf8: eciBits > 0), version: version)
        drawCodewords(codewords)
        var best = (mask: 0, penalty: Int.max)
        for mask in 0..<8 {
            applyMask(mask)
            drawFormatBits(mask: mask)
            let penalty = self.penalty()
            if penalty < best.penalty { best = (mask, penalty) }
            applyMask(mask)  // masking twice undoes it
        }
        mask = best.mask
        applyMask(best.mask)
        drawFormatBits(mask: best.mask)
    }

    /// Whether the module at column `x`, row `y` is dark; outside the code, light (the quiet zone).
    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// The code for a terminal, two rows of modules per line with a quiet zone of `quiet`
    /// modules: with ANSI colours (black on white, whatever the terminal's own colours), or, for
    /// text without escapes, light modules as `█` (read on a dark background).
    public func terminalText(ansi: Bool, quiet: Int = 2) -> String {
        var lines: [String] = []
        for y in stride(from: -quiet, to: size + quiet, by: 2) {
            var line = ""
            for x in -quiet..<(size + quiet) {
                let top = isDark(x: x, y: y)
                let bottom = y + 1 < size + quiet && isDark(x: x, y: y + 1)
                if ansi {
                    // The upper half takes the foreground colour, the lower half the background.
                    line += "\u{1B}[\(top ? 30 : 97);\(bottom ? 40 : 107)m▀"
                } else {
                    switch (top, bottom) {
                    case (false, false): line += "█"
                    case (false, true): line += "▀"
                    case (true, false): line += "▄"
                    case (true, true): line += " "
                    }
                }
            }
            lines.append(ansi ? line + "\u{1B}[0m" : line)
        }
        return lines.joined(separator: "\n")
    }

    /// The code as a binary PGM image (`P5`), `scale` pixels per module and a quiet zone of four.
    public func pgm(scale: Int = 4) -> [UInt8] {
        let scale = min(max(scale, 1), 32)
        let side = (size + 8) * scale
        var image = Array("P5\n\(side) \(side)\n255\n".utf8)
        image.reserveCapacity(image.count + side * side)
        for row in 0..<side {
            for column in 0..<side {
                image.append(isDark(x: column / scale - 4, y: row / scale - 4) ? 0 : 255)
            }
        }
        return image
    }

    // MARK: Function patterns

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions()
        for (i, y) in positions.enumerated() {
            for (j, x) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0)  // reserves the area; drawn again once the mask is chosen
        drawVersion()
    }

    private func alignmentPositions() -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result: [Int] = []
        var position = size - 7
        for _ in 0..<(count - 1) {
            result.insert(position, at: 0)
            position -= step
        }
        return [6] + result
    }

    private mutating func drawFormatBits(mask: Int) {
        // Level M is 00; the five data bits carry a BCH(15,5) code, masked with 0x5412.
        let data = mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = ((data << 10) | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 != 0 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = (version << 12) | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 != 0
            let a = size - 11 + index % 3
            let b = index / 3
            set(a, b, dark)
            set(b, a, dark)
        }
    }

    // MARK: Data

    /// Error-correction codewords per block, and blocks, of level M for versions 1–10.
    private static let eccPerBlock = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
    private static let blocks = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]

    private static func rawModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let count = version / 7 + 2
            result -= (25 * count - 10) * count - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    private static func dataCodewords(_ version: Int) -> Int {
        rawModules(version) / 8 - eccPerBlock[version] * blocks[version]
    }

    private static func countBits(_ version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// ECI when needed, mode, count, bytes, terminator and padding, as codewords.
    private static func dataBits(_ bytes: [UInt8], version: Int, utf8: Bool) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> index) & 1 != 0) }
        }
        if utf8 {
            append(0b0111, 4)
            append(26, 8)
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version))
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCodewords(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 << 1 | (bits[start + $1] ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// The data split into blocks, each with its Reed–Solomon codewords, interleaved.
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let count = blocks[version]
        let ecc = eccPerBlock[version]
        let raw = rawModules(version) / 8
        let shortBlocks = count - raw % count
        let shortLength = raw / count
        let divisor = reedSolomonDivisor(degree: ecc)
        var split: [[UInt8]] = []
        var offset = 0
        for index in 0..<count {
            let length = shortLength - ecc + (index < shortBlocks ? 0 : 1)
            var block = Array(data[offset..<(offset + length)])
            offset += length
            let remainder = reedSolomonRemainder(block, divisor: divisor)
            if index < shortBlocks { block.append(0) }
            split.append(block + remainder)
        }
        var result: [UInt8] = []
        for column in 0..<split[0].count {
            for (index, block) in split.enumerated() where column != shortLength - ecc || index >= shortBlocks {
                result.append(block[column])
            }
        }
        return result
    }

    private static func reedSolomonDivisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    private static func reedSolomonRemainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }

    /// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1.
    private static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product = 0
        for index in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= Int((y >> UInt8(index)) & 1) * Int(x)
        }
        return UInt8(product & 0xFF)
    }

    private mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y * size + x], index < codewords.count * 8 else { continue }
                    modules[y * size + x] = (codewords[index >> 3] >> UInt8(7 - index & 7)) & 1 != 0
                    index += 1
                }
            }
            right -= 2
        }
    }

    // MARK: Masks

    private mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if invert { modules[y * size + x].toggle() }
            }
        }
    }

    /// The standard's penalty: long runs, 2×2 blocks, finder-like patterns, dark imbalance.
    private func penalty() -> Int {
        var result = 0
        let finderLike: [Bool] = [true, false, true, true, true, false, true]
        for horizontal in [true, false] {
            for line in 0..<size {
                let cells = (0..<size).map { horizontal ? isDark(x: $0, y: line) : isDark(x: line, y: $0) }
                var run = 1
                for index in 1...size {
                    if index < size, cells[index] == cells[index - 1] {
                        run += 1
                    } else {
                        if run >= 5 { result += run - 2 }
                        run = 1
                    }
                }
                for start in 0...(size - 7) where Array(cells[start..<(start + 7)]) == finderLike {
                    let before = (max(0, start - 4)..<start).allSatisfy { !cells[$0] } && start >= 4
                    let after = (start + 7..<min(size, start + 11)).allSatisfy { !cells[$0] } && start + 11 <= size
                    if before || after { result += 40 }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let dark = isDark(x: x, y: y)
                if dark == isDark(x: x + 1, y: y), dark == isDark(x: x, y: y + 1), dark == isDark(x: x + 1, y: y + 1) {
                    result += 3
                }
            }
        }
        let darkCount = modules.filter { $0 }.count
        let total = size * size
        result += (abs(darkCount * 20 - total * 10) + total - 1) / total * 10 - 10
        return result
    }
}
