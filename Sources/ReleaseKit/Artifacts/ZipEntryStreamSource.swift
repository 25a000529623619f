/// The data of a zip reader's current entry as a forward-only ``MachOByteSource``: bytes before the requested
/// offset are decompressed and dropped, so a fat binary's later slices are reached without keeping the file.
final class ZipEntryStreamSource: MachOByteSource {
    private let reader: ZipReader
    private let entryPath: String
    let size: Int64?
    private var position: Int64 = 0

    init(reader: ZipReader, entry: ZipEntry) {
        self.reader = reader
        self.entryPath = entry.path
        self.size = entry.size
    }

    func read(offset: Int64, count: Int) throws(MachOError) -> [UInt8] {
        guard offset >= position else {
            throw MachOError.malformed(path: entryPath, detail: "structure at offset '\(offset)' lies before one already read")
        }
        do {
            while position < offset {
                let skipped = try reader.read(upTo: Int(min(offset - position, 1 << 16)))
                if skipped.isEmpty { return [] }
                position += Int64(skipped.count)
            }
            let bytes = try reader.read(upTo: count)
            position += Int64(bytes.count)
            return bytes
        } catch {
            throw MachOError.unreadable(path: entryPath, reason: "\(error)")
        }
    }
}
