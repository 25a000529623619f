import Foundation
import ReleaseSupport

/// Feeds a request body to libcurl's read callback in order: bytes in memory and files read in chunks.
///
/// Not thread-safe: used only by the thread running the transfer.
final class RequestBodyReader {
    private enum Segment {
        case bytes(Data)
        /// A whole file (`length` nil) or `length` bytes of it from `offset`.
        case file(path: String, offset: Int64, length: Int64?)
    }

    /// Total bytes, for Content-Length.
    let length: Int64
    private var segments: [Segment]
    private var index = 0
    private var offsetInData = 0
    private var descriptor: Int32 = -1
    private var remainingInFile: Int64 = 0
    private var position: Int64 = 0
    /// The error that aborted a read, reported instead of curl's generic "read callback aborted".
    private(set) var failure: HTTPError?

    private let digest: StreamingDigest?

    init(_ body: HTTPBody, digest: StreamingDigest? = nil) throws {
        self.digest = digest
        switch body {
        case .empty: segments = []
        case .data(let data): segments = [.bytes(data)]
        case .file(let path): segments = [.file(path: path, offset: 0, length: nil)]
        case .fileRange(let path, let offset, let length): segments = [.file(path: path, offset: offset, length: length)]
        case .multipart(let form): segments = [.bytes(form.head), .file(path: form.filePath, offset: 0, length: nil), .bytes(form.tail)]
        }
        var total: Int64 = 0
        for segment in segments {
            switch segment {
            case .bytes(let data): total += Int64(data.count)
            case .file(let path, let offset, let length):
                let size = try Self.size(of: path)
                guard let length else {
                    total += size
                    continue
                }
                guard offset >= 0, length >= 0, offset + length <= size else {
                    throw HTTPError.cannotReadBody(path: path, reason: "bytes \(offset)..<\(offset + length) are outside the file's \(size) bytes")
                }
                total += length
            }
        }
        length = total
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static func size(of path: String) throws -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HTTPError.cannotReadBody(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw HTTPError.cannotReadBody(path: path, reason: "not a regular file")
        }
        return Int64(info.st_size)
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 at the end; nil on a read error (see ``failure``).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        while index < segments.count {
            switch segments[index] {
            case .bytes(let data):
                let count = min(capacity, data.count - offsetInData)
                if count > 0 {
                    data.withUnsafeBytes { raw in
                        guard let base = raw.baseAddress else { return }
                        buffer.copyMemory(from: base + offsetInData, byteCount: count)
                    }
                    digest?.update(UnsafeRawBufferPointer(start: buffer, count: count))
                    offsetInData += count
                    return count
                }
                index += 1
                offsetInData = 0
            case .file(let path, let offset, let length):
                if descriptor < 0 {
                    descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else {
                        failure = .cannotReadBody(path: path, reason: String(cString: strerror(errno)))
                        return nil
                    }
                    #if os(Linux)
                    _ = posix_fadvise(descriptor, off_t(offset), off_t(length ?? 0), POSIX_FADV_SEQUENTIAL)
                    #endif
                    position = offset
                    remainingInFile = length ?? Int64.max
                }
                let wanted = Int(min(Int64(capacity), remainingInFile))
                let count = wanted == 0 ? 0 : pread(descriptor, buffer, wanted, off_t(position))
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = .cannotReadBody(path: path, reason: String(cString: strerror(errno)))
                    return nil
                }
                if count > 0 {
                    digest?.update(UnsafeRawBufferPointer(start: buffer, count: count))
                    position += Int64(count)
                    remainingInFile -= Int64(count)
                    return count
                }
                if length != nil && remainingInFile > 0 {
                    // The file shrank under us: sending fewer bytes than the Content-Length promised would hang.
                    failure = .cannotReadBody(path: path, reason: "the file ended \(remainingInFile) bytes early")
                    return nil
                }
                close(descriptor)
                descriptor = -1
                index += 1
            }
        }
        return 0
    }
}
