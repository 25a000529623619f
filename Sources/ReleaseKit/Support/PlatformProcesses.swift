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
enum PlatformProcesses {
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
    static func groupExists(_ group: Int32) -> Bool {
        signalGroup(group, 0)
    }
}
