import ArgumentParser
import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// `release dsym [PATH]... [--json]`: UUIDs per architecture of binaries and dSYM bundles, and whether an
/// app's or archive's binaries have matching dSYMs.
struct DsymCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dsym",
        abstract: "Show UUIDs per architecture of binaries and dSYMs, and which binaries have a matching dSYM.",
        discussion: """
            PATH may be a Mach-O binary (its <name>.dSYM beside it is matched), an .app, .appex or .framework \
            (dSYMs beside it are matched), a .dSYM, an .xcarchive, an .ipa or zip, or a build folder (bundles, and \
            bare binaries named like a dSYM found there). Binaries and dSYMs given together are matched by UUID. \
            Exits 1 when a path cannot be read; a file inside a dSYM \
            that is not Mach-O, empty or damaged is a warning, and the rest is still checked.
            """
    )

    @Argument(help: "Binaries, bundles, archives or folders (default: the current folder).")
    var paths: [String] = []

    @Flag(help: "Print a JSON array of inspections to standard output.")
    var json = false

    func run() async throws {
        var inspections: [DsymInspection] = []
        var failed = false
        for path in paths.isEmpty ? ["."] : paths {
            do {
                let inspection = try await DsymInspector.inspect(path)
                for warning in inspection.warnings ?? [] {
                    Terminal.writeError("warning: \(warning)\n")
                }
                inspections.append(inspection)
            } catch {
                Terminal.writeError("error: \(error)\n")
                failed = true
            }
        }
        inspections = DsymInspector.pair(inspections)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(inspections), as: UTF8.self))
        } else {
            print(inspections.map(DsymReportRenderer.render).joined(separator: "\n"), terminator: "")
        }
        if failed { throw ExitCode(1) }
    }
}
