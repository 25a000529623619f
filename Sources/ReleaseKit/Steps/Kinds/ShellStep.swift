import Foundation
import ReleaseSupport

/// `shell`: runs a command. argv array by default; `shell: true` runs a string through `/bin/sh -c`.
///
/// A script's `${…}` values are never pasted into it: they arrive as `RELEASE_V_n` variables in `env`, referenced
/// with the quoting their place needs (the engine does it through ``shellScript``; see `ShellScript` in Pipeline/).
///
/// The exact command line is logged with secrets masked, output streams line by line, and the command's real
/// exit status is kept. Lines `KEY=VALUE` written to the file named by `$RELEASE_OUTPUT` become outputs
/// (`KEY<<DELIM` … `DELIM` for multi-line values), as GitHub Actions does with `$GITHUB_OUTPUT`.
package struct ShellStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the command as argv, or a shell string with shell: true")
        package var run: Command
        @StepOption(help: "run `run` through /bin/sh -c; its ${…} values reach the script as environment variables, never as script text")
        package var shell: Bool = false
        @StepOption(help: "extra environment variables for the command")
        package var env: [String: String] = [:]
        @StepOption(.path, help: "directory to run in (default: the pipeline's working directory)")
        package var cwd: String?
        @StepOption(help: "the command changes nothing, so --dry-run really runs it")
        package var readOnly: Bool = false
        @StepOption(.output, help: "paths the command creates, so steps after it can be checked before it runs")
        package var creates: [String] = []

        package init() {}
    }

    /// `run` as written: an argv array or a shell string.
    package enum Command: OptionValue, Equatable {
        case argv([String])
        case script(String)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .script(text)
            } else {
                self = .argv(try container.decode([String].self))
            }
        }

        package static func optionTypeName(_ format: OptionFormat) -> String { "[string] | string" }
    }

    package static let kind = "shell"
    package static let exportTraits = ExportTraits(writesUndeclaredFiles: true)
    package static let summary = "Run a command (argv array, or a string with shell: true), streaming its output"
    package static let outputs: [StepDocumentation.Output] = [
        .init("exit_code", "number", "the command's exit status"),
        .init("stdout", "string", "standard output, trailing newlines removed (last 1 MiB)"),
        .init("path", "path", "the first path in 'creates' (known before the command runs, so later steps can use it)"),
        .init("paths", "list", "every path in 'creates'"),
        .init("KEY", "string", "each KEY=VALUE line the command writes to the file named by $RELEASE_OUTPUT"),
    ]
    package static let dynamicOutputs = true
    /// With `shell: true`, `run` is a script: its `${…}` values reach it as `RELEASE_V_n` variables set in `env`.
    package static let shellScript: ShellScriptOption? = ShellScriptOption(script: "run", environment: "env", enabledBy: "shell")
    package static let example = """
        {"id": "archive", "uses": "shell", "when": {"os": "macos"},
         "with": {"run": ["xcodebuild", "-scheme", "Demo", "archive", "-archivePath", "build/Demo.xcarchive"],
                  "creates": ["build/Demo.xcarchive"]}}
        """

    package let arguments: [String]
    package let options: Options

    package init(options: Options) throws {
        try options.validate()
        switch options.run {
        case .argv(let argv):
            guard let first = argv.first, !first.isEmpty else {
                throw StepError.invalidOption("run", "the command is empty")
            }
            if options.shell {
                throw StepError.invalidOption("shell", "shell: true takes 'run' as one string, found an argv array")
            }
            arguments = argv
        case .script(let script):
            guard options.shell else {
                throw StepError.invalidOption("run", Self.shellScript!.stringNeedsEnablingMessage)
            }
            guard !script.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw StepError.invalidOption("run", "the command is empty")
            }
            arguments = ["/bin/sh", "-c", script]
        }
        self.options = options
    }

    package var isReadOnly: Bool { options.readOnly }

    package func verify(in context: StepContext) async throws {
        if let cwd = options.cwd {
            try context.requireFile(cwd, option: "cwd")
        }
        let directory = options.cwd.map(context.resolvePath) ?? context.workingDirectory
        let environment = context.environment.merging(options.env) { _, new in new }
        // A script the pipeline creates in an earlier step is fine.
        if arguments[0].contains("/"), case .promised = context.fileState(arguments[0]) { return }
        try context.requireCommand(arguments[0], directory: directory, environment: environment, reallyRuns: options.readOnly)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        var outputs = StepOutputs(createdPaths(context))
        for path in options.creates { outputs.artifacts.append(Artifact(path: context.resolvePath(path), size: 0, sha256: "")) }
        return StepPlan(effects: [.command(argv: arguments, directory: options.cwd.map(context.resolvePath))], outputs: outputs)
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let outputFile = URL(fileURLWithPath: context.temporaryDirectory)
            .appendingPathComponent("\(context.stepID)-\(context.attempt).outputs").path
        context.files.createFile(outputFile)
        defer { try? context.files.remove(outputFile) }
        var environment = options.env
        environment["RELEASE_OUTPUT"] = outputFile
        let result = try await context.run(arguments, directory: options.cwd, environment: environment)
        guard result.succeeded else {
            throw StepError.exitStatus(result.status, command: context.masker.commandLine(arguments))
        }
        var stdout = result.standardOutput
        while stdout.hasSuffix("\n") { stdout.removeLast() }
        var outputs = StepOutputs(createdPaths(context))
        outputs["exit_code"] = .number(Double(result.status))
        outputs["stdout"] = .string(stdout)
        let written = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        for (key, value) in try Self.parseOutputFile(written) {
            outputs[key] = .string(value)
        }
        for path in options.creates {
            let absolute = context.resolvePath(path)
            guard let kind = context.files.kind(absolute) else {
                throw StepError.failed("the command succeeded but did not create '\(path)' (listed in 'creates')")
            }
            if kind == .file { outputs.artifacts.append(try await context.artifact(absolute)) }
        }
        return outputs
    }

    /// The `path` and `paths` outputs of `creates`.
    private func createdPaths(_ context: StepContext) -> [String: OutputValue] {
        guard let first = options.creates.first else { return [:] }
        return ["path": .path(context.resolvePath(first)), "paths": .list(options.creates.map { .path(context.resolvePath($0)) })]
    }

    /// Reads `KEY=VALUE` and `KEY<<DELIM` … `DELIM` lines.
    static func parseOutputFile(_ text: String) throws -> [(String, String)] {
        var result: [(String, String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }[...]
        while let line = lines.popFirst() {
            if line.isEmpty { continue }
            if let range = line.range(of: "<<"), !line[..<range.lowerBound].contains("=") {
                let key = String(line[..<range.lowerBound])
                let delimiter = String(line[range.upperBound...])
                var value: [String] = []
                var closed = false
                while let next = lines.popFirst() {
                    if next == delimiter { closed = true; break }
                    value.append(next)
                }
                guard closed else { throw StepError.failed("$RELEASE_OUTPUT: '\(key)<<\(delimiter)' is never closed by a '\(delimiter)' line") }
                result.append((key, value.joined(separator: "\n")))
            } else if let equals = line.firstIndex(of: "=") {
                result.append((String(line[..<equals]), String(line[line.index(after: equals)...])))
            } else {
                throw StepError.failed("$RELEASE_OUTPUT: expected KEY=VALUE, found '\(line)'")
            }
        }
        return result
    }
}
