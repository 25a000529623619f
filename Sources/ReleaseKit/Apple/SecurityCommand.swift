/// The `security` command lines `signing.keychain` runs (see `man security`), and readers for what they print.
///
/// A temporary keychain for CI: created with a password nobody needs to know, settings without an automatic lock
/// timeout, unlocked, the .p12 imported with `/usr/bin/codesign` allowed, and the key's partition list set so
/// codesign never shows an access prompt (which would hang a CI machine), then added in front of the user's
/// search list so `codesign` and `xcodebuild` find the identity.
package enum SecurityCommand {
    /// `security create-keychain -p PASSWORD KEYCHAIN`.
    package static func createKeychain(_ keychain: String, password: String) -> [String] {
        ["security", "create-keychain", "-p", password, keychain]
    }

    /// `security set-keychain-settings KEYCHAIN`: without `-t` there is no timeout and without `-l` no lock on
    /// sleep, so a long build never finds the keychain locked.
    package static func setKeychainSettings(_ keychain: String) -> [String] {
        ["security", "set-keychain-settings", keychain]
    }

    /// `security unlock-keychain -p PASSWORD KEYCHAIN`.
    package static func unlockKeychain(_ keychain: String, password: String) -> [String] {
        ["security", "unlock-keychain", "-p", password, keychain]
    }

    /// `security import P12 -k KEYCHAIN -f pkcs12 -P PASSWORD -T /usr/bin/codesign -T /usr/bin/security`.
    package static func importCertificate(_ path: String, keychain: String, password: String) -> [String] {
        ["security", "import", path, "-k", keychain, "-f", "pkcs12", "-P", password, "-T", "/usr/bin/codesign", "-T", "/usr/bin/security"]
    }

    /// `security import KEY.pem -k KEYCHAIN -f openssl -t priv -T /usr/bin/codesign -T /usr/bin/security`: a PKCS #1
    /// PEM private key on its own (`signing.sync`, which has the key and the certificate as separate files).
    package static func importPrivateKey(_ path: String, keychain: String) -> [String] {
        ["security", "import", path, "-k", keychain, "-f", "openssl", "-t", "priv", "-T", "/usr/bin/codesign", "-T", "/usr/bin/security"]
    }

    /// `security import CERT.cer -k KEYCHAIN -f x509 -t cert`: a DER certificate, which pairs with its imported key
    /// into a code signing identity.
    package static func importCertificateFile(_ path: String, keychain: String) -> [String] {
        ["security", "import", path, "-k", keychain, "-f", "x509", "-t", "cert"]
    }

    /// `security set-key-partition-list -S apple-tool:,apple:,codesign: -s -k PASSWORD KEYCHAIN`: lets Apple's
    /// tools use the imported key without asking (macOS 10.12.5 and later ask otherwise).
    package static func setKeyPartitionList(_ keychain: String, password: String) -> [String] {
        ["security", "set-key-partition-list", "-S", "apple-tool:,apple:,codesign:", "-s", "-k", password, keychain]
    }

    /// `security list-keychains -d user`: prints the user's search list.
    package static let listKeychains = ["security", "list-keychains", "-d", "user"]

    /// `security list-keychains -d user -s KEYCHAIN…`: replaces the user's search list.
    package static func setSearchList(_ keychains: [String]) -> [String] {
        ["security", "list-keychains", "-d", "user", "-s"] + keychains
    }

    /// `security delete-keychain KEYCHAIN`.
    package static func deleteKeychain(_ keychain: String) -> [String] {
        ["security", "delete-keychain", keychain]
    }

    /// `security find-identity -v -p codesigning KEYCHAIN`: the valid code signing identities in it.
    package static func findIdentities(_ keychain: String) -> [String] {
        ["security", "find-identity", "-v", "-p", "codesigning", keychain]
    }

    /// The keychains `list-keychains` printed, one quoted path a line: `    "/Users/me/Library/Keychains/login.keychain-db"`.
    package static func searchList(from output: String) -> [String] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            var text = Substring(line)
            while text.first == " " || text.first == "\t" { text = text.dropFirst() }
            while text.last == " " || text.last == "\t" { text = text.dropLast() }
            if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
            return text.isEmpty ? nil : String(text)
        }
    }
}
