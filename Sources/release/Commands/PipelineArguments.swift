import ArgumentParser
import Foundation
import ReleaseExecution
import ReleasePipeline
import ReleasePlanning
import ReleaseSupport

/// Options shared by `run` and `plan`: which pipeline, profile and variables.
struct PipelineArguments: ParsableArguments {
    /// The help of a command's pipeline argument.
    static let pipelineHelp = ArgumentHelp("A pipeline file, or a name resolved as Pipelines/NAME.json (default: Pipelines/release.json).")

    @Argument(help: Self.pipelineHelp, completion: .pipelineNames)
    var pipeline: String?

    @Option(
        help: "Use this profile instead of choosing one by its 'when'.",
        completion: .pipeline { words, directory, prefix in PipelineCompletion.profiles(words: words, in: directory, prefix: prefix) })
    var profile: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a variable, overriding the pipeline's and the profile's (repeatable).", valueName: "KEY=VALUE"))
    var variables: [String] = []

    @Option(help: ArgumentHelp("Evaluate when: {os} as on this system (default: the current one); with fake or remote tools, rehearse a macOS run elsewhere.", valueName: "NAME"))
    var os: String?

    func parsedVariables() throws -> [String: String] {
        var result: [String: String] = [:]
        for entry in variables {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError("--var takes KEY=VALUE, found '\(entry)'")
            }
            result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return result
    }

    /// Loads and validates the pipeline, printing every problem and exiting 65 when it is invalid.
    func load(directory: String, format: LogFormat) async throws -> ValidatedPipeline {
        try await Self.load(pipeline, extraVariables: Set(try parsedVariables().keys), directory: directory, format: format)
    }

    /// Loads and validates `pipeline` (a path or name, nil for the default), printing every problem and exiting 65
    /// when it is invalid.
    static func load(_ pipeline: String?, extraVariables extra: Set<String> = [], directory: String, format: LogFormat) async throws -> ValidatedPipeline {
        do {
            return try await PipelineLoader.load(pipeline, extraVariables: extra, directory: directory, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw error.exit(format: format)
        }
    }
}

/// Describes external step plugins with answers cached in the user's cache folder.
func pluginResolver(directory: String) -> PluginResolver {
    PluginResolver.describing(directory: directory, environment: ProcessInfo.processInfo.environment)
}

/// Prints pipeline problems to standard error (and as annotations on GitHub Actions).
func printDiagnostics(_ diagnostics: [Diagnostic], format: LogFormat) {
    Terminal.writeError(Diagnostic.report(diagnostics, annotations: format.resolved == .github))
}

/// Prints a command-line mistake and exits 64.
func usageFailure(_ error: UsageError) -> ExitCode {
    Terminal.writeError("error: \(error.message)\n")
    return ExitCode(ExitCodes.usage)
}

extension CommandFailure {
    /// Prints the cause as the command line does (``text(annotations:)``) and returns what to throw: the exit code,
    /// or the error beneath for ArgumentParser to print.
    func exit(format: LogFormat = .auto) -> any Error {
        if case .underlying(let error) = cause { return error }
        if let text = text(annotations: format.resolved == .github) { Terminal.writeError(text) }
        return ExitCode(code)
    }
}

/// The real terminal for the services: human lines on standard error, results on standard output.
struct TerminalConsole: CommandConsole {
    func write(_ text: String) {
        Terminal.writeError(text)
    }

    func output(_ text: String) {
        Terminal.writeOutput(text)
    }
}
