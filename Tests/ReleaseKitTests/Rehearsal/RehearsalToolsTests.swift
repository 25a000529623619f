import Foundation
import Rehearsal
import Testing

/// `release rehearse-tools` ships exactly the fakes the tests use (Fixtures/FakeTools): regenerate the embedded copy
/// with `python3 scripts/embed-rehearsal-tools.py` after changing one.
@Suite struct RehearsalToolsTests {
    @Test func theShippedToolsAreTheFixtures() throws {
        let fixtures = FixturePaths.fixture("FakeTools").path
        let folder = TestPipelines.temporaryDirectory() + "/tools"
        let written = try RehearsalTools.write(to: folder)
        let expected = try FileManager.default.contentsOfDirectory(atPath: fixtures)
            .filter { !$0.hasPrefix(".") && !$0.hasPrefix("__pycache__") }.sorted()
        #expect(
            written.map { ($0 as NSString).lastPathComponent }.sorted() == expected,
            "Fixtures/FakeTools changed: run python3 scripts/embed-rehearsal-tools.py")
        for name in expected {
            let ours = FileManager.default.contents(atPath: folder + "/" + name)
            let theirs = FileManager.default.contents(atPath: fixtures + "/" + name)
            #expect(ours == theirs, "\(name) differs from Fixtures/FakeTools: run python3 scripts/embed-rehearsal-tools.py")
            #expect(FileManager.default.isExecutableFile(atPath: folder + "/" + name) == FileManager.default.isExecutableFile(atPath: fixtures + "/" + name), "\(name)")
        }
        #expect(RehearsalTools.toolNames.contains("xcodebuild") && RehearsalTools.toolNames.contains("pod") && !RehearsalTools.toolNames.contains("fakelib.py"))
    }
}
