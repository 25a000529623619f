import Foundation
import Testing

@testable import ReleaseAppStoreConnect

/// The one poll loop of App Store Connect waits, on a clock that moves only when it sleeps: the first look is at once,
/// each further one an interval later, and the wait ends done, out of budget (still waiting) or out of time (failed),
/// naming what it waited for and the last state seen.
@Suite struct AppStoreConnectPollTests {
    typealias Clock = AppStoreWaitBudgetTests.ScriptedClock

    static func poll(_ clock: Clock, timeout: Double, budget: Double? = nil) -> AppStoreConnectPoll {
        AppStoreConnectPoll(
            what: "processing of build 1.0 (7)", interval: .seconds(30), timeout: timeout, budget: budget, sleep: { clock.sleep($0) },
            now: { clock.now() })
    }

    @Test func aLookThatIsDoneAtOnceNeverSleeps() async throws {
        let clock = Clock()
        let value = try await Self.poll(clock, timeout: 60).until(String.self, since: clock.now()) { .done("VALID") }
        #expect(value == "VALID")
        #expect(clock.sleeps.withLock { $0 } == 0)
    }

    @Test func looksEveryIntervalUntilDone() async throws {
        let clock = Clock()
        let started = clock.now()
        var looks: [Double] = []
        let value = try await Self.poll(clock, timeout: 600).until(Int.self, since: started) {
            looks.append(clock.now().timeIntervalSince(started))
            return looks.count == 3 ? .done(looks.count) : .waiting(state: "PROCESSING")
        }
        #expect(value == 3)
        #expect(looks == [0, 30, 60])
    }

    @Test func aTimeoutFailsWithTheLastState() async throws {
        let clock = Clock()
        await #expect(throws: AppStoreConnectError.timedOut(what: "processing of build 1.0 (7)", seconds: 90, lastState: "PROCESSING")) {
            try await Self.poll(clock, timeout: 90).until(Void.self, since: clock.now()) { .waiting(state: "PROCESSING") }
        }
    }

    @Test func aBudgetShorterThanTheTimeoutEndsWaitingFirst() async throws {
        let clock = Clock()
        await #expect(throws: AppStoreConnectError.stillWaiting(what: "processing of build 1.0 (7)", seconds: 60, lastState: "PROCESSING")) {
            try await Self.poll(clock, timeout: 600, budget: 60).until(Void.self, since: clock.now()) { .waiting(state: "PROCESSING") }
        }
        // A budget no shorter than the timeout is no budget: the timeout decides.
        let other = Clock()
        await #expect(throws: AppStoreConnectError.timedOut(what: "processing of build 1.0 (7)", seconds: 60, lastState: "PROCESSING")) {
            try await Self.poll(other, timeout: 60, budget: 600).until(Void.self, since: other.now()) { .waiting(state: "PROCESSING") }
        }
    }

    @Test func errorsOfALookEndTheWait() async throws {
        let clock = Clock()
        await #expect(throws: AppStoreConnectError.noBuild(version: "1.0", build: "7")) {
            try await Self.poll(clock, timeout: 600).until(Void.self, since: clock.now()) { throw AppStoreConnectError.noBuild(version: "1.0", build: "7") }
        }
        #expect(clock.sleeps.withLock { $0 } == 0)
    }
}
