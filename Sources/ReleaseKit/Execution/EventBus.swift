import Synchronization

/// Delivers events to a reporter one at a time, from whichever task produced them.
final class EventBus: Sendable {
    private let reporter: any RunReporter
    private let lock = Mutex<Void>(())

    init(reporter: any RunReporter) {
        self.reporter = reporter
    }

    func emit(_ event: RunEvent) {
        lock.withLock { _ in reporter.report(event) }
    }
}
