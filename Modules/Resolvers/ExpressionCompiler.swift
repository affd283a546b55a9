public import DynamicUIModels

/// Compiles every binding form of both dialects. Errors carry the offset inside the expression
/// and, when a `location` is given, the JSON path of the field that held it.
public struct ExpressionCompiler: Sendable {
    /// Bounds on what compiles.
    public var limits: ExpressionLimits
    /// Known placeholder roots (screen dialect).
    public var vocabulary: PlaceholderVocabulary

    /// Creates a compiler.
    public init(limits: ExpressionLimits = .default, vocabulary: PlaceholderVocabulary = .screen) {
        self.limits = limits
        self.vocabulary = vocabulary
    }

    /// A general expression or condition (`data.isEmpty`, `$.x | count > 3 && !$.y`).
    public func expression(_ text: String, at location: JSONLocation? = nil) throws(ExpressionError) -> DynamicExpression {
        var parser = ExpressionParser(Substring(text), limits: limits)
        do {
            return try parser.parseExpression()
        } catch {
            throw location.map { error.located(at: $0) } ?? error
        }
    }

    /// A slot's `field`: a path relative to the data or the current item (`author.name`).
    public func field(_ text: String, at location: JSONLocation? = nil) throws(ExpressionError) -> DynamicExpression {
        var parser = ExpressionParser(Substring(text), limits: limits)
        do {
            return .path(try parser.parsePath(root: .relative))
        } catch {
            throw location.map { error.located(at: $0) } ?? error
        }
    }

    /// A two-way binding target (`$.env.searchQuery`).
    public func bindingPath(_ text: String, at location: JSONLocation? = nil) throws(ExpressionError) -> PathExpression {
        var parser = ExpressionParser(Substring(text), limits: limits)
        do {
            return try parser.parsePath(root: .scoped)
        } catch {
            throw location.map { error.located(at: $0) } ?? error
        }
    }

    /// Text with `{placeholders}`.
    public func template(_ text: String, at location: JSONLocation? = nil) throws(ExpressionError) -> TextTemplate {
        do {
            return try TextTemplate.compile(text, vocabulary: vocabulary, limits: limits)
        } catch {
            throw location.map { error.located(at: $0) } ?? error
        }
    }

    /// A node-dialect prop: a string starting with `$` is a binding, `\$` escapes a literal
    /// dollar, anything else is a literal. Objects and arrays are compiled member by member.
    public func binding(_ value: JSONValue, at location: JSONLocation = .root) throws(ExpressionError) -> ValueTemplate {
        try compileValue(value, at: location) { text, location throws(ExpressionError) in
            // By byte: a `$` followed by a combining mark still starts a binding.
            if text.utf8.starts(with: "\\$".utf8) { return .literal(.string(String(text.unicodeScalars.dropFirst()))) }
            if text.utf8.first == UInt8(ascii: "$") { return .expression(try expression(text, at: location)) }
            return .literal(.string(text))
        }
    }

    /// A screen-dialect value: strings are placeholder templates (constant text stays literal);
    /// members named in `rawKeys` (such as `endpoint`, whose `{id}` is a path parameter) are kept
    /// as written.
    public func screenValue(
        _ value: JSONValue, at location: JSONLocation = .root, rawKeys: Set<String> = []
    )
        throws(ExpressionError) -> ValueTemplate
    {
        try compileValue(value, at: location, rawKeys: rawKeys) { text, location throws(ExpressionError) in
            let compiled = try template(text, at: location)
            return compiled.isConstant ? .literal(.string(text)) : .text(compiled)
        }
    }

    private func compileValue(
        _ value: JSONValue, at location: JSONLocation, rawKeys: Set<String> = [],
        string: (String, JSONLocation) throws(ExpressionError) -> ValueTemplate
    ) throws(ExpressionError) -> ValueTemplate {
        switch value {
        case .string(let text):
            return try string(text, location)
        case .array(let elements):
            var compiled: [ValueTemplate] = []
            for (index, element) in elements.enumerated() {
                compiled.append(try compileValue(element, at: location.appending(index: index), rawKeys: rawKeys, string: string))
            }
            return compiled.allSatisfy(\.isConstant) ? .literal(value) : .array(compiled)
        case .object(let object):
            var values: [ValueTemplate] = []
            for (key, member) in object {
                if rawKeys.contains(key) {
                    values.append(.literal(member))
                } else {
                    values.append(try compileValue(member, at: location.appending(key: key), rawKeys: rawKeys, string: string))
                }
            }
            return values.allSatisfy(\.isConstant) ? .literal(value) : .object(keys: object.keys, values: values)
        default:
            return .literal(value)
        }
    }
}
