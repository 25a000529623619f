import Foundation
import Testing

@testable import ReleaseSteps

/// `dsym.upload`: sentry-cli and Firebase's upload-symbols played by the fakes in Fixtures/FakeTools, which record
/// their argv and environment; the UUIDs listed are checked against llvm-dwarfdump's.
@Suite struct DsymUploadStepTests {
    static let fakeTools = FixturePaths.fixture("FakeTools").path
    static let token = "sntrys_TestToken1234567890"

    /// A folder with a fake-call log, and a context whose PATH starts with the fakes.
    final class Setup: Sendable {
        let folder: String
        let log: String
        let events = Recorder<StepEvent>()

        init() {
            folder = TestPipelines.temporaryDirectory()
            log = folder + "/calls.jsonl"
        }

        func context(path: String? = nil, extra: [String: String] = [:], dryRun: Bool = false, isolated: Bool = false) -> StepContext {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = path ?? "\(DsymUploadStepTests.fakeTools):\(environment["PATH"] ?? "/usr/bin:/bin")"
            environment["RELEASE_FAKE_LOG"] = log
            environment.merge(extra) { _, new in new }
            return StepContext(
                stepID: "crashes", kind: DsymUploadStep.kind, workingDirectory: folder, environment: environment,
                isDryRun: dryRun, endpoints: ServiceEndpoints(isolated: isolated), sink: { [events] in events.append($0) })
        }

        /// Each recorded call: (tool, argv, environment).
        func calls() throws -> [(tool: String, argv: [String], env: [String: String])] {
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
            return try text.split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return (object["tool"] as? String ?? "", object["argv"] as? [String] ?? [], object["env"] as? [String: String] ?? [:])
            }
        }

