import DynamicUIModels
import Foundation
import Testing

@testable import DynamicUI

/// The timers of both dialects as values: commands, ticks, ends and bound ends decided without
/// a clock or a task (times are seconds since 1970, given).
@Suite("Timer bank")
struct TimerBankTests {
    static let countdown = TimerDefinition(
        id: "c", duration: 10_000, tickInterval: 1000, valueVariable: "elapsed", remainingVariable: "left",
        tickActions: ["beep"], endActions: ["done"])

    @Test func aCountdownTicksPausesResumesAndEndsOnce() throws {
        var bank = TimerBank([Self.countdown])
        try bank.apply(.start, to: "c", at: 100)
        #expect(bank.wait(for: "c", at: 100) == 1000)
        #expect(bank.wait(for: "c", at: 100.25) == 750, "the next tick keeps its phase")
        #expect(bank.tick("c", at: 101)?.actions == ["beep"])
        try bank.apply(.pause, to: "c", at: 103.5)
        #expect(bank.counted("c", at: 500) == 3500, "a pause holds the time")
        #expect(bank.wait(for: "c", at: 500) == nil)
        try bank.apply(.resume, to: "c", at: 500)
        #expect(bank.values(of: "c", at: 506).map(\.1) == [9500, 500])
        let end = bank.tick("c", at: 600)
        #expect(end?.ended == true && end?.actions == ["beep", "done"])
        #expect(bank.running.isEmpty)
        #expect(bank.counted("c", at: 900) == 10_000, "never past its duration")
        #expect(bank.tick("c", at: 900) == nil, "an ended timer does not tick again")
    }

    @Test func aCommandMakesAnEarlierTickStale() throws {
        var bank = TimerBank([Self.countdown])
        try bank.apply(.start, to: "c", at: 0)
        let generation = bank.tick("c", at: 1)?.generation ?? -1
        #expect(bank.isCurrent("c", generation: generation))
        try bank.apply(.reset, to: "c", at: 1.5)
        #expect(!bank.isCurrent("c", generation: generation), "a tick's actions stop after a reset")
        #expect(bank.counted("c", at: 1.5) == 0 && bank.running == ["c"], "reset keeps it running from zero")
        bank.stopAll()
        #expect(bank.running.isEmpty && bank.counted("c", at: 9) == 0)
    }

    @Test func refusalsChangeNothing() throws {
        var bank = TimerBank((0...TimerDefinition.maxLiveTimers).map { TimerDefinition(id: "t\($0)") })
        #expect(throws: TimerBank.Refusal.unknown("x")) { try bank.apply(.start, to: "x", at: 0) }
        for index in 0..<TimerDefinition.maxLiveTimers { try bank.apply(.start, to: "t\(index)", at: 0) }
        let before = bank.timers
        #expect(throws: TimerBank.Refusal.tooMany("t8")) { try bank.apply(.start, to: "t8", at: 0) }
        #expect(bank.timers == before)
        #expect("\(TimerBank.Refusal.tooMany("t8"))" == "8 timers already run; 't8' was not started")
    }

    @Test func suspendedTimersKeepTheirTimeButDoNotWait() throws {
        var bank = TimerBank([Self.countdown])
        try bank.apply(.start, to: "c", at: 0)
        bank.hidden = true
        #expect(bank.wait(for: "c", at: 2) == nil)
        let kept = TimerBank([Self.countdown], keeping: bank)
        #expect(kept.isSuspended, "declared again, the screen is still hidden")
        bank.hidden = false
        #expect(bank.counted("c", at: 4.2) == 4200, "it caught up from the clock")
        #expect(bank.wait(for: "c", at: 4.2) == 800)
    }

    @Test func anEndFromTheDataIsClampedAndKeepsARunningTimerRunning() throws {
        var bank = TimerBank([TimerDefinition(id: "e", duration: 60_000, remainingVariable: "left")])
        bank.bind("e", toEnd: 130, at: 100)
        #expect(bank.values(of: "e", at: 100).map(\.1) == [30_000], "a stopped timer counts down from its end")
        try bank.apply(.start, to: "e", at: 100)
        bank.bind("e", toEnd: 50, at: 110)
        #expect(bank.values(of: "e", at: 110).map(\.1) == [0], "an end in the past leaves nothing")
        bank.bind("e", toEnd: .infinity, at: 110)
        #expect(bank.values(of: "e", at: 110).map(\.1) == [0], "no end at all is no time")
        bank.bind("e", toEnd: 1e300, at: 110)
        #expect(
            bank.values(of: "e", at: 110).map(\.1) == [.number(JSONNumber(TimerDefinition.maximumDuration))],
            "at most a day")
        #expect(bank.running == ["e"])
    }

    @Test func hugeTimesDoNotTrap() throws {
        var bank = TimerBank([TimerDefinition(id: "u", valueVariable: "n")])
        try bank.apply(.start, to: "u", at: -1e300)
        #expect(bank.counted("u", at: 1e300) == Int.max)
        #expect(bank.wait(for: "u", at: 1e300) == nil, "neither ticks nor ends: it only counts")
        try bank.apply(.pause, to: "u", at: .nan)
        #expect(bank.counted("u", at: 0) >= 0)
    }
}
