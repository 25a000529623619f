import Foundation
import ReleaseSupport
import X509

/// What `signing.sync` shows of a certificate (DER): its common name, serial number and validity, without keeping
/// anything secret (a certificate is public).
package struct SigningCertificateInfo: Sendable, Equatable {
    /// The subject's common name, `Apple Distribution: Example Ltd (ABCDE12345)`; empty when it has none.
    package var commonName: String
    /// The serial number in hex, as App Store Connect's `serialNumber` spells it (upper case, no separators).
    package var serialNumber: String
    package var notValidAfter: Date

    /// Reads a DER certificate; nil when it is not one.
    package init?(der: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: der) else { return nil }
        var name = ""
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                name = String(attribute.value) ?? ""
            }
        }
        commonName = name
        serialNumber = Hex.string(Array(certificate.serialNumber.bytes)).uppercased()
        notValidAfter = certificate.notValidAfter
    }

}
