import Foundation
import Synchronization
import Testing

@testable import ReleaseExecution
@testable import ReleaseHTTP
@testable import ReleaseSteps
@testable import ReleaseSupport
@testable import ReleaseVersioning

/// Issue 16's output defects, each pinned: live GitHub Actions groups, JSON events with one key per concept,
/// NO_COLOR, preflight problems reported as such, DNS failures in checks not retried.
@Suite struct ReporterOutputTests {
    final class Lines: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ text: String) { storage.withLock { $0.append(text) } }
        var all: [String] { storage.withLock { $0 } }
        var text: String { all.joined() }
    }

    static let started = RunEvent.runStarted(
        pipeline: "p", file: "p.json", profile: nil, profileReason: "none", branch: "main",
        dryRun: false, steps: ["archive", "zip"])

    static func finished(_ id: String, _ status: StepStatus, message: String? = nil, attempts: Int = 1) -> RunEvent {
        .stepFinished(StepResult(id: id, kind: "shell", gate: false, status: status, message: message, duration: 2, attempts: attempts))
    }

    @Test func gitHubActionsStreamsAStepsLinesInsideItsGroupAsTheyCome() {
        let lines = Lines()
        let reporter = GitHubActionsReporter(write: lines.append)
        reporter.report(Self.started)
        reporter.report(.stepStarted(step: "archive", kind: "shell", attempt: 1))
        reporter.report(.step("archive", .log("Compiling 1 of 300", .stdout)))
        // Before the step ends, its line is already out (it used to wait for the end of the step).
        #expect(lines.text.hasSuffix("::group::▶ archive (shell)\nCompiling 1 of 300\n"))
        reporter.report(Self.finished("archive", .succeeded))
        #expect(lines.text.hasSuffix("Compiling 1 of 300\narchive (shell): ok 2s\n::endgroup::\n"))
    }

    @Test func gitHubActionsPrefixesParallelStepsOutsideGroupsAndAnnotatesFailuresAtOnce() {
        let lines = Lines()
        let reporter = GitHubActionsReporter(write: lines.append)
        reporter.report(.stepStarted(step: "a", kind: "shell", attempt: 1))
        reporter.report(.step("a", .log("one", .stdout)))
        reporter.report(.stepStarted(step: "b", kind: "shell", attempt: 1))
        reporter.report(.step("a", .log("two", .stdout)))
        reporter.report(.step("b", .log("three", .stderr)))
        reporter.report(Self.finished("b", .failed, message: "exit status 1"))
        reporter.report(.step("a", .log("four", .stdout)))
        #expect(
            lines.text == """
                ::group::▶ a (shell)
                one
                ::endgroup::
                [b] ▶ b (shell)
                [a] two
                [b] three
                [b] b (shell): failed 2s
                ::error title=step b failed::exit status 1
                [a] four

                """)
    }

    @Test func gitHubActionsLinesCarryNoTimestampsOfTheirOwn() {
        let lines = Lines()
        let reporter = GitHubActionsReporter(write: lines.append)
        reporter.report(Self.started)
        #expect(lines.text.hasPrefix("release: p (p.json)\n"), "\(lines.text)")
        #expect(!lines.text.contains("Z "))
    }

    @Test func jsonEventsNameTheStepWithOneKey() throws {
        let lines = Lines()
        let reporter = JSONLinesReporter(masker: SecretMasker(), write: lines.append)
        reporter.report(.stepStarted(step: "zip", kind: "archive.zip", attempt: 1))
        reporter.report(Self.finished("zip", .succeeded))
        reporter.emit(["event": "rehearsal_finished", "github": ["releases": [String]()]])
        let events = try lines.all.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(events.map { $0["event"] as? String } == ["step_started", "step_finished", "rehearsal_finished"])
        #expect(events[1]["step"] as? String == "zip")
        #expect(events[1]["id"] == nil)
        #expect(events.allSatisfy { $0["time"] is String })
    }

    @Test func noColorMeansNoColourOnATerminal() {
        #expect(!Terminal.allowsColour(environment: ["NO_COLOR": "1"]))
        #expect(Terminal.allowsColour(environment: ["NO_COLOR": ""]))
        #expect(Terminal.allowsColour(environment: [:]))
        let lines = Lines()
        let reporter = ConsoleReporter(style: .terminal, colour: false, write: lines.append)
        reporter.report(Self.finished("zip", .failed, message: "boom"))
        #expect(!lines.text.contains("\u{1B}[3"), "\(lines.text)")
        let painted = Lines()
        ConsoleReporter(style: .terminal, write: painted.append).report(Self.finished("zip", .failed, message: "boom"))
        #expect(painted.text.contains("\u{1B}[31m"))
    }

    @Test func aPreflightProblemIsNotReportedAsAFailureAfterZeroSeconds() {
        let lines = Lines()
        let reporter = ConsoleReporter(style: .plain, timestamps: false, write: lines.append)
        reporter.report(Self.finished("publish", .failed, message: "the token is not accepted", attempts: 0))
        #expect(lines.text == "✘ publish not started: the token is not accepted\n")
    }

    @Test func columnsComeFromCOLUMNSFirst() {
        #expect(Terminal.columns(of: -1, environment: ["COLUMNS": "80"]) == 80)
        #expect(Terminal.columns(of: -1, environment: [:]) == nil)
    }

    @Test func aHostThatDoesNotResolveIsNotRetriedInChecks() async throws {
        let retries = Lines()
        var configuration = HTTPClient.Configuration(retryPolicy: RetryPolicy(sleep: { _ in }), onRetry: retries.append)
        configuration.retriesNameResolution = false
        let error = await #expect(throws: HTTPError.self) {
            _ = try await HTTPClient(configuration: configuration).send(HTTPRequest(method: "GET", url: "http://release-test.invalid/"))
        }
        #expect(error?.isNameResolutionFailure == true, "\(String(describing: error))")
        // One attempt: before, four retries with back-off (about 12 s) came first.
        #expect(retries.all.isEmpty)
    }

    @Test func aRetryLineNamesTheRequestOnce() async throws {
        let retries = Lines()
        let configuration = HTTPClient.Configuration(retryPolicy: RetryPolicy(maxAttempts: 2, sleep: { _ in }), onRetry: retries.append)
        await #expect(throws: HTTPError.self) {
            _ = try await HTTPClient(configuration: configuration).send(HTTPRequest(method: "GET", url: "http://release-test.invalid/"))
        }
        let line = try #require(retries.all.first)
        #expect(line.components(separatedBy: "release-test.invalid/").count == 2, "\(line)")
        #expect(line.hasPrefix("GET http://release-test.invalid/ failed: "), "\(line)")
    }

    @Test func dryRunsAndPreflightAskForNoNameResolutionRetries() {
        for (dryRun, preflight) in [(true, false), (false, true)] {
            let context = StepContext(stepID: "s", kind: "k", workingDirectory: "/tmp", environment: [:], isDryRun: dryRun, isPreflight: preflight)
            #expect(!context.httpClient(for: .http).configuration.retriesNameResolution)
        }
        let running = StepContext(stepID: "s", kind: "k", workingDirectory: "/tmp", environment: [:])
        #expect(running.httpClient(for: .http).configuration.retriesNameResolution)
    }

    @Test func theVersionTableFitsTheTerminal() throws {
        let report = try VersionReader.read(in: XcodeFixture(name: "many-places").source).report
        let wide = report.table()
        #expect(wide.split(separator: "\n").contains { $0.count > 80 }, "the fixture's table is wide")
        let fitted = report.table(width: 80)
        for line in fitted.split(separator: "\n") where !line.hasPrefix("    ") {
            #expect(line.count <= 80, "\(line)")
        }
        #expect(fitted.contains("    "), "where each value is defined is still shown")
    }
}

