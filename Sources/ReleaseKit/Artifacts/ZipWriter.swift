import Foundation
import ReleaseSupport

/// Writes zips the way `zip -ry` does, compressing on every core.
///
/// - Symbolic links are stored as links (their target is the entry's data), never followed, even when they
///   dangle or point outside the tree; folders get entries of their own; permissions travel in the external
///   attributes; entry names are relative to each source's parent (`App.xcarchive/Info.plist`).
/// - Files are cut into 1 MiB chunks that a ``ZipDeflatePool`` deflates in parallel with zlib (libarchive
///   writes one entry at a time on one thread, which caps it at one core); ``ZipContainerWriter`` writes the
///   zip around them in order. Memory does not grow with file size. Entries over 4 GiB, offsets past 4 GiB and
///   more than 65,535 entries get Zip64 records. libarchive still reads and verifies every zip.
/// - With ``ZipOptions/reuse``, files whose bytes are already compressed in another zip are copied from it.
/// - The zip is written to a temporary file beside the output and renamed over it at the end: a failure or a
///   cancellation leaves no partial file, and readers never see half a zip.
package struct ZipWriter: Sendable {
    /// Size of the chunks file data is read and compressed in.
    static let chunkSize = ZipDeflatePool.chunkSize

    package let options: ZipOptions

    package init(options: ZipOptions) {
        self.options = options
    }

    /// Zips `sources` into `output`, blocking the calling thread (and using ``ZipOptions/workers`` more).
    /// - Parameters:
    ///   - sources: Files or folders; each becomes a top-level entry named after its last component.
    ///   - output: The zip to create or replace.
    ///   - progress: Called after each chunk and each entry, on the calling thread.
    ///   - isCancelled: Polled between entries and chunks; when it returns true the call throws
    ///     `CancellationError` and removes its temporary file.
    /// - Throws: ``ArchiveError``, or `CancellationError`.
    package func write(
        sources: [String],
        to output: String,
        progress: (ZipProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> ZipResult {
        let outputPath = Self.absolute(output)
        let sourcePaths = sources.map(Self.absolute)
        let entries = try ZipSourceTree.scan(sources: sourcePaths, exclude: options.exclude, skipping: [outputPath])
        let total = entries.reduce(Int64(0)) { $0 + $1.size }
        let workers = options.workers > 0 ? options.workers : ProcessInfo.processInfo.activeProcessorCount
        let reused = try reusableEntries(entries, workers: workers)

        // Every chunk of every file to compress, in zip order.
        var jobs: [ZipDeflatePool.Job] = []
        for (index, file) in entries.enumerated() where file.kind == .file && file.size > 0 && reused[index] == nil {
            var offset: Int64 = 0
            while offset < file.size {
                let length = Int(min(Int64(Self.chunkSize), file.size - offset))
                jobs.append(.init(path: file.path, fileSize: file.size, offset: offset, length: length, isLast: offset + Int64(length) == file.size))
                offset += Int64(length)
            }
        }

        let temporary = AtomicFile.temporaryPath(for: outputPath)
        var committed = false
        defer { if !committed { unlink(temporary) } }
        let output = try ArchiveOutput(creating: temporary, displayPath: outputPath)
        let pool = ZipDeflatePool(jobs: jobs, level: options.level, workers: workers)
        defer { pool.stop() }
        let container = ZipContainerWriter(output: output, deterministic: options.deterministic, displayPath: outputPath)
        let method: UInt16 = options.level == 0 ? 0 : 8
        var done: Int64 = 0
        var nextJob = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        for (index, file) in entries.enumerated() {
            if isCancelled() { throw CancellationError() }
            let header = ZipContainerWriter.Header(
                name: file.entryName, mode: file.mode, isDirectory: file.kind == .directory,
                modificationTime: file.modificationTime, uid: file.uid, gid: file.gid)
            switch file.kind {
            case .directory:
                try container.writeEntry(header, method: 0, crc: 0, compressedSize: 0, size: 0) {}
            case .symlink(let target):
                var bytes = Array(target.utf8)
                let crc = bytes.withUnsafeBytes { CRC32.update(0, $0) }
                try container.writeEntry(header, method: 0, crc: crc, compressedSize: Int64(bytes.count), size: Int64(bytes.count)) { () throws in
                    try bytes.withUnsafeMutableBytes { (raw) throws in try container.writeData(UnsafeRawBufferPointer(raw)) }
                }
            case .file where file.size == 0:
                try container.writeEntry(header, method: 0, crc: 0, compressedSize: 0, size: 0) {}
            case .file:
                if let location = reused[index] {
                    try container.writeEntry(header, method: location.method, crc: location.crc, compressedSize: location.compressedSize, size: location.size) { () throws in
                        try copy(location, into: container, buffer: buffer)
                    }
                    done += file.size
                } else if file.size <= Int64(Self.chunkSize) {
                    let chunk = try pool.take(nextJob)
                    nextJob += 1
                    try container.writeEntry(header, method: chunk.isStored ? 0 : method, crc: chunk.crc, compressedSize: Int64(chunk.data.count), size: file.size) { () throws in
                        try chunk.data.withUnsafeBytes { (bytes) throws in try container.writeData(bytes) }
                    }
                    done += file.size
                } else {
                    container.beginStreamedEntry(header, method: method, size: file.size)
                    var crc: UInt32 = 0
                    var compressed: Int64 = 0
                    var read: Int64 = 0
                    while read < file.size {
                        if isCancelled() { throw CancellationError() }
                        let chunk = try pool.take(nextJob)
                        nextJob += 1
                        try chunk.data.withUnsafeBytes { (bytes) throws in try container.writeData(bytes) }
                        crc = read == 0 ? chunk.crc : CRC32.combine(crc, chunk.crc, secondLength: Int64(chunk.length))
                        compressed += Int64(chunk.data.count)
                        read += Int64(chunk.length)
                        done += Int64(chunk.length)
                        progress(ZipProgress(bytesDone: done, bytesTotal: total, entriesDone: index, entriesTotal: entries.count))
                    }
                    try container.endStreamedEntry(crc: crc, compressedSize: compressed, size: file.size)
                }
            }
            progress(ZipProgress(bytesDone: done, bytesTotal: total, entriesDone: index + 1, entriesTotal: entries.count))
        }
        try container.finish()
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
    package func write(
        sources: [String],
        to output: String,
        progress: @escaping @Sendable (ZipProgress) -> Void = { _ in }
    ) async throws -> ZipResult {
        try await BlockingWork.run { flag in
            try self.write(sources: sources, to: output, progress: progress, isCancelled: { flag.isCancelled })
        }
    }

    /// The entries of ``ZipOptions/reuse`` zips that hold exactly the bytes of some of `entries`, by index.
    /// Files are read for their CRC-32 on `workers` threads.
    private func reusableEntries(_ entries: [ZipSourceEntry], workers: Int) throws -> [Int: ZipReuseIndex.Location] {
        guard !options.reuse.isEmpty else { return [:] }
        let index = ZipReuseIndex(zips: options.reuse.map(Self.absolute))
        guard !index.isEmpty else { return [:] }
        var found: [(Int, [ZipReuseIndex.Location])] = []
        for (position, file) in entries.enumerated() where file.kind == .file && file.size > 0 {
            let last = (file.path as NSString).lastPathComponent
            // Level 0 asks for stored data: reuse only stored entries then.
            let locations = index.candidates(size: file.size, lastComponent: last).filter { options.level > 0 || $0.method == 0 }
            if !locations.isEmpty { found.append((position, locations)) }
        }
        let candidates = found
        let matches = ReuseMatches(count: candidates.count)
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, candidates.count))) { worker in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
            defer { buffer.deallocate() }
            for slot in stride(from: worker, to: candidates.count, by: workers) {
                let (position, locations) = candidates[slot]
                guard let crc = try? Self.crc(of: entries[position], buffer: buffer) else { continue }
                matches.set(slot, locations.first { $0.crc == crc })
            }
        }
        var result: [Int: ZipReuseIndex.Location] = [:]
        for (slot, (position, _)) in candidates.enumerated() {
            if let location = matches.get(slot) { result[position] = location }
        }
        return result
    }

    /// The CRC-32 of a file's current bytes; throws if it is not `file.size` long.
    private static func crc(of file: ZipSourceEntry, buffer: UnsafeMutableRawBufferPointer) throws -> UInt32 {
        let source = try ReadOnlyFile(path: file.path)
        guard source.size == file.size else { throw ArchiveError.fileChanged(path: file.path, expected: file.size, actual: source.size) }
        var crc: UInt32 = 0
        var offset: Int64 = 0
        while offset < file.size {
            let count = Int(min(Int64(buffer.count), file.size - offset))
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            try source.read(into: piece, at: offset)
            crc = CRC32.update(crc, UnsafeRawBufferPointer(piece))
            offset += Int64(count)
        }
        return crc
    }

    /// Copies a reused entry's compressed bytes from its zip.
    private func copy(_ location: ZipReuseIndex.Location, into container: ZipContainerWriter, buffer: UnsafeMutableRawBufferPointer) throws {
        let zip = try ReadOnlyFile(path: location.zip)
        var offset = try ZipReuseIndex.dataOffset(of: location, in: zip)
        var remaining = location.compressedSize
        while remaining > 0 {
            let count = Int(min(Int64(buffer.count), remaining))
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            try zip.read(into: piece, at: offset)
            try container.writeData(UnsafeRawBufferPointer(piece))
            offset += Int64(count)
            remaining -= Int64(count)
        }
    }

    static func absolute(_ path: String) -> String {
        FilePath.absolute(path)
    }
}

/// Matches found by the threads of ``ZipWriter``'s reuse pass, one slot per candidate file.
///
/// `@unchecked Sendable`: every access holds `lock`.
private final class ReuseMatches: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ZipReuseIndex.Location?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ slot: Int, _ location: ZipReuseIndex.Location?) {
        lock.lock()
        slots[slot] = location
        lock.unlock()
    }

    func get(_ slot: Int) -> ZipReuseIndex.Location? {
        lock.lock()
        defer { lock.unlock() }
        return slots[slot]
    }
}
