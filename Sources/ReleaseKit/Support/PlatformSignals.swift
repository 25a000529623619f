// The platform seam for the signals that interrupt `release` (SIGINT, SIGTERM, SIGHUP). Modelled on swift-nio's
// `Sources/NIOPosix/BSDSocketAPICommon.swift`: nothing above this file imports the C library for signals or asks
// which system it is on.
//
// Why a handler that writes the signal's number to a pipe (the self-pipe trick), read by a thread of our own: a
// signal that arrives while handling is being set up, or that reaches any thread at all, must be neither lost nor
// fatal. A process-wide handler runs on whichever thread the kernel picks, including threads that unblock every
// signal (swift-subprocess's process monitor waits in `epoll_pwait` with an empty mask, so a blocked mask and
// `sigwait` cannot work: the signal is delivered to that thread instead). Setting `SIG_IGN`, which a Dispatch
// signal source needs, drops a signal that reaches such a thread, and discards one already pending (POSIX
// `sigaction`). The handler only calls `write(2)`, which is async-signal-safe. A signal already pending when the
// process starts (blocked by its parent across `exec`) is delivered as soon as ``install(_:)`` unblocks it.
//
// Differences handled here, from the two systems' headers:
// - The handler of a `struct sigaction` is the union member `__sigaction_u.__sa_handler` on Darwin
//   (sys/signal.h) and `__sigaction_handler.sa_handler` on Glibc (bits/sigaction.h).
// - `sigset_t` is a 32-bit integer on Darwin (sys/_types/_sigset.h) and a 1024-bit structure on Glibc
//   (bits/types/__sigset_t.h); both are built with `sigemptyset`/`sigaddset`, which Darwin also defines as
//   macros but declares as functions, which is what Swift calls.
// - `pipe2` is Linux-only: the pipe gets `FD_CLOEXEC` through `fcntl`, before any other thread exists.
// Children are unaffected: swift-subprocess resets every signal's mask and disposition in the processes it spawns
// (POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF, and the same in its fork/exec path).
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("unsupported platform")
#endif

/// Blocking and waiting for signals, whose types differ between Darwin and Glibc.
package enum PlatformSignals {
    /// The signals that interrupt a run: SIGINT (Ctrl-C), SIGTERM (CI cancelling a job, `kill`) and SIGHUP (the
    /// terminal closed, an SSH connection dropped).
    package static let interrupts: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The pipe's write end, set once by ``install(_:)`` before any handler can run; read by the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// Catches `signals` for the whole process from now on and unblocks them on the calling thread (a signal
    /// already pending is delivered at once). Call once, from the main thread, before other threads exist.
    /// - Returns: false when the pipe or a handler could not be set up.
    package static func install(_ signals: [Int32]) -> Bool {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
        let handler: @convention(c) (Int32) -> Void = { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(PlatformSignals.writeEnd, &byte, 1)
            errno = saved
        }
        for number in signals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
            #else
            action.__sigaction_handler.sa_handler = handler
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            guard sigaction(number, &action, nil) == 0 else { return false }
        }
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return pthread_sigmask(SIG_UNBLOCK, &set, nil) == 0
    }

    /// Waits until a signal caught since ``install(_:)`` and returns its number.
    package static func next() -> Int32 {
        var byte: UInt8 = 0
        while true {
            let count = read(readEnd, &byte, 1)
            if count == 1 { return Int32(byte) }
            if count < 0, errno == EINTR { continue }
            // The pipe cannot close while the process runs; should it fail, wait rather than spin.
            sleep(1)
        }
    }

    /// Whether `signal` was ignored when the process started (`nohup` ignores SIGHUP; a shell ignores SIGINT for a
    /// command run in the background), read without changing it.
    package static func isIgnored(_ signal: Int32) -> Bool {
        var action = sigaction()
        guard sigaction(signal, nil, &action) == 0 else { return false }
        #if canImport(Darwin)
        let handler = action.__sigaction_u.__sa_handler
        #else
        let handler = action.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or `signal N` for another.
    package static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }

}
