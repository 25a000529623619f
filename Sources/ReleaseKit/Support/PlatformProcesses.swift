// The platform seam for child processes. swift-subprocess spawns, streams and reaps them (and keeps its own
// Darwin/Glibc differences in its C shim); this file holds the two things it leaves to us, so that nothing
// above it imports the C library or asks which system it is on. Modelled on swift-nio's
// `Sources/NIOPosix/BSDSocketAPICommon.swift`.
//
// - `FilePath` comes from the SDK's System module on Apple platforms and from swift-system's SystemPackage
//   elsewhere, and swift-subprocess takes whichever one its platform has.
// - Signalling a process group after its leader has been reaped. swift-subprocess signals a group only through
//   `Execution.send(signal:toProcessGroup:)`, which is valid only inside `run`'s closure, and its teardown
//   sequence stops as soon as the leader exits. A grandchild that ignores SIGTERM would then survive its
//   leader (issue 13), so the follow-up SIGKILL, and the registry's kill-everything, go through `kill(2)` with
//   a negative process group id here.
// - Telling whether a process is the one a record names (issue 40 F6: a stale lock's process groups are signalled
//   only when their leader is still the child a `release` of this checkout started): its start time, from
//   `/proc/PID/stat` field 22 (clock ticks since boot; proc(5)) on Linux and `kinfo_proc.kp_proc.p_starttime`
//   (`sysctl` `KERN_PROC_PID`; sys/sysctl.h, sys/proc.h) on Darwin, and its environment, from `/proc/PID/environ`
//   on Linux and `sysctl` `KERN_PROCARGS2` on Darwin (argc, the executable path, argv, then the environment, each
//   NUL-terminated; only a process of the same user).
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("unsupported platform")
#endif

// ReleaseKit has a `FilePath` of its own, so swift-subprocess's is named with its module.
#if canImport(System)
import System
typealias SubprocessFilePath = System.FilePath
typealias SubprocessFileDescriptor = System.FileDescriptor
#else
import SystemPackage
typealias SubprocessFilePath = SystemPackage.FilePath
typealias SubprocessFileDescriptor = SystemPackage.FileDescriptor
#endif

/// Process-related calls whose spelling or module differs between Darwin and Glibc.
package enum PlatformProcesses {
    /// `path` as the `FilePath` swift-subprocess takes on this platform.
    static func filePath(_ path: String) -> SubprocessFilePath {
        SubprocessFilePath(path)
    }

    /// A descriptor open for reading on `bytes`, for a child's standard input. The bytes go through an unlinked
    /// temporary file, not a pipe: a child that exits without reading them cannot raise SIGPIPE in this process,
    /// and no writer has to keep pace with the child.
    static func inputFile(_ bytes: [UInt8]) throws -> SubprocessFileDescriptor {
        let path = NSTemporaryDirectory() + "release-input-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw ProcessError.spawnFailed(command: "(standard input)", reason: "cannot write '\(path)'")
        }
        defer { unlink(path) }
        return try SubprocessFileDescriptor.open(SubprocessFilePath(path), .readOnly)
    }

    /// Sends `signal` to every process in process group `group` (`kill(-group, signal)`); signal 0 only asks
    /// whether any member is left.
    ///
    /// - Returns: false when the group has no member left (`ESRCH`) or the signal could not be sent.
    @discardableResult
    static func signalGroup(_ group: Int32, _ signal: Int32) -> Bool {
        // A group id of 0 or 1 would address the caller's own group or every process the caller may signal.
        guard group > 1 else { return false }
        return kill(-group, signal) == 0
    }

    /// Whether process group `group` still has a member (a zombie counts until its parent reaps it).
    package static func groupExists(_ group: Int32) -> Bool {
        signalGroup(group, 0)
    }

    /// When process `pid` started, as the system counts it (comparable only with another value from this function
    /// on this machine since it booted); nil when there is no such process.
    static func startTime(of pid: Int32) -> UInt64? {
        guard pid > 0 else { return nil }
        #if canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
        let start = info.kp_proc.p_un.__p_starttime
        return UInt64(start.tv_sec) * 1_000_000 + UInt64(start.tv_usec)
        #else
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after "PID (COMMAND)": state is field 3, starttime field 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
        #endif
    }

    /// The environment process `pid` was started with, as `NAME=VALUE` entries; nil when it cannot be read (no such
    /// process, another user's).
    static func environment(of pid: Int32) -> [String]? {
        guard pid > 0 else { return nil }
        #if canImport(Darwin)
        var name: [Int32] = [CTL_KERN, KERN_PROCARGS2, pid]
        var size = 0
        guard sysctl(&name, 3, nil, &size, nil, 0) == 0, size > MemoryLayout<Int32>.size else { return nil }
        var buffer = [UInt8](repeating: 0, count: size)
        guard sysctl(&name, 3, &buffer, &size, nil, 0) == 0, size > MemoryLayout<Int32>.size else { return nil }
        let argc = buffer.withUnsafeBytes { Int($0.loadUnaligned(as: Int32.self)) }
        var entries = buffer[MemoryLayout<Int32>.size..<size].split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        // The executable path, then argc arguments, then the environment.
        guard entries.count >= 1 + argc else { return nil }
        entries.removeFirst(1 + argc)
        return entries
        #else
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
        return data.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
        #endif
    }
}
