import Foundation
import ReleaseSupport

/// An option that takes a file either as a path or as its contents in base64, the way CI secrets carry a .p12 or a
/// .mobileprovision (`${secrets.CERTIFICATE_P12}`).
///
/// Both files are DER: base64 text that decodes to a DER SEQUENCE (first byte 0x30) is contents; anything else is a
/// path. A path with a `.` in it (`Signing/Demo.p12`) is never valid base64, so the two cannot be confused.
enum InlineContents {
    /// The decoded contents when `text` is base64 of DER data, else nil (then it is a path).
    static func decode(_ text: String) -> Data? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.count >= 16, compact.count % 4 == 0,
            let data = Data(base64Encoded: compact), data.first == 0x30
        else { return nil }
        return data
    }

    /// Writes `data` to `path` readable only by the owner (it is a secret).
    static func writePrivate(_ data: Data, to path: String) throws {
        try FileSystemSupport.createParent(of: path)
        guard LocalFiles().createFile(path, contents: data, permissions: 0o600) else {
            throw StepError.failed("cannot write '\(path)'")
        }
    }
}
