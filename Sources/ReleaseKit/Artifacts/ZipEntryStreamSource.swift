/// The data of a zip reader's current entry as a forward-moving ``MachOByteSource``.
///
/// A compressed entry can only be read front to back. Bytes between the structures the Mach-O reader asks
/// for are decompressed and dropped (so a fat binary's later slices are reached without keeping the file);
/// the bytes of recent reads are kept, so the reader may look at the same header twice.
final class ZipEntryStreamSource: MachOByteSource {
    /// Kept bytes are trimmed past this size.
    static let windowLimit = 1 << 20

    private let reader: ZipReader
    private let entryPath: String
    let size: Int64?
    /// Bytes `[windowStart, windowStart + window.count)` of the entry; the reader's position is the end.
    private var window: [UInt8] = []
    private var windowStart: Int64 = 0

    init(reader: ZipReader, entry: ZipEntry) {
        self.reader = reader
        self.entryPath = entry.path
        self.size = entry.size
    }

    func read(offset: Int64, count: Int) throws(MachOError) -> [UInt8] {
        guard offset >= windowStart else {
            throw MachOError.malformed(path: entryPath, detail: "structure at offset '\(offset)' lies before one already read")
        }
        guard count > 0 else { return [] }
        do {
            var position = windowStart + Int64(window.count)
            if offset > position {
                while position < offset {
                    let skipped = try reader.read(upTo: Int(min(offset - position, 1 << 16)))
                    if skipped.isEmpty { return [] }
                    position += Int64(skipped.count)
                }
                window = []
                windowStart = offset
            }
            let end = offset + Int64(count)
            while windowStart + Int64(window.count) < end {
                let more = try reader.read(upTo: Int(end - windowStart) - window.count)
                if more.isEmpty { break }
                window.append(contentsOf: more)
            }
        } catch {
            throw MachOError.unreadable(path: entryPath, reason: "\(error)")
        }
        let from = Int(offset - windowStart)
        guard from < window.count else { return [] }
        let to = min(window.count, from + count)
        let bytes = Array(window[from..<to])
        if window.count > Self.windowLimit {
            window.removeFirst(from)
            windowStart = offset
        }
        return bytes
    }
}
