import Foundation

/// Receives a run's events: the CLI renders them, tests record them.
///
/// The engine calls `report` from one event at a time (never concurrently), so implementations need no lock.
package protocol RunReporter: Sendable {
    func report(_ event: RunEvent)
}