extension ReporterOutputTests {
    @Test func aSkippedStepDoesNotLandInsideAnotherStepsGroup() {
        let lines = Lines()
        let reporter = GitHubActionsReporter(write: lines.append)
        reporter.report(.stepStarted(step: "archive", kind: "shell", attempt: 1))
        reporter.report(Self.finished("publish", .skipped, message: "when: profile is 'release' is false", attempts: 0))
        reporter.report(.step("archive", .log("done", .stdout)))
        reporter.report(Self.finished("archive", .succeeded))
        #expect(
            lines.text == """
                ::group::▶ archive (shell)
                done
                archive (shell): ok 2s
                ::endgroup::
                [publish] publish (shell): skipped: when: profile is 'release' is false

                """)
    }

    /// Issue 23 item 6: a preflight problem is one annotation; the step's result does not annotate it again.
    @Test func gitHubActionsAnnotatesAPreflightProblemOnce() {
        let lines = Lines()
        let reporter = GitHubActionsReporter(write: lines.append)
        reporter.report(.preflightFailed(step: "sign", message: "secret 'KEY' is not set: export KEY in the environment"))
        reporter.report(Self.finished("sign", .failed, message: "secret 'KEY' is not set: export KEY in the environment", attempts: 0))
        reporter.report(Self.finished("upload", .blocked, message: "blocked by 'sign', whose preflight failed", attempts: 0))
        #expect(
            lines.text == """
                ::error title=preflight%3A step sign::secret 'KEY' is not set: export KEY in the environment
                sign (shell): failed
                upload (shell): blocked: blocked by 'sign', whose preflight failed

                """)
    }
}
