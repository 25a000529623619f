import Foundation
import ReleaseApple
import ReleaseSupport

/// A temporary keychain for one run, what `signing.keychain` and `signing.sync` share: created with a random
/// password (masked, never printed), settings without a lock timeout, unlocked; then, once the caller imported its
/// items, the key partition list set so codesign never prompts and the keychain put first in the user's search list.
///
/// The teardown, registered as soon as the keychain exists, deletes it and sets the search list back to exactly what
/// it was, after success, failure or Ctrl-C.
struct TemporaryKeychain {
    let path: String
    let password: String
    /// The user's search list before the run.
    let previous: [String]

    /// Creates, sets up and unlocks the keychain at `path`, registering its teardown.
    /// - Throws: ``StepError`` when it exists already or `security` fails.
    static func create(at path: String, in context: StepContext) async throws -> TemporaryKeychain {
        let password = SigningKeychainStep.randomPassword()
        context.masker.add(password)
        let previous = SecurityCommand.searchList(from: try await context.capture(SecurityCommand.listKeychains))
        if context.files.exists(path) {
            throw StepError.failed("keychain '\(path)' already exists; remove it or choose another 'keychain'")
        }
        try await run(SecurityCommand.createKeychain(path, password: password), context)
        context.addTeardown("delete keychain '\(path)' and restore the search list (\(previous.count) keychain\(previous.count == 1 ? "" : "s"))") {
            var problems: [String] = []
            let deleted = try await context.run(SecurityCommand.deleteKeychain(path), echo: false)
            if !deleted.succeeded { problems.append("'security delete-keychain' exited with status \(deleted.status)") }
            let restored = try await context.run(SecurityCommand.setSearchList(previous), echo: false)
            if !restored.succeeded { problems.append("'security list-keychains -s' exited with status \(restored.status)") }
            if !problems.isEmpty { throw StepError.failed(problems.joined(separator: "; ")) }
        }
        try await run(SecurityCommand.setKeychainSettings(path), context)
        try await run(SecurityCommand.unlockKeychain(path, password: password), context)
        return TemporaryKeychain(path: path, password: password, previous: previous)
    }

    /// After the imports: the partition list, the search list, and the code signing identities found.
    /// - Throws: ``StepError`` when `security` fails or the keychain holds no identity.
    func finish(in context: StepContext) async throws -> [SigningIdentity] {
        try await Self.run(SecurityCommand.setKeyPartitionList(path, password: password), context)
        try await Self.run(SecurityCommand.setSearchList([path] + previous.filter { $0 != path }), context)
        let identities = SigningIdentity.parse(try await context.capture(SecurityCommand.findIdentities(path)))
        guard !identities.isEmpty else {
            throw StepError.failed("'\(path)' holds no valid code signing identity after importing the certificate")
        }
        for identity in identities { context.log("identity \(identity.sha1) \"\(identity.name)\"") }
        return identities
    }

    /// The commands ``create(at:in:)`` and ``finish(in:)`` run around `imports`, the password shown as `<random>`.
    static func plannedCommands(_ path: String, imports: [[String]]) -> [[String]] {
        let password = "<random>"
        return [
            SecurityCommand.listKeychains,
            SecurityCommand.createKeychain(path, password: password),
            SecurityCommand.setKeychainSettings(path),
            SecurityCommand.unlockKeychain(path, password: password),
        ] + imports + [
            SecurityCommand.setKeyPartitionList(path, password: password),
            SecurityCommand.setSearchList([path, "<the user's keychains>"]),
            SecurityCommand.findIdentities(path),
        ]
    }

    /// Runs `arguments`, failing with the (masked) command line on a non-zero status.
    static func run(_ arguments: [String], _ context: StepContext) async throws {
        let result = try await context.run(arguments)
        guard result.succeeded else {
            throw StepError.exitStatus(result.status, command: context.masker.commandLine(arguments))
        }
    }
}
