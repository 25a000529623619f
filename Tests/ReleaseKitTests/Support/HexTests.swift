import Testing

@testable import ReleaseSupport

@Suite struct HexTests {
    @Test func bytesReadBackWhatStringWrites() {
        let bytes: [UInt8] = [0x00, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(Hex.bytes(Hex.string(bytes)) == bytes)
        #expect(Hex.bytes(Hex.string(bytes, uppercase: true)) == bytes)
        #expect(Hex.bytes("") == [])
    }

    /// A signature or digest from a file or a header is a value nobody controls: anything but pairs of hex digits
    /// spells no bytes, signs and spaces included (`UInt8("+f", radix: 16)` would take the sign).
    @Test func anythingButPairsOfDigitsIsRefused() {
        for text in ["0", "abc", "+f", "0x00", " 00", "0g", "éé"] {
            #expect(Hex.bytes(text) == nil, "\(text)")
        }
    }
}
