import Crypto
import Foundation

/// SHA-256 of files, read in chunks so a multi-gigabyte file never sits in memory.
package enum FileDigest {
    /// Why a file could not be hashed.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing is at `path`.
        case missing(path: String)
        /// It is there but could not be read.
        case cannotRead(path: String, reason: String)

        package var description: String {
            switch self {
            case .missing(let path): return "no such file '\(path)'"
            case .cannotRead(let path, let reason): return "cannot read '\(path)': \(reason)"
            }
        }
    }

    /// Bytes read at a time: 256 KiB keeps the read calls few (4,000 per GB) and the memory small, since each chunk
    /// is a fresh allocation that malloc keeps resident (1 MiB chunks cost 0.8 MB more peak RSS in an upload).
    static let chunkSize = 256 << 10

    /// Lower-case hex SHA-256 and size of the file at `path`. Blocking: from async code use
    /// ``sha256(ofFile:)-async``, which runs off the cooperative pool.
    /// - Parameter cancellation: polled between chunks; the read stops with `CancellationError` when set.
    package static func sha256(ofFile path: String, cancellation: CancellationFlag? = nil) throws -> (hex: String, size: Int64) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { throw Failure.missing(path: path) }
            throw Failure.cannotRead(path: path, reason: "permission denied")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while true {
            if cancellation?.isCancelled == true { throw CancellationError() }
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw Failure.cannotRead(path: path, reason: "\(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (Hex.string(hasher.finalize()), size)
    }

    /// The same, on a thread of its own: hashing a 1 GB file must not hold a cooperative-pool thread, and
    /// cancelling the calling task stops the read.
    package static func sha256(ofFile path: String) async throws -> (hex: String, size: Int64) {
        try await BlockingWork.run { flag in try sha256(ofFile: path, cancellation: flag) }
    }

    /// Lower-case hex SHA-256 of `data`.
    package static func sha256(of data: Data) -> String {
        Hex.string(SHA256.hash(data: data))
    }

    /// An ``Artifact`` for the file at `path`, hashed off the cooperative pool.
    package static func artifact(at path: String) async throws -> Artifact {
        let (digest, size) = try await sha256(ofFile: path)
        return Artifact(path: path, size: size, sha256: digest)
    }
}
