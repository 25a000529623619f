/// Random reads of a Mach-O file's bytes: a file on disk, a byte buffer, or a zip entry's data.
///
/// The reader asks only for headers and load commands, in increasing offset order, so a forward-only source
/// (a compressed zip entry) works too.
package protocol MachOByteSource {
    /// Total size in bytes, when known (a streamed zip entry may not know it).
    var size: Int64? { get }
    /// Up to `count` bytes at `offset`; fewer only at the end of the data.
    func read(offset: Int64, count: Int) throws(MachOError) -> [UInt8]
}
