import Foundation

/// A task executor of two threads of its own, on which ``ProcessRunner`` spawns children, reads their output
/// and stops their process groups.
///
/// Swift's cooperative pool has one thread per core, and any code that blocks one of them (a synchronous
/// test, CPU-bound work) delays every task waiting on it. A child's output must still arrive as it is
/// printed and a timed-out child must still be stopped on time, as they were when each child had a thread
/// of its own; so the runner's tasks prefer these threads, and the pool's load cannot hold them up. Nothing
/// that runs here blocks for long: reads are asynchronous (swift-subprocess polls the pipes), and each line
/// callback is short.
final class ProcessExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor every ``ProcessRunner`` task uses; its threads live as long as the process.
    static let shared = ProcessExecutor(threads: 2)

    // `@unchecked Sendable`: `jobs` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.runJobs() }
            thread.name = "release.processes.\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() -> Never {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
