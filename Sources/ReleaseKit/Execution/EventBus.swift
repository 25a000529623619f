import ReleaseSupport
import Synchronization

/// Delivers events to a reporter one at a time, from whichever task produced them, with every secret masked
/// (``RunEvent/masked(by:)``): whatever a step or the engine put in an event, reporters only see it masked.
final class EventBus: Sendable {
    private let reporter: any RunReporter
    private let masker: SecretMasker
    private let lock = Mutex<Void>(())

    init(reporter: any RunReporter, masker: SecretMasker) {
        self.reporter = reporter
        self.masker = masker
    }

    func emit(_ event: RunEvent) {
        let masked = event.masked(by: masker)
        lock.withLock { _ in reporter.report(masked) }
    }
}
