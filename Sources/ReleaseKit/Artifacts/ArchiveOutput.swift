import Crypto
import Foundation
import ReleaseSupport

/// Where a zip writer's bytes go: a file descriptor, hashed with SHA-256 on the way, so the artifact's digest
/// costs no second read of the output.
///
/// ``ZipContainerWriter`` calls ``write(_:count:)`` on the writing thread only, in file order, so the digest is
/// that of the final file.
final class ArchiveOutput {
    let path: String
    private let descriptor: Int32
    private var hasher = SHA256()
    private(set) var bytesWritten: Int64 = 0
    /// The `errno` of a failed write, reported by the writer instead of libarchive's generic message.
    private(set) var failure: Int32 = 0

    /// Creates `path` exclusively (it is a fresh temporary name) with mode 0644 (minus the umask); errors name
    /// `displayPath`, the file the user asked for.
    init(creating path: String, displayPath: String) throws(ArchiveError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw ArchiveError.io(path: displayPath, reason: String(cString: strerror(errno)))
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Writes all of `count` bytes, retrying short writes; returns `count`, or -1 with ``failure`` set.
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        var offset = 0
        while offset < count {
            let written = Foundation.write(descriptor, bytes + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return -1
            }
            offset += written
        }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: count))
        bytesWritten += Int64(count)
        return count
    }

    /// Returns the lower-case hex SHA-256 of everything written.
    func finish() -> String {
        Hex.string(hasher.finalize())
    }
}
