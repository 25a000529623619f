import Testing

@testable import ReleaseSupport

@Suite struct ExponentialBackoffTests {
    @Test func doublesFromTheBaseUpToTheCap() {
        let backoff = ExponentialBackoff(base: .seconds(1), cap: .seconds(60))
        #expect((1...8).map { backoff.delay(afterAttempt: $0) } == [1, 2, 4, 8, 16, 32, 60, 60].map { .seconds($0) })
        #expect(backoff.delay(afterAttempt: 0) == .seconds(1))
    }

    /// Any attempt number gives a finite wait, and a tiny base still reaches the cap (HTTP retries once stopped
    /// doubling after 20 attempts; a step's retry computed 2^63 before capping).
    @Test func largeAttemptsAndTinyBasesEndAtTheCap() {
        #expect(ExponentialBackoff(base: .seconds(3600), cap: .seconds(300)).delay(afterAttempt: 100) == .seconds(300))
        #expect(ExponentialBackoff(base: .nanoseconds(1), cap: .seconds(300)).delay(afterAttempt: Int.max) == .seconds(300))
        #expect(ExponentialBackoff(base: .zero, cap: .seconds(300)).delay(afterAttempt: 50) == .zero)
    }
}
