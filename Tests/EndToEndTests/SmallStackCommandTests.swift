import Foundation
import ReleasePipeline
import ReleaseTestSupport
import ReleaseVersioning
import Testing

/// `release validate` and `release version` under `ulimit -s 512`: on Linux that gives the main thread and every
/// other thread (glibc sizes new threads from the soft limit) the 512 KiB a Mac gives its secondary threads and the
/// Swift cooperative pool. Inputs nested to each reader's limit, and one past it, end in an error exit, never a
/// signal.
@Suite struct SmallStackCommandTests {
    /// Runs `release ARGUMENTS` in `directory` with a 512 KiB stack limit.
    static func runOnSmallStack(_ arguments: [String], in directory: String) throws -> ReleaseBinary.Outcome {
        try ReleaseBinary.run(
            ["-c", "ulimit -s 512 && exec \"$0\" \"$@\"", ReleaseBinary.path] + arguments, in: directory,
            executable: "/bin/bash")
    }

    static func temporaryFolder() throws -> String {
        let folder = TestTemporary.root + "/release-small-stack-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return ReleaseBinary.canonical(folder)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ReleaseBinary.path)))
    func validateOnPipelinesNestedToTheJSONLimitExitsWithAnError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = JSONParser.maximumDepth
        func pipeline(_ depth: Int) -> String {
            "{\"steps\": {\"a\": {\"kind\": \"shell\", \"with\": {\"x\": " + String(repeating: "[", count: depth - 4) + "1"
                + String(repeating: "]", count: depth - 4) + "}}}}\n"
        }
        try pipeline(limit).write(toFile: folder + "/at.json", atomically: true, encoding: .utf8)
        try pipeline(limit + 1).write(toFile: folder + "/past.json", atomically: true, encoding: .utf8)
        let atLimit = try Self.runOnSmallStack(["validate", "at.json"], in: folder)
        #expect(atLimit.status == 65, "stderr: \(atLimit.stderr)")
        #expect(!atLimit.stderr.contains("nested deeper"), "stderr: \(atLimit.stderr)")
        let past = try Self.runOnSmallStack(["validate", "past.json"], in: folder)
        #expect(past.status == 65, "stderr: \(past.stderr)")
        #expect(past.stderr.contains("past.json:1:\(limit + 45): error: invalid JSON: objects and arrays nested deeper than 64 levels"), "stderr: \(past.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ReleaseBinary.path)))
    func versionOnProjectsNestedToThePbxprojLimitExitsWithAnError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = OpenStepPlist.maximumDepth
        for (name, depth) in [("At", limit), ("Past", limit + 1)] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(name)/\(name).xcodeproj", withIntermediateDirectories: true)
            try ("// !$*UTF8*$!\n" + String(repeating: "{a=", count: depth - 1) + "{a=\nb;}" + String(repeating: ";}", count: depth - 1) + "\n")
                .write(toFile: "\(folder)/\(name)/\(name).xcodeproj/project.pbxproj", atomically: true, encoding: .utf8)
        }
        let atLimit = try Self.runOnSmallStack(["version"], in: folder + "/At")
        #expect(atLimit.status == 1, "stderr: \(atLimit.stderr)")
        #expect(!atLimit.stderr.contains("nested deeper"), "stderr: \(atLimit.stderr)")
        let past = try Self.runOnSmallStack(["version"], in: folder + "/Past")
        #expect(past.status == 1, "stderr: \(past.stderr)")
        #expect(past.stderr == "error: \(folder)/Past/Past.xcodeproj/project.pbxproj:2: dictionaries and arrays nested deeper than 64 levels\n")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ReleaseBinary.path)))
    func versionOnAnInfoPlistNestedPastItsLimitExitsWithAnError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let project = folder + "/project"
        try FileManager.default.copyItem(atPath: ReleaseBinary.root.path + "/Fixtures/Xcode/literal-plist", toPath: project)
        let limit = InfoPlistFile.maximumDepth
        let plist = project + "/Classic/Info.plist"
        let original = try String(contentsOfFile: plist, encoding: .utf8)
        let deep = "<key>Deep</key>\n" + String(repeating: "<array>", count: limit) + String(repeating: "</array>", count: limit) + "\n</dict>\n</plist>\n"
        try original.replacingOccurrences(of: "</dict>\n</plist>\n", with: deep).write(toFile: plist, atomically: true, encoding: .utf8)
        let line = original.components(separatedBy: "\n").firstIndex(of: "</dict>")! + 2
        let past = try Self.runOnSmallStack(["version"], in: project)
        #expect(past.status == 1, "stderr: \(past.stderr)")
        #expect(past.stderr.contains("Classic/Info.plist:\(line): dictionaries and arrays nested deeper than 64 levels"), "stderr: \(past.stderr)")
    }

    /// libyaml accepts 1,000 levels, which Yams' recursion alone does not fit in 512 KiB (about 1.3 MiB in a debug build).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ReleaseBinary.path)))
    func versionOnAnXcodeGenSpecNestedAsDeepAsLibyamlAllowsExitsWithAnError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let project = folder + "/project"
        try FileManager.default.copyItem(atPath: ReleaseBinary.root.path + "/Fixtures/Xcode/xcodegen", toPath: project)
        let spec = project + "/project.yml"
        let original = try String(contentsOfFile: spec, encoding: .utf8)
        try (original + "deep: " + String(repeating: "[", count: 990) + "1" + String(repeating: "]", count: 990) + "\n")
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let line = original.components(separatedBy: "\n").count
        let past = try Self.runOnSmallStack(["version"], in: project)
        #expect(past.status == 1, "stderr: \(past.stderr)")
        #expect(past.stderr.contains("project.yml:\(line): mappings and sequences nested deeper than 64 levels"), "stderr: \(past.stderr)")
    }
}
