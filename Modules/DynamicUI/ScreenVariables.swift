import DynamicUIActions
public import DynamicUIModels
import DynamicUIResolvers
import Foundation

extension DynamicScreenViewModel {
    /// Sets the screen's variables from the host app: each value is checked against its declared
    /// type and all are set or none; the triggers they fire then run.
    public func setVariables(_ values: [String: JSONValue]) async throws(VariableError) {
        let changed = try assignVariables(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, at: .root)
        await runTriggers(changed: changed)
    }

    /// Declares the variables of `definition` with their first values, and compiles its
    /// triggers. A first value of the wrong type, or a trigger that does not compile, is
    /// reported; the variable takes its type's empty value, the trigger is left out.
    func startVariables(of definition: ScreenDefinition) {
        let runtime = VariableRuntime(definition.variables ?? [], triggers: definition.triggers ?? [], limits: environment.limits)
        for problem in runtime.problems {
            observers.emit(
                .error(ErrorEvent(problem.kind, screen: route.screenKey, path: problem.path, message: problem.message)))
        }
        variables = runtime.initial
        variableRuntime = runtime
        showVariablesInInputs(Set(runtime.initial.keys))
        // A condition true from the start has not become true: it fires when it turns true later.
        variableRuntime.held = variableRuntime.conditions(in: try? context())
    }

    /// Sets `values` after checking each against its variable's type (all or none); returns
    /// the names whose value changed.
    func assignVariables(_ values: [(String, JSONValue)], at location: JSONLocation) throws(VariableError) -> Set<String> {
        setChecked(try variableRuntime.checked(values, at: location))
    }

    /// Sets values already checked; returns the names whose value changed.
    private func setChecked(_ values: [(String, JSONValue)]) -> Set<String> {
        var changed: Set<String> = []
        for (name, value) in values where variables[name] != value {
            variables[name] = value
            changed.insert(name)
        }
        showVariablesInInputs(changed)
        return changed
    }

    /// The form fields of the inputs bound to a variable (`variable`), with its name.
    private var variableInputs: [(field: String, variable: String)] {
        (compiled?.definition.template.allZones ?? []).flatMap { $0.slots ?? [] }.compactMap { slot in
            slot.variable.map { (slot.formFieldName, $0) }
        }
    }

    /// The inputs bound to the variables `names` show their values.
    func showVariablesInInputs(_ names: Set<String>) {
        guard !names.isEmpty else { return }
        for (field, name) in variableInputs where names.contains(name) {
            guard let value = variables[name] else { continue }
            let text: String
            switch value {
            case .null: text = ""
            case .array, .object: text = JSONWriter().string(from: value)  // entered as JSON
            case .number:
                // Written as the user enters it: with the locale's decimal separator.
                let separator = environment.locale.decimalSeparator ?? "."
                text = separator == "." ? value.text : value.text.replacingOccurrences(of: ".", with: separator)
            default: text = value.text
            }
            if formState.fieldValues[field] != text { formState.setValue(text, for: field) }
            // The value shown is the variable's: an error about text the user had typed is gone.
            if formState.fieldErrors[field] != nil {
                var errors = formState.fieldErrors
                errors[field] = nil
                formState.setErrors(errors)
            }
        }
    }

    /// A form input changed (a SwiftUI control, the web preview's form): the form keeps the
    /// text, and an input bound to a variable sets it, converted to the variable's type and
    /// checked, then its triggers run (after the actions fired before). Text that is not a
    /// value of the type is the field's error and leaves the variable as it was.
    public func setFieldValue(_ text: String, for field: String) {
        formState.setValue(text, for: field)
        guard let name = variableInputs.first(where: { $0.field == field })?.variable,
            let type = variableRuntime.types[name]
        else { return }
        var errors = formState.fieldErrors
        let location = JSONLocation(components: [.key("variables"), .key(name)])
        do throws(VariableError) {
            let separator = environment.locale.decimalSeparator ?? "."
            guard let value = type.value(fromInput: text, decimalSeparator: separator) else {
                throw VariableError(.typeMismatch, name: name, at: location, "'\(text)' is not a value of type \(type.rawValue)")
            }
            let changed = try assignVariables([(name, value)], at: JSONLocation(components: [.key("form")]))
            errors[field] = nil
            formState.setErrors(errors)
            if !changed.isEmpty { firedActions.fire { [weak self] in await self?.runTriggers(changed: changed) } }
        } catch {
            let label =
                (compiled?.definition.template.allZones ?? []).flatMap { $0.slots ?? [] }
                .first { $0.formFieldName == field }?.label ?? field
            errors[field] = type == .integer || type == .number ? strings(.fieldNumber, label) : strings(.fieldInvalid)
            formState.setErrors(errors)
            observers.emit(.error(ErrorEvent(.actionFailed, screen: route.screenKey, path: "form.\(field)", message: "\(error)")))
        }
    }

    /// The value of the number variable `name` plus `delta` (a whole result for an integer).
    func incremented(_ name: String, by delta: JSONValue) throws(VariableError) -> JSONValue {
        guard case .number(let current)? = variables[name], case .number(let step) = delta else {
            throw VariableError(
                .typeMismatch, name: name, at: "config.increment", "only a number variable takes an increment")
        }
        if let a = current.int64Value, let b = step.int64Value {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return .number(JSONNumber(sum)) }
        }
        return .number(JSONNumber(current.doubleValue + step.doubleValue))
    }

    /// The patch's variable values, checked (a patch with a wrong one is refused whole).
    func checkedVariables(of patch: DocumentPatch) throws(PatchError) -> [(String, JSONValue)] {
        guard let values = patch.variables, !values.isEmpty else { return [] }
        do throws(VariableError) {
            return try variableRuntime.checked(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, at: "variables")
        } catch {
            throw PatchError(
                code: error.code == .unknownVariable ? .noTarget : .invalidItem, location: error.location, message: error.message)
        }
    }

    /// Sets a patch's checked values and runs the triggers they fire after the actions already
    /// fired.
    func setPatched(_ values: [(String, JSONValue)]) {
        let changed = setChecked(values)
        guard !changed.isEmpty else { return }
        firedActions.fire { [weak self] in await self?.runTriggers(changed: changed) }
    }

    /// Runs the actions of the triggers that fire now: those watching a variable in `changed`
    /// (while their condition holds) and those whose condition just became true. A cascade
    /// deeper than `VariableTrigger.maxCascadeDepth` is stopped and reported, never run.
    func runTriggers(changed: Set<String>) async {
        guard !variableRuntime.triggers.isEmpty else { return }
        let fired = variableRuntime.fire(changed: changed, conditions: variableRuntime.conditions(in: try? context()))
        guard let cascade = await VariableRuntime.run(fired, perform: { await self.perform(actionId: $0) }) else { return }
        observers.emit(.error(ErrorEvent(.triggerCascade, screen: route.screenKey, path: "triggers", message: cascade)))
    }
}
