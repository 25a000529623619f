import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

/// External step plugins (protocol 1): described at validation, checked against their schema with located
/// messages, run with events, outputs and artifacts, and failing with messages that name the plugin and quote the
/// offending line.
@Suite struct PluginStepTests {
    static let python = FixturePaths.root.appendingPathComponent("Examples/Plugins/python/release-step-manifest.write").path

    /// A plugin written as a shell script: `describe` prints `description`, every other verb runs `body`.
    static func script(
        _ kind: String, in directory: String, readOnly: Bool = false, options: String = #"{"type": "object"}"#,
        body: String
    ) throws -> String {
        let path = "\(directory)/release-step-\(kind)"
        let text = """
            #!/bin/sh
            if [ "$1" = describe ]; then
              echo '{"protocol": 1, "kind": "\(kind)", "summary": "a test plugin", "options": \(options), "outputs": {"greeting": {"type": "string", "description": "hello"}}, "read_only": \(readOnly)}'
              exit 0
            fi
            \(body)
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The Swift example plugin: built by scripts/test.sh before the tests (`$RELEASE_EXAMPLE_PLUGIN_SEMVER`), else
    /// built here once per test run into a scratch folder in /tmp (about 10 s the first time, 1 s after). It is not
    /// part of the package build, so `swift build` of release stays as fast as it was.
    static let swiftPlugin: Result<String, any Error> = Result {
        if let built = ProcessInfo.processInfo.environment["RELEASE_EXAMPLE_PLUGIN_SEMVER"], !built.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: built) else { throw StepError.failed("no example plugin at \(built)") }
            return built
        }
        let package = FixturePaths.root.appendingPathComponent("Examples/Plugins/semver-check").path
        let scratch = "/tmp/release-example-plugin-semver"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", package, "--scratch-path", scratch]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StepError.failed("swift build of the example plugin failed") }
        return "\(scratch)/debug/release-step-semver.check"
    }

    static func resolver(_ directory: String, path: String = "/usr/bin:/bin") -> PluginResolver {
        PluginResolver(
            describer: PluginDescriber(cacheFile: "\(directory)/cache/plugins.json", environment: ["PATH": path]),
            directory: directory)
    }

    static func load(_ text: String, in directory: String, path: String = "/usr/bin:/bin") async throws -> ValidatedPipeline {
        let file = "\(directory)/pipeline.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return try await PipelineLoader().load(path: file, displayPath: "pipeline.json", plugins: resolver(directory, path: path))
    }

    static func problems(_ text: String, in directory: String) async -> [String] {
        do {
            _ = try await load(text, in: directory)
            return []
        } catch {
            return (error as? PipelineError)?.diagnostics.map(\.description) ?? ["\(error)"]
        }
    }

    static func run(_ text: String, in directory: String, dryRun: Bool = false, secrets: [String: String] = [:]) async throws -> (RunResult, RecordingReporter) {
        let pipeline = try await load(text, in: directory)
        var options = RunOptions(
            workingDirectory: directory,
            environment: ProcessInfo.processInfo.environment.merging(secrets) { _, new in new },
            jobs: 2, now: Date(timeIntervalSince1970: 1_413_957_678), git: TestPipelines.fixedGit)
        options.dryRun = dryRun
        let masker = SecretMasker()
        let plan = try await Planner().plan(pipeline, options: options, masker: masker)
        let reporter = RecordingReporter()
        return (await Engine(plan: plan, reporter: reporter, masker: masker).run(), reporter)
    }

    // MARK: A pipeline mixing built-in and plugin steps

    static func mixedPipeline(swift: String) -> String {
        """
        {
          "version": 1,
          "plugins": {"manifest.write": "\(python)", "semver.check": "\(swift)"},
          "variables": {"version": "3.0.1"},
          "steps": [
            {"id": "check", "uses": "semver.check", "with": {"version": "${version}"}},
            {"id": "files", "uses": "shell", "needs": ["check"], "with": {"run": ["sh", "-c", "printf a > a.txt; printf bb > b.txt"]}},
            {"id": "manifest", "uses": "manifest.write", "needs": ["files"], "with": {"files": ["a.txt", "b.txt"], "output": "manifest.json"}},
            {"id": "show", "uses": "print", "with": {"message": "major ${steps.check.outputs.major}, manifest ${steps.manifest.outputs.path}"}}
          ]
        }
        """
    }

    @Test func aPipelineMixingBuiltInAndPluginStepsValidatesPlansDryRunsAndRuns() async throws {
        let swift = try Self.swiftPlugin.get()
        let directory = TestPipelines.temporaryDirectory()
        let text = Self.mixedPipeline(swift: swift)
        let pipeline = try await Self.load(text, in: directory)
        #expect(pipeline.registry["manifest.write"]?.source == Self.python)
        #expect(pipeline.graph.dependencies["show"]?.sorted() == ["check", "manifest"])

        let (dry, dryReporter) = try await Self.run(text, in: directory, dryRun: true)
        #expect(dry.statuses == ["check=ok", "files=planned", "manifest=planned", "show=planned"])
        #expect(dry.exitCode == 0)
        // The read-only Swift plugin really ran in the dry run; the Python one only said what it would do.
        #expect(dry.steps.first { $0.id == "check" }?.outputs["major"] == .number(3))
        #expect(dry.steps.first { $0.id == "manifest" }?.effects == [.note("write manifest.json listing 2 files")])
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/manifest.json"))

        let (result, reporter) = try await Self.run(text, in: directory)
        #expect(result.exitCode == 0, "\(result.steps.map { "\($0.id): \($0.message ?? "")" })")
        #expect(dry.exitCode == 0, "\(dry.steps.map { "\($0.id): \($0.status.label) \($0.message ?? "")" }) \(dryReporter.logLines)")
        let manifest = try #require(result.steps.first { $0.id == "manifest" })
        #expect(manifest.outputs["count"] == .number(2))
        #expect(manifest.outputs["path"] == .path("\(directory)/manifest.json"))
        let written = try String(contentsOfFile: "\(directory)/manifest.json", encoding: .utf8)
        #expect(manifest.artifacts.first?.sha256 == FileDigestTestOracle.sha256(written))
        #expect(written.contains("\"sha256\": \"ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\""))  // sha256("a")
        #expect(reporter.logLines.contains("manifest: wrote \(directory)/manifest.json"))
        #expect(reporter.logLines.contains("check: 3.0.1 is a semantic version"))
        #expect(
            reporter.events.contains {
                if case .step("manifest", .progress(done: 2, total: 2, unit: .items)) = $0 { return true }
                return false
            })
    }

    // MARK: Options checked against the plugin's schema

    @Test func optionsAreCheckedAgainstTheSchemaWithLocatedMessages() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let problems = await Self.problems(
            """
            {
              "version": 1,
              "plugins": {"manifest.write": "\(Self.python)"},
              "steps": [
                {"id": "a", "uses": "manifest.write", "with": {"files": ["x"], "ouput": "m.json"}},
                {"id": "b", "uses": "manifest.write", "with": {"files": "x", "output": "m.json"}},
                {"id": "c", "uses": "manifest.write", "with": {"files": ["x"], "output": "m.json", "indent": 1.5}}
              ]
            }
            """, in: directory)
        #expect(
            problems == [
                "pipeline.json:5:68: error: $.steps[0].with.ouput: step 'a': unknown option 'ouput' for manifest.write (did you mean 'output'?)",
                "pipeline.json:6:61: error: $.steps[1].with.files: step 'b' (manifest.write): expected an array, found a string 'x'",
                "pipeline.json:7:98: error: $.steps[2].with.indent: step 'c' (manifest.write): expected a whole number, found a number 1.5",
            ])
    }

    @Test func anUnknownOptionGetsADidYouMean() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let problems = await Self.problems(
            """
            {
              "version": 1,
              "plugins": {"manifest.write": "\(Self.python)"},
              "steps": [{"id": "a", "uses": "manifest.write", "with": {"files": [], "output": "m.json", "indnet": 4}}]
            }
            """, in: directory)
        #expect(problems == ["pipeline.json:4:93: error: $.steps[0].with.indnet: step 'a': unknown option 'indnet' for manifest.write (did you mean 'indent'?)"])
    }

    @Test func anEnumRejectsOtherValues() async throws {
        let directory = TestPipelines.temporaryDirectory()
        _ = try Self.script(
            "pick", in: directory, options: #"{"type": "object", "properties": {"mode": {"type": "string", "enum": ["fast", "slow"]}}}"#,
            body: #"echo '{"type": "result", "ok": true}'"#)
        let problems = await Self.problems(
            """
            {"version": 1, "plugins": {"pick": "./release-step-pick"},
             "steps": [{"id": "a", "uses": "pick", "with": {"mode": "quick"}}]}
            """, in: directory)
        #expect(problems == ["pipeline.json:2:57: error: $.steps[0].with.mode: step 'a' (pick): 'quick' is not one of fast, slow"])
    }

    /// A plugin's numbers are held to its schema's `minimum`/`maximum`, and none may be infinite.
    @Test func aNumberOutsideThePluginsRangeIsRejected() async throws {
        let directory = TestPipelines.temporaryDirectory()
        _ = try Self.script(
            "wait", in: directory, options: #"{"type": "object", "properties": {"seconds": {"type": "number", "minimum": 0, "maximum": 60}, "count": {"type": "integer"}}}"#,
            body: #"echo '{"type": "result", "ok": true}'"#)
        let problems = await Self.problems(
            """
            {"version": 1, "plugins": {"wait": "./release-step-wait"},
             "steps": [{"id": "a", "uses": "wait", "with": {"seconds": 1.7976931348623157e308}},
                       {"id": "b", "uses": "wait", "with": {"count": 1e999}}]}
            """, in: directory)
        #expect(
            problems == [
                "pipeline.json:2:60: error: $.steps[0].with.seconds: step 'a' (wait): 'seconds' must be from 0 to 60, found 1.7976931348623157e308",
                "pipeline.json:3:58: error: $.steps[1].with.count: step 'b' (wait): expected a finite number, found 1e999",
            ])
    }

    /// A plugin of every option type the schema subset has, `channel` required, no other keys allowed.
    static let notifySchema = """
        {"type": "object", "required": ["channel"], "additionalProperties": false, "properties": {
          "channel": {"type": "string"}, "count": {"type": "integer"}, "ratio": {"type": "number"}, "loud": {"type": "boolean"},
          "tags": {"type": "array", "items": {"type": "string"}}, "level": {"enum": ["info", "warn"]},
          "extra": {"type": "object", "required": ["name"], "additionalProperties": false, "properties": {"name": {"type": "string"}}}}}
        """.replacingOccurrences(of: "\n", with: " ")

    /// The plugin's options are held to its own schema by the rules built-in options follow: a misspelt required key
    /// is one error, the unknown key with its did-you-mean at its line (in `with` and in an object inside it); a
    /// number or boolean is not a string; every problem of a step is reported; `${…}` values wait for the run.
    @Test func pluginOptionsAreValidatedByTheBuiltInRules() async throws {
        let directory = TestPipelines.temporaryDirectory()
        _ = try Self.script("notify", in: directory, options: Self.notifySchema, body: #"echo '{"type": "result", "ok": true}'"#)
        let problems = await Self.problems(
            """
            {"version": 1, "plugins": {"notify": "./release-step-notify"}, "variables": {"n": "3", "who": "releases"},
             "steps": [{"id": "a", "uses": "notify", "with": {"chanel": "releases"}},
                       {"id": "b", "uses": "notify", "with": {"channel": 42, "count": "many", "ratio": true, "loud": "yes", "tags": ["x", 7], "level": "debug", "extra": {"nmae": "n"}}},
                       {"id": "c", "uses": "notify", "with": {"channel": false, "cuont": 1, "extra": {}}},
                       {"id": "d", "uses": "notify", "with": {"channel": "${who}", "count": "${n}", "loud": "${n}", "level": "${who}", "tags": ["${who}"]}}]}
            """, in: directory)
        #expect(
            problems == [
                "pipeline.json:2:51: error: $.steps[0].with.chanel: step 'a': unknown option 'chanel' for notify (did you mean 'channel'?)",
                "pipeline.json:3:62: error: $.steps[1].with.channel: step 'b' (notify): expected a string, found a number 42",
                "pipeline.json:3:75: error: $.steps[1].with.count: step 'b' (notify): expected a whole number, found a string 'many'",
                "pipeline.json:3:92: error: $.steps[1].with.ratio: step 'b' (notify): expected a number, found a boolean true",
                "pipeline.json:3:106: error: $.steps[1].with.loud: step 'b' (notify): expected true or false, found a string 'yes'",
                "pipeline.json:3:127: error: $.steps[1].with.tags[1]: step 'b' (notify): expected a string, found a number 7",
                "pipeline.json:3:140: error: $.steps[1].with.level: step 'b' (notify): 'debug' is not one of info, warn",
                "pipeline.json:3:159: error: $.steps[1].with.extra.nmae: step 'b': unknown option 'nmae' for notify (did you mean 'name'?)",
                "pipeline.json:4:62: error: $.steps[2].with.channel: step 'c' (notify): expected a string, found a boolean false",
                "pipeline.json:4:69: error: $.steps[2].with.cuont: step 'c': unknown option 'cuont' for notify (did you mean 'count'?)",
                "pipeline.json:4:90: error: $.steps[2].with.extra: step 'c' (notify): missing required option 'name'",
            ])
    }

    /// The checker itself: every problem collected (not only the first) with the unknown keys beside them; at run
    /// time a number where a string belongs is the typed value of a whole `${…}` and reaches the plugin as text.
    @Test func pluginOptionsCollectEveryProblemAndConvertResolvedValues() throws {
        let schema = try PluginSchema(try #require(PluginValue.parse(Self.notifySchema)), plugin: "notify")
        let bad = try JSONParser.parse(#"{"channel": 42, "cuont": 1, "level": "debug"}"#)
        var checker = PluginOptions(mode: .validation)
        do {
            _ = try checker.convert(bad, schema: schema, at: .root)
            Issue.record("options with three problems were accepted")
        } catch {
            #expect(error.all.map { "\($0.path): \($0.message)" } == ["$.channel: expected a string, found a number 42", "$.level: 'debug' is not one of info, warn"])
            #expect(error.unknownKeys.map(\.key) == ["cuont"])
        }
        let resolved = try JSONParser.parse(#"{"channel": 42, "loud": "true", "count": "3", "tags": [1, true]}"#)
        var runtime = PluginOptions(mode: .resolved)
        #expect(try runtime.convert(resolved, schema: schema, at: .root).json == #"{"channel":"42","loud":true,"count":3,"tags":["1","true"]}"#)
    }

    // MARK: Registration

    @Test func aPluginKindClashingWithABuiltInIsAnErrorNamingBoth() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let plugin = try Self.script("shell", in: directory, body: #"echo '{"type": "result", "ok": true}'"#)
        let problems = await Self.problems(
            """
            {"version": 1, "plugins": {"shell": "./release-step-shell"}, "steps": [{"id": "a", "uses": "noop"}]}
            """, in: directory)
        #expect(problems == ["pipeline.json:1:37: error: $.plugins.shell: plugin '\(plugin)' declares step kind 'shell', which is already a built-in step"])
    }

    @Test func aPluginThatCannotDescribeItselfIsReportedAtItsEntry() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let path = "\(directory)/broken"
        try "#!/bin/sh\necho 'not json'\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        let problems = await Self.problems(
            """
            {"version": 1, "plugins": {"broken": "broken", "gone": "./gone"}, "steps": [{"id": "a", "uses": "broken"}]}
            """, in: directory)
        #expect(
            problems == [
                "pipeline.json:1:38: error: $.plugins.broken: plugin 'broken' (\(path)): 'describe' did not print one JSON object: 'not json'",
                "pipeline.json:1:56: error: $.plugins.gone: plugin 'gone': no executable file './gone'",
                "pipeline.json:1:97: error: $.steps[0].uses: step 'a': unknown step kind 'broken'; run 'release steps' for the list",
            ])
    }

    @Test func executablesNamedReleaseStepKindOnPathRegisterThemselves() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let plugin = try Self.script("hello", in: directory, body: #"echo '{"type": "output", "name": "greeting", "value": "hi"}'; echo '{"type": "result", "ok": true}'"#)
        let pipeline = try await Self.load(#"{"version": 1, "steps": [{"id": "a", "uses": "hello"}]}"#, in: directory, path: "\(directory):/usr/bin:/bin")
        #expect(pipeline.registry["hello"]?.source == plugin)
        #expect(StepCatalog.text(pipeline.registry).contains("hello\n  a test plugin\n  plugin: \(plugin)\n"))
    }

    @Test func describeAnswersAreCachedPerExecutableUntilItChanges() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let plugin = try Self.script("count", in: directory, body: "")
        // Count describes: the script appends to a file each time it is asked.
        let text = try String(contentsOfFile: plugin, encoding: .utf8)
            .replacingOccurrences(of: "if [ \"$1\" = describe ]; then\n", with: "if [ \"$1\" = describe ]; then\n  echo x >> \(directory)/described\n")
        try text.write(toFile: plugin, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: plugin)
        let describer = PluginDescriber(cacheFile: "\(directory)/cache.json", environment: ["PATH": "/usr/bin:/bin"])
        func count() throws -> Int { try String(contentsOfFile: "\(directory)/described", encoding: .utf8).split(separator: "\n").count }
        _ = try await describer.describe(plugin, name: "count")
        _ = try await describer.describe(plugin, name: "count")
        #expect(try count() == 1)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: plugin)
        let described = try await describer.describe(plugin, name: "count")
        #expect(try count() == 2)
        #expect(described.summary == "a test plugin")
    }

    // MARK: Failure modes

    static func failure(_ body: String, timeout: Double? = nil, secret: String? = nil) async throws -> (message: String?, logs: [String], plugin: String) {
        let directory = TestPipelines.temporaryDirectory()
        let plugin = try script("fail", in: directory, body: body)
        let extra = timeout.map { ", \"timeout\": \($0)" } ?? ""
        let with = secret == nil ? "{}" : #"{"token": "${secrets.PLUGIN_TOKEN}"}"#
        let (result, reporter) = try await run(
            """
            {"version": 1, "plugins": {"fail": "./release-step-fail"}, "steps": [{"id": "a", "uses": "fail", "with": \(with)\(extra)}]}
            """, in: directory, secrets: secret.map { ["PLUGIN_TOKEN": $0] } ?? [:])
        #expect(result.exitCode == 1)
        return (result.steps.first?.message, reporter.logLines, plugin)
    }

    @Test func aMalformedLineFailsTheStepQuotingIt() async throws {
        let outcome = try await Self.failure(#"echo 'progress: 50%'; echo '{"type": "result", "ok": true}'"#)
        #expect(outcome.message == "plugin 'fail' (\(outcome.plugin)) printed a line that is not a JSON object: 'progress: 50%'")
    }

    @Test func aLineOfUnknownTypeFailsTheStepQuotingIt() async throws {
        let outcome = try await Self.failure(#"echo '{"type": "banner", "text": "hi"}'; echo '{"type": "result", "ok": true}'"#)
        #expect(outcome.message == #"plugin 'fail' (\#(outcome.plugin)) printed a line of unknown type 'banner': '{"type": "banner", "text": "hi"}'"#)
    }

    @Test func exitingWithoutAResultLineFailsTheStep() async throws {
        let outcome = try await Self.failure(#"echo '{"type": "log", "message": "working"}'; exit 3"#)
        #expect(outcome.message == "plugin 'fail' (\(outcome.plugin)) exited with status 3 without a result line")
        #expect(outcome.logs.contains("a: working"))
    }

    @Test func aCrashFailsTheStepWithTheSignal() async throws {
        let outcome = try await Self.failure("kill -SEGV $$")
        #expect(outcome.message == "plugin 'fail' (\(outcome.plugin)) was killed by signal 11 without a result line")
    }

    @Test func aFailedResultFailsTheStepWithThePluginsMessage() async throws {
        let outcome = try await Self.failure(#"echo 'details on stderr' >&2; echo '{"type": "result", "ok": false, "message": "the channel is archived"}'"#)
        #expect(outcome.message == "plugin 'fail' (\(outcome.plugin)): the channel is archived")
        #expect(outcome.logs.contains("a: details on stderr"))
    }

    @Test func aHangingPluginIsStoppedWithItsWholeProcessGroupAtItsTimeout() async throws {
        let pidFile = TestPipelines.temporaryDirectory() + "/sleeper.pid"
        let outcome = try await Self.failure(#"[ "$1" = run ] || { echo '{"type": "result", "ok": true}'; exit 0; }; sleep 30 & echo $! > \#(pidFile); wait"#, timeout: 1)
        #expect(outcome.message?.hasPrefix("timed out after 1") == true, "\(outcome.message ?? "")")
        // The plugin's child went with it (its process group was stopped), rather than sleeping on for 30 s.
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var alive = true
        for _ in 0..<1200 where alive {  // up to a minute: a loaded runner may take seconds
            alive = Platform.processIsRunning(pid)
            if alive { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(!alive, "the plugin's child outlived the timeout")
    }

    /// Preflight calls `verify` and `plan` before anything runs: a plugin hanging there must not hang the run.
    @Test(arguments: ["verify", "plan"])
    func aPluginHangingInPreflightIsStoppedAtItsTimeout(verb: String) async throws {
        // Without the timeout the plugin would answer ok after 30 s and the run would succeed.
        let outcome = try await Self.failure(#"[ "$1" = \#(verb) ] && sleep 30; echo '{"type": "result", "ok": true}'"#, timeout: 1)
        #expect(outcome.message == "'\(verb)' timed out after 1s; the step's processes were stopped")
    }

    @Test func secretsAreMaskedInEverythingAPluginPrints() async throws {
        let body = #"""
            read request
            token=$(echo "$request" | sed 's/.*"token":"\([^"]*\)".*/\1/')
            echo "{\"type\": \"log\", \"message\": \"using $token\"}"
            echo "stderr $token" >&2
            echo "oops $token"
            """#
        let outcome = try await Self.failure(body, secret: "s3cr3t-value")
        #expect(outcome.logs.contains("a: using ***"))
        #expect(outcome.logs.contains("a: stderr ***"))
        #expect(outcome.message == "plugin 'fail' (\(outcome.plugin)) printed a line that is not a JSON object: 'oops ***'")
        #expect(!outcome.logs.joined().contains("s3cr3t"))
    }
}

/// SHA-256 of text by an independent implementation (`shasum -a 256`, Perl's, on macOS and Linux alike), to check
/// artifacts.
enum FileDigestTestOracle {
    static func sha256(_ text: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["shasum", "-a", "256"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(Data(Array(text.utf8)))
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
