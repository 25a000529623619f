import ArgumentParser
import Foundation
import ReleaseSupport
import ReleaseVersioning

/// `release version`: what version the project is at, per target and configuration.
struct VersionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Show the project's version and build number per target and configuration, and where each is defined."
    )

    @Option(help: "The .xcodeproj, or a folder holding one (default: the current folder).")
    var project: String?

    @Option(help: "A file holding a single version (a VERSION file) instead of an Xcode project.")
    var file: String?

    @Flag(help: "Print the report as JSON on standard output.")
    var json = false

    @Flag(help: "With --json: add each entry's code signing for a device build (CODE_SIGN_STYLE, CODE_SIGN_IDENTITY, PROVISIONING_PROFILE_SPECIFIER).")
    var signing = false

    func validate() throws {
        if project != nil, file != nil { throw ValidationError("pass --project or --file, not both") }
        if signing, !json { throw ValidationError("--signing goes with --json") }
    }

    func run() async throws {
        let versions: ProjectVersions
        do {
            versions = try VersionReader.read(project: project, file: file, in: Platform.currentDirectory())
        } catch {
            VersioningConsole.line("error: \(error)")
            throw ExitCode(1)
        }
        if json {
            var report = versions.report
            if signing {
                for index in report.entries.indices {
                    let entry = report.entries[index]
                    report.entries[index].signing =
                        versions.tracked.first { $0.entry.target == entry.target && $0.entry.configuration == entry.configuration }?.signing
                }
            }
            print(try report.jsonText(), terminator: "")
        } else {
            VersioningConsole.write(versions.report.table(width: Terminal.columns(of: 2)))
            for line in versions.report.disagreements { VersioningConsole.line("warning: \(line)") }
        }
        // Files the repository does not hold: Xcode warns and builds, and so does this report.
        for line in versions.warnings() { VersioningConsole.line("warning: \(line)") }
    }
}
