import Foundation
import ReleaseApple
import ReleaseSupport
import Synchronization

/// `xcode.archive`: `xcodebuild archive` from typed options, what fastlane's `gym` does for the build half.
///
/// The exact command is logged (secrets masked). xcodebuild's output is condensed as it comes (what is compiled,
/// linked and signed, warnings, errors: ``XcodebuildLogCondenser``); on GitHub Actions each warning and error also
/// becomes an annotation (`::error file=…,line=…`) as it is printed. The full raw output goes to a log file kept as
/// an artifact. xcodebuild's own exit status decides: a non-zero one fails the step with that status.
package struct XcodeArchiveStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, help: "the .xcodeproj to build (or give 'workspace')")
        package var project: String?
        @StepOption(.path, help: "the .xcworkspace to build (or give 'project')")
        package var workspace: String?
        @StepOption(must: .notBeEmpty, help: "the scheme to archive")
        package var scheme: String
        @StepOption(must: .notBeEmpty, help: "the build configuration")
        package var configuration: String = "Release"
        @StepOption(must: .notBeEmpty, help: "xcodebuild's -destination")
        package var destination: String = ApplePlatform.iOS.destination
        @StepOption(.output, must: .notBeEmpty, help: "the .xcarchive to write")
        package var archivePath: String
        @StepOption(.path, help: "xcodebuild's -derivedDataPath (default: Xcode's)")
        package var derivedDataPath: String?
        @StepOption(.path, help: "xcodebuild's -resultBundlePath (none when absent)")
        package var resultBundlePath: String?
        @StepOption(.path, help: "an .xcconfig whose settings override the project's (-xcconfig)")
        package var xcconfig: String?
        @StepOption(help: "build settings passed as KEY=VALUE, e.g. {\"CODE_SIGN_STYLE\": \"Manual\"}")
        package var buildSettings: [String: String] = [:]
        @StepOption(help: "let xcodebuild create and update profiles with the account signed in to Xcode (-allowProvisioningUpdates)")
        package var allowProvisioningUpdates: Bool = false
        @StepOptionGroup
        package var authentication: XcodeAuthenticationOptions
        @StepOption(.path, help: "the full xcodebuild log (default: next to the archive, <name>.xcodebuild.log)")
        package var log: String?
        @StepOption(
            help:
                "the Xcode to run, as .xcode-version pins it (16.2, or 16 for any 16.x): the selected one when it is that version, else an installed one through DEVELOPER_DIR; preflight fails naming the installed ones when none is"
        )
        package var xcodeVersion: String?

        package init() {}

        package static let exclusions: [OptionExclusion] = [
            .exactlyOne(["project", "workspace"], "give 'project' or 'workspace', not both", missing: "give 'project' or 'workspace'")
        ]
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "xcode.archive"
    package static let exportTraits = ExportTraits(runner: .macOS("Xcode"))
    /// One line for `release steps`.
    package static let summary = "xcodebuild archive from typed options: condensed live output, errors as annotations, full log kept, exit status kept"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the .xcarchive"),
        .init("archive", "path", "the .xcarchive (same as path)"),
        .init("app", "path", "the .app inside it (Products/Applications)"),
        .init("dsyms", "path", "its dSYMs folder"),
        .init("log", "path", "the full xcodebuild output (also an artifact)"),
        .init("warnings", "number", "how many warnings xcodebuild printed"),
    ]
    package static let example = """
        { "id": "archive", "uses": "xcode.archive", "needs": ["keychain", "profiles"], "when": {"os": "macos"},
          "with": { "project": "Demo.xcodeproj", "scheme": "Demo", "configuration": "Release",
                    "archive_path": "build/Demo.xcarchive", "build_settings": {"CODE_SIGN_STYLE": "Manual"} } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` unless exactly one of project and workspace is given, or for empty values.
    package init(options: Options) throws {
        try options.validate()
        if let key = options.buildSettings.keys.sorted().first(where: { $0.isEmpty || $0.contains("=") || $0.contains(" ") }) {
            throw StepError.invalidOption("build_settings", "'\(key)' is not a build setting name")
        }
        guard options.archivePath.hasSuffix(".xcarchive") else {
            throw StepError.invalidOption("archive_path", "'\(options.archivePath)' must end in .xcarchive")
        }
        self.authentication = XcodeAuthentication(options.authentication)
        self.options = options
    }

    /// The API key for Xcode-managed signing, when given.
    let authentication: XcodeAuthentication?

    func command(_ context: StepContext, authentication arguments: [String]? = nil) -> XcodebuildCommand.Archive {
        let container: XcodebuildCommand.Archive.Container = options.workspace.map { .workspace($0) } ?? .project(options.project ?? "")
        return XcodebuildCommand.Archive(
            container: container, scheme: options.scheme, configuration: options.configuration, destination: options.destination,
            archivePath: context.resolvePath(options.archivePath), derivedDataPath: options.derivedDataPath.map(context.resolvePath),
            resultBundlePath: options.resultBundlePath.map(context.resolvePath), xcconfig: options.xcconfig,
            allowProvisioningUpdates: options.allowProvisioningUpdates || authentication != nil, buildSettings: options.buildSettings,
            authentication: arguments ?? authentication?.plannedArguments(in: context) ?? [])
    }

    func logPath(_ context: StepContext) -> String {
        if let log = options.log { return context.resolvePath(log) }
        let archive = context.resolvePath(options.archivePath)
        let name = ((archive as NSString).lastPathComponent as NSString).deletingPathExtension
        return ((archive as NSString).deletingLastPathComponent as NSString).appendingPathComponent("\(name).xcodebuild.log")
    }

    func outputs(_ context: StepContext, app: String?, warnings: Int) -> StepOutputs {
        let archive = context.resolvePath(options.archivePath)
        return StepOutputs([
            "path": .path(archive),
            "archive": .path(archive),
            "app": .path(app ?? archive + "/Products/Applications/\(options.scheme).app"),
            "dsyms": .path(archive + "/dSYMs"),
            "log": .path(logPath(context)),
            "warnings": .number(Double(warnings)),
        ])
    }

    /// Read-only checks: the project or workspace exists and xcodebuild can be run (in a dry run without Xcode, a
    /// warning: the command is still shown).
    package func verify(in context: StepContext) async throws {
        if let project = options.project { try context.requireFile(project, option: "project") }
        if let workspace = options.workspace { try context.requireFile(workspace, option: "workspace") }
        if let xcconfig = options.xcconfig { try context.requireFile(xcconfig, option: "xcconfig") }
        if let authentication, !authentication.isInline { try context.requireFile(authentication.key, option: "authentication_key") }
        try context.requireCommand("xcodebuild", purpose: "xcode.archive runs on macOS with Xcode")
        if let wanted = options.xcodeVersion { _ = try await XcodeSelection.environment(for: wanted, in: context) }
    }

    /// The command `run` would run and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(
            effects: [
                .command(argv: command(context).arguments, directory: nil),
                .writeFile(path: logPath(context), diff: nil, detail: "the full xcodebuild output"),
            ],
            outputs: outputs(context, app: nil, warnings: 0))
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        var developer: [String: String] = [:]
        if let wanted = options.xcodeVersion { developer = try await XcodeSelection.environment(for: wanted, in: context) }
        let arguments = command(context, authentication: try authentication?.install(in: context)).arguments
        let logPath = self.logPath(context)
        try FileSystemSupport.createParent(of: logPath)
        guard context.files.createFile(logPath, contents: Data()), let log = FileHandle(forWritingAtPath: logPath) else {
            throw StepError.failed("cannot write the xcodebuild log '\(logPath)'")
        }
        defer { try? log.close() }
        let annotate = context.environment["GITHUB_ACTIONS"] == "true"
        let state = Mutex((condenser: XcodebuildLogCondenser(), issues: [XcodebuildIssue]()))
        context.logCommand(arguments)
        let result = try await context.run(arguments, environment: developer, echo: false) { line, stream in
            log.write(Data((line + "\n").utf8))
            let condensed = state.withLock { state -> XcodebuildLogCondenser.Line? in
                let condensed = state.condenser.condense(line)
                if case .issue(let issue) = condensed { state.issues.append(issue) }
                return condensed
            }
            switch condensed {
            case .step(let text): context.log(text)
            case .issue(let issue):
                context.log(issue.summary, stream: .stderr)
                if annotate { context.log(issue.annotation.line) }
            case nil: break
            }
        }
        let issues = state.withLock { $0.issues }
        let errors = issues.filter { $0.severity == .error }
        let warnings = issues.count - errors.count
        context.log("full log: \(logPath)")
        guard result.succeeded else {
            let command = context.masker.commandLine(arguments)
            if let signal = result.signal { throw StepError.failed("'\(command)' was killed by signal \(signal)") }
            if !errors.isEmpty {
                context.log("\(errors.count) error\(errors.count == 1 ? "" : "s"):", stream: .stderr)
                for error in errors { context.log("  \(error.summary)", stream: .stderr) }
            }
            throw StepError.exitStatus(result.status, command: command)
        }
        let archive = context.resolvePath(options.archivePath)
        guard context.files.isDirectory(archive) else {
            throw StepError.failed("xcodebuild succeeded but wrote no archive at '\(archive)'")
        }
        let applications = archive + "/Products/Applications"
        let app = context.files.names(in: applications)?.first { $0.hasSuffix(".app") }
        var outputs = outputs(context, app: app.map { applications + "/" + $0 }, warnings: warnings)
        outputs.artifacts = [try await context.artifact(logPath)]
        return outputs
    }
}
