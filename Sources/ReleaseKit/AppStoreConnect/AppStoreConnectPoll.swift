import Foundation

/// The one poll loop of every App Store Connect wait (an upload's state, a build's processing, a build appearing,
/// App Review before a release, a review submission canceling): look, and until the look is done, wait `interval`,
/// unless the wait has lasted `timeout` (``AppStoreConnectError/timedOut(what:seconds:lastState:)``, a failure) or its
/// `budget` (``AppStoreConnectError/stillWaiting(what:seconds:lastState:)``: the caller ends waiting, not failed).
/// The first look is at once: App Store Connect may be done already (a re-run, a small build).
struct AppStoreConnectPoll: Sendable {
    /// What one look found: done with a value, or still waiting in a state the timeout errors name.
    enum Look<Value> {
        case done(Value)
        case waiting(state: String)
    }

    /// What is waited for, as errors name it ("processing of build 1.0 (7)").
    var what: String
    var interval: Duration
    /// Seconds, from `started`.
    var timeout: Double
    /// Seconds, from `started`; only a budget shorter than the timeout counts.
    var budget: Double?
    var sleep: @Sendable (Duration) async throws -> Void
    var now: @Sendable () -> Date

    /// Looks until a look is done, and returns its value (of type `Value`, named because a closure of several statements
    /// does not tell it). `started` is when the step began waiting (an upload and its build's processing share one
    /// timeout).
    func until<Value>(_: Value.Type, since started: Date, _ look: () async throws -> Look<Value>) async throws -> Value {
        while true {
            switch try await look() {
            case .done(let value):
                return value
            case .waiting(let state):
                let waited = now().timeIntervalSince(started)
                if let budget, budget < timeout, waited >= budget {
                    throw AppStoreConnectError.stillWaiting(what: what, seconds: waited, lastState: state)
                }
                guard waited < timeout else {
                    throw AppStoreConnectError.timedOut(what: what, seconds: waited, lastState: state)
                }
                try await sleep(interval)
            }
        }
    }
}
