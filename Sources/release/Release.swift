import ArgumentParser
import ReleaseKit

/// The `release` command line: parses arguments, builds ReleaseKit values, renders their results. ``Entry`` starts it.
struct Release: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Run an iOS team's release as a graph of steps declared in JSON.",
        version: ReleaseKitVersion.string,
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
        ]
    )

    /// Parses and runs the command as ArgumentParser's own `main` would (``Entry`` has installed interrupt
    /// handling already).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
