import Foundation
import Testing

@testable import ReleaseSupport

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

    // MARK: Multi-line secrets

    static let pem =
        "-----BEGIN PRIVATE KEY-----\r\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgRk9SVEVTVElOR09O\r\n"
        + "  TFlOT1RBUkVBTEtFWWJ1dGl0bG9va3NsaWtlb25lMTIzNDU2Nzg5MGFiY2RlZmdo  \r\nAw=\r\n\r\n-----END PRIVATE KEY-----\r\n"

    /// Output is split into lines before it is masked: every line of a multi-line secret is masked on its own
    /// (blanks around it trimmed, `\r\n` or `\n`), the whole value too; lines too short to mask safely are not.
    @Test func masksEveryLineOfAMultiLineSecretOnItsOwn() {
        let masker = SecretMasker(secrets: [Self.pem])
        #expect(masker.mask("MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgRk9SVEVTVElOR09O") == "***")
        #expect(masker.mask("key: TFlOT1RBUkVBTEtFWWJ1dGl0bG9va3NsaWtlb25lMTIzNDU2Nzg5MGFiY2RlZmdo.") == "key: ***.")
        #expect(masker.mask(Self.pem) == "***\r\n", "the value is registered without its trailing line break")
        #expect(masker.mask("-----BEGIN PRIVATE KEY-----") == "***")
        // `Aw=` (3 characters) would mask text everywhere: left alone, as empty lines are.
        #expect(masker.mask("Aw= stays") == "Aw= stays")
        // The JSON-escaped whole value (a report of an unsplit text) is masked as well.
        #expect(!masker.mask(JSONEscape.string(Self.pem)).contains("MIGTAg"))
        #expect(SecretMasker.lines(of: "one line") == [])
    }

    /// A token pasted with its line break: registered without it, so the value printed alone is masked.
    @Test(arguments: ["\n", "\r\n", "\r\n\r\n"]) func trailingLineBreaksAreTrimmedBeforeRegistering(_ ending: String) {
        let masker = SecretMasker(secrets: ["tok-0123456789" + ending])
        #expect(masker.mask("token=tok-0123456789;") == "token=***;")
        #expect(masker.mask("url?t=" + "tok-0123456789".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!) == "url?t=***")
    }

    // MARK: Matching on bytes

    /// A combining mark after the secret joins its last character into another grapheme: still masked, the mark kept.
    @Test(arguments: ["\u{301}", "\u{20DD}", "\u{FE0F}"]) func aSecretFollowedByACombiningMarkIsMasked(_ mark: String) {
        let masker = SecretMasker(secrets: ["ghp_Combining123"])
        #expect(masker.mask("token=ghp_Combining123\(mark) end") == "token=***\(mark) end")
        #expect(masker.mask("\u{301}ghp_Combining123") == "\u{301}***")
    }

    /// Two secrets that overlap in the text are masked as one run, leaving nothing of either; two that only touch
    /// get a mask each, as before.
    @Test func overlappingSecretsLeaveNothingAndTouchingOnesAreMaskedEach() {
        let masker = SecretMasker(secrets: ["abcdEFGH", "EFGHijkl"])
        #expect(masker.mask("<abcdEFGHijkl>") == "<***>")
        #expect(masker.mask("<abcdEFGHEFGHijkl>") == "<******>")
        #expect(masker.mask("abcdEFG") == "abcdEFG")
    }

    // MARK: Cutting and JSON

    @Test func masksBeforeCutting() {
        let masker = SecretMasker(secrets: ["s3cr3t-token-value"])
        let text = String(repeating: "a", count: 8) + "s3cr3t-token-value" + "tail"
        #expect(masker.mask(text, limit: 11) == "aaaaaaaa***")
        #expect(masker.mask(text, limit: 100) == "aaaaaaaa***tail")
    }

    /// `false` and `1` as secrets: the strings holding them are masked, the document's syntax and numbers are not.
    @Test func masksStringsOfAJSONTreeNotItsSyntax() throws {
        let masker = SecretMasker(secrets: ["false", "1", "null"])
        let object: [String: Any] = [
            "dry_run": false, "attempts": 1, "profile": NSNull(), "message": "flag false, count 1",
            "list": ["1", 1, ["nested": "null"]] as [Any],
        ]
        let text = try #require(JSONWriter.text(masker.maskStrings(in: object)))
        #expect(text == #"{"attempts":1,"dry_run":false,"list":["***",1,{"nested":"***"}],"message":"flag ***, count ***","profile":null}"#)
    }

    /// Each argument is masked before it is quoted: quoting changes a secret with a quote or a space in it.
    @Test func commandLinesAreMaskedWordByWord() {
        let secret = "it's a secret"
        let masker = SecretMasker(secrets: [secret])
        #expect(masker.mask(ShellQuoting.commandLine(["echo", secret])).contains("secret"), "the quoted form is not the secret's")
        #expect(masker.commandLine(["echo", secret, "--token=" + secret, "a \(secret)"]) == "echo *** --token=*** 'a ***'")
    }

    /// Issue 40 F9: a one- or two-letter secret renamed a report's keys (`pipeline` → `pip***lin***`, `duration` →
    /// `dura***on`); values are masked, keys only by secrets long enough to tell.
    @Test func shortSecretsMaskValuesNotKeys() throws {
        let masker = SecretMasker(secrets: ["e", "ti"])
        let masked = try #require(masker.maskStrings(in: ["pipeline": "e", "duration": ["artifacts": "ti"]]) as? [String: Any])
        #expect(masked.keys.sorted() == ["duration", "pipeline"])
        #expect(masked["pipeline"] as? String == "***")
        #expect((masked["duration"] as? [String: Any])?["artifacts"] as? String == "***")
        let long = SecretMasker(secrets: ["tok3n-abcdef"])
        let keyed = try #require(long.maskStrings(in: ["tok3n-abcdef": "x"]) as? [String: Any])
        #expect(keyed.keys.sorted() == ["***"], "a key holding a real secret is still masked")
    }

    /// Issue 40 F10: a transport error named the host of a secret webhook URL (`Could not resolve host: …`) while the
    /// whole URL was masked; the host of a secret URL is a form of it too.
    @Test func theHostOfASecretURLIsMaskedOnItsOwn() {
        let masker = SecretMasker(secrets: ["http://tok3nhostpart-abc.invalid/services/T0/B1/xyz"])
        #expect(masker.mask("Could not resolve host: tok3nhostpart-abc.invalid (curl error 6)") == "Could not resolve host: *** (curl error 6)")
        #expect(masker.mask("POST http://tok3nhostpart-abc.invalid/services/T0/B1/xyz") == "POST ***")
        #expect(SecretMasker(secrets: ["not a url: x.y"]).mask("x.y") == "x.y")
        // A machine's address carries no token: masking it would hide every URL of that machine (a rehearsal's
        // stand-ins, the release page a Slack message links to).
        for url in ["http://127.0.0.1:38349/hooks/abc123", "http://localhost:8080/hooks/abc123", "http://[::1]:8080/hooks/abc123"] {
            let local = SecretMasker(secrets: [url])
            #expect(local.mask(url) == "***")
            #expect(local.mask("<http://127.0.0.1:38349/owner/repo/releases/tag/v1|GitHub Release>") == "<http://127.0.0.1:38349/owner/repo/releases/tag/v1|GitHub Release>")
        }
    }
}
