public import DynamicUIModels

/// The JSON Schema (draft 2020-12) of every DynamicUI document, both wire dialects, for editors
/// and for tools that check documents, and the same documents as TypeScript declarations.
///
/// Both are derived from the models' Swift declarations by `tools/wire/generate.py` (the
/// decoders come from the same declarations), so the schema a backend validates against is the
/// one the SDK decodes. The root accepts any document kind (`anyOf`). Open enumerations
/// (patterns, zone, control, action and node types) accept any string, since unknown values
/// must stay valid; their known values are listed in `examples`. Unknown members are allowed
/// everywhere, as the decoders ignore them.
public enum DynamicUISchema {
    /// The schema's `$id`.
    public static let identifier = "https://dynamicui.dev/schema/v1.json"

    /// The JSON Schema draft the document follows (`$schema`).
    public static let draft = "https://json-schema.org/draft/2020-12/schema"

    /// The `$defs` names of the document kinds the root accepts.
    public static var documentKinds: [String] {
        (document()["anyOf"]?.arrayValue ?? []).compactMap {
            $0["$ref"]?.stringValue?.split(separator: "/").last.map(String.init)
        }
    }

    /// The schema.
    public static func document() -> JSONValue { parsed }

    /// The schema as pretty-printed JSON text.
    public static func text() -> String {
        JSONWriter(prettyPrinted: true).string(from: document())
    }

    /// TypeScript declarations of both dialects: an interface per model, open enumerations as
    /// string unions, and view nodes and node actions as unions discriminated by their type.
    public static func typeScript() -> String { typeScriptText }

    private static let parsed: JSONValue = {
        do {
            return try JSONReader().read(schemaText)
        } catch {
            preconditionFailure("the generated schema is not valid JSON: \(error)")
        }
    }()
}

/// A small JSON Schema validator for the keywords ``DynamicUISchema`` uses: `type` (a name or a
/// list of names, `integer` included), `properties`, `required`, `additionalProperties` (a
/// schema), `items`, `enum`, `const`, `$ref` to `#/$defs/…`, `allOf`, `anyOf`, `oneOf`,
/// `if`/`then`/`else`, `minimum`, `exclusiveMinimum`, `maximum`, `minLength` and `pattern`. Annotations are ignored.
public struct JSONSchemaChecker: Sendable {
    /// One place where a value breaks the schema.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// Where (keys that contain `.` or `[` stay whole, unlike in `path`).
        public let location: JSONLocation
        /// What is wrong.
        public let message: String

        /// Creates a violation.
        public init(location: JSONLocation, message: String) {
            self.location = location
            self.message = message
        }

        /// Where, written like `template.zones[0].slots[0].id`; `$` is the whole value.
        public var path: String { location.description }

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// The schema values are checked against; its `$defs` resolve `$ref`s.
    public let schema: JSONValue

    /// A checker for `schema`, by default the DynamicUI schema.
    public init(schema: JSONValue = DynamicUISchema.document()) {
        self.schema = schema
    }

    /// Every violation of `value`; empty when it is valid. When no alternative of an `anyOf` or
    /// `oneOf` matches, the violations of the closest alternative are reported (the one whose
    /// type fits and that has most of its required and known members).
    public func check(_ value: JSONValue) -> [Violation] {
        var failures: [Failure] = []
        validate(value, against: schema, at: .root, into: &failures)
        return failures.map { Violation(location: $0.location, message: $0.message) }
    }

    /// Whether `value` is valid.
    public func isValid(_ value: JSONValue) -> Bool { check(value).isEmpty }

    private struct Failure {
        let location: JSONLocation
        let message: String
    }

