import ArgumentParser
import Foundation
import ReleaseKit

/// `release init`: inspects the repository and writes a starter `Pipelines/release.json`.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Inspect the repository and write a starter Pipelines/release.json (never overwrites).",
        discussion: """
            Finds the .xcodeproj/.xcworkspace or XcodeGen spec, the shared schemes, the app target, its bundle id, \
            where the version lives and the GitHub remote. On a terminal it asks, with those answers pre-filled \
            (Enter keeps one); --yes takes them all. Also writes release.schema.json (from 'release schema') for editors.
            """
    )

    @Option(help: "The .xcodeproj, XcodeGen spec or folder holding one (default: the current folder).")
    var project: String?

    @Flag(help: "Take every default without asking.")
    var yes = false

    func run() throws {
        let directory = Platform.currentDirectory()
        let pipelinePath = PipelineLocator.defaultPath
        let absolute = (directory as NSString).appendingPathComponent(pipelinePath)
        guard !FileManager.default.fileExists(atPath: absolute) else {
            Terminal.writeError("error: \(pipelinePath) already exists; nothing was written (release init never overwrites; move it away to start again)\n")
            throw ExitCode(1)
        }
        let inspection = RepositoryInspection.inspect(directory, project: project)
        var starter = StarterPipeline(inspection)
        Terminal.writeError("""
            project:  \(inspection.project ?? "(none found)")\(inspection.workspace.map { " (workspace \($0))" } ?? "")\(inspection.xcodegenSpec.map { " (XcodeGen \($0))" } ?? "")
            app:      \(inspection.appTarget ?? "(unknown)")\(inspection.bundleIdentifier.map { " (\($0))" } ?? "")
            version:  \(inspection.version ?? "-") (\(inspection.build ?? "-"))\(inspection.versionDefinedAt.map { ", defined at \($0)" } ?? "")
            schemes:  \(inspection.schemes.isEmpty ? "(no shared scheme)" : inspection.schemes.joined(separator: ", "))
            GitHub:   \(inspection.githubRepository ?? "(no GitHub remote)")

            """)
        for note in inspection.notes { Terminal.writeError("note: \(note)\n") }
        if !yes {
            guard isatty(0) == 1 else {
                Terminal.writeError("error: no terminal to ask on: pass --yes to take the values above (nothing was written)\n")
                throw ExitCode(ExitCodes.usage)
            }
            starter.scheme = ask("Scheme to archive", starter.scheme)
            starter.appName = ask("App name (build/NAME.xcarchive)", starter.appName)
            let repository = ask("GitHub repository for releases (owner/name, '-' for none)", starter.githubRepository ?? "-")
            starter.githubRepository = repository == "-" ? nil : repository
        }
        do {
            try FileManager.default.createDirectory(atPath: (directory as NSString).appendingPathComponent("Pipelines"), withIntermediateDirectories: true)
            let schemaPath = FilePath.absolute(starter.schemaPath, in: FilePath.parent(of: absolute))
            if !FileManager.default.fileExists(atPath: schemaPath) {
                try AtomicFile.write(PipelineSchema.text(registry: try StepRegistry.builtIn), to: schemaPath)
            }
            // Checked again just before writing: never replace a pipeline that appeared while we asked.
            guard !FileManager.default.fileExists(atPath: absolute) else {
                Terminal.writeError("error: \(pipelinePath) appeared meanwhile; nothing was written\n")
                throw ExitCode(1)
            }
            try AtomicFile.write(starter.text, to: absolute)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.writeError("error: cannot write \(pipelinePath): \(error)\n")
            throw ExitCode(1)
        }
        Terminal.writeError("wrote \(pipelinePath) (its \"$schema\", release.schema.json, is for editors: 'release schema' makes it again)\nnext: release validate && release run --dry-run\n")
    }

    /// Asks with `value` pre-filled: Enter keeps it.
    private func ask(_ question: String, _ value: String) -> String {
        Terminal.writeError("\(question) [\(value)]: ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
        return answer.isEmpty ? value : answer
    }
}
