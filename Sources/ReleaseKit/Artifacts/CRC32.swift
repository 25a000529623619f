/// CRC-32 (IEEE 802.3, the zip checksum), slicing-by-8 so checking a big tree is not dominated by it.
struct CRC32 {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var value = UInt32(byte)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            tables[0][byte] = value
        }
        for byte in 0..<256 {
            for table in 1..<8 {
                let previous = tables[table - 1][byte]
                tables[table][byte] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of everything added so far.
    var value: UInt32 { ~state }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        let t = Self.tables
        var crc = state
        var index = 0
        let count = bytes.count
        t[0].withUnsafeBufferPointer { t0 in
        t[1].withUnsafeBufferPointer { t1 in
        t[2].withUnsafeBufferPointer { t2 in
        t[3].withUnsafeBufferPointer { t3 in
        t[4].withUnsafeBufferPointer { t4 in
        t[5].withUnsafeBufferPointer { t5 in
        t[6].withUnsafeBufferPointer { t6 in
        t[7].withUnsafeBufferPointer { t7 in
            while index + 8 <= count {
                let one = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                let two = UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
                crc = t7[Int(one & 0xFF)] ^ t6[Int((one >> 8) & 0xFF)] ^ t5[Int((one >> 16) & 0xFF)] ^ t4[Int(one >> 24)]
                    ^ t3[Int(two & 0xFF)] ^ t2[Int((two >> 8) & 0xFF)] ^ t1[Int((two >> 16) & 0xFF)] ^ t0[Int(two >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
        }}}}}}}}
        state = crc
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update($0) }
        return crc.value
    }
}
