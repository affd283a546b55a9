import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import Foundation
import Testing

@testable import DynamicUI

/// The deferred sections of both dialects as values: what a load shows and what its result
/// changes, decided without a network.
@Suite("Section bank")
struct SectionBankTests {
    static let strings = DynamicUIStrings(locale: Locale(identifier: "en_US"))
    static let sections: [(id: String, endpoint: String)] = [("a", "/v1/a"), ("b", "/v1/b")]

    @Test func eachSectionLoadsAndFailsOnItsOwn() {
        var bank = SectionBank()
        let generation = bank.begin(Self.sections, reload: false)
        #expect(bank.states == ["a": .loading, "b": .loading])
        bank.finish(
            "a", endpoint: "/v1/a", generation: generation, result: .success(["n": 1]), reload: false, strings: Self.strings)
        bank.finish(
            "b", endpoint: "/v1/b", generation: generation, result: .failure(NetworkError(.noConnection, message: "x")),
            reload: false, strings: Self.strings)
        #expect(bank.states["a"] == .loaded(["n": 1]))
        #expect(bank.states["b"] == .failed(message: Self.strings(.offline)))
        bank.finish(
            "b", endpoint: "/v1/b", generation: generation, result: .failure(NetworkError(.serverError, message: "x")),
            reload: false, strings: Self.strings)
        #expect(bank.states["b"] == .failed(message: Self.strings(.dataLoadFailed)))
    }

    @Test func aReloadKeepsWhatIsShownUntilItsResultAndWhenItFails() {
        var bank = SectionBank()
        var generation = bank.begin(Self.sections, reload: false)
        bank.finish("a", endpoint: "/v1/a", generation: generation, result: .success(1), reload: false, strings: Self.strings)
        generation = bank.begin([("a", "/v1/a")], reload: true)
        #expect(bank.states["a"] == .loaded(1), "shown while it reloads")
        bank.finish(
            "a", endpoint: "/v1/a", generation: generation, result: .failure(NetworkError(.timeout, message: "x")), reload: true,
            strings: Self.strings)
        #expect(bank.states["a"] == .loaded(1), "a failed refresh keeps it")
        _ = bank.begin([("a", "/v1/other")], reload: true)
        #expect(bank.states["a"] == .loading, "another endpoint is another section")
    }

    @Test func lateResultsAreDropped() {
        var bank = SectionBank()
        let first = bank.begin(Self.sections, reload: false)
        bank.reset()
        let applied1 = bank.finish(
            "a", endpoint: "/v1/a", generation: first, result: .success(1), reload: false, strings: Self.strings)
        #expect(!applied1)
        #expect(bank.states.isEmpty, "the screen loaded again since")
        let second = bank.begin(Self.sections, reload: false)
        _ = bank.begin([("b", "/v1/moved")], reload: false)
        let applied2 = bank.finish(
            "b", endpoint: "/v1/b", generation: second, result: .success(2), reload: false, strings: Self.strings)
        #expect(!applied2)
        #expect(bank.states["b"] == .loading, "a patch moved it to another endpoint meanwhile")
        bank.dropLoads()
        let applied3 = bank.finish(
            "a", endpoint: "/v1/a", generation: second, result: .success(3), reload: false, strings: Self.strings)
        #expect(!applied3)
        #expect(bank.states["a"] == .loading, "the states stay when loads stop")
    }

    @Test func anInterruptedLoadIsNotAFailure() {
        var bank = SectionBank()
        let generation = bank.begin(Self.sections, reload: false)
        bank.finish(
            "a", endpoint: "/v1/a", generation: generation, result: .failure(NetworkError(.cancelled, message: "x")),
            reload: false,
            strings: Self.strings)
        #expect(bank.states["a"] == nil, "it loads again with the screen")
        let again = bank.begin([("a", "/v1/a")], reload: false)
        bank.finish(
            "a", endpoint: "/v1/a", generation: again, result: .failure(NetworkError(.cancelled, message: "x")),
            reload: false, strings: Self.strings, loadsAgain: false)
        #expect(
            bank.states["a"] == .failed(message: Self.strings(.dataLoadFailed)),
            "where nothing loads it again, it offers its retry")
    }

    @Test func aPatchBringsRemovesAndMovesSections() {
        var bank = SectionBank()
        _ = bank.begin(Self.sections, reload: false)
        let patched: [(id: String, endpoint: String)] = [("b", "/v1/b2"), ("c", "/v1/c")]
        #expect(bank.differs(from: patched))
        #expect(bank.changed(among: patched).map(\.id) == ["b", "c"])
        bank.keep(only: patched)
        #expect(bank.states.keys.sorted() == ["b"])
        #expect(!bank.differs(from: [("b", "/v1/b")]))
    }
}
