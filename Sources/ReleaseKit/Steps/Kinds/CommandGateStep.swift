import Foundation
import ReleaseSupport
import Synchronization

/// `gate.command`: runs a validation command (`xcrun altool --validate-app …`, `xcrun notarytool …`) with its
/// output shown (secrets masked) and rejects the release when it exits with a non-zero status, when a line of
/// its output (standard output or error) matches a `fail_on` pattern (some altool versions print errors and exit
/// 0), or when a `require` pattern matches no line.
package struct CommandGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(help: "the command as argv; its output is shown with secrets masked")
        package var run: [String]
        @StepOption(help: "extra environment variables for the command")
        package var env: [String: String] = [:]
        @StepOption(.path, help: "directory to run in (default: the pipeline's working directory)")
        package var cwd: String?
        @StepOption(.regex, help: "a line of output (stdout or stderr) matching one of these rejects the release, whatever the exit status")
        package var failOn: [String] = []
        @StepOption(.regex, help: "each must match some line of output, or the release is rejected")
        package var require: [String] = []

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "gate.command"
    /// One line for `release steps`.
    package static let summary = "Run a validation command; reject on a non-zero exit, a fail_on line or a missing require line"
    package static let outputs: [StepDocumentation.Output] = [
        .init("exit_code", "number", "the command's exit status"),
        .init("stdout", "string", "standard output, trailing newlines removed"),
    ]
    /// An argv such as `["sh", "-c", "…"]` gets its script's `${…}` values as `RELEASE_V_n` variables set in `env`.
    package static let shellScript: ShellScriptOption? = ShellScriptOption(script: "run", environment: "env", acceptsString: false)
    package static let example = """
        { "id": "validate", "uses": "gate.command", "gate": true, "needs": ["export"], "when": {"os": "macos"},
          "with": { "run": ["xcrun", "altool", "--validate-app", "-f", "build/Demo.ipa", "-t", "ios",
                            "-u", "${env.APPLE_ID}", "-p", "${secrets.APP_SPECIFIC_PASSWORD}"],
                    "fail_on": ["ERROR ITMS-[0-9]+", "(?i)^\\\\*\\\\*\\\\* error"], "require": ["No errors validating"] } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty command or a pattern that is not a regular expression.
    package init(options: Options) throws {
        try options.validate()
        guard let first = options.run.first, !first.isEmpty else { throw StepError.invalidOption("run", "the command is empty") }
        _ = try Self.compile(options.failOn, "fail_on")
        _ = try Self.compile(options.require, "require")
        self.options = options
    }

    /// The patterns compiled (Swift `Regex` syntax, which accepts the usual PCRE forms such as `(?i)`).
    /// `Regex` values are not `Sendable`, so the step keeps the text and compiles it where it is used.
    static func compile(_ patterns: [String], _ option: String) throws -> [(String, Regex<AnyRegexOutput>)] {
        try patterns.map { pattern in
            guard !pattern.isEmpty else { throw StepError.invalidOption(option, "a pattern is empty") }
            do {
                return (pattern, try Regex(pattern))
            } catch {
                throw StepError.invalidOption(option, "'\(pattern)' is not a regular expression: \(error)")
            }
        }
    }

    /// See ``documentation``.
    package var isReadOnly: Bool { true }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        if let cwd = options.cwd { try context.requireFile(cwd, option: "cwd") }
        let directory = options.cwd.map(context.resolvePath) ?? context.workingDirectory
        let environment = context.environment.merging(options.env) { _, new in new }
        if ProcessRunner.resolveExecutable(options.run[0], directory: directory, environment: environment) == nil {
            throw StepError.failed("command not found: '\(options.run[0])'")
        }
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [.command(argv: options.run, directory: options.cwd.map(context.resolvePath))])
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let failOn = try Self.compile(options.failOn, "fail_on")
        let require = try Self.compile(options.require, "require")
        // Lines are numbered per stream: standard output and standard error arrive through two pipes, so their
        // order relative to each other is not something a message can promise.
        let lines = Mutex<(all: [(text: String, stream: OutputStreamKind, number: Int)], counts: [OutputStreamKind: Int])>(([], [:]))
        let result = try await context.run(options.run, directory: options.cwd, environment: options.env) { line, stream in
            lines.withLock { state in
                state.counts[stream, default: 0] += 1
                state.all.append((line, stream, state.counts[stream]!))
            }
        }
        let numbered = lines.withLock { $0.all }
        let output = numbered.map(\.text)
        let command = context.masker.commandLine(options.run)
        var problems: [String] = []
        if !result.succeeded {
            problems.append(result.signal.map { "'\(command)' was killed by signal \($0)" } ?? "'\(command)' exited with status \(result.status)")
        }
        for line in numbered {
            let stream = line.stream == .stdout ? "standard output" : "standard error"
            for (pattern, regex) in failOn where line.text.contains(regex) {
                problems.append("'\(command)' \(stream) line \(line.number) matches fail_on '\(pattern)': '\(line.text)'")
            }
        }
        for (pattern, regex) in require where !output.contains(where: { $0.contains(regex) }) {
            problems.append("'\(command)' printed no line matching require '\(pattern)'")
        }
        guard problems.isEmpty else { throw StepError.rejected(problems) }
        var stdout = result.standardOutput
        while stdout.hasSuffix("\n") { stdout.removeLast() }
        return StepOutputs(["exit_code": .number(Double(result.status)), "stdout": .string(context.masker.mask(stdout))])
    }
}
