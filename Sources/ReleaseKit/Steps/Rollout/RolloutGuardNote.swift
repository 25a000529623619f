import Foundation
import ReleaseSupport

/// Where a rollout guard keeps its ``RolloutGuardState``: a git note (`refs/notes/release-rollout`) on the commit of
/// the release's tag.
///
/// Why a note: the guard runs as a scheduled CI job, and each run starts on a fresh runner with a fresh checkout, so
/// a file on the runner is gone by the next hour, and a CI cache may be evicted or scoped to another branch. The note
/// is part of the repository: the run fetches it with the tag, writes the new state, and pushes the notes ref with
/// the credentials the job already has for the repository (a checkout's token with `contents: write`), so the next
/// run, wherever it runs, knows what this one did and never flaps. Notes change no commit, tag or branch.
///
/// In a rehearsal, the notes go to the local bare repository that stands in for the remote (like `git.push`).
struct RolloutGuardNote: Sendable {
    static let shortRef = "release-rollout"
    static let ref = "refs/notes/" + shortRef

    /// The tag the note is on.
    var tag: String
    /// The remote the note is fetched from and pushed to; nil when there is none (state is kept locally only).
    var remote: String?
    /// The repository's folder (nil: the working directory).
    var directory: String?

    /// How errors name the note.
    var name: String { "git note \(Self.ref) on tag '\(tag)'" }

    /// The remote to talk to: in a rehearsal the local stand-in's bare repository (nil when no push made one yet),
    /// else `remote` when it is configured.
    static func remoteLocation(_ remote: String, directory: String?, in context: StepContext) async throws -> String? {
        if context.endpoints.isolated {
            let folder = try context.endpoints.baseURL(.git, configured: "")
            let mirror = (folder as NSString).appendingPathComponent(remote + ".git")
            return FileManager.default.fileExists(atPath: mirror) ? mirror : nil
        }
        return try await context.gitSucceeds(GitCommand.remoteURL(remote), directory: directory) ? remote : nil
    }

    /// The release's tag: `tag` when given, else the newest of `v<version>` and `v<version>-…`/`v<version>_…`,
    /// fetched from `remote` first (a CI checkout has no tags).
    static func findTag(
        _ tag: String?, version: String, remote: String?, directory: String?, in context: StepContext
    ) async throws -> String {
        let patterns = tag.map { [$0] } ?? ["v\(version)", "v\(version)-*", "v\(version)_*"]
        if let remote {
            // One glob refspec: a fetch of an exact ref the remote lacks fails the whole fetch.
            let fetchPattern = tag ?? "v\(version)*"
            let specs = ["refs/tags/\(fetchPattern):refs/tags/\(fetchPattern)"]
            let fetched = try await context.run(["git", "fetch", "-q", "--no-tags", remote] + specs, directory: directory, echo: false)
            if !fetched.succeeded, tag != nil {
                context.log("could not fetch tag '\(tag ?? "")' from '\(remote)'; looking for it locally")
            }
        }
        let listed = try await context.capture(["git", "tag", "--list", "--sort=-creatordate"] + patterns, directory: directory)
        guard let found = listed.split(separator: "\n").first.map(String.init), !found.isEmpty else {
            throw StepError.failed(
                tag.map { "tag '\($0)' is not in the repository; the guard keeps its state in a git note on the release's tag" }
                    ?? "no tag 'v\(version)' or 'v\(version)-…' is in the repository; name the release's tag with 'tag' (the guard keeps its state in a git note on it)")
        }
        return found
    }

    /// Fetches the notes ref from the remote (replacing the local one: the remote's is the record).
    func fetch(in context: StepContext) async throws {
        guard let remote else { return }
        let result = try await context.run(["git", "fetch", "-q", remote, "+\(Self.ref):\(Self.ref)"], directory: directory, echo: false)
        if !result.succeeded {
            context.log("no guard state on '\(remote)' yet (\(Self.ref) could not be fetched); starting from the local one, if any")
        }
    }

    /// The state in the note, or a fresh one when there is none.
    /// - Throws: ``StepError/failed(_:)`` naming the note when it is too large or not the guard's state.
    func read(in context: StepContext) async throws -> RolloutGuardState {
        let commit = try await self.commit(in: context)
        let listed = try await context.run(["git", "notes", "--ref", Self.shortRef, "list", commit], directory: directory, echo: false)
        guard listed.succeeded else { return RolloutGuardState() }
        let blob = listed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard blob.count >= 40, blob.allSatisfy(\.isHexDigit) else { throw StepError.failed("\(name): git named no note object") }
        // The size first: a note somebody else pushed may be of any size, and is read only when it is small.
        let size = Int(try await context.capture(["git", "cat-file", "-s", blob], directory: directory)) ?? Int.max
        guard size <= RolloutGuardState.maxBytes else {
            throw StepError.failed(
                "\(name) is \(size) bytes; the guard writes at most \(RolloutGuardState.maxBytes); remove it (git notes --ref \(Self.shortRef) remove \(tag))")
        }
        let text = try await context.run(["git", "cat-file", "blob", blob], directory: directory, echo: false)
        guard text.succeeded else { throw StepError.failed("\(name) cannot be read (git cat-file exited with status \(text.status))") }
        return try RolloutGuardState.parse(Data(text.standardOutput.utf8), note: name)
    }

    /// Writes `state` into the note and pushes the notes ref.
    func write(_ state: RolloutGuardState, in context: StepContext) async throws {
        let commit = try await self.commit(in: context)
        let file = (context.temporaryDirectory as NSString).appendingPathComponent("rollout-note-\(UUID().uuidString).json")
        try AtomicFile.write(Data(try state.encoded().utf8), to: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let identity = try await context.gitIdentityOptions(author: nil, directory: directory, announce: false)
        try await context.git(["git"] + identity + ["notes", "--ref", Self.shortRef, "add", "-f", "-F", file, commit], directory: directory)
        guard let remote else {
            context.log("no remote to push \(Self.ref) to: the state stays in this checkout")
            return
        }
        try await context.git(["git", "push", "-q", remote, "\(Self.ref):\(Self.ref)"], directory: directory)
    }

    /// The commit the tag points at (the note's object).
    func commit(in context: StepContext) async throws -> String {
        try await context.capture(["git", "rev-parse", "--verify", "-q", "refs/tags/\(tag)^{commit}"], directory: directory)
    }
}
