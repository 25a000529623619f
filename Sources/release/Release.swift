import ArgumentParser
import ReleaseExecution
import ReleaseSupport

/// The `release` command line: parses arguments, builds ReleaseKit values, renders their results. ``Entry`` starts it.
struct Release: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Run an iOS team's release as a graph of steps declared in JSON.",
        // No `version:` here: ArgumentParser would then take `--version` after any subcommand as a request for the
        // tool's version (`release bump --version 3.2.0` printed it and bumped nothing). `main` answers
        // `release --version` alone; after a subcommand it is that subcommand's option or an unknown one.
        discussion: "release --version prints the tool's version.",
        subcommands: [
            // Each subcommand lives in Commands/NAME.swift.
            RunCommand.self,
            PlanCommand.self,
            ValidateCommand.self,
            StepsCommand.self,
            VersionCommand.self,
            BumpCommand.self,
            DsymCommand.self,
            ZipCommand.self,
            ServeCommand.self,
            AppStoreServerCommand.self,
            UploadAssetCommand.self,
            InitCommand.self,
            SchemaCommand.self,
            ExportCommand.self,
            CompletionCommand.self,
            RehearseToolsCommand.self,
            SigningCommand.self,
            RolloutCommand.self,
            WebhookCommand.self,
            ReportCommand.self,
        ]
    )

    /// Parses and runs the command as ArgumentParser's own `main` would (``Entry`` has installed interrupt
    /// handling already).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print(ReleaseKitVersion.string)
            return
        }
        do {
            var command = try parseAsRoot(arguments)
            // ArgumentParser keeps the last of an option given twice: say so instead of ignoring the first.
            if let problem = OptionRepetition.problem(in: arguments, help: type(of: command)._dumpHelp()) {
                Terminal.writeError("error: \(problem)\n")
                throw ExitCode(ExitCodes.usage)
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Interrupts.shared.yieldToAnInterruptExiting()
            exit(withError: error)
        }
        Interrupts.shared.yieldToAnInterruptExiting()
    }
}
