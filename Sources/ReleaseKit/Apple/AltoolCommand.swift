/// `xcrun altool --validate-app` (Apple's validation of an .ipa against App Store Connect) and reading its errors.
package enum AltoolCommand {
    /// How altool signs in.
    package enum Authentication: Sendable, Equatable {
        /// App Store Connect API key: altool finds `AuthKey_<KEYID>.p8` in `API_PRIVATE_KEYS_DIR` (or `private_keys`).
        case apiKey(keyID: String, issuerID: String)
        /// Apple ID and an app-specific password read from the environment variable named (`@env:NAME`), so the
        /// password is never on the command line.
        case password(username: String, environmentVariable: String)
    }

    /// `xcrun altool --validate-app -f IPA -t PLATFORM (--apiKey K --apiIssuer I | -u USER -p @env:VAR)`.
    package static func validate(ipa: String, platform: String, authentication: Authentication) -> [String] {
        var argv = ["xcrun", "altool", "--validate-app", "-f", ipa, "-t", platform]
        switch authentication {
        case .apiKey(let keyID, let issuerID): argv += ["--apiKey", keyID, "--apiIssuer", issuerID]
        case .password(let username, let variable): argv += ["-u", username, "-p", "@env:\(variable)"]
        }
        return argv
    }

    /// The file name altool looks for: `AuthKey_<KEYID>.p8`.
    package static func keyFileName(keyID: String) -> String { "AuthKey_\(keyID).p8" }

    /// Apple's errors in altool's output, verbatim, one per line: lines with `*** Error:` (with the timestamp and
    /// process prefix altool puts before it removed) and `ERROR ITMS-…` lines.
    package static func errors(in lines: [String]) -> [String] {
        lines.compactMap { line in
            if let range = line.range(of: "*** Error:") { return String(line[range.lowerBound...]).trimmingTrailingSpaces }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("ERROR ITMS-") { return String(trimmed).trimmingTrailingSpaces }
            return nil
        }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " || text.last == "\t" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
