import Foundation
import Testing
@testable import ReleaseKit

/// The spellings a secret takes in headers, URLs, forms and JSON, each masked.
@Suite struct SecretMaskerTests {
    /// A token mixing RFC 3986's unreserved `~-._` with reserved and non-ASCII characters, as some APIs issue.
    static let token = "ghp_A1b2~C3.d4-E5_f6:g7/h8+i9 j0&k=ü\""

    /// Ten encodings of `token` as they appear in the wild.
    static var encodings: [(String, String)] {
        let token = Self.token
        func percent(_ allowed: CharacterSet) -> String { token.addingPercentEncoding(withAllowedCharacters: allowed)! }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: [token], options: [.fragmentsAllowed]), as: UTF8.self)
        return [
            ("raw", token),
            ("json-escaped", String(json.dropFirst(2).dropLast(2))),
            ("percent, upper-case hex", percent(.alphanumerics)),
            ("percent, lower-case hex", percent(.alphanumerics).replacing(/%[0-9A-F]{2}/) { $0.output.lowercased() }),
            ("rfc 3986 unreserved", percent(unreserved)),
            ("query string", percent(.urlQueryAllowed)),
            ("form, space as +", percent(unreserved).replacingOccurrences(of: "%20", with: "+")),
            ("base64", Data(token.utf8).base64EncodedString()),
            ("basic auth user:token", Data("x-access-token:\(token)".utf8).base64EncodedString()),
            ("basic auth token:x-oauth-basic", Data("\(token):x-oauth-basic".utf8).base64EncodedString()),
        ]
    }

    @Test(arguments: 0..<10) func masksEachEncoding(_ index: Int) {
        let masker = SecretMasker(secrets: [Self.token])
        let (name, encoded) = Self.encodings[index]
        let masked = masker.mask("before \(encoded) after")
        #expect(!masked.contains(encoded), "\(name) leaked: \(masked)")
        #expect(masked.hasPrefix("before ") && masked.hasSuffix(" after"), "\(name): \(masked)")
    }

    /// In `user:token`, the token's base64 depends on the user's length modulo 3: all three alignments.
    @Test(arguments: ["", "a", "ab", "abc", "x-access-token"]) func masksBasicAuthAtEveryAlignment(_ user: String) {
        let secret = "s3cr3t-T0ken-value-42"
        let masker = SecretMasker(secrets: [secret])
        let header = "Authorization: Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
        let masked = masker.mask(header)
        let stillThere = SecretMasker.base64Forms(of: Array(secret.utf8)).filter { masked.contains($0) }
        #expect(stillThere.isEmpty, "\(masked)")
        #expect(masked.contains("***"))
    }

    @Test func ignoresEmptyAndBlankSecrets() {
        let masker = SecretMasker(secrets: ["", "  \n"])
        #expect(masker.isEmpty)
        #expect(masker.mask("nothing to hide") == "nothing to hide")
    }
}
