import Foundation

/// Reads a file that must be a regular file: never a FIFO (whose `open` blocks until a writer comes), a device or a
/// socket, never larger than a cap, and for the state `release` keeps between runs (journals, the lock's record) never
/// through a symlink and only when this user owns it and no one else may write it.
///
/// The file is opened with `O_NONBLOCK` (so opening a FIFO returns at once), then `fstat`ed: what is checked is the
/// file opened, not a name that could be swapped between a check and the open.
package enum RegularFile {
    /// Why a file was not read.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case cannotOpen(path: String, reason: String)
        /// A symlink where a state file must be the file itself.
        case symlink(path: String)
        /// A FIFO, device, socket or folder.
        case notRegular(path: String, kind: String)
        /// A state file another user owns, or that others may write.
        case notOwned(path: String, reason: String)
        case tooLarge(path: String, limit: Int)

        package var description: String {
            switch self {
            case .cannotOpen(let path, let reason): return "cannot read '\(path)': \(reason)"
            case .symlink(let path): return "'\(path)' is a symbolic link, not a file: refused (state files are never followed)"
            case .notRegular(let path, let kind): return "'\(path)' is \(kind), not a regular file: refused"
            case .notOwned(let path, let reason): return "'\(path)' \(reason): refused"
            case .tooLarge(let path, let limit): return "'\(path)' is larger than \(ByteFormat.size(Int64(limit))): refused"
            }
        }
    }

    /// How strictly a file is checked.
    package struct Checks: Sendable {
        /// Refuse a symlink (`O_NOFOLLOW`).
        package var noSymlink: Bool
        /// Refuse a file another user owns, or one with more than one name (a hard link to a file elsewhere).
        package var ownedByUser: Bool
        /// Refuse a file its group or others may write.
        package var privateToUser: Bool

        package init(noSymlink: Bool, ownedByUser: Bool, privateToUser: Bool) {
            self.noSymlink = noSymlink
            self.ownedByUser = ownedByUser
            self.privateToUser = privateToUser
        }

        /// For a file the pipeline names (metadata, notes): any regular file, through symlinks.
        package static let input = Checks(noSymlink: false, ownedByUser: false, privateToUser: false)
        /// For `release`'s own state: the file itself, this user's, and no one else's to write.
        package static let state = Checks(noSymlink: true, ownedByUser: true, privateToUser: true)
        /// For state whose content is signed (the run journal, which CI jobs hand over as artifacts, unpacked with
        /// whatever mode the runner's umask gives): the file itself and this user's; its signature vouches for it.
        package static let signedState = Checks(noSymlink: true, ownedByUser: true, privateToUser: false)
    }

    /// The bytes of `path`, or nil when it does not exist.
    /// - Throws: ``Refusal`` when it is not a regular file, fails `checks`, or holds more than `limit` bytes.
    package static func read(_ path: String, limit: Int, checks: Checks = .input) throws(Refusal) -> Data? {
        let descriptor = try open(path, flags: O_RDONLY, checks: checks)
        guard let descriptor else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Platform.read(descriptor, $0) }
            if count < 0 {
                if Platform.errorNumber == EINTR { continue }
                if Platform.errorNumber == EAGAIN { Thread.sleep(forTimeInterval: 0.001); continue }
                throw .cannotOpen(path: path, reason: Platform.errorText(Platform.errorNumber))
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limit { throw .tooLarge(path: path, limit: limit) }
        }
        return data
    }

    /// Opens `path` with `flags` plus `O_NONBLOCK`, `O_CLOEXEC` (and `O_NOFOLLOW` for ``Checks/noSymlink``) and checks
    /// what was opened; nil when it does not exist (and `flags` does not create it).
    /// - Throws: ``Refusal``.
    package static func open(_ path: String, flags: Int32, mode: mode_t = 0o644, checks: Checks) throws(Refusal) -> Int32? {
        var all = flags | O_NONBLOCK | O_CLOEXEC
        if checks.noSymlink { all |= O_NOFOLLOW }
        let descriptor = Platform.open(path, all, mode)
        guard descriptor >= 0 else {
            let code = Platform.errorNumber
            if code == ENOENT { return nil }
            if code == ELOOP && checks.noSymlink { throw .symlink(path: path) }
            throw .cannotOpen(path: path, reason: Platform.errorText(code))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = Platform.errorText(Platform.errorNumber)
            close(descriptor)
            throw .cannotOpen(path: path, reason: reason)
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw .notRegular(path: path, kind: kind(of: type))
        }
        if checks.ownedByUser {
            var problem: String?
            if info.st_uid != geteuid() {
                problem = "belongs to another user (uid \(info.st_uid))"
            } else if checks.privateToUser, info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                problem = "may be written by other users (mode \(String(info.st_mode & 0o777, radix: 8)))"
            } else if info.st_nlink > 1 {
                problem = "has \(info.st_nlink) names (a hard link)"
            }
            if let problem {
                close(descriptor)
                throw .notOwned(path: path, reason: problem)
            }
        }
        return descriptor
    }

    private static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }
}