        var logLines: [String] {
            events.all.compactMap { if case .log(let line, _) = $0 { return line } else { return nil } }
        }
    }

    static func step(_ json: String) throws -> DsymUploadStep {
        try DsymUploadStep(options: decodeOptions(DsymUploadStep.Options.self, json))
    }

    /// The UUIDs of every DWARF file in the archive's dSYMs, by llvm-dwarfdump.
    static func dwarfdumpUUIDs(archive: String) throws -> Set<String> {
        var uuids: Set<String> = []
        let dsyms = archive + "/dSYMs"
        for bundle in try FileManager.default.contentsOfDirectory(atPath: dsyms) {
            let dwarf = "\(dsyms)/\(bundle)/Contents/Resources/DWARF"
            for file in try FileManager.default.contentsOfDirectory(atPath: dwarf) {
                uuids.formUnion(try ReleaseKitTests.dwarfdumpUUIDs("\(dwarf)/\(file)").values)
            }
        }
        return uuids
    }

    @Test(.enabled(if: DemoArchive.toolchainAvailable))
    func sentryGetsTheArchivesDSYMsWithTheTokenInItsEnvironmentOnly() async throws {
        let archive = try DemoArchive.good()
        let setup = Setup()
        let step = try Self.step(#"{"provider": "sentry", "path": "\#(archive)", "org": "example", "project": "ios-app", "auth_token": "\#(Self.token)", "wait": true}"#)
        let context = setup.context()
        try await step.verify(in: context)
        let outputs = try await step.run(in: context)

        let calls = try setup.calls()
        #expect(calls.count == 1)
        #expect(calls.first?.tool == "sentry-cli")
        #expect(calls.first?.argv == ["debug-files", "upload", "--org", "example", "--project", "ios-app", "--wait", archive + "/dSYMs"])
        #expect(calls.first?.env["SENTRY_AUTH_TOKEN"] == Self.token)
        guard case .list(let sent)? = outputs["uuids"] else { Issue.record("uuids is not a list"); return }
        let uuids = sent.map(\.text)
        #expect(Set(uuids) == (try Self.dwarfdumpUUIDs(archive: archive)))
        #expect(uuids.count >= 3)
        #expect(outputs["path"] == .path(archive + "/dSYMs"))
        #expect(setup.logLines.contains("> Found 3 debug information files"))
        #expect(setup.logLines.contains("sent \(uuids.count) dSYM UUIDs to Sentry"))
        for uuid in uuids { #expect(setup.logLines.contains { $0.hasPrefix(uuid + " (") }) }
        // The command line shown has no token in it.
        #expect(!setup.events.all.contains { "\($0)".contains(Self.token) })
    }

    @Test(.enabled(if: DemoArchive.toolchainAvailable))
    func crashlyticsGetsOneDSYMWithTheGoogleServicePlist() async throws {
        let archive = try DemoArchive.good()
        let setup = Setup()
        try "<plist/>".write(toFile: setup.folder + "/GoogleService-Info.plist", atomically: true, encoding: .utf8)
        let dsym = archive + "/dSYMs/Demo.app.dSYM"
        let tool = Self.fakeTools + "/upload-symbols"
        let step = try Self.step(#"{"provider": "crashlytics", "path": "\#(dsym)", "google_service_plist": "GoogleService-Info.plist", "tool": "\#(tool)"}"#)
        // Not on PATH: the option names it.
        let context = setup.context(path: "/usr/bin:/bin")
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        #expect(plan.effects.first == .command(argv: [tool, "-gsp", setup.folder + "/GoogleService-Info.plist", "-p", "ios", dsym], directory: nil))
        let outputs = try await step.run(in: context)
        #expect(try setup.calls().map(\.argv) == [["-gsp", setup.folder + "/GoogleService-Info.plist", "-p", "ios", dsym]])
        let expected = try ReleaseKitTests.dwarfdumpUUIDs(dsym + "/Contents/Resources/DWARF/Demo")
        guard case .list(let sent)? = outputs["uuids"] else { Issue.record("uuids is not a list"); return }
        #expect(sent.count == expected.count && Set(sent.map(\.text)) == Set(expected.values))
        #expect(!expected.isEmpty)
        #expect(setup.logLines.contains("Successfully submitted symbols for \(dsym)"))
    }

    @Test func aDryRunShowsTheCommandAndSendsNothing() async throws {
        let setup = Setup()
        try FileManager.default.createDirectory(atPath: setup.folder + "/build/Demo.app.dSYM", withIntermediateDirectories: true)
        let step = try Self.step(#"{"provider": "sentry", "path": "build/Demo.app.dSYM", "org": "example", "project": "ios-app", "include_sources": true}"#)
        let plan = try await step.plan(in: setup.context(dryRun: true))
        #expect(
            plan.effects.first
                == .command(
                    argv: [
                        Self.fakeTools + "/sentry-cli", "debug-files", "upload", "--org", "example", "--project", "ios-app",
                        "--include-sources", setup.folder + "/build/Demo.app.dSYM",
                    ], directory: nil))
        #expect(try setup.calls().isEmpty)
    }

    // MARK: Failure modes

    @Test(arguments: [
        (#"{"provider": "sentry", "path": "a.dSYM", "project": "p"}"#, "option 'org': provider 'sentry' needs 'org'"),
        (#"{"provider": "sentry", "path": "a.dSYM", "org": "o"}"#, "option 'project': provider 'sentry' needs 'project'"),
        (
            #"{"provider": "sentry", "path": "a.dSYM", "org": "o", "project": "p", "google_service_plist": "G.plist"}"#,
            "option 'google_service_plist': only for provider 'crashlytics'"
        ),
        (#"{"provider": "crashlytics", "path": "a.dSYM"}"#, "option 'google_service_plist': provider 'crashlytics' needs the app's GoogleService-Info.plist"),
        (#"{"provider": "crashlytics", "path": "a.dSYM", "google_service_plist": "G.plist", "org": "o"}"#, "option 'org': only for provider 'sentry'"),
        (#"{"provider": "crashlytics", "path": "a.dSYM", "google_service_plist": "G.plist", "platform": "watchos"}"#, "option 'platform': 'watchos' is not one of ios, mac, tvos"),
    ])
    func badOptionsAreRejectedBeforeAnythingRuns(json: String, message: String) {
        do {
            _ = try Self.step(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func verifyFindsMissingToolsAndFiles() async throws {
        let setup = Setup()
        try FileManager.default.createDirectory(atPath: setup.folder + "/empty", withIntermediateDirectories: true)
        let sentry = try Self.step(#"{"provider": "sentry", "path": "empty", "org": "o", "project": "p"}"#)
        await #expect(throws: StepError.failed("command not found: 'sentry-cli' (install it: https://docs.sentry.io/cli/installation/, or give its path in 'tool')")) {
            try await sentry.verify(in: setup.context(path: "/usr/bin:/bin"))
        }
        let crashlytics = try Self.step(#"{"provider": "crashlytics", "path": "empty", "google_service_plist": "GoogleService-Info.plist"}"#)
        await #expect(throws: StepError.missingFile(path: setup.folder + "/GoogleService-Info.plist", option: "google_service_plist")) {
            try await crashlytics.verify(in: setup.context())
        }
        try "<plist/>".write(toFile: setup.folder + "/GoogleService-Info.plist", atomically: true, encoding: .utf8)
        await #expect(
            throws: StepError.failed(
                "command not found: 'upload-symbols' (it comes with FirebaseCrashlytics, as Pods/FirebaseCrashlytics/upload-symbols or in the Swift package's checkout: give its path in 'tool')"
            )
        ) {
            try await crashlytics.verify(in: setup.context(path: "/usr/bin:/bin"))
        }
        let notExecutable = try Self.step(#"{"provider": "sentry", "path": "empty", "org": "o", "project": "p", "tool": "GoogleService-Info.plist"}"#)
        await #expect(throws: StepError.invalidOption("tool", "'\(setup.folder)/GoogleService-Info.plist' is not an executable file")) {
            try await notExecutable.verify(in: setup.context())
        }
        let missing = try Self.step(#"{"provider": "sentry", "path": "nowhere.dSYM", "org": "o", "project": "p"}"#)
        await #expect(throws: StepError.missingFile(path: setup.folder + "/nowhere.dSYM", option: "path")) {
            try await missing.verify(in: setup.context())
        }
        // A folder without dSYMs fails before the uploader runs.
        await #expect(throws: StepError.failed("no dSYMs in '\(setup.folder)/empty'")) {
            _ = try await sentry.run(in: setup.context())
        }
        #expect(try setup.calls().isEmpty)
    }

    @Test(.enabled(if: DemoArchive.toolchainAvailable))
    func aFailingUploaderFailsTheStepWithItsStatusAndMessage() async throws {
        let archive = try DemoArchive.good()
        let setup = Setup()
        let step = try Self.step(#"{"provider": "sentry", "path": "\#(archive)/dSYMs", "org": "o", "project": "p", "auth_token": "\#(Self.token)"}"#)
        await #expect(throws: StepError.exitStatus(1, command: "\(Self.fakeTools)/sentry-cli debug-files upload --org o --project p \(archive)/dSYMs")) {
            _ = try await step.run(in: setup.context(extra: ["RELEASE_FAKE_SENTRY": "fail"]))
        }
        #expect(setup.logLines.contains("error: API request failed"))
    }

    @Test func aRehearsalSkipsItSinceTheUploadersTalkToTheirServicesDirectly() async throws {
        let setup = Setup()
        let step = try Self.step(#"{"provider": "sentry", "path": ".", "org": "o", "project": "p"}"#)
        await #expect(throws: StepError.unavailable("sentry-cli talks to Sentry directly and has no local stand-in")) {
            _ = try await step.run(in: setup.context(isolated: true))
        }
        #expect(try setup.calls().isEmpty)
    }
}
