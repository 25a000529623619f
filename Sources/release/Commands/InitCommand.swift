import ArgumentParser
import Foundation
import ReleaseExecution
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport
import ReleaseVersioning

/// `release init`: inspects the repository and writes a starter `Pipelines/release.json` that ships.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Inspect the repository and write a starter Pipelines/release.json that ships (never overwrites).",
        discussion: """
            Reads what is there: the workspace or project (a workspace wins when it holds the app; CocoaPods' when \
            there is a Podfile), the shared schemes and which one archives the app, the app targets and their \
            platforms (iOS first), bundle id and team, XcodeGen or Tuist manifests, fastlane's Appfile and \
            Matchfile, .xcode-version and the GitHub remote. It prints what it found and why it chose it. On a \
            terminal it asks, with those answers pre-filled (Enter keeps one); --yes takes them all, and the options \
            below answer without a terminal. Also writes release.schema.json (from 'release schema') for editors, and \
            adds the build folder to .gitignore when git does not ignore it yet.
            """
    )

    @Option(help: "The .xcodeproj, XcodeGen spec or folder holding one (default: found in the repository).")
    var project: String?

    @Option(help: "The .xcworkspace to build (default: the one that holds the app's project, or CocoaPods').")
    var workspace: String?

    @Option(help: "The shared scheme to archive (default: the one that archives the app).")
    var scheme: String?

    @Option(help: "The app target to release, when the project has several.")
    var target: String?

    @Option(help: "The app's platform, when apps of several platforms share the project: iOS, tvOS, macOS, visionOS.")
    var platform: String?

    @Option(help: "The GitHub repository for releases, owner/name ('-' for none; default: the GitHub remote).")
    var repository: String?

    @Option(
        help:
            "How to sign: api-key (Xcode-managed signing with the App Store Connect API key; no certificate files), files (a .p12 and profiles from secrets) or sync (signing.sync keeps the certificate and profiles up to date through the API)."
    )
    var signing: String?

    @Option(help: "The Apple team ID that signs (default: the app's DEVELOPMENT_TEAM, or fastlane's team_id).")
    var team: String?

    @Option(name: .customLong("testflight-group"), help: "The TestFlight group release builds go to.")
    var testflightGroup: String?

    @Option(help: "The macOS runner label exported CI jobs run on (default: the image that has the Xcode .xcode-version pins, else macos-15).")
    var runner: String?

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
        // Answers that can be checked without the project first.
        var signingChoice = StarterPipeline.Signing.apiKey
        if let signing {
            guard let choice = StarterPipeline.Signing(rawValue: signing) else {
                throw usage("--signing '\(signing)' is not one of \(StarterPipeline.Signing.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            signingChoice = choice
        }
        if let repository, repository != "-", !RepositoryInspection.isRepositoryName(repository) {
            throw usage("--repository '\(Echo.text(repository))' is not a GitHub repository (owner/name)")
        }
        if let runner, runner.isEmpty || runner.count > 100 || !runner.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
            throw usage("--runner '\(Echo.text(runner))' is not a runner label (letters, digits, '-', '_' and '.')")
        }
        if let testflightGroup, testflightGroup.trimmingCharacters(in: .whitespaces).isEmpty || testflightGroup.count > 100 {
            throw usage("--testflight-group must be a group's name (1 to 100 characters)")
        }
        let interactive = !yes
        if interactive, isatty(0) != 1 {
            Terminal.writeError(
                "error: no terminal to ask on: pass --yes to take the values found (and --scheme, --target, --platform, --signing … to choose); nothing was written\n")
            throw ExitCode(ExitCodes.usage)
        }

        var answers = RepositoryInspection.Answers(project: project, workspace: workspace, scheme: scheme, target: target, platform: platform, team: team)
        var inspection = try inspect(directory, answers)
        if interactive, inspection.apps.count > 1, target == nil {
            Terminal.writeError("apps in \(inspection.project ?? "the project"):\n")
            for (index, app) in inspection.apps.enumerated() {
                Terminal.writeError("  \(index + 1). \(app.target) (\(app.platform.rawValue)\(app.bundleIdentifier.map { ", \($0)" } ?? ""))\n")
            }
            let answer = ask("App to release (number or name)", inspection.appTarget ?? "")
            let chosen = Int(answer).flatMap { $0 >= 1 && $0 <= inspection.apps.count ? inspection.apps[$0 - 1].target : nil } ?? answer
            if chosen != inspection.appTarget {
                answers.target = chosen
                answers.scheme = nil
                inspection = try inspect(directory, answers)
            }
        }
        if interactive, scheme == nil, let current = inspection.scheme {
            let answer = ask("Scheme to archive", current)
            if answer != current {
                answers.scheme = answer
                inspection = try inspect(directory, answers)
            }
        }
        summarise(inspection)
        // A project that signs manually gets the signing that fits it, unless --signing says otherwise.
        var signingReason: String?
        if signing == nil, let proposal = inspection.proposedSigning, let choice = StarterPipeline.Signing(rawValue: proposal.choice) {
            signingChoice = choice
            signingReason = proposal.reason
        }
        var starter = StarterPipeline(inspection, signing: signingChoice)
        if let repository { starter.githubRepository = repository == "-" ? nil : repository }
        if let testflightGroup { starter.testflightGroup = testflightGroup }
        if let runner {
            starter.runner = runner
        } else if let xcode = inspection.xcodeVersion {
            Terminal.writeError(
                "why: runner \(starter.runner): it has Xcode \(xcode), which \(inspection.xcodeVersionSource ?? ".xcode-version") pins (--runner picks another)\n")
        }
        Terminal.writeError(
            "runners:   signing, project generation, archive and export on \(starter.runner) (they need Xcode); the gate, bump, commit, push, checks, dSYMs, upload, TestFlight, tag and GitHub release on \(StarterPipeline.linuxRunner) (a tenth of a macOS minute's price)\n"
        )
        if interactive {
            if signing == nil {
                Terminal.writeError(
                    "signing:\n  1. \(StarterPipeline.Signing.apiKey.summary) [default]\n  2. \(StarterPipeline.Signing.files.summary)\n  3. \(StarterPipeline.Signing.sync.summary)\n"
                )
                if let signingReason { Terminal.writeError("  (proposed: \(signingReason))\n") }
                let proposed = ["1", "2", "3"][StarterPipeline.Signing.allCases.firstIndex(of: signingChoice) ?? 0]
                let answer = ask("How to sign (1, 2 or 3)", proposed)
                starter.signing = ["1": .apiKey, "2": .files, "3": .sync][answer] ?? StarterPipeline.Signing(rawValue: answer) ?? signingChoice
                if starter.signing != signingChoice { signingReason = nil }
            }
            if team == nil {
                starter.team = ask(
                    "Apple team ID ('-' for none yet)", starter.team, valid: RepositoryInspection.isTeamID,
                    what: "a team ID (10 capital letters and digits)")
            }
            if testflightGroup == nil { starter.testflightGroup = ask("TestFlight group for release builds", starter.testflightGroup) }
            if repository == nil {
                starter.githubRepository = ask(
                    "GitHub repository for releases (owner/name, '-' for none)", starter.githubRepository,
                    valid: RepositoryInspection.isRepositoryName, what: "owner/name")
            }
        }
        Terminal.writeError("signing:    \(starter.signing.summary)\(starter.team.map { ", team \($0)" } ?? "; no team: set the pipeline's 'team' variable (or pass --team)")\n")
        if let signingReason { Terminal.writeError("why: signing \(starter.signing.rawValue): \(signingReason)\n") }
        if starter.signing == .apiKey, starter.projectSigningConflicts {
            let settings = StarterPipeline.automaticSigningOverrides.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            Terminal.writeError(
                "why: signing api-key kept on a project whose \(inspection.configuration) signing conflicts with Xcode-managed signing (\(Self.describe(inspection.signing))): the archive sets \(settings) together, so Xcode accepts automatic signing\n"
            )
        }
        Terminal.writeError("TestFlight: group '\(starter.testflightGroup)' (release builds)\n")

        let ignoreNote: String?
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
            ignoreNote = try GitIgnore.ensureIgnored("build/", in: directory)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.writeError("error: cannot write \(pipelinePath): \(error)\n")
            throw ExitCode(1)
        }
        Terminal.writeError("\nwrote \(pipelinePath) (its \"$schema\", release.schema.json, is for editors: 'release schema' makes it again)\n")
        if let ignoreNote { Terminal.writeError(ignoreNote + "\n") }
        // A rehearsal stands in for the API key and tokens, not for a certificate and profiles kept as files.
        let standsIn =
            starter.signing == .files
            ? "'release run --rehearse' stands in for all but the certificate and profiles: set those four to real ones to rehearse signing with files"
            : "'release run --rehearse' stands in for them all"
        Terminal.writeError("\nsecrets and settings a run reads (set them in your CI; \(standsIn)):\n")
        for (name, purpose) in starter.secrets { Terminal.writeError("  \(name): \(purpose)\n") }
        Terminal.writeError(
            """

            next:
              git add Pipelines/release.json release.schema.json .gitignore && git commit -m "Add the release pipeline"
              release validate
              release run --dry-run --os macos        # every command a Mac would run, nothing changed
              release run --rehearse --os macos       # the whole release against local stand-ins (bump, commit and tag really happen)
              release bump minor --yes && git push -u origin HEAD   # cut release/X.Y.Z: CI runs 'release run' there (each commit a build)

            """)
    }

    /// `manual style in DuckDuckGo, ShareExtension; identity iPhone Distribution in …`.
    static func describe(_ signing: RepositoryInspection.Signing?) -> String {
        guard let signing else { return "unknown" }
        var parts: [String] = []
        if !signing.manual.isEmpty { parts.append("manual style in \(signing.manual.joined(separator: ", "))") }
        let specified = signing.targets.filter { $0.settings.profileSpecifier != nil }
        if let first = specified.first?.settings.profileSpecifier {
            parts.append("profile '\(first)'\(specified.count > 1 ? " and \(specified.count - 1) more" : "")")
        }
        let distribution = signing.targets.filter { $0.settings.hasDistributionIdentity }
        if let first = distribution.first?.settings.identity { parts.append("identity \(first) in \(distribution.map(\.name).joined(separator: ", "))") }
        return parts.joined(separator: "; ")
    }

    private func inspect(_ directory: String, _ answers: RepositoryInspection.Answers) throws -> RepositoryInspection {
        do {
            return try RepositoryInspection.inspect(directory, answers: answers)
        } catch let problem as RepositoryInspection.Problem {
            Terminal.writeError("error: \(problem.description); nothing was written\n")
            throw ExitCode(ExitCodes.usage)
        }
    }

    private func usage(_ message: String) -> ExitCode {
        Terminal.writeError("error: \(message); nothing was written\n")
        return ExitCode(ExitCodes.usage)
    }

    private func summarise(_ inspection: RepositoryInspection) {
        let app = inspection.app
        var generation: [String] = []
        if let spec = inspection.xcodegenSpec { generation.append("xcodegen generate (\(spec))") }
        if let tuist = inspection.tuistManifest { generation.append("tuist generate (\(tuist))") }
        if let podfile = inspection.podfile {
            generation.append((inspection.bundledTools.contains("cocoapods") ? "bundle exec pod install" : "pod install") + " (\(podfile))")
        }
        if inspection.usesSwiftPackages { generation.append("Swift packages (resolved by xcodebuild)") }
        Terminal.writeError(
            """
            project:    \(inspection.project ?? "(none found)")\(inspection.workspace.map { " (workspace \($0))" } ?? "")
            app:        \(app?.target ?? "(unknown)") (\(app?.platform.rawValue ?? "iOS")\(inspection.bundleIdentifier.map { ", \($0)" } ?? ""))\(inspection.team.map { ", team \($0)" } ?? "")
            version:    \(inspection.version ?? "-") (\(inspection.build ?? "-"))\(app?.versionDefinedAt.map { ", defined at \($0)" } ?? "")
            scheme:     \(inspection.scheme ?? "-") (archives in \(inspection.configuration))\(inspection.schemes.isEmpty ? "" : "; shared: \(inspection.schemeNames.count)")
            generation: \(generation.isEmpty ? "none" : generation.joined(separator: ", "))
            GitHub:     \(inspection.githubRepository ?? "(no GitHub remote)")

            """)
        for reason in inspection.reasons { Terminal.writeError("why: \(reason)\n") }
        for note in inspection.notes { Terminal.writeError("note: \(note)\n") }
    }

    /// Asks until the answer is `valid` or `-` (none, returned as nil), with `value` pre-filled (`-` when nil).
    private func ask(_ question: String, _ value: String?, valid: (String) -> Bool, what: String) -> String? {
        while true {
            let answer = ask(question, value ?? "-")
            if answer == "-" { return nil }
            if valid(answer) { return answer }
            Terminal.writeError("'\(Echo.text(answer))' is not \(what)\n")
        }
    }

    /// Asks with `value` pre-filled: Enter keeps it.
    private func ask(_ question: String, _ value: String) -> String {
        Terminal.writeError("\(question) [\(value)]: ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
        return answer.isEmpty ? value : answer
    }
}
