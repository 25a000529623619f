import Foundation
import ReleaseTestSupport
import Testing

/// Issue 24's "done means" on real apps of `../shared/real-projects`: the starter `release init` writes for each,
/// exported to GitHub Actions and to GitLab CI, is actionlint-clean and GitLab-schema-clean, and exports the same
/// bytes from another checkout at another path; and each, played job by job on separate checkouts
/// (scripts/simulate-starter.sh), archives the bumped version, tags and pushes the bump's commit, and makes the release
/// one machine makes.
@Suite(.serialized, .needsShared(.realProjects)) struct ExportRealProjectsTests {
    /// Apps, with the flags `release init` needs for them (as InitRealProjectsTests passes).
    static let apps: [(name: String, flags: [String])] = [
        ("swiftfin", ["--platform", "iOS", "--team", "ABCDE12345"]),
        ("keepassium", ["--target", "KeePassium", "--signing", "sync"]),
    ]

    /// The app's head as a repository of its own on `main`, with the starter `release init` writes committed.
    static func starter(_ name: String, flags: [String], at directory: String) throws {
        let head = try RealProjectsCommandTests.requireCorpus() + "/\(name)/head"
        try FileManager.default.createDirectory(atPath: (directory as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: head, toPath: directory)
        try "Pods/\nbuild/\n".write(toFile: directory + "/.gitignore", atomically: true, encoding: .utf8)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        let initialized = try ReleaseBinary.run(["init", "--yes"] + flags, in: directory)
        try #require(initialized.status == 0, "\(name): \(initialized.stderr)")
        try InitRealProjectsTests.commit("upstream head and the starter", in: directory)
    }

    @Test(.needsShared(.gitlabCI), arguments: apps.map(\.name))
    func theStarterExportsCleanAndTheSameFromAnotherFolder(name: String) throws {
        let flags = Self.apps.first { $0.name == name }!.flags
        let actionlint = try #require(ActionsExportTests.actionlint, "actionlint is not installed: run scripts/setup.sh")
        let checker = try #require(ActionsExportTests.checkJSONSchema, "check-jsonschema is not installed: run scripts/setup.sh")
        let schema = try #require(ActionsExportTests.gitlabSchema, "\(SharedReference.reason(.gitlabCI))")
        let tool = try ActionsExportTests.localToolSource()
        let first = ReleaseBinary.temporaryDirectory() + "/" + name
        try Self.starter(name, flags: flags, at: first)
        // The same starter in another checkout, deeper, exported from its Pipelines folder with absolute outputs.
        let second = ReleaseBinary.temporaryDirectory() + "/elsewhere/deeper/" + name
        try FileManager.default.createDirectory(atPath: (second as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: first, toPath: second)

        for (engine, output) in [("github-actions", ".github/workflows/release.yml"), ("gitlab-ci", ".gitlab-ci.yml")] {
            let exported = try ReleaseBinary.run(["export", engine, "Pipelines/release.json", "--output", output, "--tool-source", tool], in: first)
            #expect(exported.status == 0, "\(name) \(engine): \(exported.stderr)")
            let again = try ReleaseBinary.run(
                ["export", engine, "release.json", "--output", second + "/" + output, "--tool-source", tool],
                in: second + "/Pipelines")
            #expect(again.status == 0, "\(name) \(engine) from another folder: \(again.stderr)")
            let text = try String(contentsOfFile: first + "/" + output, encoding: .utf8)
            let other = try String(contentsOfFile: second + "/" + output, encoding: .utf8)
            #expect(text == other, "\(name) \(engine): the export differs from another folder")
            #expect(!text.contains(first) && !text.contains(ReleaseBinary.temporaryDirectory()), "\(name) \(engine): a local path in the export")
            #expect(text.contains("Pipelines/release.json"), "\(name) \(engine)")
            if engine == "github-actions" {
                let lint = try ActionsExportTests.execute(actionlint, ["-no-color", first + "/" + output], in: first)
                #expect(lint.status == 0, "actionlint on \(name)'s starter:\n\(lint.output)")
            } else {
                let check = try ActionsExportTests.execute(checker, ["--schemafile", schema, "--data-transform", "gitlab-ci", first + "/" + output], in: first)
                #expect(check.status == 0 && check.output.contains("ok -- validation done"), "GitLab's schema on \(name)'s starter:\n\(check.output)")
            }
        }
    }

    /// The starter of each real app, split across three runners (the git steps on Linux, the build on macOS) and
    /// played job by job on both engines: the archive sees the bumped version, the tag the last job pushes names the
    /// bump's commit, and the release equals the one a single machine makes (App Store Connect's upload, TestFlight
    /// group and signing assets; the tag's and the branch's tree). KeePassium's signs with signing.sync: its bundle ids
    /// and profiles are made once from a "laptop", for the KeePassium app and its AutoFill extension only. About 40 s
    /// an app (ActionsExportTests plays the demo app's starter the same way, ungated).
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["RELEASE_SLOW_TESTS"] == "1", "plays three jobs of a real app's starter (~40 s each); set RELEASE_SLOW_TESTS=1"),
        arguments: apps.map(\.name))
    func theStarterOfARealAppMakesTheOneMachineReleaseJobByJob(name: String) throws {
        let flags = Self.apps.first { $0.name == name }!.flags
        let head = try RealProjectsCommandTests.requireCorpus() + "/\(name)/head"
        let (outcome, work) = try ActionsExportTests.simulate(
            "simulate-starter.sh", [head] + flags, work: ReleaseBinary.temporaryDirectory() + "/simulate-\(name)")
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(outcome.output.contains("the bump reached the archive"), "\(outcome.output.suffix(3000))")
        #expect(outcome.output.components(separatedBy: "the commits reached the later job").count == 3, "both engines: \(outcome.output.suffix(3000))")
        #expect(outcome.output.contains("simulate-actions: job linux-2"), "\(outcome.output.suffix(3000))")
        for engine in ["github-actions", "gitlab-ci"] {
            #expect(outcome.output.contains("simulate-starter: \(engine) made the one-machine release"), "\(outcome.output.suffix(3000))")
        }
        #expect(outcome.output.contains(" IOS COMPLETE build VALID"), "\(outcome.output.suffix(3000))")
        if name == "keepassium" {
            let bundleIDs = outcome.output.split(separator: "\n").filter { $0.hasPrefix("bundle id ") }
            #expect(bundleIDs == ["bundle id com.keepassium.ios IOS", "bundle id com.keepassium.ios.KeePassium-AutoFill IOS"], "\(bundleIDs)")
        }
    }
}
