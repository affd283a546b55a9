import DynamicUIActions
import DynamicUIModels
import DynamicUIResolvers
import Foundation

/// A document's typed variables and its triggers, as values: the declared types, the compiled
/// triggers and whether each condition held when last evaluated. Both dialects' models hold
/// one; they keep the values (screen variables, node state) and run the actions, and this
/// decides what is accepted and what fires (tested without either).
struct VariableRuntime {
    /// A trigger ready to run.
    struct Trigger {
        let variable: String?
        let condition: DynamicExpression?
        let actions: [String]
    }

    /// A declaration or trigger that could not be taken, where and why.
    struct Problem {
        let kind: ErrorEvent.Kind
        let path: String
        let message: String
    }

    private(set) var types: [String: VariableType] = [:]
    private(set) var triggers: [Trigger] = []
    /// Whether each trigger's condition held when last evaluated.
    var held: [Bool] = []

    /// How deep the triggers running in this task (and the tasks it started, such as the
    /// triggers a patch's variables fire after it) fired one another; independent flows (a tap,
    /// a timer, the host) each start at 0.
    static let depth = TaskLocal<Int>(wrappedValue: 0)

    /// No variables, no triggers.
    init() {}

    /// Declares `declarations` (the first of a name counts) and compiles `triggers`, located
    /// under `root` (`variables[0]`, `props.triggers[1].condition`); `initial` holds each
    /// variable's first value. A first value of the wrong type gives its type's empty value, a
    /// trigger that does not compile is left out; each is a problem.
    init(
        _ declarations: [VariableDeclaration], triggers: [VariableTrigger], limits: ExpressionLimits,
        at root: JSONLocation = .root
    ) {
        for (index, declaration) in declarations.enumerated() where types[declaration.name] == nil {
            let location = root.appending(key: "variables").appending(index: index)
            types[declaration.name] = declaration.type
            do throws(VariableError) {
                initial[declaration.name] = try declaration.initialValue(at: location)
            } catch {
                initial[declaration.name] = declaration.type.emptyValue
                problems.append(Problem(kind: .decode, path: "\(location)", message: "\(error)"))
            }
        }
        let compiler = ExpressionCompiler(limits: limits)
        for (index, trigger) in triggers.enumerated() {
            let location = root.appending(key: "triggers").appending(index: index).appending(key: "condition")
            do throws(ExpressionError) {
                let condition = try trigger.condition.map { text throws(ExpressionError) in
                    try compiler.expression(text, at: location)
                }
                self.triggers.append(Trigger(variable: trigger.variable, condition: condition, actions: trigger.actions))
            } catch {
                problems.append(Problem(kind: .compile, path: "\(location)", message: "\(error)"))
            }
        }
    }

    /// The first value of each declared variable (after `init`).
    private(set) var initial: JSONObject = [:]

    /// Starts `name` from `value` instead of its declared value (a value kept across a new
    /// version of the declarations, checked: a value of another type is not kept).
    mutating func keep(_ value: JSONValue, for name: String) {
        guard let type = types[name], let checked = try? type.checked(value, name: name, at: .root) else { return }
        initial[name] = checked
    }
    /// What could not be declared or compiled (after `init`).
    private(set) var problems: [Problem] = []

    /// `values` checked against their variables' types, each located at `location.NAME`; the
    /// first that is unknown or of another type throws. `declaredOnly` false lets names no
    /// variable declares through unchecked (a node document's other state).
    func checked(
        _ values: [(String, JSONValue)], at location: JSONLocation, declaredOnly: Bool = true
    ) throws(VariableError) -> [(String, JSONValue)] {
        var checked: [(String, JSONValue)] = []
        for (name, value) in values {
            let at = location.appending(key: name)
            guard let type = types[name] else {
                if !declaredOnly {
                    checked.append((name, value))
                    continue
                }
                throw VariableError(.unknownVariable, name: name, at: at, "the screen declares no such variable")
            }
            checked.append((name, try type.checked(value, name: name, at: at)))
        }
        return checked
    }

    /// Whether each trigger's condition holds in `context` (`false` when it cannot be evaluated;
    /// `true` without a condition).
    func conditions(in context: DataContext?) -> [Bool] {
        triggers.map { trigger in
            guard let condition = trigger.condition, let context else { return trigger.condition == nil }
            return (try? condition.isTrue(in: context)) ?? false
        }
    }

    /// The actions of the triggers that fire now, given the variables that `changed` and the
    /// conditions `now`: those watching a changed variable (while their condition holds) and
    /// those whose condition just became true. The conditions are remembered.
    mutating func fire(changed: Set<String>, conditions now: [Bool]) -> [String] {
        var fired: [String] = []
        for (index, trigger) in triggers.enumerated() {
            let was = index < held.count ? held[index] : false
            if let variable = trigger.variable {
                if changed.contains(variable), now[index] { fired += trigger.actions }
            } else if now[index], !was {
                fired += trigger.actions
            }
        }
        held = now
        return fired
    }

    /// Runs `fired` through `perform` one level deeper in the cascade; a cascade deeper than
    /// `VariableTrigger.maxCascadeDepth` runs nothing and is described (the error to report).
    @MainActor
    static func run(_ fired: [String], perform: @MainActor (String) async -> Void) async -> String? {
        guard !fired.isEmpty else { return nil }
        let depth = depth.get()
        guard depth < VariableTrigger.maxCascadeDepth else {
            return "triggers fired one another \(VariableTrigger.maxCascadeDepth) deep; stopped before "
                + fired.joined(separator: ", ")
        }
        await Self.depth.withValue(depth + 1) {
            for action in fired { await perform(action) }
        }
        return nil
    }
}
