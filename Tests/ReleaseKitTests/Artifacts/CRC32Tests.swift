import Testing

@testable import ReleaseArtifacts

@Test func crc32MatchesKnownValues() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    // Chunked updates give the same value as one.
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var chunked = CRC32()
    for start in stride(from: 0, to: bytes.count, by: 333) {
        bytes[start..<min(start + 333, bytes.count)].withUnsafeBytes { chunked.update($0) }
    }
    #expect(chunked.value == CRC32.checksum(bytes))
}
