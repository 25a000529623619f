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

    /// The three options, checked by their group (``XcodeAuthenticationOptions/check()``); nil when none is given.
    init?(_ options: XcodeAuthenticationOptions) {
        guard let key = options.authenticationKey, let keyID = options.authenticationKeyID, let issuerID = options.authenticationKeyIssuerID else {
            return nil
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
