import Foundation
import ReleaseApple
import ReleaseSupport
import Synchronization

/// `appstore.validate` (a gate): validates the .ipa with Apple's own tool, `xcrun altool --validate-app`, what
/// fastlane's `validate_app` does, and rejects the release (exit 2) with Apple's errors shown verbatim, one per line.
///
/// Authentication is an App Store Connect API key (`key_id`, `issuer_id`, `key` the .p8 PEM text): the key is written
/// to `AuthKey_<KEYID>.p8` in a private `private_keys` folder made for this step, handed to altool through
/// `API_PRIVATE_KEYS_DIR`, and removed by teardown. Or an Apple ID with an app-specific password, which reaches altool
/// through its environment (`-p @env:…`), never its command line. Every error line altool prints rejects, whatever
/// its exit status (some versions exit 0 after errors).
package struct AppStoreValidateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "the .ipa to validate")
        package var ipa: String
        @StepOption(must: .beKeyID, help: "App Store Connect API key ID")
        package var keyID: String?
        @StepOption(help: "App Store Connect API issuer ID")
        package var issuerID: String?
        @StepOption(help: "the API key's .p8 PEM text, e.g. ${secrets.APP_STORE_CONNECT_KEY}")
        package var key: String?
        @StepOption(help: "Apple ID, with 'password' instead of an API key")
        package var username: String?
        @StepOption(help: "an app-specific password for 'username', e.g. ${secrets.APP_SPECIFIC_PASSWORD}")
        package var password: String?
        // Passed to altool as written: any word has always been taken here and judged by altool, so the option stays
        // a string (an ApplePlatformChoice<ApplePlatform.AltoolSpelling> would refuse other words and change the schema).
        @StepOption(must: .notBeEmpty, help: "altool's -t: \(ApplePlatform.AltoolSpelling.wordList)")
        package var platform: String = "ios"

        package init() {}

        /// One complete way to sign in: the API key's three options, or username and password.
        /// - Throws: ``StepError/invalidOption(_:_:)`` for both, neither, or one incomplete.
        package func check() throws(StepError) {
            let apiKey = [keyID, issuerID, key]
            let password = [username, self.password]
            switch (apiKey.contains { $0 != nil }, password.contains { $0 != nil }) {
            case (true, true):
                throw StepError.invalidOption("username", "give an API key (key_id, issuer_id, key) or username and password, not both")
            case (false, false):
                throw StepError.invalidOption("key_id", "give an API key (key_id, issuer_id, key) or username and password")
            case (true, false):
                for (name, value) in zip(["key_id", "issuer_id", "key"], apiKey) where value?.isEmpty ?? true {
                    throw StepError.invalidOption(name, "the API key needs key_id, issuer_id and key")
                }
            case (false, true):
                for (name, value) in zip(["username", "password"], password) where value?.isEmpty ?? true {
                    throw StepError.invalidOption(name, "password sign-in needs username and password")
                }
            }
        }
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "appstore.validate"
    package static let exportTraits = ExportTraits(runner: .macOS("Apple's validation, in Xcode"))
    /// One line for `release steps`.
    package static let summary = "Gate: validate the .ipa with xcrun altool --validate-app (API key or app-specific password); Apple's errors verbatim"
    package static let outputs: [StepDocumentation.Output] = [
        .init("output", "string", "altool's output, trailing newlines removed")
    ]
    package static let example = """
        { "id": "validate", "uses": "appstore.validate", "gate": true, "when": {"os": "macos"},
          "with": { "ipa": "${steps.export.outputs.path}", "key_id": "${env.APP_STORE_CONNECT_KEY_ID}",
                    "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}", "key": "${secrets.APP_STORE_CONNECT_KEY}" } }
        """

    /// The environment variable the app-specific password reaches altool in.
    static let passwordVariable = "RELEASE_ALTOOL_PASSWORD"

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` unless exactly one complete way to sign in is given.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    /// See ``documentation``.
    package var isReadOnly: Bool { true }

    func command(_ context: StepContext) -> [String] {
        let authentication: AltoolCommand.Authentication
        if let keyID = options.keyID, let issuerID = options.issuerID {
            authentication = .apiKey(keyID: keyID, issuerID: issuerID)
        } else {
            authentication = .password(username: options.username ?? "", environmentVariable: Self.passwordVariable)
        }
        return AltoolCommand.validate(ipa: context.resolvePath(options.ipa), platform: options.platform, authentication: authentication)
    }

    /// Read-only checks: the ipa exists or is promised and xcrun can be run.
    package func verify(in context: StepContext) async throws {
        try context.requireFile(options.ipa, option: "ipa")
        try context.requireCommand("xcrun", purpose: "appstore.validate runs on macOS with Xcode")
    }

    /// The command `run` would run.
    package func plan(in context: StepContext) async throws -> StepPlan {
        var effects: [PlannedEffect] = []
        if let keyID = options.keyID {
            effects.append(.note("write the API key to a private folder as \(AltoolCommand.keyFileName(keyID: keyID)) (removed by teardown)"))
        }
        effects.append(.command(argv: command(context), directory: nil))
        return StepPlan(effects: effects)
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        if context.endpoints.isolated {
            throw StepError.unavailable("altool talks to Apple directly and has no local stand-in")
        }
        let ipa = try context.requireFile(options.ipa, option: "ipa")
        var environment: [String: String] = [:]
        if let keyID = options.keyID, let key = options.key {
            context.masker.add(key)
            let folder = (context.temporaryDirectory as NSString).appendingPathComponent("release-\(context.stepID)-\(UUID().uuidString)/private_keys")
            try context.files.createDirectory(folder, permissions: 0o700)
            let parent = (folder as NSString).deletingLastPathComponent
            context.addTeardown("remove the API key folder '\(parent)'") {
                try LocalFiles().remove(parent)
            }
            try InlineContents.writePrivate(Data((key.hasSuffix("\n") ? key : key + "\n").utf8), to: folder + "/" + AltoolCommand.keyFileName(keyID: keyID))
            environment["API_PRIVATE_KEYS_DIR"] = folder
        } else if let password = options.password {
            context.masker.add(password)
            environment[Self.passwordVariable] = password
        }
        let lines = Mutex<[String]>([])
        let arguments = command(context)
        let result = try await context.run(arguments, environment: environment) { line, _ in
            lines.withLock { $0.append(line) }
        }
        let output = lines.withLock { $0 }
        var problems = AltoolCommand.errors(in: output)
        if !result.succeeded && problems.isEmpty {
            let command = context.masker.commandLine(arguments)
            problems.append(result.signal.map { "'\(command)' was killed by signal \($0)" } ?? "'\(command)' exited with status \(result.status)")
        }
        guard problems.isEmpty else { throw StepError.rejected(problems) }
        context.log("'\(ipa)' passed Apple's validation")
        var stdout = result.standardOutput
        while stdout.hasSuffix("\n") { stdout.removeLast() }
        return StepOutputs(["output": .string(context.masker.mask(stdout))])
    }
}
