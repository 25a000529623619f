import Foundation
import Synchronization
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSupport

/// Issue 22's secret findings, each through the whole engine and every renderer a run writes with: the plain log,
/// the GitHub Actions log, JSON events, the run report and the resume journal.
@Suite struct SecretLeakTests {
    /// A PEM key of the shape of an App Store Connect `.p8`: a BEGIN line, base64 body lines (the last one short),
    /// an END line, and the trailing line break a secret pasted from a file has.
    static let bodyLines = [
        "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgRk9SVEVTVElOR09O",
        "TFlOT1RBUkVBTEtFWWJ1dGl0bG9va3NsaWtlb25lMTIzNDU2Nzg5MGFiY2RlZmdo",
        "aWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3",
        "OT0xMjM0NTY3",
    ]
    static let pem = "-----BEGIN PRIVATE KEY-----\n" + bodyLines.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n"

    /// Everything a run shows: the events rendered by the three log formats, the report, and the journal files.
    struct Rendered {
        var texts: [(String, String)] = []

        init(_ result: RunResult, _ reporter: RecordingReporter, secrets: [String], directory: String? = nil) throws {
            let masker = SecretMasker(secrets: secrets)
            let plain = Mutex(""), github = Mutex(""), json = Mutex("")
            let reporters: [any RunReporter] = [
                ConsoleReporter(style: .plain, write: { text in plain.withLock { $0 += text } }),
                GitHubActionsReporter(write: { text in github.withLock { $0 += text } }),
                JSONLinesReporter(masker: masker, write: { text in json.withLock { $0 += text } }),
            ]
            for event in reporter.events { for target in reporters { target.report(event) } }
            texts = [
                ("plain", plain.withLock { $0 }), ("github", github.withLock { $0 }), ("json", json.withLock { $0 }),
                ("report", RunReport.encode(RunReport.object(result), pretty: true, masker: masker)),
            ]
            if let directory {
                let folder = JournalLocation.folder(in: directory)
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                    texts.append(("journal \(name)", try String(contentsOfFile: folder + "/" + name, encoding: .utf8)))
                }
            }
        }

