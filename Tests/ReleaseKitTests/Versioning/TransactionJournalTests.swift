import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseSupport
@testable import ReleaseVersioning

extension VersioningTests {
    /// A bump killed halfway (`kill -9`) is rolled back by the next run: every file as it was, no temporary file left.
    @Suite struct TransactionJournalTests {
        /// A fixture copy, its bump plan and a journal folder outside it (so the fixture's file list stays comparable).
        private func prepare() throws -> (folder: String, journal: String, plan: BumpPlan, before: [String: Data]) {
            let folder = try XcodeFixture(name: "binary-plist").copy()
            let journal = TestTemporary.root + "/release-journal-\(UUID().uuidString)/release-bump"
            let plan = try BumpPlanner.plan(try VersionReader.read(in: folder), choice: .part(.major), build: "9999")
            #expect(plan.files.count == 2)
            return (folder, journal, plan, XcodeFixture.files(in: folder))
        }

        /// Killed between the two renames: the first file is bumped, the second not, its temporary file is there.
        @Test func aBumpKilledBetweenRenamesIsRolledBack() throws {
            let (folder, journal, plan, before) = try prepare()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let last = try #require(plan.files.last?.path)
            #expect(throws: FileTransaction.SimulatedCrash.self) {
                try FileTransaction.apply(plan.files, journal: journal) { phase, path, _ in
                    if phase == .rename, path == last { throw FileTransaction.SimulatedCrash() }
                }
            }
            let crashed = XcodeFixture.files(in: folder)
            #expect(crashed[plan.files[0].displayPath] == plan.files[0].updated, "the first file was replaced")
            #expect(crashed[plan.files[1].displayPath] == plan.files[1].original, "the second was not")
            #expect(crashed.count == before.count + 1, "one temporary file is left: \(crashed.keys.sorted())")

            let lines = FileTransaction.recover(journal: journal, checkout: folder)
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("rolled back an interrupted bump (pid \(getpid()), started ") == true)
            #expect(lines.first?.hasSuffix("Z): restored '\(plan.files[0].displayPath)' to their contents before it") == true, "\(lines)")
            #expect(lines.last == "removed 1 temporary file the interrupted bump left")
            #expect(XcodeFixture.files(in: folder) == before, "every file as it was, no temporary file left")
            #expect(!FileManager.default.fileExists(atPath: journal))
            #expect(FileTransaction.recover(journal: journal, checkout: folder).isEmpty, "nothing left to recover")

