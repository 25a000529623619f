import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Issue 40 F5: the journal's fingerprint was an unkeyed hash, so an appended line made `--resume` take a rejecting
/// gate as done ("✔ g (done in the previous run)") and use forged outputs. Every line is now signed with a key kept
/// outside the checkout, and a journal with a line that does not verify is refused as a whole.
@Suite struct RunJournalSigningTests {
    private func folder() throws -> String {
        let directory = TestTemporary.root + "/release-journal-sign-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private let key = RunJournalKey(text: "test key", source: "the test's key")

    /// A journal written by a run: the header and one step, each line `JSON SIGNATURE`.
    private func written(in directory: String) -> String {
        let path = RunJournal.path(for: "p.json", in: directory)
        let journal = RunJournal(path: path, pipeline: "p.json", profile: nil, now: Date(timeIntervalSince1970: 1_800_000_000), workspace: directory, key: key)
        journal.save(replacingOthers: true)
        journal.record("build", RunJournal.Entry(fingerprint: "f1", outputs: ["v": .string("1")], artifacts: []))
        return path
    }

    @Test func aSignedJournalIsReadBack() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = written(in: directory)
        let journal = try #require(try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: key))
        #expect(journal.steps == ["build"])
        #expect(journal.entry("build")?.outputs["v"] == .string("1"))
        // A CI artifact unpacked with a group-writable mode is still read: its signature vouches for it.
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: path)
        #expect(try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: key)?.steps == ["build"])
        // A last line cut short by a crash is not a forgery: that step runs again.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"entry":{"artif"#.utf8))
        try handle.close()
        #expect(try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: key)?.steps == ["build"])
    }

    /// s2b-journal-forge: the gate's line appended by hand, with the fingerprint the old journal used.
    @Test func anAppendedLineIsRefused() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = written(in: directory)
        let fingerprint = FileDigest.sha256(of: Data("gate.command\n{\"run\":[\"sh\",\"-c\",\"echo gate-rejects; exit 1\"]}".utf8))
        let forged = #"{"entry":{"artifacts":[],"fingerprint":"\#(fingerprint)","outputs":{}},"step":"g"}"# + "\n"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(forged.utf8))
        try handle.close()
        #expect(throws: RunJournalError.untrusted(path: path, reason: "line 3 is not signed with the test's key")) {
            try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: key)
        }
        let message = RunJournalError.untrusted(path: path, reason: "line 3 is not signed with the test's key").description
        #expect(
            message
                == "the run journal '\(path)' is refused: line 3 is not signed with the test's key (edited, or written by a run with another key); --resume never trusts it. Run without --resume to start over, or remove it"
        )
    }

    /// A forged output in a signed line, a line moved from another journal, another key: all refused.
    @Test func anEditedOutputAnotherKeyOrAMovedLineIsRefused() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = written(in: directory)
        let original = try String(contentsOfFile: path, encoding: .utf8)
        try original.replacingOccurrences(of: #""value":"1""#, with: #""value":"2""#).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RunJournalError.self) { try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: key) }

        try original.write(toFile: path, atomically: true, encoding: .utf8)
        let other = RunJournalKey(text: "another key", source: "another key")
        #expect(throws: RunJournalError.untrusted(path: path, reason: "its header is not signed with another key")) {
            try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: other)
        }

        // The step line of a journal with another header (another clock) does not verify under this one's.
        let elsewhere = try folder()
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let second = RunJournal(
            path: RunJournal.path(for: "p.json", in: elsewhere), pipeline: "p.json", profile: nil, now: Date(timeIntervalSince1970: 1_900_000_000),
            workspace: elsewhere, key: key)
        second.save(replacingOthers: true)
        second.record("ship", RunJournal.Entry(fingerprint: "f2", outputs: [:], artifacts: []))
        let moved = try String(contentsOfFile: second.path, encoding: .utf8).split(separator: "\n")[1]
        try (original + moved + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RunJournalError.untrusted(path: path, reason: "line 3 is not signed with the test's key")) {
            try RunJournal.load(path: path, pipeline: "p.json", profile: nil, workspace: directory, key: key)
        }
    }

    /// The key file is made once, 0600, outside the checkout; a CI run derives its key from the run.
    @Test func theKeyLivesOutsideTheCheckout() throws {
        let state = try folder()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let first = RunJournalKey.resolve(environment: ["XDG_STATE_HOME": state])
        #expect(first.source == state + "/release/release-journal.key")
        let attributes = try FileManager.default.attributesOfItem(atPath: first.source)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(RunJournalKey.resolve(environment: ["XDG_STATE_HOME": state]).bytes == first.bytes, "the same key next time")
        let ci = RunJournalKey.resolve(environment: ["XDG_STATE_HOME": state, "GITHUB_RUN_ID": "42", "GITHUB_REPOSITORY": "o/r"])
        #expect(ci.bytes == RunJournalKey(text: "github:o/r:42", source: "").bytes)
        #expect(RunJournalKey.resolve(environment: ["RELEASE_JOURNAL_KEY": "s3cret", "GITHUB_RUN_ID": "42"]).bytes == RunJournalKey(text: "s3cret", source: "").bytes)
    }
}
