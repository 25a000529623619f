import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseKit

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

            let lines = FileTransaction.recover(journal: journal)
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("rolled back an interrupted bump (pid \(getpid()), started ") == true)
            #expect(lines.first?.hasSuffix("Z): restored '\(plan.files[0].displayPath)' to their contents before it") == true, "\(lines)")
            #expect(lines.last == "removed 1 temporary file the interrupted bump left")
            #expect(XcodeFixture.files(in: folder) == before, "every file as it was, no temporary file left")
            #expect(!FileManager.default.fileExists(atPath: journal))
            #expect(FileTransaction.recover(journal: journal).isEmpty, "nothing left to recover")

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
            let lines = FileTransaction.recover(journal: journal)
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
            let lines = FileTransaction.recover(journal: journal)
            #expect(lines.last == "'\(plan.files[0].displayPath)' changed since the interrupted bump: left as it is", "\(lines)")
            #expect(FileManager.default.contents(atPath: plan.files[0].path) == Data("edited by hand\n".utf8))
        }
    }
}
