public import DynamicUIModels

/// Which placeholder roots and members are known, so unknown placeholders can be reported
/// at compile time and rendered by policy.
public struct PlaceholderVocabulary: Sendable, Hashable {
    /// Root names a placeholder may start with.
    public var roots: Set<String>
    /// For roots with a fixed shape, the members they have (`user` → `firstName`, …).
    public var members: [String: Set<String>]

    /// Creates a vocabulary.
    public init(roots: Set<String>, members: [String: Set<String>] = [:]) {
        self.roots = roots
        self.members = members
    }

    /// The screen dialect's vocabulary.
    public static let screen = PlaceholderVocabulary(
        roots: DataContext.screenRootNames,
        members: [
            "user": ["id", "firstName", "lastName", "email", "fullName"],
            "context": ["role", "roleName", "schoolId", "schoolName", "academicUnitId", "academicUnitName"],
            "today_date": [], "current_year": [],
        ])

    /// Whether `path` only uses known roots and members.
    public func knows(_ path: PathExpression) -> Bool {
        guard path.root == .scoped, let root = path.rootName, roots.contains(root) else { return false }
        guard let known = members[root] else { return true }
        guard path.components.count > 1 else { return true }
        if case .key(let member) = path.components[1] { return known.contains(member) }
        return false
    }
}

/// How a placeholder the vocabulary does not know is rendered.
public enum UnknownPlaceholderPolicy: Sendable, Hashable {
    /// As written, braces included (`{foo}`): visible, so authors notice.
    case keepVerbatim
    /// As an empty string.
    case empty
}

/// Text with `{placeholder}` expressions, compiled once. `{{` and `}}` write
/// literal braces; a placeholder holds any expression, transforms included
/// (`{item.created_at | date:d MMM}`).
public struct TextTemplate: Sendable, Hashable, CustomStringConvertible {
    /// A piece of the text.
    public enum Segment: Sendable, Hashable {
        /// Literal text.
        case text(String)
        /// A placeholder.
        case expression(DynamicExpression)
        /// A placeholder whose root or member the vocabulary does not know, as written.
        case unknown(String)
    }

    /// The pieces in order.
    public let segments: [Segment]

    /// Creates a template from pieces.
    public init(segments: [Segment]) { self.segments = segments }

    /// Whether the text has no placeholders.
    public var isConstant: Bool { segments.allSatisfy { if case .text = $0 { true } else { false } } }

    /// The placeholders the vocabulary did not know, as written.
    public var unknownPlaceholders: [String] {
        segments.compactMap { if case .unknown(let raw) = $0 { raw } else { nil } }
    }

