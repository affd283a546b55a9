public import DynamicUIModels
import DynamicUIResolvers
import Foundation
public import Observation

/// Validation and typing of form values: required fields, e-mail,
/// number and password rules, and field errors from a server's 422 body. Pure and `Sendable`,
/// so handlers off the main actor and `FormState` share it.
public struct FormValidator: Sendable {
    /// Shortest accepted password.
    public var minimumPasswordLength: Int
    /// The words of the messages.
    public var strings: DynamicUIStrings

    /// Creates a validator.
    public init(minimumPasswordLength: Int = 8, strings: DynamicUIStrings = .current) {
        self.minimumPasswordLength = minimumPasswordLength
        self.strings = strings
    }

    /// A bound as written in a message (`1`, not `1.0`).
    static func written(_ value: Double) -> String {
        value.isFinite ? JSONNumber(value).description : "∞"
    }

    /// Errors by field name for `values` against the input `slots` (empty when valid).
    public func validate(slots: [Slot], values: [String: String]) -> [String: String] {
        var errors: [String: String] = [:]
        for slot in slots where slot.controlType.isInput && slot.readOnly != true {
            let name = slot.formFieldName
            let label = slot.label ?? name
            let raw = (values[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if slot.required == true {
                let missing = slot.controlType == .checkbox ? raw != "true" : raw.isEmpty
                if missing {
                    errors[name] = strings(.fieldRequired, label)
                    continue
                }
            }
            guard !raw.isEmpty else { continue }
            switch slot.controlType {
            case .emailInput where !Self.isEmail(raw):
                errors[name] = strings(.fieldEmail, label)
            case .numberInput where Self.number(raw) == nil:
                errors[name] = strings(.fieldNumber, label)
            case .numberInput:
                let number = Self.number(raw)?.doubleValue ?? 0
                if let minimum = slot.minimum, number < minimum || (slot.maximum.map { number > $0 } ?? false) {
                    errors[name] = strings(.fieldRange, label, Self.written(minimum), slot.maximum.map(Self.written) ?? "∞")
                } else if slot.minimum == nil, let maximum = slot.maximum, number > maximum {
                    errors[name] = strings(.fieldAtMost, label, Self.written(maximum))
                }
            case .passwordInput where raw.count < minimumPasswordLength:
                errors[name] = strings(.fieldPasswordLength, label, String(minimumPasswordLength))
            case .select, .radioGroup:
                if let options = slot.options, !options.contains(where: { $0.value == raw }) {
                    errors[name] = strings(.fieldChooseOption, label)
                }
            case .textInput where name.hasSuffix("_url") && !Self.isWebLink(raw):
                // A link field (`file_url`, `website_url`) takes an http(s) address.
                errors[name] = strings(.fieldLink, label)
            default:
                break
            }
        }
        return errors
    }

    /// The JSON body of a form: `fields` (or every input slot) with values typed by control:
    /// numbers for `number-input`, booleans for `checkbox` and `switch`, text otherwise. A value
    /// without a slot (a hidden `version`) is sent as a number when it is one.
    public func body(slots: [Slot], values: [String: String], fields: [String]?) -> JSONObject {
        let bySlot = Dictionary(slots.map { ($0.formFieldName, $0) }, uniquingKeysWith: { first, _ in first })
        let names = fields ?? slots.filter { $0.controlType.isInput }.map(\.formFieldName)
        var body = JSONObject()
        for name in names {
            guard let raw = values[name] else { continue }
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            switch bySlot[name]?.controlType {
            case .numberInput?:
                body[name] = Self.number(trimmed).map { .number($0) } ?? (trimmed.isEmpty ? .null : .string(trimmed))
            case .checkbox?, .switch?:
                body[name] = .bool(trimmed == "true")
            case nil:
                body[name] = Self.number(trimmed).map { .number($0) } ?? .string(raw)
            default:
                body[name] = .string(raw)
            }
        }
        return body
    }

    /// Field errors in a 422 body: `{"errors": {"field": "message"}}`, `{"fields": {...}}` or
    /// `{"errors": [{"field": "…", "message": "…"}]}`.
    public func serverErrors(in body: JSONValue?) -> [String: String] {
        guard let body else { return [:] }
        var errors: [String: String] = [:]
        for key in ["errors", "fields", "field_errors"] {
            if case .object(let object)? = body[key] {
                for (field, message) in object { errors[field] = message.arrayValue?.first?.text ?? message.text }
            } else if case .array(let entries)? = body[key] {
                for entry in entries {
                    if let field = entry["field"]?.stringValue {
                        errors[field] = entry["message"]?.text ?? strings(.fieldInvalid)
                    }
                }
            }
        }
        return errors
    }

    /// Whether `text` is an `http(s)` address with a host.
    static func isWebLink(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        return (scheme == "https" || scheme == "http") && !(url.host ?? "").isEmpty
    }

    /// Whether `text` looks like an e-mail address (one `@`, a dotted domain, no spaces).
    public static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(" ") else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty } && (domain.last?.count ?? 0) >= 2
    }

    /// `text` as a number (`12`, `3.5`, `3,5`), or `nil`.
    public static func number(_ text: String) -> JSONNumber? {
        let normalized = text.replacingOccurrences(of: ",", with: ".")
        guard !normalized.isEmpty, case .number(let number)? = try? JSONReader().read(normalized) else {
            if let double = Double(normalized), double.isFinite { return JSONNumber(double) }
            return nil
        }
        return number
    }
}

/// The values and errors of a screen's form, observed by the views.
@Observable
@MainActor
public final class FormState {
    /// Values by field name.
    public private(set) var fieldValues: [String: String] = [:]
    /// Errors by field name.
    public private(set) var fieldErrors: [String: String] = [:]
    /// The rules applied by `validate`.
    public var validator = FormValidator()

    /// An empty form.
    public init() {}

    /// Sets a value and clears that field's error (editing resolves it).
    public func setValue(_ value: String, for field: String) {
        if fieldValues[field] != value { fieldValues[field] = value }
        // Written only when there was an error: observers of the errors (the kept render
        // tree) are not told of every keystroke.
        if fieldErrors[field] != nil { fieldErrors[field] = nil }
    }

    /// The value of a field (empty when unset).
    public func value(for field: String) -> String { fieldValues[field] ?? "" }

    /// Replaces the errors; returns whether the form is valid.
    @discardableResult
    public func validate(slots: [Slot]) -> Bool {
        fieldErrors = validator.validate(slots: slots, values: fieldValues)
        return fieldErrors.isEmpty
    }

    /// Shows errors (from a 422, or from a handler).
    public func setErrors(_ errors: [String: String]) { fieldErrors = errors }

    /// Fills values from an item (an edit form's data), keeping values the user already typed.
    public func prefill(from item: JSONValue, slots: [Slot]) {
        for slot in slots where slot.controlType.isInput {
            let name = slot.formFieldName
            guard fieldValues[name] == nil, let value = item[path: slot.field ?? name], !value.isNull else { continue }
            fieldValues[name] = value.text
        }
    }

    /// Sets the values of `slots` to the record `item` (loaded again), whatever was typed, and
    /// clears their errors: a field the record lacks is emptied.
    public func replace(from item: JSONValue, slots: [Slot]) {
        for slot in slots where slot.controlType.isInput {
            let name = slot.formFieldName
            let value = item[path: slot.field ?? name]
            fieldValues[name] = value.map { $0.isNull ? "" : $0.text } ?? ""
            fieldErrors[name] = nil
        }
    }

    /// Empties values and errors.
    public func clear() {
        fieldValues.removeAll()
        fieldErrors.removeAll()
    }
}
