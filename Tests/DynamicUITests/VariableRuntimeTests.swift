import DynamicUIModels
import DynamicUIResolvers
import Foundation
import Testing

@testable import DynamicUI

/// Variables and triggers as values, for both dialects: declarations, type checks and what
/// fires, decided without a model.
@Suite("Variable runtime")
struct VariableRuntimeTests {
    static func runtime() throws -> VariableRuntime {
        let declarations = try [VariableDeclaration].init(
            json: [
                ["name": "n", "type": "integer", "value": 1], ["name": "n", "type": "string"],
                ["name": "s", "type": "string", "value": 3],
            ])
        let triggers = try [VariableTrigger].init(
            json: [
                ["variable": "n", "actions": ["watch"]], ["condition": "state.n >= 3", "actions": ["edge"]],
                ["condition": "state.n >= (", "actions": ["broken"]],
            ])
        return VariableRuntime(declarations, triggers: triggers, limits: .default)
    }

    @Test func theFirstDeclarationCountsAndWhatCannotBeTakenIsAProblem() throws {
        let runtime = try Self.runtime()
        #expect(runtime.types == ["n": .integer, "s": .string])
        #expect(runtime.initial == ["n": 1, "s": ""])
        #expect(runtime.problems.map(\.path) == ["variables[2]", "triggers[2].condition"])
        #expect(runtime.triggers.count == 2)
    }

    @Test func valuesAreCheckedAllOrNoneAndUndeclaredKeysPassWhenAllowed() throws {
        let runtime = try Self.runtime()
        #expect(throws: VariableError.self) { try runtime.checked([("n", 2), ("s", 5)], at: .root) }
        #expect(throws: VariableError.self) { try runtime.checked([("free", 5)], at: .root) }
        let passed = try runtime.checked([("n", 2), ("free", "x")], at: .root, declaredOnly: false)
        #expect(passed.map(\.0) == ["n", "free"])
    }

    @Test func aWatchFiresOnEachChangeAConditionOnlyWhenItTurnsTrue() throws {
        var runtime = try Self.runtime()
        runtime.held = [true, false]
        #expect(runtime.fire(changed: ["n"], conditions: [true, false]) == ["watch"])
        #expect(runtime.fire(changed: ["other"], conditions: [true, true]) == ["edge"])
        #expect(runtime.fire(changed: [], conditions: [true, true]).isEmpty, "still true: not again")
        #expect(runtime.fire(changed: ["n"], conditions: [false, false]).isEmpty, "a watch fires only while its condition holds")
        #expect(runtime.fire(changed: [], conditions: [true, true]) == ["edge"], "false, then true again")
    }
}
