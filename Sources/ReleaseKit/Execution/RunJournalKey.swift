import Crypto
import Foundation
import ReleaseSupport

/// The key that signs a run journal's lines (HMAC-SHA256), kept where the checkout is not: a journal is a file in
/// `.git/` or `.release/` that anyone who can write the checkout (or hand it over: an unpacked tarball, a CI
/// artifact) can edit, and `--resume` must not take an edited one as the record of what ran.
///
/// Where the key comes from, first that applies:
/// 1. `RELEASE_JOURNAL_KEY` in the environment (any text; its SHA-256 is the key), for example from a CI secret.
/// 2. In a CI workflow run (GitHub Actions' `GITHUB_RUN_ID`, GitLab's `CI_PIPELINE_ID`, with the repository): a key
///    per workflow run, which every job of the run derives alike, so one job's journal is accepted by the next on
///    another machine (an exported workflow) and a journal from another run, or from the checkout, is not. The run id
///    is not a secret: whoever can write the run's artifacts could sign a journal too, which a secret in
///    `RELEASE_JOURNAL_KEY` prevents.
/// 3. `release-journal.key` in the user's state folder (`$XDG_STATE_HOME/release`, by default
///    `~/.local/state/release`): 32 random bytes, created on first use, mode 0600, read only when it is this user's
///    regular file.
/// When none can be had, the key is random for this process: the run's journal is then resumable only by it.
package struct RunJournalKey: Sendable {
    /// The environment variable that gives the key.
    package static let variable = "RELEASE_JOURNAL_KEY"
    /// The key file's name.
    package static let fileName = "release-journal.key"

    /// The key's bytes (`SymmetricKey` is not `Sendable`; one is made from these where it is used).
    let bytes: Data
    var key: SymmetricKey { SymmetricKey(data: bytes) }
    /// Where the key came from, for messages.
    package let source: String

    /// A key from `text` (hashed): for tests and for ``variable``.
    package init(text: String, source: String) {
        bytes = Data(SHA256.hash(data: Data(text.utf8)))
        self.source = source
    }

    private init(key: Data, source: String) {
        self.bytes = key
        self.source = source
    }

    /// The key for a run with `environment`.
    package static func resolve(environment: [String: String]) -> RunJournalKey {
        if let text = environment[variable], !text.isEmpty {
            return RunJournalKey(text: text, source: "$\(variable)")
        }
        if let run = environment["GITHUB_RUN_ID"], !run.isEmpty {
            return RunJournalKey(text: "github:\(environment["GITHUB_REPOSITORY"] ?? ""):\(run)", source: "this GitHub Actions run (GITHUB_RUN_ID)")
        }
        if let pipeline = environment["CI_PIPELINE_ID"], !pipeline.isEmpty {
            return RunJournalKey(text: "gitlab:\(environment["CI_PROJECT_ID"] ?? ""):\(pipeline)", source: "this GitLab pipeline (CI_PIPELINE_ID)")
        }
        guard let folder = folder(environment: environment) else {
            return RunJournalKey(key: processKey, source: "a key of this process only")
        }
        let path = folder + "/" + fileName
        if let key = read(path) { return RunJournalKey(key: key, source: path) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // O_EXCL: two runs starting at once agree on the first one written.
        if let descriptor = try? RegularFile.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600, checks: .state) {
            let written = bytes.withUnsafeBytes { Platform.write(descriptor, $0) }
            close(descriptor)
            if written != bytes.count { unlink(path) }
        }
        if let key = read(path) { return RunJournalKey(key: key, source: path) }
        return RunJournalKey(key: processKey, source: "a key of this process only")
    }

    /// The key when no other can be had: random, the same for the whole process.
    private static let processKey = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }

    /// The folder the key file lives in: the user's state folder.
    static func folder(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/release" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/release" }
        return nil
    }

    private static func read(_ path: String) -> Data? {
        guard let data = try? RegularFile.read(path, limit: 64, checks: .state), data.count == 32 else { return nil }
        return data
    }

    /// The signature of `line`, bound to the journal's `header` (so a line cannot be moved to another journal).
    func signature(of line: Data, header: Data) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: header)
        hmac.update(data: Data([0x0A]))
        hmac.update(data: line)
        return Hex.string(Data(hmac.finalize()))
    }

    /// Whether `signature` is `line`'s (compared in constant time).
    func verifies(_ signature: String, of line: Data, header: Data) -> Bool {
        guard signature.utf8.count == 64, let expected = Hex.bytes(signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(Data(expected), authenticating: header + Data([0x0A]) + line, using: key)
    }
}
