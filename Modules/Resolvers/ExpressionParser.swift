internal import DynamicUIModels

/// Recursive-descent parser of the expression grammar (see the module documentation). Works
/// on UTF-8 bytes; recursion is bounded by `ExpressionLimits.maxDepth`.
struct ExpressionParser {
    private let bytes: [UInt8]
    private let text: String
    private let limits: ExpressionLimits
    /// Offset of `bytes` inside the text reported in errors (for placeholders in a template).
    private let baseOffset: Int
    private var position = 0
    private var depth = 0

    init(_ text: Substring, limits: ExpressionLimits, reportedText: String? = nil, baseOffset: Int = 0) {
        self.bytes = Array(text.utf8)
        self.text = reportedText ?? String(text)
        self.limits = limits
        self.baseOffset = baseOffset
    }

    // MARK: Errors

    private func error(_ code: ExpressionError.Code, at offset: Int? = nil, _ message: String) -> ExpressionError {
        ExpressionError(code, offset: baseOffset + (offset ?? position), expression: text, message)
    }

    private func found() -> String {
        guard position < bytes.count else { return "the end" }
        let scalar = String(decoding: bytes[position..<min(bytes.count, position + 4)], as: UTF8.self).prefix(1)
        return "'\(scalar)'"
    }

    // MARK: Entry points

    /// Parses a whole expression and requires the end of input after it.
    mutating func parseExpression() throws(ExpressionError) -> DynamicExpression {
        if bytes.count > limits.maxLength {
            throw error(.limitExceeded, at: limits.maxLength, "expression longer than \(limits.maxLength) bytes")
        }
        let expression = try parseOr()
        skipWhitespace()
        guard position == bytes.count else {
            throw error(.syntax, "expected an operator or the end, found \(found())")
        }
        return expression
    }

    /// Parses a path only (a slot's `field`, a `binding`), relative or scoped.
    mutating func parsePath(root: PathExpression.Root) throws(ExpressionError) -> PathExpression {
        if bytes.count > limits.maxLength {
            throw error(.limitExceeded, at: limits.maxLength, "path longer than \(limits.maxLength) bytes")
        }
        skipWhitespace()
        var components: [JSONLocation.Component] = []
        var resolvedRoot = root
        if peek() == UInt8(ascii: "$") {
            position += 1
            resolvedRoot = .scoped
            components = try parseComponents()
        } else if let first = readIdentifierOrDigits() {
            components = [.key(first)] + (try parseComponents())
        } else if peek() == UInt8(ascii: "[") {
            // A first key that is not a name (`['first name'].x`), as a relative path prints it.
            components = try parseComponents()
        } else {
            throw error(.syntax, "expected a path, found \(found())")
        }
        skipWhitespace()
        guard position == bytes.count else { throw error(.syntax, "expected the end of the path, found \(found())") }
        return PathExpression(root: resolvedRoot, components: components)
    }

    // MARK: Grammar

    // Each `||` or `&&` of a chain nests the tree one level deeper (`a || b || c` is
    // `(a || b) || c`), so it counts against `maxDepth` like a parenthesis: a long chain is a
    // limit error, not a tree deep enough to exhaust the stack when evaluated or compared.

    private mutating func parseOr() throws(ExpressionError) -> DynamicExpression {
        try parseChain("||", DynamicExpression.or) { parser throws(ExpressionError) in try parser.parseAnd() }
    }

    private mutating func parseAnd() throws(ExpressionError) -> DynamicExpression {
        try parseChain("&&", DynamicExpression.and) { parser throws(ExpressionError) in try parser.parseUnary() }
    }

    /// `operand (op operand)*`, nested to the left with `combine`.
    private mutating func parseChain(
        _ op: StaticString, _ combine: (DynamicExpression, DynamicExpression) -> DynamicExpression,
        operand: (inout ExpressionParser) throws(ExpressionError) -> DynamicExpression
    ) throws(ExpressionError) -> DynamicExpression {
        var lhs = try operand(&self)
        let outer = depth
        defer { depth = outer }
        while matchOperator(op) {
            try enter()
            lhs = combine(lhs, try operand(&self))
        }
        return lhs
    }

