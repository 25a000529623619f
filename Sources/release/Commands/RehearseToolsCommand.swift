import ArgumentParser
import Foundation
import Rehearsal
import ReleaseSupport

/// `release rehearse-tools DIR`: writes the fake Xcode tools a rehearsal without Xcode puts first on `PATH`.
struct RehearseToolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse-tools",
        abstract: "Write fake Xcode tools (xcodebuild, security, xcrun, pod, xcodegen…) for a rehearsal on a machine without Xcode.",
        discussion: """
            With DIR first on PATH, 'release run --rehearse --os macos' runs a pipeline's Mac steps on Linux (or a Mac \
            without Xcode): the fakes answer like Apple's tools, archive a small real app under your project's name, \
            bundle id, version and build, export it with the profile Xcode's automatic signing would make, and record \
            every call. They need Python 3 and openssl. Keep DIR outside your repository (a clean tree is checked).
            """
    )

    @Argument(help: "The folder to write the tools into (created when missing; existing files of the same names are replaced).")
    var directory: String

    func run() throws {
        let folder = FilePath.absolute(directory)
        let written: [String]
        do {
            written = try RehearsalTools.write(to: folder)
        } catch {
            Terminal.writeError("error: cannot write the tools into '\(folder)': \(error)\n")
            throw ExitCode(1)
        }
        let release = Bundle.main.executablePath ?? "release"
        Terminal.writeError(
            """
            wrote \(written.count) files to \(folder): \(RehearsalTools.toolNames.joined(separator: ", "))
            a rehearsal with them, as a Mac would run it:
              export PATH=\(ShellQuoting.quote(folder)):"$PATH" RELEASE_FAKE_RELEASE=\(ShellQuoting.quote(release))
              release run --rehearse --os macos

            """)
    }
}
