import Foundation
import NIOCore
import NIOPosix
import ReleaseSupport
import Synchronization

/// A file that local servers read or write only on NIO's blocking thread pool, so neither an event loop nor
/// Swift's cooperative pool ever waits on the disk.
///
/// This is what NIO recommends for blocking work (`NIOThreadPool`); its `NonBlockingFileIO` is on its way
/// out and `_NIOFileSystem` has no stable API yet. Bytes written are hashed (SHA-256) on the same pool
/// thread as they pass, so an upload is stored and digested in one pass without ever being held whole.
final class PooledFile: Sendable {
    private let handle: Mutex<FileHandle?>
    private let digest = StreamingDigest()
    private static var pool: NIOThreadPool { .singleton }

    private init(handle: FileHandle) {
        self.handle = Mutex(handle)
    }

    /// Creates (or truncates) `path` for writing.
    static func create(_ path: String) async throws -> PooledFile {
        try await pool.runIfActive {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            return PooledFile(handle: handle)
        }
    }

    /// Opens `path` for writing from `offset` on, creating it when missing and keeping what it holds: the parts
    /// of one upload arrive in any order, each written at its own offset. The digest covers this writer's bytes.
    static func update(_ path: String, at offset: Int64) async throws -> PooledFile {
        try await pool.runIfActive {
            // Parts arrive at once: create the file without truncating it (a "create if missing" racing another
            // part's write would replace the file that part is writing into, and lose its bytes).
            let descriptor = Platform.openForWriting(path)
            guard descriptor >= 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.seek(toOffset: UInt64(offset))
            return PooledFile(handle: handle)
        }
    }

    /// Opens `path` for reading; nil when it cannot be opened.
    static func open(_ path: String) async -> PooledFile? {
        try? await pool.runIfActive {
            FileHandle(forReadingAtPath: path).map(PooledFile.init(handle:))
        }
    }

    /// Appends `buffers` in order and adds them to the digest.
    func write(_ buffers: [ByteBuffer]) async throws {
        try await Self.pool.runIfActive { [self] in
            try handle.withLock { handle in
                guard let handle else { throw CocoaError(.fileWriteUnknown) }
                for buffer in buffers {
                    try buffer.withUnsafeReadableBytes { bytes in
                        digest.update(bytes)
                        try handle.write(contentsOf: bytes)
                    }
                }
            }
        }
    }

    /// The next at most `count` bytes; nil at the end of the file or on a read error.
    func read(upTo count: Int) async -> ByteBuffer? {
        let data = try? await Self.pool.runIfActive { [self] in
            try handle.withLock { handle in try handle?.read(upToCount: count) }
        }
        guard let data, !data.isEmpty else { return nil }
        return ByteBuffer(bytes: data)
    }

    /// Closes the file; returns the bytes written and their lower-case hex SHA-256.
    @discardableResult
    func close() async -> (bytes: Int64, sha256: String) {
        _ = try? await Self.pool.runIfActive { [self] in
            handle.withLock { handle in
                try? handle?.close()
                handle = nil
            }
        }
        return (digest.count, digest.hex)
    }
}
