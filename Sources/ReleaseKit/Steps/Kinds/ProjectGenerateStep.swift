import Foundation
import ReleaseSupport

/// `project.generate`: makes the Xcode project or workspace a build needs, `xcodegen generate`, `tuist generate` or
/// `pod install`, with its own preflight.
///
/// Preflight checks what a generator would otherwise report twenty minutes into a run, or never: the input file is
/// there (the spec, the manifest, the Podfile), the tool is on `PATH` (or `bundle`, when it runs through Bundler), a
/// Gemfile is there when Bundler is asked for, and a Podfile that refuses to run outside `bundle exec` is not run
/// outside it. The tool runs in its input's folder through the context (its output streamed, its exit status kept);
/// the project or workspace it writes is the `path` output, promised before it runs so the archive that builds it is
/// checked in dry runs.
///
/// Bundler: a Gemfile beside the input (or in a folder above it, up to the working directory) that pins the tool's
/// gem, or a Podfile with a Bundler guard, means `bundle exec`, as the project's own scripts run it. `bundler` says
/// so explicitly. `bundle install` is not run here: a pipeline runs it once (a `shell` step), for every tool.
package struct ProjectGenerateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the generator: xcodegen (xcodegen generate), tuist (tuist generate --no-open) or cocoapods (pod install)")
        package var tool: ProjectGenerator
        @StepOption(
            .path,
            must: .notBeEmpty(trimmed: true),
            help:
                "its input, or the folder holding it: the XcodeGen spec (default project.yml), the Tuist manifest (default Workspace.swift, else Project.swift) or the Podfile (default Podfile); the tool runs in its folder"
        )
        package var spec: String?
        @StepOption(
            help:
                "run the tool with 'bundle exec' (default: when a Gemfile beside the spec, or above it up to the working directory, pins the tool's gem, or the Podfile refuses to run outside Bundler)"
        )
        package var bundler: Bool?
        @StepOption(must: .haveNoEmptyItem(saying: "an argument is empty"), help: "more arguments for the tool, after its own (e.g. [\"--repo-update\"] for pod install)")
        package var arguments: [String] = []
        @StepOption(
            .output,
            must: .notBeEmpty(trimmed: true),
            help:
                "the project or workspace the tool writes (default: read from the input: XcodeGen's name, the Podfile's workspace or project, Tuist's name)"
        )
        package var output: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "project.generate"
    /// One line for `release steps`.
    package static let summary =
        "xcodegen generate, tuist generate or pod install before a build (through bundle exec when the Gemfile pins the tool), with a preflight of the tool and its input"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the project or workspace the tool writes (known before it runs, so the archive can name it)"),
        .init("spec", "path", "the input file the tool read"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "pods", "uses": "project.generate", "needs": ["bump"], "when": {"os": "macos"},
         "with": {"tool": "cocoapods", "spec": "Podfile", "bundler": true}}
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for a blank spec, output or argument.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    /// What a run does, worked out from the options and the files: the input, the folder, Bundler, the command, the
    /// output.
    struct Invocation {
        /// The input file, absolute.
        var spec: String
        /// Where the tool runs: the input's folder.
        var folder: String
        /// The Gemfile Bundler uses, when the tool runs through it.
        var gemfile: String?
        var bundler: Bool
        /// The `Podfile:LINE` of a Bundler guard.
        var bundlerGuard: String?
        /// The Gemfile found for the tool, whether or not it is used.
        var foundGemfile: String?
        var arguments: [String]
        /// The project or workspace written, absolute; nil when the input does not say yet.
        var output: String?
    }

    func invocation(_ context: StepContext) -> Invocation {
        let tool = options.tool
        var spec: String
        if let given = options.spec {
            spec = context.resolvePath(given)
            if context.files.isDirectory(spec) {
                spec = tool.specNames.map { spec + "/" + $0 }.first(where: context.files.exists) ?? spec + "/" + tool.specNames.last!
            }
        } else {
            spec = tool.specNames.map(context.resolvePath).first(where: context.files.exists) ?? context.resolvePath(tool.specNames.last!)
        }
        let folder = FilePath.parent(of: spec)
        let gemfile = Self.gemfile(from: folder, context: context)
        var bundlerGuard: String?
        if tool == .cocoapods, let text = ProjectGenerator.text(spec, files: context.files), let line = ProjectGenerator.bundlerGuardLine(podfile: text) {
            bundlerGuard = "\(FilePath.relative(spec, to: context.workingDirectory) ?? spec):\(line)"
        }
        let pinned = gemfile.flatMap { ProjectGenerator.text($0, files: context.files) }.map { text in tool.gem.map { ProjectGenerator.gemfile(text, pins: $0) } ?? false }
        let bundler = options.bundler ?? (gemfile != nil && (pinned == true || bundlerGuard != nil))
        let command = tool.command(spec: (spec as NSString).lastPathComponent, extra: options.arguments)
        let output = options.output.map(context.resolvePath) ?? tool.writes(spec: spec, files: context.files).map { folder + "/" + $0 }
        return Invocation(
            spec: spec, folder: folder, gemfile: bundler ? gemfile : nil, bundler: bundler, bundlerGuard: bundlerGuard, foundGemfile: gemfile,
            arguments: bundler ? ["bundle", "exec"] + command : command, output: output)
    }

    /// The Gemfile Bundler would use for a tool run in `folder`: `BUNDLE_GEMFILE`, else the nearest `Gemfile` from
    /// `folder` up to the working directory.
    static func gemfile(from folder: String, context: StepContext) -> String? {
        if let named = context.environment["BUNDLE_GEMFILE"], !named.isEmpty { return context.resolvePath(named) }
        var candidate = folder
        while true {
            if context.files.kind(candidate + "/Gemfile") == .file { return candidate + "/Gemfile" }
            guard FilePath.relative(candidate, to: context.workingDirectory) != nil, candidate != context.workingDirectory, candidate != "/" else { return nil }
            candidate = FilePath.parent(of: candidate)
        }
    }

    /// What the tool writes: the project or workspace, and CocoaPods' `Pods/` beside the Podfile.
    package func writes(in context: StepContext) -> [String] {
        let invocation = invocation(context)
        return (options.tool == .cocoapods ? [invocation.folder + "/Pods"] : []) + (invocation.output.map { [$0] } ?? [])
    }

    /// Preflight: the input, the tool (or Bundler) and the Bundler set-up, each failure saying what is missing and
    /// how to get it.
    package func verify(in context: StepContext) async throws {
        let tool = options.tool
        let invocation = invocation(context)
        let shown = FilePath.relative(invocation.spec, to: context.workingDirectory) ?? invocation.spec
        if case .missing = context.fileState(invocation.spec) {
            let looked =
                options.spec == nil || context.files.isDirectory(context.resolvePath(options.spec!))
                ? " (looked for \(tool.specNames.joined(separator: " and ")) in \(FilePath.relative(invocation.folder, to: context.workingDirectory) ?? invocation.folder))" : ""
            throw StepError.failed(
                "no \(tool.specDescription) '\(shown)'\(looked): '\(tool.command(spec: (invocation.spec as NSString).lastPathComponent, extra: []).joined(separator: " "))' reads it; set 'spec' to where it is"
            )
        }
        if invocation.bundler && invocation.gemfile == nil {
            throw StepError.failed(
                "bundler: no Gemfile in \(FilePath.relative(invocation.folder, to: context.workingDirectory) ?? invocation.folder) or above it for 'bundle exec \(tool.executable)': add one that pins \(tool.gem ?? tool.executable), or set bundler: false"
            )
        }
        if let bundlerGuard = invocation.bundlerGuard, !invocation.bundler {
            throw StepError.failed(
                invocation.foundGemfile == nil
                    ? "\(bundlerGuard) stops CocoaPods outside 'bundle exec', and there is no Gemfile: add one that pins cocoapods"
                    : "\(bundlerGuard) stops CocoaPods outside 'bundle exec': set bundler: true (or leave bundler out)")
        }
        try context.requireCommand(invocation.arguments[0], directory: invocation.folder, purpose: "\(Self.kind) runs '\(invocation.arguments.joined(separator: " "))'")
    }

    /// The command and the output it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let invocation = invocation(context)
        var effects: [PlannedEffect] = [.command(argv: invocation.arguments, directory: invocation.folder)]
        if let output = invocation.output { effects.append(.note("writes \(FilePath.relative(output, to: context.workingDirectory) ?? output)")) }
        return StepPlan(effects: effects, outputs: outputs(invocation))
    }

    func outputs(_ invocation: Invocation) -> StepOutputs {
        var outputs = StepOutputs(["spec": .path(invocation.spec)])
        if let output = invocation.output { outputs["path"] = .path(output) }
        return outputs
    }

    /// Runs the tool in its input's folder and checks it wrote what it should.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let before = invocation(context)
        let result = try await context.run(before.arguments, directory: before.folder)
        guard result.succeeded else {
            throw StepError.exitStatus(result.status, command: context.masker.commandLine(before.arguments))
        }
        // Read again: a Podfile's project may be one a generator before it wrote.
        let after = before.output == nil ? invocation(context) : before
        if let output = after.output, !context.files.exists(output) {
            throw StepError.failed(
                "'\(context.masker.commandLine(before.arguments))' succeeded but wrote no '\(FilePath.relative(output, to: context.workingDirectory) ?? output)'"
                    + (options.output != nil ? " (named in 'output')" : ""))
        }
        return outputs(after)
    }
}