    private mutating func parseUnary() throws(ExpressionError) -> DynamicExpression {
        skipWhitespace()
        if peek() == UInt8(ascii: "!"), peek(1) != UInt8(ascii: "=") {
            try enter()
            defer { depth -= 1 }
            position += 1
            return .not(try parseUnary())
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(ExpressionError) -> DynamicExpression {
        let lhs = try parsePipe()
        guard let op = matchComparison() else { return lhs }
        let rhs = try parsePipe()
        if matchComparison() != nil {
            throw error(.syntax, "comparisons do not chain; add parentheses or '&&'")
        }
        return .compare(op, lhs, rhs)
    }

    private mutating func parsePipe() throws(ExpressionError) -> DynamicExpression {
        let base = try parsePrimary()
        var transforms: [Transform] = []
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "|"), peek(1) != UInt8(ascii: "|") else { break }
            position += 1
            if transforms.count == limits.maxTransforms {
                throw error(.limitExceeded, "more than \(limits.maxTransforms) transforms in one pipe")
            }
            transforms.append(try parseTransform())
        }
        return transforms.isEmpty ? base : .pipe(base, transforms)
    }

    private mutating func parsePrimary() throws(ExpressionError) -> DynamicExpression {
        skipWhitespace()
        guard let byte = peek() else { throw error(.syntax, "expected a value, a path or '(', found the end") }
        switch byte {
        case UInt8(ascii: "("):
            try enter()
            defer { depth -= 1 }
            position += 1
            let inner = try parseOr()
            skipWhitespace()
            guard peek() == UInt8(ascii: ")") else { throw error(.syntax, "expected ')', found \(found())") }
            position += 1
            return inner
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return .literal(.string(try parseQuoted()))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .literal(.number(try parseNumber()))
        case UInt8(ascii: "$"):
            position += 1
            return .path(PathExpression(root: .scoped, components: try parseComponents()))
        default:
            guard let name = readIdentifier() else {
                throw error(.syntax, "expected a value, a path or '(', found \(found())")
            }
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                return .path(PathExpression(root: .scoped, components: [.key(name)] + (try parseComponents())))
            }
        }
    }

    private mutating func parseComponents() throws(ExpressionError) -> [JSONLocation.Component] {
        var components: [JSONLocation.Component] = []
        while let byte = peek() {
            if byte == UInt8(ascii: ".") {
                position += 1
                guard let key = readIdentifierOrDigits() else {
                    throw error(.syntax, "expected a name after '.', found \(found())")
                }
                components.append(.key(key))
            } else if byte == UInt8(ascii: "[") {
                position += 1
                skipWhitespace()
                if let next = peek(), next == UInt8(ascii: "'") || next == UInt8(ascii: "\"") {
                    components.append(.key(try parseQuoted()))
                } else {
                    let start = position
                    while let digit = peek(), isDigit(digit) { position += 1 }
                    guard position > start, let index = Int(String(decoding: bytes[start..<position], as: UTF8.self)) else {
                        throw error(.syntax, "expected an index or a quoted key after '[', found \(found())")
                    }
                    components.append(.index(index))
                }
                skipWhitespace()
                guard peek() == UInt8(ascii: "]") else { throw error(.syntax, "expected ']', found \(found())") }
                position += 1
            } else {
                break
            }
        }
        return components
    }

    private mutating func parseTransform() throws(ExpressionError) -> Transform {
        skipWhitespace()
        let start = position
        var name: String
        if peek() == UInt8(ascii: "!") {
            position += 1
            name = "!" + (readIdentifier() ?? "")
        } else {
            guard let identifier = readIdentifier() else {
                throw error(.syntax, "expected a transform name after '|', found \(found())")
            }
            name = identifier
        }
        var argument: Argument?
        if peek() == UInt8(ascii: ":") {
            position += 1
            argument = try parseArgument()
        }
        func requireNoArgument(_ transform: Transform) throws(ExpressionError) -> Transform {
            if argument != nil { throw error(.invalidArgument, at: start, "'\(name)' takes no argument") }
            return transform
        }
        func requireText() throws(ExpressionError) -> String {
            guard let argument else { throw error(.invalidArgument, at: start, "'\(name)' needs an argument, as in '\(name):…'") }
            return argument.text
        }
        switch name {
        case "date": return .date(try requireText())
        // Without a format, as a player shows a length: `42:07`, or `1:28:53` past an hour.
        case "duration": return .duration(argument?.text ?? "")
        case "join": return .join(argument?.text ?? ", ")
        case "default":
            guard let argument else { throw error(.invalidArgument, at: start, "'default' needs a value, as in 'default:0'") }
            return .defaultValue(argument.isQuoted ? .string(argument.text) : Self.literal(fromRaw: argument.text))
        case "truncate":
            let raw = try requireText().trimmingSpaces()
            guard let length = Int(raw), length >= 0 else {
                throw error(.invalidArgument, at: start, "'truncate' needs a whole number ≥ 0, found '\(raw)'")
            }
            return .truncate(length)
        case "uppercase": return try requireNoArgument(.uppercase)
        case "lowercase": return try requireNoArgument(.lowercase)
        case "count": return try requireNoArgument(.count)
        case "exists": return try requireNoArgument(.exists)
        case "empty": return try requireNoArgument(.empty)
        case "!empty": return try requireNoArgument(.notEmpty)
        default:
            throw error(
                .unknownTransform, at: start,
                "unknown transform '\(name)'; known: \(Transform.names.joined(separator: ", "))")
        }
    }

    private struct Argument {
        var text: String
        var isQuoted: Bool
    }

    /// A quoted argument, or raw text up to the next `|` (or an unbalanced `)` inside
    /// parentheses). White space before a following `|` or `)` is padding and dropped; at the
    /// end of the expression the argument is kept as written.
    private mutating func parseArgument() throws(ExpressionError) -> Argument {
        if let byte = peek(), byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
            return Argument(text: try parseQuoted(), isQuoted: true)
        }
        let start = position
        while let byte = peek() {
            if byte == UInt8(ascii: "|") || (depth > 0 && byte == UInt8(ascii: ")")) { break }
            position += 1
        }
        var end = position
        if position < bytes.count {
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        }
        return Argument(text: String(decoding: bytes[start..<end], as: UTF8.self), isQuoted: false)
    }

    /// A number, `true`, `false` or `null` when `raw` is exactly one; otherwise the string.
    static func literal(fromRaw raw: String) -> JSONValue {
        switch raw {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            if let first = raw.utf8.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39),
                case .number(let number)? = try? JSONReader().read(raw)
            {
                return .number(number)
            }
            return .string(raw)
        }
    }

    // MARK: Tokens

    private mutating func enter() throws(ExpressionError) {
        depth += 1
        if depth > limits.maxDepth {
            throw error(.limitExceeded, "nested more than \(limits.maxDepth) deep")
        }
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func matchOperator(_ op: StaticString) -> Bool {
        skipWhitespace()
        let length = op.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[position + offset] != op.utf8Start[offset] { return false }
        position += length
        return true
    }

    private mutating func matchComparison() -> ComparisonOperator? {
        skipWhitespace()
        guard let first = peek() else { return nil }
        let second = peek(1)
        switch (first, second) {
        case (UInt8(ascii: "="), UInt8(ascii: "=")): position += 2; return .equal
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): position += 2; return .notEqual
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): position += 2; return .lessOrEqual
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): position += 2; return .greaterOrEqual
        case (UInt8(ascii: "<"), _): position += 1; return .less
        case (UInt8(ascii: ">"), _): position += 1; return .greater
        default: return nil
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private mutating func readIdentifier() -> String? {
        guard let first = peek(), isIdentifierStart(first) else { return nil }
        let start = position
        while let byte = peek(), isIdentifierStart(byte) || isDigit(byte) || byte == UInt8(ascii: "-") { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func readIdentifierOrDigits() -> String? {
        if let first = peek(), isDigit(first) {
            let start = position
            while let byte = peek(), isDigit(byte) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
        return readIdentifier()
    }

    private mutating func parseQuoted() throws(ExpressionError) -> String {
        let start = position
        let quote = bytes[position]
        position += 1
        var result: [UInt8] = []
        while let byte = peek() {
            position += 1
            if byte == quote { return String(decoding: result, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = peek() else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "u"):
                    guard peek() == UInt8(ascii: "{") else { throw error(.syntax, "expected '{' after \\u") }
                    position += 1
                    let hexStart = position
                    while let digit = peek(), digit != UInt8(ascii: "}") { position += 1 }
                    guard peek() == UInt8(ascii: "}"),
                        let value = UInt32(String(decoding: bytes[hexStart..<position], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(value)
                    else { throw error(.syntax, at: hexStart, "expected a Unicode scalar in hexadecimal, as in \\u{e9}") }
                    position += 1
                    result.append(contentsOf: Array(String(scalar).utf8))
                default: result.append(escaped)
                }
            } else {
                result.append(byte)
            }
        }
        throw error(.syntax, at: start, "unterminated string")
    }

    private mutating func parseNumber() throws(ExpressionError) -> JSONNumber {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        while let byte = peek(),
            isDigit(byte) || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && bytes[position - 1] | 0x20 == UInt8(ascii: "e"))
        {
            position += 1
        }
        let literal = bytes[start..<position]
        guard case .number(let number)? = try? JSONReader().read(Array(literal)) else {
            throw error(.syntax, at: start, "invalid number '\(String(decoding: literal, as: UTF8.self))'")
        }
        return number
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
