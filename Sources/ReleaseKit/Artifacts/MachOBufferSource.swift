/// Mach-O bytes already in memory (a zip entry's first bytes, a test's synthesized header).
package struct MachOBufferSource: MachOByteSource {
    /// The bytes: a whole file or its first part.
    package let bytes: [UInt8]

    /// Reads from `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var size: Int64? { Int64(bytes.count) }

    package func read(offset: Int64, count: Int) throws(MachOError) -> [UInt8] {
        guard offset >= 0, offset < Int64(bytes.count), count > 0 else { return [] }
        let start = Int(offset)
        let end = start + min(count, bytes.count - start)
        return Array(bytes[start..<end])
    }
}
