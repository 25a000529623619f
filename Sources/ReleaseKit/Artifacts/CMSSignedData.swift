/// Reads the signed content out of a CMS (PKCS #7) SignedData message, as provisioning profiles are.
///
/// Only the path to the content is decoded (RFC 5652 §5.1–5.2): `ContentInfo { contentType, [0] SignedData }`,
/// `SignedData { version, digestAlgorithms, encapContentInfo, … }`, `EncapsulatedContentInfo { eContentType,
/// [0] eContent OCTET STRING }`. Both DER (one primitive OCTET STRING, as Apple writes profiles) and BER as
/// `openssl cms -stream` writes it (indefinite lengths, the content split into a constructed OCTET STRING of
/// chunks) are read. Certificates and signatures are skipped, not verified.
public enum CMSSignedData {
    /// Why the content could not be read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not BER at `offset`.
        case malformed(offset: Int, reason: String)
        /// The message is not a SignedData, or it carries no content (a detached signature).
        case unexpected(String)

        /// The message, lower-case, naming the offending value.
        public var description: String {
            switch self {
            case .malformed(let offset, let reason): return "malformed CMS at byte \(offset): \(reason)"
            case .unexpected(let reason): return reason
            }
        }
    }

    /// The OID 1.2.840.113549.1.7.2 (`pkcs7-signedData`), content bytes.
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// The encapsulated content (`eContent`) of the SignedData message in `bytes`.
    /// - Throws: ``Failure``.
    public static func content(of bytes: [UInt8]) throws(Failure) -> [UInt8] {
        guard bytes.first == 0x30 else { throw .unexpected("not a CMS message: it does not start with a SEQUENCE") }
        let reader = Reader(bytes: bytes)
        let contentInfo = try reader.element(at: 0, limit: bytes.count)
        let info = try reader.children(of: contentInfo, expecting: 0x30, name: "ContentInfo")
        guard info.count >= 2, info[0].tag == 0x06, reader.content(of: info[0]) == signedDataOID else {
            throw .unexpected("not a CMS SignedData message")
        }
        let explicit = try reader.children(of: info[1], expecting: 0xA0, name: "ContentInfo.content")
        guard let signedData = explicit.first else { throw .unexpected("empty SignedData") }
        let fields = try reader.children(of: signedData, expecting: 0x30, name: "SignedData")
        guard fields.count >= 3 else { throw .unexpected("SignedData has \(fields.count) fields, expected at least 3") }
        let encapsulated = try reader.children(of: fields[2], expecting: 0x30, name: "EncapsulatedContentInfo")
        guard encapsulated.count >= 2 else { throw .unexpected("the signature is detached: the message carries no content") }
        let wrapper = try reader.children(of: encapsulated[1], expecting: 0xA0, name: "eContent")
        guard let octets = wrapper.first else { throw .unexpected("empty eContent") }
        return try reader.octets(octets, depth: 0)
    }

    /// One BER element: its tag byte and where its contents are.
    struct Element {
        var tag: UInt8
        var offset: Int
        var contentStart: Int
        /// End of the contents (the end-of-contents marker's offset for indefinite lengths).
        var contentEnd: Int
        /// Offset after the element (after the end-of-contents marker for indefinite lengths).
        var end: Int
        var constructed: Bool { tag & 0x20 != 0 }
    }

    struct Reader {
        let bytes: [UInt8]

        func element(at offset: Int, limit: Int, depth: Int = 0) throws(Failure) -> Element {
            guard depth < 32 else { throw .malformed(offset: offset, reason: "nested too deeply") }
            guard offset + 2 <= limit else { throw .malformed(offset: offset, reason: "truncated header") }
            let tag = bytes[offset]
            guard tag & 0x1F != 0x1F else { throw .malformed(offset: offset, reason: "multi-byte tags are not used in CMS") }
            var position = offset + 1
            let first = bytes[position]
            position += 1
            if first == 0x80 {
                guard tag & 0x20 != 0 else { throw .malformed(offset: offset, reason: "indefinite length on a primitive element") }
                var child = position
                while true {
                    guard child + 2 <= limit else { throw .malformed(offset: child, reason: "missing end-of-contents") }
                    if bytes[child] == 0, bytes[child + 1] == 0 {
                        return Element(tag: tag, offset: offset, contentStart: position, contentEnd: child, end: child + 2)
                    }
                    child = try element(at: child, limit: limit, depth: depth + 1).end
                }
            }
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count <= 4, position + count <= limit else { throw .malformed(offset: offset, reason: "bad length") }
                for byte in bytes[position..<(position + count)] { length = length << 8 | Int(byte) }
                position += count
            }
            guard position + length <= limit else { throw .malformed(offset: offset, reason: "length \(length) runs past the end") }
            return Element(tag: tag, offset: offset, contentStart: position, contentEnd: position + length, end: position + length)
        }

        func children(of element: Element, expecting tag: UInt8, name: String) throws(Failure) -> [Element] {
            guard element.tag == tag else {
                throw .malformed(offset: element.offset, reason: "\(name): expected tag \(Hex.byte(tag)), found \(Hex.byte(element.tag))")
            }
            var children: [Element] = []
            var position = element.contentStart
            while position < element.contentEnd {
                let child = try self.element(at: position, limit: element.contentEnd)
                children.append(child)
                position = child.end
            }
            return children
        }

        func content(of element: Element) -> [UInt8] {
            Array(bytes[element.contentStart..<element.contentEnd])
        }

        /// An OCTET STRING's bytes: primitive, or constructed from chunks (BER).
        func octets(_ element: Element, depth: Int) throws(Failure) -> [UInt8] {
            switch element.tag {
            case 0x04: return content(of: element)
            case 0x24:
                guard depth < 8 else { throw .malformed(offset: element.offset, reason: "nested too deeply") }
                var result: [UInt8] = []
                for chunk in try children(of: element, expecting: 0x24, name: "eContent") {
                    result += try octets(chunk, depth: depth + 1)
                }
                return result
            default:
                throw .malformed(offset: element.offset, reason: "eContent: expected an OCTET STRING, found tag \(Hex.byte(element.tag))")
            }
        }

    }
}
