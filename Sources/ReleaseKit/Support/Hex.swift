/// Hexadecimal text of bytes: digests, UUIDs, byte dumps in messages.
public enum Hex {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Two digits per byte, lower case unless `uppercase`.
    public static func string<Bytes: Sequence>(_ bytes: Bytes, uppercase: Bool = false) -> String where Bytes.Element == UInt8 {
        let digits = uppercase ? upper : lower
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `0x7f`: one byte as C writes it, for messages about a file's contents.
    public static func byte(_ byte: UInt8) -> String {
        "0x" + string([byte])
    }
}

extension Hex {
    /// Eight lower-case digits of a 32-bit value, most significant first (`0badf00d`): checksums, magic numbers.
    public static func digits(_ value: UInt32) -> String {
        string([UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
