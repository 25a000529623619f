import Foundation

/// Writes zips the way `zip -ry` does, through libarchive.
///
/// - Symbolic links are stored as links (their target is the entry's data), never followed, even when they
///   dangle or point outside the tree; folders get entries of their own; permissions travel in the external
///   attributes; entry names are relative to each source's parent (`App.xcarchive/Info.plist`).
/// - File data is streamed in 1 MiB chunks, so memory does not grow with file size. Entries over 4 GiB get
///   Zip64 extensions (libarchive adds them when an entry's size needs them).
/// - The zip is written to a temporary file beside the output and renamed over it at the end: a failure or a
///   cancellation leaves no partial file, and readers never see half a zip.
///
/// Entries are produced by ``ZipSourceTree`` and then written one at a time; a parallel compressor can replace
/// the writing loop without changing the listing, the options or the result.
public struct ZipWriter: Sendable {
    /// Size of the chunks file data is read in.
    static let chunkSize = 1 << 20

    public let options: ZipOptions

    public init(options: ZipOptions) {
        self.options = options
    }

    /// Zips `sources` into `output`, blocking the calling thread.
    /// - Parameters:
    ///   - sources: Files or folders; each becomes a top-level entry named after its last component.
    ///   - output: The zip to create or replace.
    ///   - progress: Called after each chunk and each entry.
    ///   - isCancelled: Polled between entries and chunks; when it returns true the call throws
    ///     `CancellationError` and removes its temporary file.
    /// - Throws: ``ArchiveError``, or `CancellationError`.
    public func write(
        sources: [String],
        to output: String,
        progress: (ZipProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> ZipResult {
        let outputPath = Self.absolute(output)
        let sourcePaths = sources.map(Self.absolute)
        let entries = try ZipSourceTree.scan(sources: sourcePaths, exclude: options.exclude, skipping: [outputPath])
        let total = entries.reduce(Int64(0)) { $0 + $1.size }

        let temporary = AtomicFile.temporaryPath(for: outputPath)
        var committed = false
        defer { if !committed { unlink(temporary) } }
        let output = try ArchiveOutput(creating: temporary, displayPath: outputPath)
        var done: Int64 = 0
        do {
            let writer = try ArchiveWriteHandle(output: output, level: options.level, displayPath: outputPath)
            let entry = try ArchiveEntryHandle()
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
            defer { buffer.deallocate() }
            for (index, file) in entries.enumerated() {
                if isCancelled() { throw CancellationError() }
                entry.describe(file, deterministic: options.deterministic)
                try writer.writeHeader(entry, name: file.entryName)
                if file.kind == .file && file.size > 0 {
                    try copy(file, into: writer, buffer: buffer, isCancelled: isCancelled) { chunk in
                        done += Int64(chunk)
                        progress(ZipProgress(bytesDone: done, bytesTotal: total, entriesDone: index, entriesTotal: entries.count))
                    }
                }
                try writer.finishEntry(name: file.entryName)
                progress(ZipProgress(bytesDone: done, bytesTotal: total, entriesDone: index + 1, entriesTotal: entries.count))
            }
            try writer.close()
        }
        let digest = output.finish()
        do {
            try AtomicFile.commit(temporary, to: outputPath)
        } catch {
            throw ArchiveError.io(path: outputPath, reason: "\(error)")
        }
        committed = true
        return ZipResult(path: outputPath, size: output.bytesWritten, sha256: digest, entries: entries.count, uncompressedBytes: total)
    }

    /// Zips `sources` into `output` on a thread of its own, stopping (with no partial file) when the task is
    /// cancelled.
    /// - Throws: ``ArchiveError``, or `CancellationError`.
    public func write(
        sources: [String],
        to output: String,
        progress: @escaping @Sendable (ZipProgress) -> Void = { _ in }
    ) async throws -> ZipResult {
        try await BlockingWork.run { flag in
            try self.write(sources: sources, to: output, progress: progress, isCancelled: { flag.isCancelled })
        }
    }

    /// Streams one file's data into the current entry.
    private func copy(
        _ file: ZipSourceEntry,
        into writer: ArchiveWriteHandle,
        buffer: UnsafeMutableRawBufferPointer,
        isCancelled: () -> Bool,
        advanced: (Int) -> Void
    ) throws {
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArchiveError.io(path: file.path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var remaining = file.size
        while remaining > 0 {
            if isCancelled() { throw CancellationError() }
            let count = read(descriptor, buffer.baseAddress, Int(min(Int64(buffer.count), remaining)))
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.io(path: file.path, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                throw ArchiveError.fileChanged(path: file.path, expected: file.size, actual: file.size - remaining)
            }
            try writer.writeData(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), name: file.entryName)
            remaining -= Int64(count)
            advanced(count)
        }
    }

    static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        var result = url.standardizedFileURL.path
        while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
