// The one place where Darwin and Glibc differ for ReleaseKit. Everything above this file calls `Platform` and
// never asks which system it is on; `scripts/check-portability.sh` fails the build when a Linux-only (or
// Darwin-only) spelling appears anywhere else. Modelled on swift-nio's `Sources/NIOPosix/BSDSocketAPICommon.swift`.
//
// Differences handled here, from the two systems' headers:
// - `struct stat` names its modification time `st_mtim` on Glibc and `st_mtimespec` on Darwin (sys/stat.h).
// - `write(2)` must be spelled with its module (`Glibc.write` / `Darwin.write`) inside types that have a
//   `write` of their own.
// - `flock(2)` is declared in sys/file.h on Glibc and in sys/fcntl.h on Darwin, with the same operations
//   (LOCK_EX 2, LOCK_NB 4) and `EWOULDBLOCK` for a lock held elsewhere (equal to `EAGAIN` on both). Both also
//   have a `struct flock` (fcntl's), which a module-qualified `flock` names: the function is called unqualified.
// - `fsync(2)` on Darwin hands the data to the drive but does not make the drive write its cache (fsync(2) and
//   fcntl(2) man pages); `fcntl(fd, F_FULLFSYNC)` does, on the file systems that support it, and fails on the
//   others (network volumes, some external drives), where `fsync` is the best there is. Glibc's `fsync` already
//   asks the drive to flush.
// - `/tmp`, `/var` and `/etc` are symlinks into `/private` on a Mac, so `getcwd` (physical: `/private/var/...`) and
//   `$TMPDIR` (`/var/folders/...`) spell one folder two ways. The working directory is made canonical once, with
//   `realpath(3)` (stdlib.h on both; Darwin's SDK binds it to `realpath$DARWIN_EXTSN` through `__DARWIN_EXTSN`,
//   which accepts a null buffer and mallocs the result, as glibc does), and paths are joined lexically after that
//   (`FilePath`). Foundation's `standardizedFileURL` is not used: it strips `/private` only when the shorter path
//   exists (swift-foundation, String+Path.swift, `_standardizingPath`).
// - Child processes (swift-subprocess) and sockets (SwiftNIO) are left to those libraries, which carry their
//   own seams; nothing of ours spawns or opens a socket by hand.
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("unsupported platform")
#endif

/// System calls whose spelling differs between Darwin and Glibc.
package enum Platform {
    /// Where Xcode is installed (`/Applications`, with `Xcode.app`, `Xcode_16.2.app`…): a Mac's; nil on a system
    /// that has no Xcode, where nothing is looked for.
    package static var xcodeApplicationsFolder: String? {
        #if canImport(Darwin)
        return "/Applications"
        #else
        return nil
        #endif
    }

    /// The kind of machine this is, as pipelines (`when: {"os": …}`), run reports (`runner`) and exported workflows
    /// spell it: `macos`, `linux`, `windows`.
    package static var systemKind: String {
        #if os(macOS)
        return "macos"
        #elseif os(Linux)
        return "linux"
        #elseif os(Windows)
        return "windows"
        #else
        return "unknown"
        #endif
    }

    /// The modification time of a `stat` result, in whole seconds since 1970.
    package static func modificationTime(_ info: stat) -> Int {
        #if canImport(Darwin)
        return Int(info.st_mtimespec.tv_sec)
        #else
        return Int(info.st_mtim.tv_sec)
        #endif
    }

    /// `write(2)`: bytes written, or -1 with `errno` set.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        #if canImport(Darwin)
        return Darwin.write(descriptor, buffer.baseAddress, buffer.count)
        #else
        return Glibc.write(descriptor, buffer.baseAddress, buffer.count)
        #endif
    }

    /// `read(2)`: bytes read, 0 at the end, or -1 with `errno` set.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Darwin)
        return Darwin.read(descriptor, buffer.baseAddress, buffer.count)
        #else
        return Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        #endif
    }

    /// `open(2)` with `flags` and `mode`, spelled with its module for callers that have an `open` of their own.
    /// - Returns: the descriptor, or -1 with `errno` set.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Darwin)
        return Darwin.open(path, flags, mode)
        #else
        return Glibc.open(path, flags, mode)
        #endif
    }

    /// `open(2)` for writing, creating the file when missing and never truncating it (for writers of one file's
    /// parts at once); spelled with its module because callers have `open` members of their own.
    /// - Returns: the descriptor, or -1 with `errno` set.
    package static func openForWriting(_ path: String, mode: mode_t = 0o644) -> Int32 {
        #if canImport(Darwin)
        return Darwin.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, mode)
        #else
        return Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, mode)
        #endif
    }

    /// Opens (creating it with mode 0644 when missing) `path` for reading and writing, closed on `exec` so no child
    /// keeps it open. - Returns: the descriptor, or -1 with `errno` set.
    package static func openForLocking(_ path: String) -> Int32 {
        #if canImport(Darwin)
        return Darwin.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #else
        return Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #endif
    }

    /// Flushes what was written to `descriptor` to stable storage: `F_FULLFSYNC` on Darwin (falling back to `fsync`
    /// where the file system does not support it), `fsync` elsewhere.
    /// - Returns: true on success; false with `errno` set.
    package static func flushToStorage(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) != -1 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    /// Takes an exclusive `flock(2)` on `descriptor` without waiting. The system releases it when the descriptor
    /// is closed, which includes the process ending in any way (`kill -9` too).
    /// - Returns: true when taken; false with `errno` `EWOULDBLOCK` when another open file holds it.
    package static func tryLockExclusively(_ descriptor: Int32) -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Whether `code` says a lock is held by someone else.
    package static func isLockHeld(_ code: Int32) -> Bool {
        code == EWOULDBLOCK || code == EAGAIN
    }

    /// Whether process `pid` exists (a zombie counts); a process of another user counts too.
    package static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// The working directory, canonical: every symlink resolved (`/private/var/...` on a Mac, never `/var/...`),
    /// so a folder has one spelling whatever led there. Called once per command; paths are joined to it lexically.
    package static func currentDirectory() -> String {
        if let canonical = canonicalPath(".") { return canonical }
        // The folder was removed under us: what the system still calls it.
        return FilePath.normalized(FileManager.default.currentDirectoryPath)
    }

    /// `realpath(3)` of `path`: absolute, without `.`, `..` or symlinks; nil when it does not exist.
    package static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether process `pid` is a zombie: ended, waiting for its parent to collect its status. Darwin: `sysctl`
    /// `KERN_PROC_PID`'s `kinfo_proc.kp_proc.p_stat == SZOMB` (sys/sysctl.h, sys/proc.h); Linux: state `Z` in
    /// `/proc/PID/stat` (proc(5)). False when there is no such process.
    package static func isZombie(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        #if canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return false }
        return Int32(info.kp_proc.p_stat) == SZOMB
        #else
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses, the state follows the last ")".
        guard let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(after: close)...].hasPrefix(" Z")
        #endif
    }

    /// Whether process `pid` exists and has not ended (a zombie has).
    package static func processIsRunning(_ pid: Int32) -> Bool {
        processExists(pid) && !isZombie(pid)
    }

    /// The current `errno`.
    package static var errorNumber: Int32 { errno }

    /// The text `strerror(3)` gives for `code`.
    package static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
