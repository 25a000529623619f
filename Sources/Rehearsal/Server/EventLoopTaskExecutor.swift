import NIOCore

/// Runs a task's jobs on a NIO event loop: the executor preference of every connection task, so a local
/// server answers even when Swift's cooperative pool is busy.
///
/// Without it, a connection's task would share the cooperative pool (one thread per core) with whatever else
/// the process runs; tests that block those threads (waiting for a child process) stalled the server past
/// its clients' timeouts. With it, the task's non-isolated async code, NIO's async channel included, runs on
/// the connection's own event loop; blocking file work still goes to NIO's thread pool (``PooledFile``).
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