            // The re-run bumps once, from the untouched project.
            try FileTransaction.apply(plan.files, journal: journal)
            #expect(XcodeFixture.files(in: folder)[plan.files[1].displayPath] == plan.files[1].updated)
            #expect(!FileManager.default.fileExists(atPath: journal), "a finished transaction leaves no journal")
        }

        /// Killed while writing the temporaries: nothing was replaced; the temporaries go.
        @Test func aBumpKilledBeforeAnyRenameLeavesNothingBehind() throws {
            let (folder, journal, plan, before) = try prepare()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let last = try #require(plan.files.last?.path)
            #expect(throws: FileTransaction.SimulatedCrash.self) {
                try FileTransaction.apply(plan.files, journal: journal) { phase, path, _ in
                    if phase == .writeTemporary, path == last { throw FileTransaction.SimulatedCrash() }
                }
            }
            let lines = FileTransaction.recover(journal: journal, checkout: folder)
            #expect(lines.first?.hasSuffix("Z): it had replaced no file yet") == true, "\(lines)")
            #expect(lines.dropFirst() == ["removed 1 temporary file the interrupted bump left"])
            #expect(XcodeFixture.files(in: folder) == before)
        }

        /// A file edited by hand after the crash is neither restored nor overwritten, and named; a new bump refuses
        /// to start while a journal is not rolled back.
        @Test func aFileChangedSinceTheCrashIsLeftAndNamed() throws {
            let (folder, journal, plan, _) = try prepare()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let last = try #require(plan.files.last?.path)
            #expect(throws: FileTransaction.SimulatedCrash.self) {
                try FileTransaction.apply(plan.files, journal: journal) { phase, path, _ in
                    if phase == .rename, path == last { throw FileTransaction.SimulatedCrash() }
                }
            }
            #expect(throws: VersioningError.unfinishedTransaction(journal: journal + "/journal.json")) {
                try FileTransaction.apply(plan.files, journal: journal)
            }
            try Data("edited by hand\n".utf8).write(to: URL(fileURLWithPath: plan.files[0].path))
            let lines = FileTransaction.recover(journal: journal, checkout: folder)
            #expect(lines.last == "'\(plan.files[0].displayPath)' changed since the interrupted bump: left as it is", "\(lines)")
            #expect(FileManager.default.contents(atPath: plan.files[0].path) == Data("edited by hand\n".utf8))
        }

        /// Issue 40 F2: a forged journal (`.release/release-bump/journal.json` in a tree someone else supplied) named an
        /// absolute `path` and `temporary` anywhere, and the next run wrote the journal's bytes to the one and deleted
        /// the other. Now a path outside the checkout, a temporary not named `.NAME.tmp-PID-N` beside its file, or a
        /// backup outside the journal folder makes recovery refuse the journal and touch nothing.
        @Test(arguments: ["outside", "temporary", "backup", "state"])
        func aForgedJournalWritesAndDeletesNothing(forgery: String) throws {
            let root = TestTemporary.root + "/release-forged-\(UUID().uuidString)"
            let checkout = root + "/checkout"
            let journal = checkout + "/.release/release-bump"
            try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            let victim = root + "/victim.sh", other = root + "/delete-me.txt"
            try Data("echo mine\n".utf8).write(to: URL(fileURLWithPath: victim))
            try Data("keep\n".utf8).write(to: URL(fileURLWithPath: other))
            let inside = checkout + "/VERSION"
            try Data("1.0.1\n".utf8).write(to: URL(fileURLWithPath: inside))
            let payload = Data("echo PWNED_BY_JOURNAL\n".utf8)
            try payload.write(to: URL(fileURLWithPath: journal + "/0.original"))
            var target = inside, temporary = checkout + "/.VERSION.tmp-999997-1", backup = "0.original"
            switch forgery {
            case "outside": (target, temporary) = (victim, other)
            case "temporary": temporary = other
            case "backup": backup = "../../../victim.sh"
            default:
                target = checkout + "/.git/hooks/pre-commit"
                temporary = checkout + "/.git/hooks/.pre-commit.tmp-999997-1"
                try FileManager.default.createDirectory(atPath: checkout + "/.git/hooks", withIntermediateDirectories: true)
                try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
            }
            let current = try #require(FileManager.default.contents(atPath: forgery == "outside" ? victim : target))
            let record = TransactionJournal.Record(
                pid: 999_997, started: Date(timeIntervalSince1970: 1),
                files: [
                    TransactionJournal.File(
                        path: target, display: "x", backup: backup, temporary: temporary,
                        originalSHA256: FileDigest.sha256(of: payload), updatedSHA256: FileDigest.sha256(of: current))
                ])
            try JSONEncoder.stateFile.encode(record).write(to: URL(fileURLWithPath: journal + "/journal.json"))

            let lines = FileTransaction.recover(journal: journal, checkout: checkout)
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("refused the journal of an interrupted bump '\(journal)/journal.json': ") == true, "\(lines)")
            #expect(FileManager.default.contents(atPath: victim) == Data("echo mine\n".utf8), "the victim was written")
            #expect(FileManager.default.contents(atPath: other) == Data("keep\n".utf8), "the other file was deleted")
            #expect(FileManager.default.contents(atPath: inside) == Data("1.0.1\n".utf8))
            #expect(FileManager.default.fileExists(atPath: journal + "/journal.json"), "the journal stays, for a person to look at")
        }

        /// The journal is `release`'s own file: a symlink in its place is refused, not followed.
        @Test func aSymlinkedJournalIsRefused() throws {
            let root = TestTemporary.root + "/release-forged-\(UUID().uuidString)"
            let journal = root + "/checkout/.release/release-bump"
            try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere.json"))
            try FileManager.default.createSymbolicLink(atPath: journal + "/journal.json", withDestinationPath: root + "/elsewhere.json")
            let lines = FileTransaction.recover(journal: journal, checkout: root + "/checkout")
            #expect(
                lines == [
                    "cannot use the journal of an interrupted bump: '\(journal)/journal.json' is a symbolic link, not a file: refused (state files are never followed); left as it is, nothing restored"
                ])
        }
    }
}
