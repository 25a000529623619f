import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseSteps

@Suite struct ArchiveVerifierTests {
    @Test func verifierNamesEveryDifference() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("tree/a.txt"), "alpha")
        try writeFile(folder("tree/b.txt"), "bravo")
        try FileManager.default.createSymbolicLink(atPath: folder("tree/link"), withDestinationPath: "a.txt")
        _ = try ZipWriter(options: ZipOptions()).write(sources: [folder("tree")], to: folder("tree.zip"))
        try writeFile(folder("tree/a.txt"), "ALPHA")
        try FileManager.default.removeItem(atPath: folder("tree/b.txt"))
        try writeFile(folder("tree/c.txt"), "charlie", mode: 0o600)
        try FileManager.default.removeItem(atPath: folder("tree/link"))
        try FileManager.default.createSymbolicLink(atPath: folder("tree/link"), withDestinationPath: "c.txt")
        let result = try ArchiveVerifier.verify(zip: folder("tree.zip"), sources: [folder("tree")])
        #expect(
            result.problems == [
                "entry 'tree/a.txt' has crc32 '\(String(format: "%08x", CRC32.checksum(Array("alpha".utf8))))', the source '\(String(format: "%08x", CRC32.checksum(Array("ALPHA".utf8))))'",
                "entry 'tree/b.txt' is not in the source tree",
                "link 'tree/link' points to 'a.txt', the source to 'c.txt'",
                "entry 'tree/c.txt' is missing from the zip",
            ])
    }

    @Test func aFaithfulZipPassesAndModeChangesAreNamed() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("tree/run.sh"), "#!/bin/sh\n", mode: 0o755)
        try FileManager.default.createSymbolicLink(atPath: folder("tree/dangling"), withDestinationPath: "../../nowhere")
        let zip = try ZipWriter(options: ZipOptions()).write(sources: [folder("tree")], to: folder("tree.zip"))
        #expect(try ArchiveVerifier.verify(zip: zip.path, sources: [folder("tree")]) == ArchiveVerification(entries: 3, expectedEntries: 3, problems: []))
        chmod(folder("tree/run.sh"), 0o644)
        #expect(try ArchiveVerifier.verify(zip: zip.path, sources: [folder("tree")]).problems == ["entry 'tree/run.sh' has mode '0755', the source '0644'"])
    }

    @Test func gateArchiveRejectsAZipThatIsNotAZip() async throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("tree/a.txt"), "a")
        try writeFile(folder("fake.zip"), "this is not a zip")
        let step = try ArchiveGateStep(
            options: .with {
                $0.zip = "fake.zip"; $0.source = "tree"
            })
        do {
            _ = try await step.run(in: EventRecorder().context(ArchiveGateStep.kind, in: folder.path))
            Issue.record("accepted a file that is not a zip")
        } catch let StepError.rejected(problems) {
            #expect(problems.first == "zip has 0 entries, the source tree 2")
            #expect(problems.contains { $0.hasPrefix("cannot read '\(folder("fake.zip"))': cannot open '\(folder("fake.zip"))': ") })
        }
    }
}
