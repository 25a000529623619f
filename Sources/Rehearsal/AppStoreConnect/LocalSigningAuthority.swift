import Crypto
import Foundation
@_spi(CMS) import X509

/// The stand-in's own certificate authority: a P-256 key made per server, with a self-signed certificate, that
/// issues certificates from the requests `POST /v1/certificates` receives and signs `.mobileprovision` content as a
/// CMS SignedData with the content attached (as Apple's profiles are). A test key: nothing trusts it.
struct LocalSigningAuthority: Sendable {
    let key: Certificate.PrivateKey
    let certificate: Certificate

    init(now: Date = Date()) throws {
        let privateKey = P256.Signing.PrivateKey()
        key = Certificate.PrivateKey(privateKey)
        let name = try DistinguishedName {
            CommonName("Rehearsal Provisioning Profile Signing (test key)")
            OrganizationName("release rehearsal")
        }
        certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(20 * 365 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(), issuerPrivateKey: key)
    }

    /// A certificate for the public key of `csr`, after checking the request's signature with that key: DER bytes.
    func issue(csr: CertificateSigningRequest, commonName: String, teamID: String, serial: UInt64, notValidAfter: Date, now: Date) throws -> [UInt8] {
        let subject = try DistinguishedName {
            CommonName(commonName)
            OrganizationalUnitName(teamID)
            OrganizationName("Rehearsal Team")
            CountryName("US")
        }
        let issued = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(serial), publicKey: csr.publicKey,
            notValidBefore: now.addingTimeInterval(-60), notValidAfter: notValidAfter, issuer: certificate.subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(), issuerPrivateKey: key)
        return try issued.serializeAsPEM().derBytes
    }

    /// `content` in a CMS SignedData signed with the authority's key, the content attached.
    func sign(_ content: Data, now: Date) throws -> Data {
        Data(try CMS.sign(content, signatureAlgorithm: .ecdsaWithSHA256, certificate: certificate, privateKey: key, signingTime: now, detached: false))
    }
}
