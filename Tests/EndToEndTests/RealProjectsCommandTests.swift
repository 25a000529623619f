import Foundation
import ReleaseSupport
import ReleaseTestSupport
import ReleaseVersioning
import Testing

/// `release version` and `release bump` run as the built binary on the apps of `../shared/real-projects`: every
/// head reads without an error, and every real bump commit is replayed from its `before/` state and compared
/// with the team's `after/` byte for byte. Where the result differs, the replay names the exact lines and says
/// why (meta.json's `reproducible_by_bump` is `partly` or `no` there, and the test checks it says so).
@Suite(.serialized, .needsShared(.realProjects)) struct RealProjectsCommandTests {
    /// The corpus: the repository root's parent + `/shared/real-projects`. Without it the suite is skipped
    /// (`.needsShared`), or with RELEASE_REQUIRE_SHARED=1 fails with this message.
    static let corpus = FilePath.normalized(SharedReference.path(.realProjects))

    static func requireCorpus() throws -> String {
        try #require(SharedReference.isPresent(.realProjects), "\(SharedReference.reason(.realProjects))")
        return corpus
    }

    @Test(arguments: [
        ("duckduckgo-ios", 60), ("pocket-casts-ios", 44), ("element-x-ios", 18), ("owncloud-ios-app", 22), ("isowords", 33),
        ("habitica-ios", 28), ("keepassium", 14), ("swiftfin", 4),
    ])
    func versionJSONOnEveryHead(app: String, rows: Int) throws {
        let head = try Self.requireCorpus() + "/\(app)/head"
        let outcome = try ReleaseBinary.run(["version", "--json"], in: head)
        #expect(outcome.status == 0, "\(app): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("error"), "\(app): \(outcome.stderr)")
        let report = try JSONDecoder().decode(VersionReport.self, from: Data(outcome.stdout.utf8))
        #expect(report.entries.count == rows)
        #expect(report.entries.allSatisfy { $0.configuration != nil })
    }

    /// One real bump commit and how it is replayed.
    struct Replay: Sendable, CustomTestStringConvertible {
        var app: String
        var commit: String
        /// meta.json's `reproducible_by_bump`, checked.
        var reproducible: String
        /// Each run's arguments after `release bump` (`--yes --no-branch` are added).
        var runs: [[String]]
        /// Folders of `head/` that did not exist at the time (a renamed project).
        var dropFromHead: [String] = []
        /// Lines of `head/` files that the corpus does not hold at the parent commit: `(file, now, then)`.
        var restore: [(String, String, String)] = []
        /// Where the result differs from the team's `after/`: `file: -team's line` and `file: +our line`.
        var residual: [String] = []
        /// Why it is replayed this way, or why it differs.
        var why: String

        var testDescription: String { "\(app) \(commit)" }
    }

    static let replays: [Replay] = [
        Replay(
            app: "duckduckgo-ios", commit: "05f37b2eb", reproducible: "yes", runs: [["7.157.0", "--build", "0"]],
            why:
                "Version.xcconfig and BuildNumber.xcconfig through the base configurations' #include chain. The test bundles at 1.0 (1) stay although the app was at build 1: Xcode's template values are not 'in step'."
        ),
        Replay(
            app: "duckduckgo-ios", commit: "40740302a", reproducible: "yes", runs: [["7.157.0", "--build", "5"]],
            why: "Only the build; Version.xcconfig stays byte-identical."),
        Replay(
            app: "duckduckgo-ios", commit: "c0c58f3b1", reproducible: "partly", runs: [["7.153.0", "--build", "0"]],
            dropFromHead: ["DuckDuckGo-iOS.xcodeproj"],
            residual: [
                "DuckDuckGo.xcodeproj/project.pbxproj: -\t\t\t\tDYLIB_CURRENT_VERSION = 0;", "DuckDuckGo.xcodeproj/project.pbxproj: +\t\t\t\tDYLIB_CURRENT_VERSION = 2;",
                "DuckDuckGo.xcodeproj/project.pbxproj: -\t\t\t\tDYLIB_CURRENT_VERSION = 0;", "DuckDuckGo.xcodeproj/project.pbxproj: +\t\t\t\tDYLIB_CURRENT_VERSION = 2;",
                "DuckDuckGo.xcodeproj/project.pbxproj: -\t\t\t\tDYLIB_CURRENT_VERSION = 0;", "DuckDuckGo.xcodeproj/project.pbxproj: +\t\t\t\tDYLIB_CURRENT_VERSION = 2;",
                "DuckDuckGo.xcodeproj/project.pbxproj: -\t\t\t\tDYLIB_CURRENT_VERSION = 0;", "DuckDuckGo.xcodeproj/project.pbxproj: +\t\t\t\tDYLIB_CURRENT_VERSION = 2;",
                "DuckDuckGo/Settings.bundle/Root.plist: -\t\t\t<string>7.153.0</string>", "DuckDuckGo/Settings.bundle/Root.plist: +\t\t\t<string>7.152.0</string>",
            ],
            why:
                "The version line and all 28 target-level CURRENT_PROJECT_VERSION lines match. The team also set the Core framework's DYLIB_CURRENT_VERSION (its Mach-O library version, not a version setting) and the Settings.bundle's DefaultValue (a copy of the version shown in Settings, not a build setting); the JSON and Swift changes of the commit are not version edits. The project was DuckDuckGo.xcodeproj then: head's renamed project is left out."
        ),
        Replay(
            app: "pocket-casts-ios", commit: "03653caab", reproducible: "yes", runs: [["7.75", "--build", "7.75.0.0"]],
            why:
                "MARKETING_VERSION = $(VERSION_SHORT) and CURRENT_PROJECT_VERSION = $(VERSION_LONG) are followed to Version.xcconfig; the dotted build 7.75.0.0 is taken as written; the test targets' MARKETING_VERSION = 1.0 stay."
        ),
        Replay(
            app: "pocket-casts-ios", commit: "bcb264c9d", reproducible: "yes", runs: [["7.75", "--build", "7.75.0.3"]],
            why: "Only VERSION_LONG."),
        Replay(
            app: "element-x-ios", commit: "785193c2d", reproducible: "partly", runs: [["26.07.0", "--build", "keep"]],
            why:
                "meta says partly because project.yml must change too: the engine edits the XcodeGen spec beside the project, so both files match. 26.07.0 keeps its zero-padded month; the build stays 1 (CI sets it)."
        ),
        Replay(
            app: "element-x-ios", commit: "fd5b3813d", reproducible: "partly", runs: [["26.07.5", "--build", "keep"]],
            why: "As 785193c2d; the commit's CHANGES.md entry is not a version edit."),
        Replay(
            app: "element-x-ios", commit: "834938f58", reproducible: "partly", runs: [["26.07.3", "--build", "keep"]],
            why: "As 785193c2d; the Swift changes squashed into the commit are not version edits."),
        Replay(
            app: "owncloud-ios-app", commit: "e6805a78c", reproducible: "no", runs: [["12.5.0", "--build", "298"]],
            residual: [
                "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_SHORT_VERSION = 12.4.1;", "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_VERSION = 297;",
                "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_SHORT_VERSION = 12.5.0;", "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_VERSION = 298;",
                "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_SHORT_VERSION = 12.4.1;", "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_VERSION = 297;",
                "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_SHORT_VERSION = 12.5.0;", "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_VERSION = 298;",
                "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_SHORT_VERSION = 12.5.0;", "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_VERSION = 298;",
                "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_SHORT_VERSION = 12.5.0;", "ownCloud.xcodeproj/project.pbxproj: -\t\t\t\tAPP_VERSION = 298;",
            ],
            why:
                "The team inserted target-level copies of APP_SHORT_VERSION/APP_VERSION on the app target only, so its five extensions kept shipping 12.4.1 (297). A bump edits the definitions every moving target reads, the project-level variables, and the extensions move with their app: the same project the follow-up commit 1e1d67a0f arrived at, minus the shadowing copies."
        ),
        Replay(
            app: "owncloud-ios-app", commit: "1e1d67a0f", reproducible: "yes", runs: [["12.5.0", "--build", "298"]],
            why:
                "MARKETING_VERSION = \"${APP_SHORT_VERSION}\" is followed to the project-level variables; the app target's copies already say 12.5.0 (298) and stay; the Share Extension's dead CURRENT_PROJECT_VERSION = 161 stays."
        ),
        Replay(
            app: "owncloud-ios-app", commit: "98656dda6", reproducible: "no", runs: [["12.6.0", "--build", "300"]],
            residual: [
                "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_SHORT_VERSION = 12.6.0;", "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_VERSION = 300;",
                "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_SHORT_VERSION = 12.6.0;", "ownCloud.xcodeproj/project.pbxproj: +\t\t\t\tAPP_VERSION = 300;",
            ],
            why:
                "The team deleted the app target's shadowing copies and set the project level; a bump does not delete definitions, it sets all four to 12.6.0 (300). Every target resolves to the same version and build either way (checked below)."
        ),
        Replay(
            app: "isowords", commit: "591a99c8a", reproducible: "yes", runs: [["1.3", "--build", "105"]],
            why:
                "Literal plist values in the 11 plists of App/ (app, App Clip, 9 preview apps in step with the app) and the project-level CURRENT_PROJECT_VERSION that mirrors them, agvtool-style."
        ),
        Replay(
            app: "isowords", commit: "22f4d6c96", reproducible: "yes", runs: [["1.2", "--build", "102"]],
            why: "Only the build, in 10 plists (LeaderboardsPreview did not exist yet) and the project level."),
        Replay(
            app: "habitica-ios", commit: "758d7642f", reproducible: "no", runs: [["3.9.2", "--build", "951"]],
            restore: [("HabitRPG/Habitica-Info.plist", "<string>1008</string>", "<string>950</string>")],
            residual: ["HabitRPG/Habitica-Info.plist: -\t<string>950</string>", "HabitRPG/Habitica-Info.plist: +\t<string>951</string>"],
            why:
                "The team forgot the main app's plist, which kept its literal CFBundleVersion 950; the engine writes 951 there too and everything else matches. The corpus holds that plist only at head (1008), so the test puts back the 950 the README records for the parent commit."
        ),
        Replay(
            app: "habitica-ios", commit: "d14156c9e", reproducible: "no", runs: [["3.11.2", "--build", "keep", "--target", "Habitica"]],
            why:
                "The team moved the app alone and left its three extensions at 3.10, out of step (the next release brought them back). Without --target the extensions would move with their app; with --target Habitica the commit is reproduced."
        ),
        Replay(
            app: "habitica-ios", commit: "4ad265be4", reproducible: "yes", runs: [["3.12", "--build", "997"]],
            why:
                "CURRENT_PROJECT_VERSION ×24 and the literal builds of 6 plists, the test bundles' included (in step with the app's build); the orphan Habitica Notifications/Info.plist stays."
        ),
        Replay(
            app: "keepassium", commit: "fdb1499ec", reproducible: "yes", runs: [["2.6", "--build", "172"]],
            why: "The project level, inherited by the five shipping targets; the 1.0 (1) overrides of KeePassiumTests and MacUtils stay."),
        Replay(
            app: "keepassium", commit: "e651df4f8", reproducible: "yes", runs: [["2.6", "--build", "173"]],
            why: "Only the build (the subject's 2.5.173 is wrong; the files say 2.6)."),
        Replay(
            app: "swiftfin", commit: "a1a20174e", reproducible: "no",
            runs: [["1", "--build", "1", "--target", "Swiftfin iOS"], ["1.4.1", "--build", "keep", "--target", "Swiftfin tvOS"]],
            why: "One commit gave the two apps different versions (fastlane took over); two bumps, one per --target, reproduce it."),
        Replay(
            app: "swiftfin", commit: "a6987a99d", reproducible: "no", runs: [["1.0", "--build", "keep"]],
            why: "meta expects a whole-project bump to drag tvOS along; tvOS (1.4.1) is not in step with iOS (1), so a plain bump moves iOS alone."),
        Replay(
            app: "swiftfin", commit: "49f017d15", reproducible: "no", runs: [["1.0.0", "--build", "78"]],
            why: "Both apps were at 1.0.0 but tvOS's build 70 was not in step with iOS's 77, so only iOS's build moves."),
    ]

    @Test(arguments: replays)
    func replaysTheTeamsBump(replay: Replay) throws {
        let bump = try Self.requireCorpus() + "/\(replay.app)/bumps/\(replay.commit)"
        let meta = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bump + "/meta.json"))) as? [String: Any]
        #expect(meta?["reproducible_by_bump"] as? String == replay.reproducible)

        // head/ stands in for the files the commit did not change; before/ holds the ones it did.
        let workspace = ReleaseBinary.temporaryDirectory() + "/\(replay.app)"
        defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: workspace)) }
        try FileManager.default.copyItem(atPath: corpusHead(replay.app), toPath: workspace)
        for folder in replay.dropFromHead { try FileManager.default.removeItem(atPath: workspace + "/" + folder) }
        for (path, data) in Self.files(in: bump + "/before") {
            try FileManager.default.createDirectory(atPath: FilePath.parent(of: workspace + "/" + path), withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: workspace + "/" + path))
        }
        for (path, now, then) in replay.restore {
            let text = try String(contentsOfFile: workspace + "/" + path, encoding: .utf8)
            try #require(text.components(separatedBy: now).count == 2, "\(path) holds '\(now)' once")
            try text.replacingOccurrences(of: now, with: then).write(toFile: workspace + "/" + path, atomically: true, encoding: .utf8)
        }
        let before = Self.files(in: workspace)

        for arguments in replay.runs {
            let outcome = try ReleaseBinary.run(["bump"] + arguments + ["--yes", "--no-branch"], in: workspace)
            #expect(outcome.status == 0, "release bump \(arguments.joined(separator: " ")): \(outcome.stderr)")
        }

        let after = Self.files(in: bump + "/after")
        var residual: [String] = []
        for (path, data) in Self.files(in: workspace).sorted(by: { $0.key < $1.key }) {
            let team = after[path] ?? before[path] ?? Data()
            guard data != team else { continue }
            let diff = TextDiff.unified(old: String(decoding: team, as: UTF8.self), new: String(decoding: data, as: UTF8.self), path: path)
            for line in diff.components(separatedBy: "\n") where (line.hasPrefix("-") || line.hasPrefix("+")) && !line.hasPrefix("---") && !line.hasPrefix("+++") {
                residual.append("\(path): \(line)")
            }
        }
        #expect(residual == replay.residual, "\(replay.testDescription): \(replay.why)")
    }

    /// 98656dda6: the team deleted the shadowing copies, the bump sets them; every target ends at the same values.
    @Test func ownCloudReleaseResolvesLikeTheTeams() throws {
        let bump = try Self.requireCorpus() + "/owncloud-ios-app/bumps/98656dda6"
        let ours = ReleaseBinary.temporaryDirectory() + "/ours", team = ReleaseBinary.temporaryDirectory() + "/team"
        defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: ours)); try? FileManager.default.removeItem(atPath: FilePath.parent(of: team)) }
        for (folder, state) in [(ours, "before"), (team, "after")] {
            try FileManager.default.copyItem(atPath: corpusHead("owncloud-ios-app"), toPath: folder)
            try Data(contentsOf: URL(fileURLWithPath: bump + "/\(state)/ownCloud.xcodeproj/project.pbxproj"))
                .write(to: URL(fileURLWithPath: folder + "/ownCloud.xcodeproj/project.pbxproj"))
        }
        #expect(try ReleaseBinary.run(["bump", "12.6.0", "--build", "300", "--yes", "--no-branch"], in: ours).status == 0)
        func values(_ folder: String) throws -> [String] {
            try VersionReader.read(in: folder).report.entries.map { "\($0.target) \($0.configuration ?? "") \($0.version ?? "-") \($0.build ?? "-")" }
        }
        #expect(try values(ours) == values(team))
        #expect(try values(team).contains("ownCloud File Provider Release 12.6.0 300"))
    }

    /// e6805a78c: the team's state ships the extensions at 12.4.1 while the app says 12.5.0; the replay does not.
    @Test func ownCloudShadowingLeftTheExtensionsBehind() throws {
        let bump = try Self.requireCorpus() + "/owncloud-ios-app/bumps/e6805a78c"
        let team = ReleaseBinary.temporaryDirectory() + "/team"
        defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: team)) }
        try FileManager.default.copyItem(atPath: corpusHead("owncloud-ios-app"), toPath: team)
        try Data(contentsOf: URL(fileURLWithPath: bump + "/after/ownCloud.xcodeproj/project.pbxproj"))
            .write(to: URL(fileURLWithPath: team + "/ownCloud.xcodeproj/project.pbxproj"))
        let report = try VersionReader.read(in: team).report
        #expect(report.version == "12.5.0")
        #expect(report.entries.first { $0.target == "ownCloud File Provider" && $0.configuration == "Release" }?.version == "12.4.1")
        #expect(report.disagreements.contains("'ownCloud File Provider' (Release) is at 12.4.1, its app 'ownCloud' at 12.5.0"))
    }

    func corpusHead(_ app: String) throws -> String {
        try Self.requireCorpus() + "/\(app)/head"
    }

    /// Every file under `folder` by relative path.
    static func files(in folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
            }
        }
        return result
    }
}
