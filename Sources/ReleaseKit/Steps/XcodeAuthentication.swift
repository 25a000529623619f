import Foundation
import ReleaseSupport

/// `xcodebuild`'s App Store Connect API key options (`-authenticationKeyPath`, `-authenticationKeyID`,
/// `-authenticationKeyIssuerID`), for Xcode-managed signing on a CI Mac that has no Apple ID signed in: with
/// `-allowProvisioningUpdates`, Xcode creates and downloads the certificates and profiles it needs with the key.
///
/// `xcode.archive` and `xcode.export` take it as `authentication_key` (the .p8's PEM text, normally
/// `${secrets.APP_STORE_CONNECT_KEY}`, or a path to it), `authentication_key_id` and `authentication_key_issuer_id`.
/// PEM text is written to a private folder of the run's scratch space (0700, the file 0600) that a teardown removes,
/// and is masked in everything the run prints.
struct XcodeAuthentication: Sendable, Equatable {
    var key: String
    var keyID: String
    var issuerID: String

    /// All three options, or none.
    /// - Throws: ``StepError/invalidOption(_:_:)`` naming the missing or malformed one.
    init?(_ options: XcodeAuthenticationOptions) throws {
        let (key, keyID, issuerID) = (options.authenticationKey, options.authenticationKeyID, options.authenticationKeyIssuerID)
        if key == nil, keyID == nil, issuerID == nil { return nil }
        guard let key, !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StepError.invalidOption(
                "authentication_key", "missing or empty: give the API key's .p8 (${secrets.APP_STORE_CONNECT_KEY}) with authentication_key_id and authentication_key_issuer_id")
        }
        guard let keyID, !keyID.isEmpty else {
            throw StepError.invalidOption("authentication_key_id", "missing: the API key's ID (${env.APP_STORE_CONNECT_KEY_ID})")
        }
        guard keyID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) || keyID.contains("${") else {
            throw StepError.invalidOption("authentication_key_id", "'\(Echo.text(keyID))' is not a key ID (letters and digits, for example 2X9R4HXF34)")
        }
        guard let issuerID, !issuerID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StepError.invalidOption("authentication_key_issuer_id", "missing: the issuer ID (${env.APP_STORE_CONNECT_ISSUER_ID})")
        }
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
    }

    /// Whether `key` is the key's text rather than a path to it.
    var isInline: Bool { key.contains("-----BEGIN") }

    /// The arguments with `path` as the key file.
    func arguments(keyPath path: String) -> [String] {
        ["-authenticationKeyPath", path, "-authenticationKeyID", keyID, "-authenticationKeyIssuerID", issuerID]
    }

    /// What a plan shows: the key's file as it will be named.
    func plannedArguments(in context: StepContext) -> [String] {
        arguments(keyPath: isInline ? "<private folder>/AuthKey_\(keyID).p8" : context.resolvePath(key))
    }

    /// Writes the key where xcodebuild reads it (when given as text) and returns the arguments; a teardown removes it.
    func install(in context: StepContext) throws -> [String] {
        guard isInline else { return arguments(keyPath: try context.requireFile(key, option: "authentication_key")) }
        context.masker.add(key)
        let folder = (context.temporaryDirectory as NSString).appendingPathComponent("release-\(context.stepID)-\(UUID().uuidString)")
        try context.files.createDirectory(folder, permissions: 0o700)
        context.addTeardown("remove the API key folder '\(folder)'") {
            try LocalFiles().remove(folder)
        }
        let path = folder + "/AuthKey_\(keyID).p8"
        try InlineContents.writePrivate(Data((key.hasSuffix("\n") ? key : key + "\n").utf8), to: path)
        return arguments(keyPath: path)
    }
}
