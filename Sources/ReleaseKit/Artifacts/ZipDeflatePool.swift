import Foundation

/// Compresses the chunks of a zip's file entries on several threads and hands them back in zip order.
///
/// The writer lists every chunk up front (``Job``s, in the order they go into the zip); workers take the next
/// job, read its bytes with `pread`, deflate them (or keep them, for level 0) and CRC them. The writing thread
/// takes results strictly in order with ``take(_:)``; workers stay at most ``window`` jobs ahead of it, so
/// memory stays a few MiB whatever the tree's size. Which worker compressed a chunk never changes its bytes.
///
/// `@unchecked Sendable`: all mutable state is guarded by `condition` (an `NSCondition`, because the writer
/// and the workers wait for each other); the jobs and options are immutable.
final class ZipDeflatePool: @unchecked Sendable {
    /// One piece of one file: `length` bytes from `offset`.
    struct Job: Sendable {
        var path: String
        var fileSize: Int64
        var offset: Int64
        var length: Int
        /// Whether this chunk ends its entry (its deflate stream is finished, not sync-flushed).
        var isLast: Bool
    }

    /// A compressed (or, for level 0 and incompressible single-chunk files, stored) chunk.
    struct Chunk: Sendable {
        var data: [UInt8]
        var crc: UInt32
        var length: Int
        /// The data is the file's bytes as they are: the entry must use method 0.
        var isStored: Bool
    }

    /// Bytes per chunk. Fixed, so the same tree gives the same bytes with any number of workers.
    static let chunkSize = 1 << 20

    private let jobs: [Job]
    private let level: Int
    private let window: Int
    private let condition = NSCondition()
    private var nextJob = 0
    private var consumed = 0
    private var results: [Int: Result<Chunk, ArchiveError>] = [:]
    private var stopped = false
    private var running = 0

    /// Starts `workers` threads on `jobs`.
    init(jobs: [Job], level: Int, workers: Int) {
        self.jobs = jobs
        self.level = level
        let count = max(1, min(workers, jobs.count))
        window = count * 4
        guard !jobs.isEmpty else { return }
        running = count
        for _ in 0..<count {
            let thread = Thread { [self] in work() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Waits for job `index`'s chunk; call with 0, 1, 2… in order.
    func take(_ index: Int) throws(ArchiveError) -> Chunk {
        condition.lock()
        while results[index] == nil { condition.wait() }
        let result = results.removeValue(forKey: index)!
        consumed = index + 1
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }

    /// Stops the workers and waits until none is running (they borrow nothing from the caller, but a finished
    /// write must not leave threads reading its files).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        let deflater: RawDeflater?
        do {
            deflater = level > 0 ? try RawDeflater(level: level) : nil
        } catch {
            finish(startFailure: error)
            return
        }
        let dictionary = RawDeflater.dictionarySize
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: dictionary + Self.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while let index = nextIndex() {
            let result = Result { () throws(ArchiveError) -> Chunk in
                try compress(jobs[index], deflater: deflater, buffer: buffer)
            }
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }
        finish(startFailure: nil)
    }

    private func nextIndex() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopped || nextJob >= jobs.count { return nil }
            if nextJob < consumed + window {
                nextJob += 1
                return nextJob - 1
            }
            condition.wait()
        }
    }

    private func finish(startFailure: ArchiveError?) {
        condition.lock()
        if let startFailure {
            // Without a deflater this worker cannot help: fail every job no one has taken yet.
            while nextJob < jobs.count {
                results[nextJob] = .failure(startFailure)
                nextJob += 1
            }
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func compress(_ job: Job, deflater: RawDeflater?, buffer: UnsafeMutableRawBufferPointer) throws(ArchiveError) -> Chunk {
        let primed = deflater == nil ? 0 : Int(min(Int64(RawDeflater.dictionarySize), job.offset))
        let descriptor = open(job.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArchiveError.io(path: job.path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let wanted = primed + job.length
        var done = 0
        while done < wanted {
            let count = pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(job.offset - Int64(primed) + Int64(done)))
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.io(path: job.path, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                throw ArchiveError.fileChanged(path: job.path, expected: job.fileSize, actual: job.offset - Int64(primed) + Int64(done))
            }
            done += count
        }
        let data = UnsafeRawBufferPointer(rebasing: buffer[primed..<wanted])
        let crc = CRC32.update(0, data)
        guard let deflater else {
            return Chunk(data: Array(data), crc: crc, length: job.length, isStored: true)
        }
        var output: [UInt8] = []
        try deflater.compress(data, dictionary: UnsafeRawBufferPointer(rebasing: buffer[0..<primed]), final: job.isLast, into: &output)
        // Like zip, store a one-chunk file that deflate would not shrink (already-compressed images, archives).
        if job.offset == 0 && job.isLast && output.count >= job.length {
            return Chunk(data: Array(data), crc: crc, length: job.length, isStored: true)
        }
        return Chunk(data: output, crc: crc, length: job.length, isStored: false)
    }
}