        /// The renderers in which `text` appears.
        func leaking(_ text: String) -> [String] { texts.filter { $0.1.contains(text) }.map(\.0) }
    }

    // MARK: 1. Multi-line secrets and trailing line breaks

    /// A step prints a PEM key line by line and carries one of its lines in an output, then the run fails (so the
    /// journal stays): no body line reaches any output, and the journal does not keep the output that holds one.
    @Test func everyLineOfAMultiLineSecretIsMaskedInEveryOutput() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let text = #"""
            {"version": 1, "steps": [
              {"id": "show", "uses": "shell", "with": {"run": ["sh", "-c", "printf '%s' \"$0\"; echo \"line=$(echo \"$0\" | sed -n 3p)\" >> $RELEASE_OUTPUT", "${secrets.REL_PEM}"]}},
              {"id": "after", "uses": "shell", "needs": ["show"], "with": {"run": ["sh", "-c", "echo \"got $0\" >&2; exit 3", "${steps.show.outputs.line}"]}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(
            text, configure: { $0.workingDirectory = directory },
            environment: ["REL_PEM": Self.pem])
        #expect(result.statuses == ["show=ok", "after=failed"])
        #expect(reporter.logLines.contains("show: ***"), "\(reporter.logLines)")
        let rendered = try Rendered(result, reporter, secrets: [Self.pem], directory: directory)
        #expect(rendered.texts.contains { $0.0.hasPrefix("journal") }, "the failed run keeps its journal")
        for line in Self.bodyLines {
            #expect(rendered.leaking(line).isEmpty, "'\(line)' leaked in \(rendered.leaking(line))")
        }
        #expect(rendered.leaking("got ***").count >= 2, "the failure's own line is still shown, masked")
    }

    /// A token pasted with its line break (`\n`, `\r\n`): the value without it is what is printed and masked.
    @Test(arguments: ["\n", "\r\n", "\n\n"])
    func aSecretEndingInALineBreakIsMasked(ending: String) async throws {
        let token = "ghp_TrailingBreak0123456789"
        let text = #"""
            {"version": 1, "steps": [
              {"id": "use", "uses": "shell", "with": {"run": ["sh", "-c", "echo \"token=$(printf '%s' \"$0\" | tr -d '\\r\\n')\"; exit 3", "${secrets.REL_TOKEN}"]}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(text, environment: ["REL_TOKEN": token + ending])
        #expect(reporter.logLines.contains("use: token=***"), "\(reporter.logLines)")
        let rendered = try Rendered(result, reporter, secrets: [token + ending])
        #expect(rendered.leaking(token).isEmpty, "leaked in \(rendered.leaking(token))")
    }

    /// A child that writes a secret in two pieces with a pause between them: the two reads are joined into one line
    /// before masking (ProcessRunner delivers whole lines), so the secret is still masked whole.
    @Test func aSecretWrittenInTwoPiecesByTheChildIsStillMasked() async throws {
        let token = "ghp_SplitAcrossWrites0123456789"
        let text = #"""
            {"version": 1, "steps": [
              {"id": "use", "uses": "shell", "with": {"run": ["sh", "-c", "printf 'token=%s' \"$(echo \"$0\" | cut -c1-10)\"; sleep 0.3; printf '%s\\n' \"$(echo \"$0\" | cut -c11-)\"", "${secrets.REL_TOKEN}"]}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(text, environment: ["REL_TOKEN": token])
        #expect(result.exitCode == 0)
        #expect(reporter.logLines.contains("use: token=***"), "\(reporter.logLines)")
        #expect(!reporter.logLines.joined().contains(String(token.prefix(10))))
    }

    // MARK: 2. Dry runs

    /// `run --dry-run` describes the commands of `shell`, `git.commit` and `git.tag`: with the secret masked in the
    /// plain and GitHub logs, and in the JSON events and report (quoted or not).
    @Test func aDryRunDescribesCommandsWithSecretsMasked() async throws {
        let repository = try await VersioningGitRepository()
        defer { repository.remove() }
        let token = "ghp_DryRunSecret'0123 456789"
        let text = #"""
            {"version": 1, "steps": [
              {"id": "sh", "uses": "shell", "with": {"run": ["echo", "-H", "Authorization: token ${secrets.REL_TOKEN}", "https://example.com"]}},
              {"id": "commit", "uses": "git.commit", "with": {"message": "release with ${secrets.REL_TOKEN}", "allow_empty": true}},
              {"id": "tag", "uses": "git.tag", "with": {"name": "v1.0.0", "message": "tagged with ${secrets.REL_TOKEN}"}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(
            text,
            configure: {
                $0.workingDirectory = repository.path
                $0.dryRun = true
            }, environment: ["REL_TOKEN": token])
        #expect(result.statuses == ["sh=planned", "commit=planned", "tag=planned"], "\(result.steps.map { $0.message ?? "" })")
        let rendered = try Rendered(result, reporter, secrets: [token])
        for piece in [token, "DryRunSecret", "0123 456789", ShellQuoting.quote(token)] {
            #expect(rendered.leaking(piece).isEmpty, "'\(piece)' leaked in \(rendered.leaking(piece))")
        }
        let plain = try #require(rendered.texts.first { $0.0 == "plain" }?.1)
        #expect(plain.contains("run: echo -H 'Authorization: token ***' https://example.com"), "\(plain)")
        #expect(plain.contains("'release with ***'"), "\(plain)")
        #expect(plain.contains("'tagged with ***'"), "\(plain)")
        let github = try #require(rendered.texts.first { $0.0 == "github" }?.1)
        #expect(github.contains("'tagged with ***'"), "\(github)")
    }

    // MARK: 4. Short secrets and JSON

    /// Secrets such as `false`, `1` or `null` are masked in string values only: every JSON event and the report stay
    /// valid JSON, and the strings that held them are masked.
    @Test func shortSecretsKeepJSONEventsAndTheReportValid() async throws {
        let text = #"""
            {"version": 1, "steps": [
              {"id": "use", "uses": "shell", "with": {"run": ["sh", "-c", "echo \"flag=$0 count=$1\"; exit 3", "${secrets.REL_FLAG}", "${secrets.REL_COUNT}"]}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(text, environment: ["REL_FLAG": "false", "REL_COUNT": "1"])
        #expect(reporter.logLines.contains("use: flag=*** count=***"), "\(reporter.logLines)")
        let masker = SecretMasker(secrets: ["false", "1"])
        let lines = Mutex<[String]>([])
        let json = JSONLinesReporter(masker: masker, write: { line in lines.withLock { $0.append(line) } })
        reporter.events.forEach(json.report)
        let report = RunReport.encode(RunReport.object(result), pretty: true, masker: masker)
        var documents = lines.withLock { $0 }.map { String($0.dropLast()) }
        documents.append(report)
        for document in documents {
            let parsed = try? JSONSerialization.jsonObject(with: Data(document.utf8))
            #expect(parsed != nil, "not JSON: \(document)")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        #expect(object["dry_run"] as? Bool == false)
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.first?["attempts"] as? Int == 1, "numbers stay numbers")
        #expect((steps.first?["message"] as? String)?.contains("***") == true)
    }

    // MARK: 5. The journal's fingerprint

    /// The journal's fingerprint of a step whose options hold a secret is the same whatever the secret's value (it
    /// is computed with the secret's name), and still changes with any other option, so `--resume` runs it again.
    @Test func theJournalFingerprintHoldsTheSecretsNameNotItsValue() async throws {
        func fingerprint(secret: String, greeting: String) async throws -> (String, String) {
            let directory = TestPipelines.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let text = #"""
                {"version": 1, "steps": [
                  {"id": "hello", "uses": "shell", "with": {"run": ["sh", "-c", "echo \"$1\"", "${secrets.REL_PIN}", "\#(greeting)"]}},
                  {"id": "fail", "uses": "shell", "needs": ["hello"], "with": {"run": ["false"]}}
                ]}
                """#
            let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory }, environment: ["REL_PIN": secret])
            #expect(result.statuses == ["hello=ok", "fail=failed"])
            let path = RunJournal.path(for: "test.json", in: directory)
            // The key the run signed with: from the same environment.
            let key = RunJournalKey.resolve(environment: ProcessInfo.processInfo.environment)
            let journal = try #require(try RunJournal.load(path: path, pipeline: "test.json", profile: nil, workspace: directory, key: key))
            let contents = try String(contentsOfFile: path, encoding: .utf8)
            return (try #require(journal.entry("hello")).fingerprint, contents)
        }
        // Four characters, not hex digits, so they cannot appear in a digest by chance.
        let (first, contents) = try await fingerprint(secret: "k7Qz", greeting: "hi")
        let (rotated, _) = try await fingerprint(secret: "m2Wx", greeting: "hi")
        let (changed, _) = try await fingerprint(secret: "k7Qz", greeting: "hello")
        #expect(first == rotated, "the fingerprint depends on the secret's value")
        #expect(first != changed, "a changed option must change the fingerprint")
        // The hash an attacker would try: the step's options with the secret's value in them.
        let withValue = RunJournal.fingerprint(
            kind: "shell", resolved: try JSONParser.parse(#"{"run": ["sh", "-c", "echo \"$1\"", "k7Qz", "hi"]}"#),
            workspace: "/nowhere")
        #expect(!contents.contains(withValue))
        #expect(!contents.contains("k7Qz"))
    }

    // MARK: 6. Combining marks

    /// A secret followed by a combining mark forms another grapheme with its last character; it is masked anyway,
    /// in logs and in JSON events.
    @Test func aSecretFollowedByACombiningMarkIsMasked() async throws {
        let token = "ghp_CombiningMark0123456789"
        let text = #"""
            {"version": 1, "steps": [
              {"id": "use", "uses": "shell", "with": {"run": ["sh", "-c", "printf 'token=%s\\314\\201 end\\n' \"$0\"; exit 3", "${secrets.REL_TOKEN}"]}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(text, environment: ["REL_TOKEN": token])
        #expect(reporter.logLines.contains("use: token=***\u{301} end"), "\(reporter.logLines)")
        let rendered = try Rendered(result, reporter, secrets: [token])
        #expect(rendered.leaking(String(token.prefix(20))).isEmpty, "leaked in \(rendered.leaking(String(token.prefix(20))))")
    }
}
