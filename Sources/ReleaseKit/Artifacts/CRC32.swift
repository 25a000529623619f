internal import CZlib
import Foundation

/// CRC-32 (IEEE 802.3, the zip checksum), computed by zlib, which uses the CPU's carry-less multiply where there
/// is one. One type for the zip writer, the parallel deflate pool and the verifier.
struct CRC32 {
    /// The checksum of everything added so far.
    private(set) var value: UInt32 = 0

    /// Adds `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        value = Self.update(value, bytes)
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(0, $0) }
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var base = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return crc }
        var value = uLong(crc)
        var remaining = bytes.count
        // `crc32` takes a 32-bit length (uInt): feed buffers over 4 GiB in pieces.
        while remaining > 0 {
            let piece = min(remaining, 1 << 30)
            value = crc32(value, base, uInt(piece))
            base += piece
            remaining -= piece
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The CRC-32 of two pieces of data from the CRC of each and the length of the second.
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int64) -> UInt32 {
        // `z_off_t` is `off_t` on both systems (zconf.h with Z_HAVE_UNISTD_H): Int on Glibc, Int64 on Darwin.
        UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), off_t(secondLength)))
    }
}
