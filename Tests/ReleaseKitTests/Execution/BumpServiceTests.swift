import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleaseVersioning

/// A terminal for ``BumpService`` that records what the bump says and answers from a script.
final class RecordingBumpConsole: BumpConsole, @unchecked Sendable {
    let isInteractive: Bool
    // The service calls from one task at a time; the lock is what makes sharing the recording across tasks safe.
    private let lock = NSLock()
    private var recorded = (errors: "", output: "", heldOff: 0, prompts: 0)
    private var answers: [String?]
    private let menu: BumpPromptEditor.Outcome

    init(interactive: Bool = false, answers: [String?] = [], menu: BumpPromptEditor.Outcome = .cancelled) {
        isInteractive = interactive
        self.answers = answers
        self.menu = menu
    }

    /// Human output (standard error).
    var errors: String { lock.withLock { recorded.errors } }
    /// Program results (standard output).
    var output: String { lock.withLock { recorded.output } }
    /// How many times writing was held off interrupts.
    var heldOff: Int { lock.withLock { recorded.heldOff } }
    /// How many times the menu ran.
    var prompts: Int { lock.withLock { recorded.prompts } }

    func write(_ text: String) { lock.withLock { recorded.errors += text } }
    func output(_ text: String) { lock.withLock { recorded.output += text } }
    func choose(_ prompt: BumpPrompt) -> BumpPromptEditor.Outcome {
        lock.withLock { recorded.prompts += 1 }
        return menu
    }
    func readAnswer() -> String? { lock.withLock { answers.isEmpty ? nil : answers.removeFirst() } }
    func holdingOffInterrupts(_ body: () throws -> Void) throws {
        lock.withLock { recorded.heldOff += 1 }
        try body()
    }
}

/// `release bump`'s flow without the command line, on a version file (no git: `branch: false`).
@Suite struct BumpServiceTests {
    /// A folder holding `VERSION` with 1.2.3.
    static func project() throws -> String {
        let directory = TestPipelines.temporaryDirectory()
        try "1.2.3\n".write(toFile: directory + "/VERSION", atomically: true, encoding: .utf8)
        return directory
    }

    static func version(in directory: String) throws -> String {
        try String(contentsOfFile: directory + "/VERSION", encoding: .utf8)
    }

    /// Runs the bump and returns its exit code, the failure's text written to the console as the command line
    /// writes it.
    static func bump(_ request: BumpService.Request, in directory: String, console: RecordingBumpConsole) async -> Int32 {
        do {
            try await BumpService(directory: directory, environment: [:], console: console).run(request)
            return ExitCodes.success
        } catch {
            if let text = error.text(annotations: false) { console.write(text) }
            return error.code
        }
    }

    @Test func withoutAChoiceOrATerminalItSaysWhatToPass() async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole()
        let code = await Self.bump(BumpService.Request(file: "VERSION", branch: false, yes: true), in: directory, console: console)
        #expect(code == 64)
        #expect(
            console.errors
                == "error: no version chosen and no terminal to ask on: pass major, minor, patch, build or X.Y.Z and optionally --build N|increment|git-count|timestamp|keep|appstore (for example 'release bump patch --build increment --yes')\n"
        )
        #expect(console.output.isEmpty)
        #expect(try Self.version(in: directory) == "1.2.3\n")
    }

    @Test func withYesItWritesAndSaysWhat() async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole()
        let code = await Self.bump(
            BumpService.Request(choice: "patch", file: "VERSION", branch: false, yes: true, json: true),
            in: directory, console: console)
        #expect(code == 0, "\(console.errors)")
        #expect(try Self.version(in: directory) == "1.2.4\n")
        #expect(console.errors.hasPrefix("Bumped 1.2.3 (-) -> 1.2.4 (-)\n"), "\(console.errors)")
        #expect(console.heldOff == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any])
        #expect(json["version"] as? String == "1.2.4")
    }

    @Test func aDryRunPrintsTheDiffAndWritesNothing() async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole()
        let code = await Self.bump(
            BumpService.Request(choice: "minor", file: "VERSION", branch: false, dryRun: true),
            in: directory, console: console)
        #expect(code == 0, "\(console.errors)")
        #expect(console.errors == "Dry run: 1.2.3 (-) -> 1.3.0 (-); nothing is written\n")
        #expect(console.output.contains("-1.2.3\n") && console.output.contains("+1.3.0\n"), "\(console.output)")
        #expect(console.heldOff == 0)
        #expect(try Self.version(in: directory) == "1.2.3\n")
    }

    @Test func withoutYesOrATerminalNothingIsWritten() async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole()
        let code = await Self.bump(BumpService.Request(choice: "patch", file: "VERSION", branch: false), in: directory, console: console)
        #expect(code == 64)
        #expect(console.errors == "error: no terminal to confirm on: pass --yes to write 1 file(s) without asking (nothing was changed)\n")
        #expect(try Self.version(in: directory) == "1.2.3\n")
    }

    @Test(arguments: [("n", Int32(1), "1.2.3\n"), ("", Int32(0), "1.2.4\n"), ("yes", Int32(0), "1.2.4\n")])
    func onATerminalTheAnswerDecides(answer: String, code: Int32, contents: String) async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole(interactive: true, answers: [answer])
        let result = await Self.bump(BumpService.Request(choice: "patch", file: "VERSION", branch: false), in: directory, console: console)
        #expect(result == code, "\(console.errors)")
        #expect(console.errors.contains(" [Y/n]?"))
        #expect(console.errors.contains("cancelled: nothing changed\n") == (code != 0))
        #expect(try Self.version(in: directory) == contents)
    }

    @Test func theEndOfInputCancels() async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole(interactive: true, answers: [])
        let code = await Self.bump(BumpService.Request(choice: "patch", file: "VERSION", branch: false), in: directory, console: console)
        #expect(code == 1)
        #expect(console.errors.hasSuffix(" [Y/n]?\ncancelled: nothing changed\n"), "\(console.errors)")
        #expect(try Self.version(in: directory) == "1.2.3\n")
    }

    @Test(arguments: [
        (BumpPromptEditor.Outcome.cancelled, Int32(1), "cancelled: nothing changed\n"),
        (.interrupted, Int32(130), "interrupted: nothing changed\n"),
    ])
    func leavingTheMenuChangesNothing(outcome: BumpPromptEditor.Outcome, code: Int32, message: String) async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole(interactive: true, menu: outcome)
        let result = await Self.bump(BumpService.Request(file: "VERSION", branch: false), in: directory, console: console)
        #expect(result == code)
        #expect(console.prompts == 1)
        #expect(console.errors.hasSuffix(message), "\(console.errors)")
        #expect(try Self.version(in: directory) == "1.2.3\n")
    }

    @Test func aBadBuildStrategyIsAnError() async throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingBumpConsole()
        let code = await Self.bump(
            BumpService.Request(choice: "patch", build: "appstore", file: "VERSION", branch: false, yes: true),
            in: directory, console: console)
        #expect(code == 1)
        #expect(
            console.errors == "error: --build appstore reads the API key from the environment: set APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID, APP_STORE_CONNECT_KEY\n")
        #expect(try Self.version(in: directory) == "1.2.3\n")
    }
}
