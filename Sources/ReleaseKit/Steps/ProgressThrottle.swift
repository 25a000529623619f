import Synchronization

/// Passes byte progress to a step's context at most every 0.5 % (and at least every 64 MiB), so a big zip
/// does not flood the event stream.
final class ProgressThrottle: Sendable {
    private let context: StepContext
    private let lastReported = Mutex<Int64>(-1)

    init(context: StepContext) {
        self.context = context
    }

    func report(done: Int64, total: Int64) {
        let step = max(min(total / 200, 64 << 20), 1 << 20)
        let send = lastReported.withLock { last -> Bool in
            guard done == total || last < 0 || done - last >= step else { return false }
            last = done
            return true
        }
        if send { context.progress(done: done, total: total) }
    }
}