    /// Compiles `text`.
    public static func compile(
        _ text: String, vocabulary: PlaceholderVocabulary = .screen, limits: ExpressionLimits = .default
    ) throws(ExpressionError) -> TextTemplate {
        if text.utf8.count > limits.maxLength {
            throw ExpressionError(
                .limitExceeded, offset: limits.maxLength, expression: text, "text longer than \(limits.maxLength) bytes")
        }
        // Text without a brace is one literal (most labels and values): no walk by characters.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            return TextTemplate(segments: text.isEmpty ? [] : [.text(text)])
        }
        // The walk is by UTF-8 byte: a brace or a quote followed by a combining mark is one
        // `Character` but still a brace or a quote. Every byte it stops at is ASCII, so each
        // slice it takes is whole scalars.
        let utf8 = text.utf8
        var segments: [Segment] = []
        var literal = ""
        var literalStart = utf8.startIndex
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") else {
                utf8.formIndex(after: &index)
                continue
            }
            appendLiteral(text.unicodeScalars[literalStart..<index], to: &literal)
            let next = utf8.index(after: index)
            if next < utf8.endIndex, utf8[next] == byte {
                literal.append(byte == UInt8(ascii: "{") ? "{" : "}")
                index = utf8.index(after: next)
                literalStart = index
                continue
            }
            guard byte == UInt8(ascii: "{") else {
                let offset = utf8.distance(from: utf8.startIndex, to: index)
                throw ExpressionError(.syntax, offset: offset, expression: text, "unmatched '}'; write '}}' for a literal brace")
            }
            let close = try closingBrace(in: text, from: next)
            let offset = utf8.distance(from: utf8.startIndex, to: next)
            var parser = ExpressionParser(
                Substring(text.unicodeScalars[next..<close]), limits: limits, reportedText: text, baseOffset: offset)
            let expression = try parser.parseExpression()
            if !literal.isEmpty {
                segments.append(.text(literal))
                literal = ""
            }
            index = utf8.index(after: close)
            literalStart = index
            if expression.paths.allSatisfy(vocabulary.knows) {
                segments.append(.expression(expression))
            } else {
                segments.append(.unknown(String(text.unicodeScalars[utf8.index(before: next)..<index])))
            }
        }
        appendLiteral(text.unicodeScalars[literalStart..<utf8.endIndex], to: &literal)
        if !literal.isEmpty { segments.append(.text(literal)) }
        return TextTemplate(segments: segments)
    }

    /// Appends a run of literal text (whole scalars) to `literal`: made from the run alone when
    /// `literal` is empty (one allocation at its size, none for a short run).
    @inline(__always)
    private static func appendLiteral(_ run: Substring.UnicodeScalarView, to literal: inout String) {
        guard !run.isEmpty else { return }
        if literal.isEmpty {
            literal = String(run)
        } else {
            literal.append(contentsOf: Substring(run))
        }
    }

    /// The `}` closing a placeholder whose content starts at `start`, skipping quoted strings
    /// (a backslash in one escapes the byte after it). Walks by UTF-8 byte.
    private static func closingBrace(in text: String, from start: String.Index) throws(ExpressionError) -> String.Index {
        let utf8 = text.utf8
        var index = start
        var quote: UInt8?
        while index < utf8.endIndex {
            let byte = utf8[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") {
                    utf8.formIndex(after: &index)
                    if index == utf8.endIndex { break }
                } else if byte == open {
                    quote = nil
                }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "}") {
                if index == start {
                    let offset = utf8.distance(from: utf8.startIndex, to: index)
                    throw ExpressionError(.syntax, offset: offset, expression: text, "empty placeholder '{}'")
                }
                return index
            }
            utf8.formIndex(after: &index)
        }
        let offset = utf8.distance(from: utf8.startIndex, to: start) - 1
        throw ExpressionError(
            .syntax, offset: offset, expression: text, "unterminated placeholder; write '{{' for a literal brace")
    }

    /// The text with every placeholder evaluated in `context`.
    ///
    /// Placeholder values are evaluated into a stack buffer first, so the output string is
    /// allocated once at its exact size; literal text is read in place, never copied.
    public func render(
        in context: DataContext, unknown policy: UnknownPlaceholderPolicy = .keepVerbatim
    ) throws(EvaluationError)
        -> String
    {
        if segments.count == 1, case .text(let text) = segments[0] { return text }
        let result: Result<String, EvaluationError> = withUnsafeTemporaryAllocation(of: String.self, capacity: segments.count) {
            values in
            let values = values.baseAddress!
            var evaluated = 0
            defer {
                // Element by element: `deinitialize(count:)` destroys through the runtime's
                // generic array destroy, a witness call per string.
                for index in 0..<evaluated { _ = (values + index).move() }
            }
            var total = 0
            for index in segments.indices {
                switch segments[index] {
                case .text(let text): total += text.utf8.count
                case .expression(let expression):
                    let value: String
                    do throws(EvaluationError) {
                        value = try expression.evaluate(in: context).text
                    } catch {
                        return .failure(error)
                    }
                    total += value.utf8.count
                    (values + evaluated).initialize(to: value)
                    evaluated += 1
                case .unknown(let raw): if policy == .keepVerbatim { total += raw.utf8.count }
                }
            }
            return .success(
                Self.joinedString(count: total) { target in
                    var offset = 0
                    var next = 0
                    for index in segments.indices {
                        switch segments[index] {
                        case .text(let text): offset += Self.copyUTF8(of: text, to: target + offset)
                        case .expression:
                            offset += Self.copyUTF8(of: values[next], to: target + offset)
                            next += 1
                        case .unknown(let raw):
                            if policy == .keepVerbatim { offset += Self.copyUTF8(of: raw, to: target + offset) }
                        }
                    }
                    return offset
                })
        }
        return try result.get()
    }

    /// The string of the `count` bytes `write` puts at the pointer it is given (it returns how
    /// many it wrote). They are whole strings' bytes one after another, so valid UTF-8: the
    /// string is made without checking them again (`String(unsafeUninitializedCapacity:)`
    /// validates what it is given, ~600 instructions of a 3-placeholder render).
    @inline(__always)
    private static func joinedString(count: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) -> String {
        guard count > 0 else { return "" }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            let written = write(buffer.baseAddress!)
            return String(validatedUTF8: UnsafeBufferPointer(start: buffer.baseAddress, count: written))
        }
    }

    /// Copies the UTF-8 bytes of `string` to `target`, which has room for them, in one `memcpy`;
    /// returns how many.
    @inline(__always)
    private static func copyUTF8(of string: String, to target: UnsafeMutablePointer<UInt8>) -> Int {
        let copied = string.utf8.withContiguousStorageIfAvailable { utf8 in
            if let source = utf8.baseAddress { target.initialize(from: source, count: utf8.count) }
            return utf8.count
        }
        if let copied { return copied }
        // A string without contiguous UTF-8 (bridged on Apple platforms): byte by byte.
        var count = 0
        for byte in string.utf8 {
            (target + count).initialize(to: byte)
            count += 1
        }
        return count
    }

    /// The value: a template that is exactly one placeholder gives the raw value (a number stays
    /// a number); anything else gives the rendered text.
    public func value(
        in context: DataContext, unknown policy: UnknownPlaceholderPolicy = .keepVerbatim
    ) throws(EvaluationError)
        -> JSONValue
    {
        if segments.count == 1, case .expression(let expression) = segments[0] { return try expression.evaluate(in: context) }
        return .string(try render(in: context, unknown: policy))
    }

    /// Canonical source: literal braces doubled, placeholders printed canonically.
    public var description: String {
        segments.map { segment in
            switch segment {
            case .text(let text): text.replacingBraces()
            case .expression(let expression): "{\(expression)}"
            case .unknown(let raw): raw
            }
        }.joined()
    }
}

