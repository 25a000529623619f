internal import CZlib

/// Owns one zlib raw-deflate stream (`deflateInit2` … `deflateEnd`), reset and reused for every chunk a
/// ``ZipDeflatePool`` worker compresses.
///
/// Chunks are compressed pigz-style (see zlib's `deflateSetDictionary` and `Z_SYNC_FLUSH` in
/// https://zlib.net/manual.html): each chunk starts from a reset stream primed with the 32 KiB of data before
/// it, so back-references still reach across the boundary, and every chunk but an entry's last ends with a
/// sync flush (an empty stored block) so the chunks concatenate into one valid deflate stream. The output is
/// within a few bytes per MiB of compressing the entry in one go, and it depends only on the data and the
/// chunk size, never on which thread compressed what.
final class RawDeflater {
    /// The largest window a back-reference can reach: what each chunk is primed with.
    static let dictionarySize = 32 << 10

    private let stream: UnsafeMutablePointer<z_stream>

    /// - Throws: ``ArchiveError/library(operation:path:message:)`` when zlib cannot allocate its state.
    init(level: Int) throws(ArchiveError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_deflate_init_raw(stream, Int32(level))
        guard status == Z_OK else {
            stream.deallocate()
            throw ArchiveError.library(operation: "start deflate level \(level) for", path: "zip", message: "zlib error \(status)")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `input` into `output` (replacing its contents).
    /// - Parameters:
    ///   - dictionary: The data just before `input` in the same entry (at most 32 KiB), or empty for its start.
    ///   - final: Whether this is the entry's last chunk (ends the deflate stream) or not (sync flush).
    func compress(_ input: UnsafeRawBufferPointer, dictionary: UnsafeRawBufferPointer, final: Bool, into output: inout [UInt8]) throws(ArchiveError) {
        deflateReset(stream)
        if let base = dictionary.baseAddress, dictionary.count > 0 {
            let status = deflateSetDictionary(stream, base.assumingMemoryBound(to: Bytef.self), uInt(dictionary.count))
            guard status == Z_OK else { throw Self.failure(status) }
        }
        // deflateBound covers Z_FINISH; a sync flush adds at most an empty stored block and a partial byte.
        let capacity = Int(deflateBound(stream, uLong(input.count))) + 16
        var failure: Int32?
        output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(input.count)
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = uInt(capacity)
            let status = deflate(stream, final ? Z_FINISH : Z_SYNC_FLUSH)
            count = capacity - Int(stream.pointee.avail_out)
            let done = final ? status == Z_STREAM_END : (status == Z_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0)
            if !done { failure = status }
        }
        if let failure { throw Self.failure(failure) }
    }

    private static func failure(_ status: Int32) -> ArchiveError {
        .library(operation: "deflate data for", path: "zip", message: "zlib error \(status)")
    }
}
