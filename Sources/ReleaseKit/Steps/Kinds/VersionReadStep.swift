import Foundation
import ReleaseVersioning

/// `version.read`: what version the project is at (Xcode project or version file).
package struct VersionReadStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(.path, help: "the .xcodeproj or a folder holding one (default: the working directory)")
        package var project: String?
        @StepOption(.path, help: "a file holding a single version (a VERSION file) instead of an Xcode project")
        package var file: String?
        @StepOption(help: "the target whose version is output (default: the app nothing embeds)")
        package var target: String?
        @StepOption(help: "the configuration whose version is output (default: the target's default, usually Release)")
        package var configuration: String?

        package init() {}

        package static let exclusions: [OptionExclusion] = [.atMostOne(["project", "file"], "set 'project' or 'file', not both")]
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "version.read"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    /// One line for `release steps`.
    package static let summary = "Read the project's version and build number per target and configuration"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("version", "string", "the marketing version (CFBundleShortVersionString)"),
        .init("build", "string", "the build number (CFBundleVersion)"),
        .init("targets", "list", "every target and configuration as 'Target (Configuration): version (build)'"),
        .init("project", "path", "the project or version file that was read"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "current", "uses": "version.read", "with": {"project": "Demo.xcodeproj", "configuration": "Release"}}
        """

    /// The decoded options.
    package let options: Options

    /// Creates a value from its parts.
    package init(options: Options) throws {
        try options.validate()
        if options.file != nil, options.target != nil || options.configuration != nil {
            throw StepError.invalidOption("target", "a version file has no targets or configurations")
        }
        self.options = options
    }

    func read(_ context: StepContext) throws -> (ProjectVersions, VersionEntry?) {
        let versions: ProjectVersions
        do {
            versions = try VersionReader.read(project: options.project, file: options.file, in: context.workingDirectory)
        } catch {
            throw StepError.failed("\(error)")
        }
        let report = versions.report
        let target = options.target ?? report.primaryTarget
        if let wanted = options.target, !report.entries.contains(where: { $0.target == wanted }) {
            let names = Set(report.entries.map(\.target)).sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw StepError.invalidOption("target", "no target '\(wanted)' in '\(report.project)' (targets: \(names))")
        }
        let entries = report.entries.filter { $0.target == target || report.kind == .file }
        let entry: VersionEntry?
        if let configuration = options.configuration {
            guard let match = entries.first(where: { $0.configuration == configuration }) else {
                throw StepError.invalidOption("configuration", "no configuration '\(configuration)' for target '\(target ?? "")'")
            }
            entry = match
        } else {
            entry = entries.first { $0.configuration == report.primaryConfiguration } ?? entries.last
        }
        return (versions, entry)
    }

    func outputs(_ versions: ProjectVersions, _ entry: VersionEntry?, context: StepContext) -> StepOutputs {
        let targets = versions.report.entries.map { entry -> OutputValue in
            let name = entry.configuration.map { "\(entry.target) (\($0))" } ?? entry.target
            return .string("\(name): \(entry.version ?? "-") (\(entry.build ?? "-"))")
        }
        let projectPath = versions.baseDirectory + "/" + versions.report.project
        return StepOutputs([
            "version": .string(entry?.version ?? ""),
            "build": .string(entry?.build ?? ""),
            "targets": .list(targets),
            "project": .path(projectPath),
        ])
    }

    package func verify(in context: StepContext) async throws {
        _ = try read(context)
    }

    /// It only reads, so dry runs really run it.
    package var isReadOnly: Bool { true }

    /// The outputs `run` would give, and its warnings, so a dry run shows them.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let (versions, entry) = try read(context)
        for line in versions.report.disagreements { context.warn(line) }
        return StepPlan(outputs: outputs(versions, entry, context: context))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let (versions, entry) = try read(context)
        for line in versions.report.disagreements { context.warn(line) }
        return outputs(versions, entry, context: context)
    }
}
