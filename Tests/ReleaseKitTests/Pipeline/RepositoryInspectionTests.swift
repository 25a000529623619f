import Foundation
import Testing
@testable import ReleaseKit

/// What `release init` reads from a repository.
@Suite struct RepositoryInspectionTests {
    @Test(arguments: [
        ("git@github.com:acme/app.git", "acme/app"),
        ("https://github.com/acme/app", "acme/app"),
        ("ssh://git@github.com/acme/app.git", "acme/app"),
        ("https://gitlab.com/acme/app.git", nil),
    ] as [(String, String?)])
    func readsTheGitHubRemote(url: String, expected: String?) throws {
        let path = TestPipelines.temporaryDirectory() + "/config"
        try "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = \(url)\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(RepositoryInspection.githubRepository(gitConfig: path) == expected)
    }

    @Test func findsTheDemoProjectAndSharedSchemes() throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("DemoApp").path, toPath: directory + "/DemoApp")
        let schemes = directory + "/DemoApp/Demo.xcodeproj/xcshareddata/xcschemes"
        try FileManager.default.createDirectory(atPath: schemes, withIntermediateDirectories: true)
        try "<Scheme/>".write(toFile: schemes + "/Demo-Release.xcscheme", atomically: true, encoding: .utf8)
        let inspection = RepositoryInspection.inspect(directory + "/DemoApp")
        #expect(inspection.project == "Demo.xcodeproj")
        #expect(inspection.appTarget == "Demo")
        #expect(inspection.bundleIdentifier == "com.example.demo")
        #expect(inspection.schemes == ["Demo-Release"])
        #expect(inspection.scheme == "Demo-Release")
        #expect(inspection.version == "3.0.0")
        // The starter it leads to is a valid pipeline.
        _ = try TestPipelines.load(StarterPipeline(inspection).text)
    }
}