extension String {
    /// The text with each brace doubled, scalar by scalar (a brace followed by a combining mark
    /// is still a brace).
    fileprivate func replacingBraces() -> String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "{" || scalar == "}" { result.unicodeScalars.append(scalar) }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}

/// A JSON value whose strings may be expressions, compiled once: action params, slot values,
/// component arguments.
public indirect enum ValueTemplate: Sendable, Hashable {
    /// A constant.
    case literal(JSONValue)
    /// A node-dialect binding (`$.item.trackId`).
    case expression(DynamicExpression)
    /// A screen-dialect string with placeholders.
    case text(TextTemplate)
    /// An array of templates.
    case array([ValueTemplate])
    /// An object of templates, keys in order.
    case object(keys: [String], values: [ValueTemplate])

    /// Whether the value needs no evaluation.
    public var isConstant: Bool {
        if case .literal = self { true } else { false }
    }

    /// The evaluated value.
    public func evaluate(
        in context: DataContext, unknown policy: UnknownPlaceholderPolicy = .keepVerbatim
    ) throws(EvaluationError)
        -> JSONValue
    {
        switch self {
        case .literal(let value): return value
        case .expression(let expression): return try expression.evaluate(in: context)
        case .text(let template): return try template.value(in: context, unknown: policy)
        case .array(let elements):
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for element in elements { result.append(try element.evaluate(in: context, unknown: policy)) }
            return .array(result)
        case .object(let keys, let values):
            var entries: [(String, JSONValue)] = []
            entries.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) { entries.append((key, try value.evaluate(in: context, unknown: policy))) }
            return .object(JSONObject(entries))
        }
    }

    /// Every expression inside, with the location of its string relative to the value.
    public var expressions: [(JSONLocation, DynamicExpression)] {
        switch self {
        case .literal: return []
        case .expression(let expression): return [(.root, expression)]
        case .text(let template):
            return template.segments.compactMap { if case .expression(let e) = $0 { (.root, e) } else { nil } }
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in
                element.expressions.map { (JSONLocation(components: [.index(index)] + $0.0.components), $0.1) }
            }
        case .object(let keys, let values):
            return zip(keys, values).flatMap { key, value in
                value.expressions.map { (JSONLocation(components: [.key(key)] + $0.0.components), $0.1) }
            }
        }
    }

    /// Every unknown placeholder inside.
    public var unknownPlaceholders: [String] {
        switch self {
        case .literal, .expression: []
        case .text(let template): template.unknownPlaceholders
        case .array(let elements): elements.flatMap(\.unknownPlaceholders)
        case .object(_, let values): values.flatMap(\.unknownPlaceholders)
        }
    }
}