    private func validate(
        _ value: JSONValue, against schema: JSONValue, at location: JSONLocation, into failures: inout [Failure]
    ) {
        let keywords: JSONObject
        switch schema {
        case .bool(let accepts):
            if !accepts { failures.append(Failure(location: location, message: "no value is allowed here")) }
            return
        case .object(let object):
            keywords = object
        default:
            failures.append(Failure(location: location, message: "the schema here is neither an object nor a boolean"))
            return
        }
        if let reference = keywords["$ref"]?.stringValue {
            if let target = resolve(reference) {
                validate(value, against: target, at: location, into: &failures)
            } else {
                failures.append(Failure(location: location, message: "cannot resolve $ref '\(reference)'"))
            }
        }
        if let type = keywords["type"] {
            let names = Self.typeNames(type)
            if !names.contains(where: { Self.value(value, hasType: $0) }) {
                failures.append(
                    Failure(location: location, message: "expected \(names.joined(separator: " or ")), found \(value.kindName)"))
                return
            }
        }
        if let options = keywords["enum"]?.arrayValue, !options.contains(value) {
            let list = options.map(\.description).joined(separator: ", ")
            failures.append(Failure(location: location, message: "expected one of \(list), found \(value)"))
        }
        if let constant = keywords["const"], constant != value {
            failures.append(Failure(location: location, message: "expected \(constant), found \(value)"))
        }
        switch value {
        case .string(let text):
            if let pattern = keywords["pattern"]?.stringValue {
                if let regex = try? Regex(pattern) {
                    if text.firstMatch(of: regex) == nil {
                        // A named pattern of the declarations says what it means.
                        let message =
                            keywords["x-pattern-meaning"]?.stringValue.map { "expected \($0), found '\(text)'" }
                            ?? "'\(text)' does not match the pattern \(pattern)"
                        failures.append(Failure(location: location, message: message))
                    }
                } else {
                    failures.append(Failure(location: location, message: "the schema's pattern \(pattern) does not compile"))
                }
            }
            if let minimum = keywords["minLength"]?.intValue, text.unicodeScalars.count < minimum {
                failures.append(
                    Failure(
                        location: location,
                        message:
                            "expected at least \(minimum) character\(minimum == 1 ? "" : "s"), found \(text.unicodeScalars.count)"
                    ))
            }
        case .number(let number):
            if let minimum = keywords["minimum"]?.numberValue, number < minimum {
                failures.append(Failure(location: location, message: "expected at least \(minimum), found \(number)"))
            }
            if let minimum = keywords["exclusiveMinimum"]?.numberValue, number <= minimum {
                failures.append(Failure(location: location, message: "expected more than \(minimum), found \(number)"))
            }
            if let maximum = keywords["maximum"]?.numberValue, maximum < number {
                failures.append(Failure(location: location, message: "expected at most \(maximum), found \(number)"))
            }
        case .array(let elements):
            if let items = keywords["items"] {
                for (index, element) in elements.enumerated() {
                    validate(element, against: items, at: location.appending(index: index), into: &failures)
                }
            }
        case .object(let members):
            for case .string(let name) in keywords["required"]?.arrayValue ?? [] where members[name] == nil {
                failures.append(
                    Failure(location: location.appending(key: name), message: "required property '\(name)' is missing"))
            }
            let properties = keywords["properties"]?.objectValue
            let additional = keywords["additionalProperties"]
            for (name, member) in members {
                if let property = properties?[name] {
                    validate(member, against: property, at: location.appending(key: name), into: &failures)
                } else if let additional {
                    validate(member, against: additional, at: location.appending(key: name), into: &failures)
                }
            }
        case .null, .bool:
            break
        }
        for branch in keywords["allOf"]?.arrayValue ?? [] {
            validate(value, against: branch, at: location, into: &failures)
        }
        if let branches = keywords["anyOf"]?.arrayValue {
            alternatives(branches, exactlyOne: false, value, at: location, into: &failures)
        }
        if let branches = keywords["oneOf"]?.arrayValue {
            alternatives(branches, exactlyOne: true, value, at: location, into: &failures)
        }
        if let condition = keywords["if"] {
            var probe: [Failure] = []
            validate(value, against: condition, at: location, into: &probe)
            if probe.isEmpty {
                if let consequence = keywords["then"] { validate(value, against: consequence, at: location, into: &failures) }
            } else if let alternative = keywords["else"] {
                validate(value, against: alternative, at: location, into: &failures)
            }
        }
    }

    /// `anyOf` (at least one branch matches) or `oneOf` (exactly one does).
    private func alternatives(
        _ branches: [JSONValue], exactlyOne: Bool, _ value: JSONValue, at location: JSONLocation, into failures: inout [Failure]
    ) {
        guard !branches.isEmpty else { return }
        var outcomes: [[Failure]] = []
        for branch in branches {
            var branchFailures: [Failure] = []
            validate(value, against: branch, at: location, into: &branchFailures)
            outcomes.append(branchFailures)
        }
        let matching = outcomes.filter(\.isEmpty).count
        if matching == 1 || (matching > 1 && !exactlyOne) { return }
        if matching > 1 {
            failures.append(
                Failure(location: location, message: "matches \(matching) alternatives of oneOf; expected exactly one"))
            return
        }
        var best = 0
        var bestScore = score(branches[0], value, failureCount: outcomes[0].count)
        for index in outcomes.indices.dropFirst() {
            let candidate = score(branches[index], value, failureCount: outcomes[index].count)
            if candidate > bestScore {
                best = index
                bestScore = candidate
            }
        }
        failures.append(contentsOf: outcomes[best])
    }

    /// How closely `value` fits `branch`: whether its type fits, how many of the branch's
    /// required and known members it has, and how few violations it has.
    private func score(_ branch: JSONValue, _ value: JSONValue, failureCount: Int) -> (Int, Int, Int, Int) {
        let resolved = dereferenced(branch)
        var typeFits = 1
        if let type = resolved["type"] {
            typeFits = Self.typeNames(type).contains { Self.value(value, hasType: $0) } ? 1 : 0
        }
        var requiredPresent = 0
        var knownPresent = 0
        if case .object(let members) = value {
            for case .string(let name) in resolved["required"]?.arrayValue ?? [] where members[name] != nil {
                requiredPresent += 1
            }
            if let properties = resolved["properties"]?.objectValue {
                for (name, _) in members where properties[name] != nil { knownPresent += 1 }
            }
        }
        return (typeFits, requiredPresent, knownPresent, -failureCount)
    }

    /// `schema` with `$ref`s followed.
    private func dereferenced(_ schema: JSONValue) -> JSONValue {
        var current = schema
        for _ in 0..<32 {
            guard let reference = current["$ref"]?.stringValue, let target = resolve(reference) else { return current }
            current = target
        }
        return current
    }

    /// The schema `reference` names: `#` or `#/$defs/<name>`.
    private func resolve(_ reference: String) -> JSONValue? {
        if reference == "#" { return schema }
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix) else { return nil }
        return schema["$defs"]?[String(reference.dropFirst(prefix.count))]
    }

    private static func typeNames(_ type: JSONValue) -> [String] {
        switch type {
        case .string(let name): [name]
        case .array(let names): names.compactMap(\.stringValue)
        default: []
        }
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch value {
        case .null: type == "null"
        case .bool: type == "boolean"
        case .string: type == "string"
        case .array: type == "array"
        case .object: type == "object"
        case .number(let number): type == "number" || (type == "integer" && number.int64Value != nil)
        }
    }
}
