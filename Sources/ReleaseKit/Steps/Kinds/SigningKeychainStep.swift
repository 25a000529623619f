import Foundation
import ReleaseApple
import ReleaseSupport

/// `signing.keychain`: a temporary keychain for this run holding the signing certificate, what fastlane's
/// `setup_ci` and `import_certificate` do: created with a random password (never printed), settings without a lock
/// timeout, unlocked, the .p12 imported for `/usr/bin/codesign`, the key partition list set so codesign never
/// prompts, and put first in the user's search list, keeping the user's keychains after it.
///
/// Teardown (registered as soon as the keychain exists) deletes it and sets the search list back to exactly what
/// it was, after success, failure or Ctrl-C.
package struct SigningKeychainStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(must: .notBeEmpty, help: "the .p12 (certificate and private key): a path, or its contents in base64, e.g. ${secrets.CERTIFICATE_P12}")
        package var certificate: String
        @StepOption(help: "the .p12's password, e.g. ${secrets.CERTIFICATE_PASSWORD} (may be empty)")
        package var password: String
        @StepOption(.path, must: .notBeEmpty, help: "the keychain file to create (default: release-<step id>.keychain-db in the run's scratch folder)")
        package var keychain: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "signing.keychain"
    package static let exportTraits = ExportTraits(runner: .macOS("signs into the Mac's keychain"))
    /// One line for `release steps`.
    package static let summary = "Create a temporary keychain with the signing certificate, usable by codesign without prompts; teardown deletes it and restores the search list"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the keychain file"),
        .init("identity", "string", "the first code signing identity's name, 'Apple Distribution: Name (TEAMID)'"),
        .init("identity_sha1", "string", "its certificate's SHA-1"),
        .init("identities", "list", "every code signing identity found, '<SHA-1> <name>'"),
    ]
    package static let example = """
        { "id": "keychain", "uses": "signing.keychain", "when": {"os": "macos"},
          "with": { "certificate": "${secrets.CERTIFICATE_P12}", "password": "${secrets.CERTIFICATE_PASSWORD}" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty certificate or keychain.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    func keychainPath(_ context: StepContext) -> String {
        options.keychain.map(context.resolvePath) ?? (context.temporaryDirectory as NSString).appendingPathComponent("release-\(context.stepID).keychain-db")
    }

    /// The .p12 as given: a path, or nil when the option holds its contents.
    private var certificatePath: String? {
        InlineContents.decode(options.certificate) == nil ? options.certificate : nil
    }

    /// Read-only checks: the certificate is there and `security` can be run.
    package func verify(in context: StepContext) async throws {
        if let certificatePath { try context.requireFile(certificatePath, option: "certificate") }
        try context.requireCommand("security", purpose: "signing.keychain runs on macOS")
    }

    /// The commands `run` would run, the password shown as `<random>`.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let keychain = keychainPath(context)
        let certificate = certificatePath.map(context.resolvePath) ?? "<certificate from base64>"
        let commands = TemporaryKeychain.plannedCommands(
            keychain,
            imports: [
                SecurityCommand.importCertificate(certificate, keychain: keychain, password: options.password)
            ])
        return StepPlan(
            effects: commands.map { .command(argv: $0, directory: nil) }
                + [.note("teardown: delete '\(keychain)' and restore the user's search list")],
            outputs: StepOutputs(["path": .path(keychain)]))
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        if !options.password.isEmpty { context.masker.add(options.password) }
        let keychain = try await TemporaryKeychain.create(at: keychainPath(context), in: context)

        var certificate = try certificatePath.map { try context.requireFile($0, option: "certificate") }
        var temporary: String?
        if certificate == nil, let data = InlineContents.decode(options.certificate) {
            let path = (context.temporaryDirectory as NSString).appendingPathComponent("release-\(context.stepID)-\(UUID().uuidString).p12")
            try InlineContents.writePrivate(data, to: path)
            temporary = path
            certificate = path
        }
        defer { if let temporary { try? context.files.remove(temporary) } }
        try await TemporaryKeychain.run(SecurityCommand.importCertificate(certificate!, keychain: keychain.path, password: options.password), context)

        let identities = try await keychain.finish(in: context)
        let first = identities[0]
        return StepOutputs([
            "path": .path(keychain.path),
            "identity": .string(first.name),
            "identity_sha1": .string(first.sha1),
            "identities": .list(identities.map { .string("\($0.sha1) \($0.name)") }),
        ])
    }

    /// 32 random bytes as hex: nobody types it, and it lives only in this process and the teardown.
    static func randomPassword() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
