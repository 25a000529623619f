import ReleaseSupport
internal import SwiftASN1

/// Reads the signed content out of a CMS (PKCS #7) SignedData message, as provisioning profiles are.
///
/// Only the path to the content is decoded (RFC 5652 §5.1–5.2): `ContentInfo { contentType, [0] SignedData }`,
/// `SignedData { version, digestAlgorithms, encapContentInfo, … }`, `EncapsulatedContentInfo { eContentType,
/// [0] eContent OCTET STRING }`. Both DER (one primitive OCTET STRING, as Apple writes profiles) and BER as
/// `openssl cms -stream` writes it (indefinite lengths, the content split into a constructed OCTET STRING of
/// chunks) are read: swift-asn1's BER parser (the one swift-certificates reads CMS with) does the encoding,
/// nesting at most 50 deep; this type only walks the fields. Certificates and signatures are skipped, not verified.
package enum CMSSignedData {
    /// Why the content could not be read.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not one BER element, or a field has the wrong tag.
        case malformed(String)
        /// The message is not a SignedData, or it carries no content (a detached signature).
        case unexpected(String)

        /// The message, lower-case, naming the offending value.
        package var description: String {
            switch self {
            case .malformed(let reason): return "malformed CMS: \(reason)"
            case .unexpected(let reason): return reason
            }
        }
    }

    /// The OID 1.2.840.113549.1.7.2 (`pkcs7-signedData`), content bytes.
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// The encapsulated content (`eContent`) of the SignedData message in `bytes`.
    /// - Throws: ``Failure``.
    package static func content(of bytes: [UInt8]) throws(Failure) -> [UInt8] {
        guard bytes.first == 0x30 else { throw .unexpected("not a CMS message: it does not start with a SEQUENCE") }
        let root: ASN1Node
        do { root = try BER.parse(bytes) } catch { throw .malformed(reason(error)) }
        let info = try children(of: root, tag: 0x30, name: "ContentInfo")
        guard info.count >= 2, info[0].identifier == .objectIdentifier, case .primitive(let oid) = info[0].content,
            Array(oid) == signedDataOID
        else {
            throw .unexpected("not a CMS SignedData message")
        }
        let explicit = try children(of: info[1], tag: 0xA0, name: "ContentInfo.content")
        guard let signedData = explicit.first else { throw .unexpected("empty SignedData") }
        let fields = try children(of: signedData, tag: 0x30, name: "SignedData")
        guard fields.count >= 3 else { throw .unexpected("SignedData has \(fields.count) fields, expected at least 3") }
        let encapsulated = try children(of: fields[2], tag: 0x30, name: "EncapsulatedContentInfo")
        guard encapsulated.count >= 2 else { throw .unexpected("the signature is detached: the message carries no content") }
        let wrapper = try children(of: encapsulated[1], tag: 0xA0, name: "eContent")
        guard let octets = wrapper.first else { throw .unexpected("empty eContent") }
        guard octets.identifier == .octetString else {
            throw .malformed("eContent: expected an OCTET STRING, found tag \(Hex.byte(tag(of: octets)))")
        }
        // Primitive, or (BER) constructed from chunks, which swift-asn1 joins.
        do { return Array(try ASN1OctetString(berEncoded: octets, withIdentifier: .octetString).bytes) } catch {
            throw .malformed("eContent: \(reason(error))")
        }
    }

    /// The elements inside a constructed `node` whose identifier octet is `tag`.
    private static func children(of node: ASN1Node, tag expected: UInt8, name: String) throws(Failure) -> [ASN1Node] {
        guard tag(of: node) == expected, case .constructed(let nodes) = node.content else {
            throw .malformed("\(name): expected tag \(Hex.byte(expected)), found \(Hex.byte(tag(of: node)))")
        }
        return Array(nodes)
    }

    /// The identifier octet as written (tags in CMS are all single-octet).
    private static func tag(of node: ASN1Node) -> UInt8 { node.encodedBytes.first ?? 0 }

    /// swift-asn1's error, in our words (its own text names its source file).
    private static func reason(_ error: any Error) -> String {
        switch (error as? ASN1Error)?.code {
        case .truncatedASN1Field?: return "an element runs past the end of the message"
        case .unsupportedFieldLength?: return "a length does not fit in the message"
        case .invalidASN1Object?: return "not one BER element (bad length, trailing bytes or nesting deeper than 50)"
        case .unexpectedFieldType?: return "unexpected tag"
        default: return "not BER"
        }
    }
}
