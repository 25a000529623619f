import Foundation
import Testing

/// The README's main job: Pipelines/demo.json on a scratch copy, published to the local GitHub server.
@Suite(.serialized) struct DemoPipelineTests {
    /// What scripts/build-demo-archive.sh needs: Debian's LLVM 14, or on a Mac Xcode's clang, ld, lipo and dsymutil.
    static var toolchainAvailable: Bool {
        #if os(macOS)
        let tools = [["clang-14", "clang"], ["ld64.lld-14", "ld64.lld", "ld"], ["dsymutil-14", "dsymutil"], ["llvm-lipo-14", "lipo"]]
        #else
        let tools = [["clang-14"], ["ld64.lld-14"], ["dsymutil-14"], ["llvm-lipo-14"]]
        #endif
        return tools.allSatisfy { names in
            names.contains { tool in
                (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
                    .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
            }
        }
    }

    func prepare() throws -> String {
        try ReleaseBinary.prepareDemo()
    }

    /// "STEP: KEY" for every output a step of the report returned that its kind does not declare in `release steps
    /// --json` (a name ending in an upper-case placeholder, `asset_url_NAME`, declares a prefix; a kind with dynamic
    /// outputs and no such name may return any key).
    func undeclaredOutputs(_ steps: [[String: Any]], in directory: String) throws -> [String] {
        let catalog = try ReleaseBinary.run(["steps", "--json"], in: directory)
        let kinds = try #require(try JSONSerialization.jsonObject(with: Data(catalog.stdout.utf8)) as? [[String: Any]])
        var undeclared: [String] = []
        for step in steps {
            guard let kind = kinds.first(where: { $0["kind"] as? String == step["kind"] as? String }) else { continue }
            let names = (kind["outputs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            let prefixes = names.compactMap { name -> Substring? in
                guard let underscore = name.lastIndex(of: "_") else { return nil }
                let placeholder = name[name.index(after: underscore)...]
                return !placeholder.isEmpty && placeholder.allSatisfy(\.isUppercase) ? name[...underscore] : nil
            }
            if kind["dynamic_outputs"] as? Bool == true && prefixes.isEmpty { continue }
            for key in (step["outputs"] as? [String: Any] ?? [:]).keys.sorted()
            where !names.contains(key) && !prefixes.contains(where: { key.hasPrefix($0) }) {
                undeclared.append("\(step["id"] as? String ?? "?"): \(key)")
            }
        }
        return undeclared
    }

    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func publishesTheDemoReleaseAndARerunConverges() throws {
        let directory = try prepare()
        let first = try ReleaseBinary.run(["run", "Pipelines/demo.json", "--rehearse", "--report", "first.json"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("  profile: release (when: branch matches 'release/*')"))
        #expect(first.stderr.contains("bump │ 3.0.0 (4146) -> 3.0.1 (4321)"))
        let xcconfig = try String(contentsOfFile: directory + "/Fixtures/DemoApp/Config/Version.xcconfig", encoding: .utf8)
        #expect(xcconfig.contains("MARKETING_VERSION = 3.0.1\nCURRENT_PROJECT_VERSION = 4321\n"))

        // What the local server holds: one published release with exactly the four assets, digests matching the files.
        let state = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/.git/release-rehearsal/state.json"))) as! [String: Any]
        let releases = state["releases"] as! [[String: Any]]
        #expect(releases.count == 1)
        #expect(releases.first?["tagName"] as? String == "v3.0.1-4321")
        let summaryLines = first.stderr.split(separator: "\n").drop { !$0.hasPrefix("rehearsal: ") }
        #expect(summaryLines.contains { $0.contains("demo/client-releases v3.0.1-4321 (published)") })
        for name in ["Demo-3.0.1-4321.xcarchive.zip", "Demo-3.0.1-4321.app.dSYM.zip", "Demo-3.0.1-4321.app.dSYM.uuids.json", "SHA256SUMS"] {
            let line = summaryLines.first { $0.contains("  \(name)  ") }
            #expect(line?.contains("uploaded  sha256:") == true, "\(name)")
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/first.json"))) as! [String: Any]
        let steps = report["steps"] as! [[String: Any]]
        #expect(try undeclaredOutputs(steps, in: directory) == [])
        let zip = steps.first { $0["id"] as? String == "zip" }!
        let artifact = (zip["artifacts"] as! [[String: Any]]).first!
        let sha = artifact["sha256"] as! String
        #expect(summaryLines.contains { $0.contains("Demo-3.0.1-4321.xcarchive.zip") && $0.contains("sha256:\(sha)") })

        // The demo's .ipa, built from the real archive, went to the App Store Connect stand-in and on to TestFlight.
        let ipa = try #require(FileManager.default.attributesOfItem(atPath: directory + "/build/Demo-3.0.1-4321.ipa")[.size] as? Int)
        #expect(summaryLines.contains { $0.contains("upload com.example.demo 3.0.1 (4321) IOS COMPLETE  Demo-3.0.1-4321.ipa") && $0.contains("build VALID") })
        #expect(summaryLines.contains { $0.contains("group QA (com.example.demo): 3.0.1 (4321)") })
        #expect(summaryLines.contains { $0.contains(#"what to test en-US for 3.0.1 (4321): "Build 3.0.1 (4321) of the demo""#) })
        // …and on to App Review: the version created with What's New in two locales, the build, a phased release, submitted.
        #expect(
            summaryLines.contains { $0.hasSuffix("app store version com.example.demo 3.0.1 IOS WAITING_FOR_REVIEW  build 3.0.1 (4321)  release AFTER_APPROVAL  phased INACTIVE") },
            "\(summaryLines)")
        #expect(summaryLines.contains { $0.contains(#"what's new de-DE for 3.0.1: "Version 3.0.1 der Demo""#) })
        #expect(summaryLines.contains { $0.contains(#"what's new en-US for 3.0.1: "Version 3.0.1 of the demo""#) })
        #expect(summaryLines.contains { $0.hasSuffix("review submission IOS WAITING_FOR_REVIEW: 3.0.1") })
        let submit = try #require(steps.first { $0["id"] as? String == "submit" })
        #expect((submit["outputs"] as? [String: Any])?["state"] as? String == "WAITING_FOR_REVIEW")
        let upload = try #require(steps.first { $0["id"] as? String == "testflight" })
        let outputs = try #require(upload["outputs"] as? [String: Any])
        #expect(outputs["bytes_sent"] as? Double == Double(ipa))
        #expect(outputs["state"] as? String == "COMPLETE")

        let second = try ReleaseBinary.run(["run", "Pipelines/demo.json", "--rehearse"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        // HEAD is the first run's bump commit: the bump is kept (issue 23, item 3).
        #expect(second.stderr.contains("bump │ already at 3.0.1 (4321) in HEAD's commit "), "\(second.stderr)")
        #expect(second.stderr.contains("0 uploaded, 4 already there"))
        #expect(second.stderr.contains("announce │ Uploaded 0 bytes in this run"))
        #expect(second.stderr.contains("testflight │ sent 0 bytes: App Store Connect already had 3.0.1 (4321)"))
        #expect(second.stderr.contains("testers │ beta groups 'QA': already so"))
        #expect(second.stderr.contains("bytes received on upload URLs since start: 0 B"))
        #expect(second.stderr.contains("submit │ App Store version 3.0.1 is WAITING_FOR_REVIEW: already submitted; nothing to change"), "\(second.stderr)")
        #expect(second.stderr.contains(", 0 writes"), "the re-run sends App Store Connect no write request")
    }

    /// The App Store Connect key and the tokens it signs appear nowhere the run writes: output, report, journal.
    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func theAppStoreConnectKeyAndItsTokensAreNeverWritten() throws {
        let directory = try prepare()
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
        let output = Pipe()
        openssl.standardOutput = output
        try openssl.run()
        let pem = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        openssl.waitUntilExit()
        try #require(pem.contains("BEGIN PRIVATE KEY"))
        let environment = [
            "APP_STORE_CONNECT_KEY_ID": "2X9R4HXF34", "APP_STORE_CONNECT_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a",
            "APP_STORE_CONNECT_KEY": pem,
        ]
        // A last step fails, so the journal is kept for a resume (a successful run removes it).
        let pipelinePath = directory + "/Pipelines/demo.json"
        var pipeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: pipelinePath))) as? [String: Any])
        pipeline["steps"] = (pipeline["steps"] as? [[String: Any]] ?? []) + [["id": "fail", "uses": "shell", "needs": ["testers"], "with": ["run": ["false"]]]]
        try JSONSerialization.data(withJSONObject: pipeline).write(to: URL(fileURLWithPath: pipelinePath))
        let outcome = try ReleaseBinary.run(
            ["run", "Pipelines/demo.json", "--rehearse", "--report", "report.json", "--log-format", "json"],
            in: directory, environment: environment)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"testflight\""))
        // The key's body lines, and any JWT ("eyJ" is the base64url of '{"'), in anything the run wrote.
        let keyLines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        var written = [("stdout", outcome.stdout), ("stderr", outcome.stderr)]
        let journal = directory + "/.git/release-journal"
        for path in [directory + "/report.json"] + (FileManager.default.subpaths(atPath: journal) ?? []).map({ journal + "/" + $0 }) {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) { written.append((path, text)) }
        }
        #expect(written.count == 4, "stdout, stderr, the report and the journal: \(written.map(\.0))")
        #expect(written.contains { $0.0.hasPrefix(journal) && $0.1.contains("\"testflight\"") })
        for (name, text) in written {
            for line in keyLines { #expect(!text.contains(line), "\(name) holds the key") }
            #expect(!text.contains("eyJhbGciOiJFUzI1NiI"), "\(name) holds a token")
            #expect(!text.contains("eyJ0eXAiOiJKV1Qi"), "\(name) holds a token")
        }
    }

    /// As a real release pipeline: the bump is committed and the release tagged, the clone is clean afterwards, and
    /// a second run changes nothing and still succeeds.
    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func theDemoCommitsItsBumpTagsTheReleaseAndLeavesTheCloneClean() throws {
        let directory = try prepare()
        func git(_ arguments: String...) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let first = try ReleaseBinary.run(["run", "Pipelines/demo.json", "--rehearse"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try git("status", "--porcelain") == "")
        #expect(try git("log", "-1", "--format=%s") == "Bump version to 3.0.1 (4321)")
        #expect(try git("show", "--name-only", "--format=", "HEAD") == "Fixtures/DemoApp/Config/Version.xcconfig")
        #expect(try git("tag", "--points-at", "HEAD") == "v3.0.1-4321")
        let head = try git("rev-parse", "HEAD")

        let second = try ReleaseBinary.run(["run", "Pipelines/demo.json", "--rehearse"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        // The kept bump names the file HEAD's commit changed; it has nothing new to commit.
        #expect(second.stderr.contains("commit │ none of the 1 files changed; HEAD stays at \(head.prefix(12))"), "\(second.stderr)")
        #expect(second.stderr.contains("tag │ tag 'v3.0.1-4321' already names this commit"))
        #expect(try git("rev-parse", "HEAD") == head)
        #expect(try git("status", "--porcelain") == "")
    }

    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func dryRunOfTheDemoChangesNothing() throws {
        let directory = try prepare()
        let outcome = try ReleaseBinary.run(["run", "Pipelines/demo.json", "--dry-run", "--rehearse"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("-MARKETING_VERSION = 3.0.0"))
        #expect(outcome.stderr.contains("+MARKETING_VERSION = 3.0.1"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/build"))
        let status = Process()
        status.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        status.arguments = ["status", "--porcelain"]
        status.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        status.standardOutput = pipe
        try status.run()
        status.waitUntilExit()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "")
    }

    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func aRejectingGateStopsThePublishExitsTwoAndCleanupStillRuns() throws {
        let directory = try prepare()
        try ReleaseBinary.git(["tag", "v9.0.0"], in: directory)
        let outcome = try ReleaseBinary.run(["run", "Pipelines/demo.json", "--rehearse", "--report", "report.json"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("✘ check-versions rejected the release"))
        #expect(outcome.stderr.contains("v9.0.0"))
        #expect(outcome.stderr.contains("⊘ publish blocked: 'check-versions' rejected the release"))
        #expect(outcome.stderr.contains("nothing was published"))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as! [String: Any]
        let statuses = Dictionary(uniqueKeysWithValues: (report["steps"] as! [[String: Any]]).map { ($0["id"] as! String, $0["status"] as! String) })
        #expect(statuses["check-versions"] == "rejected")
        #expect(statuses["publish"] == "blocked")
        #expect(statuses["cleanup"] == "ok")
        #expect(statuses["check-dsyms"] == "ok", "the other gates still ran")
    }
}
