import Foundation
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport
import ReleaseVersioning

/// What `release init` needs from the terminal it runs on: where its lines go and the questions it asks. The
/// executable gives the real terminal; tests record.
package protocol InitConsole: CommandConsole {
    /// Whether a person can answer: standard input is a terminal.
    var isInteractive: Bool { get }
    /// A line typed in answer to a question, or nil at the end of input.
    func readAnswer() -> String?
}

/// `release init`'s whole flow once the command line is parsed: inspect the repository, ask (on a terminal) with what
/// it found pre-filled, say what it chose and why, and write the starter pipeline, its schema and the ignore line,
/// never overwriting. The command only turns its arguments into a ``Request``.
package struct InitService: Sendable {
    /// What the command line answered already (nil: found in the repository, or asked).
    package struct Request: Sendable {
        package var project: String?
        package var workspace: String?
        package var scheme: String?
        package var target: String?
        package var platform: String?
        /// `owner/name`, or `-` for none.
        package var repository: String?
        /// `api-key`, `files` or `sync`, as written.
        package var signing: String?
        package var team: String?
        package var testflightGroup: String?
        /// The macOS runner label exported jobs run on.
        package var runner: String?
        /// Take every default without asking.
        package var yes: Bool

        package init(
            project: String? = nil, workspace: String? = nil, scheme: String? = nil, target: String? = nil, platform: String? = nil,
            repository: String? = nil, signing: String? = nil, team: String? = nil, testflightGroup: String? = nil,
            runner: String? = nil, yes: Bool = false
        ) {
            self.project = project
            self.workspace = workspace
            self.scheme = scheme
            self.target = target
            self.platform = platform
            self.repository = repository
            self.signing = signing
            self.team = team
            self.testflightGroup = testflightGroup
            self.runner = runner
            self.yes = yes
        }
    }

    /// The repository's folder.
    package let directory: String
    package let console: any InitConsole

    package init(directory: String, console: any InitConsole) {
        self.directory = directory
        self.console = console
    }

    /// Writes the starter pipeline.
    /// - Throws: ``CommandFailure``: a bad answer, no terminal to ask on without `yes`, or a repository it cannot
    ///   read (64); a pipeline that exists already or a file it cannot write (1). Nothing is written then.
    package func run(_ request: Request) throws(CommandFailure) {
        let (project, workspace, scheme, target, platform) = (request.project, request.workspace, request.scheme, request.target, request.platform)
        let (repository, signing, team, testflightGroup, runner) = (request.repository, request.signing, request.team, request.testflightGroup, request.runner)
        let pipelinePath = PipelineLocator.defaultPath
        let absolute = (directory as NSString).appendingPathComponent(pipelinePath)
        guard !FileManager.default.fileExists(atPath: absolute) else {
            throw .failed("\(pipelinePath) already exists; nothing was written (release init never overwrites; move it away to start again)")
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
        let interactive = !request.yes
        if interactive, !console.isInteractive {
            throw .usage("no terminal to ask on: pass --yes to take the values found (and --scheme, --target, --platform, --signing … to choose); nothing was written")
        }

        var answers = RepositoryInspection.Answers(project: project, workspace: workspace, scheme: scheme, target: target, platform: platform, team: team)
        var inspection = try inspect(directory, answers)
        if interactive, inspection.apps.count > 1, target == nil {
            console.write("apps in \(inspection.project ?? "the project"):\n")
            for (index, app) in inspection.apps.enumerated() {
                console.write("  \(index + 1). \(app.target) (\(app.platform.name)\(app.bundleIdentifier.map { ", \($0)" } ?? ""))\n")
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
            console.write(
                "why: runner \(starter.runner): it has Xcode \(xcode), which \(inspection.xcodeVersionSource ?? ".xcode-version") pins (--runner picks another)\n")
        }
        console.write(
            "runners:   signing, project generation, archive and export on \(starter.runner) (they need Xcode); the gate, bump, commit, push, checks, dSYMs, upload, TestFlight, tag and GitHub release on \(StarterPipeline.linuxRunner) (a tenth of a macOS minute's price)\n"
        )
        if interactive {
            if signing == nil {
                console.write(
                    "signing:\n  1. \(StarterPipeline.Signing.apiKey.summary) [default]\n  2. \(StarterPipeline.Signing.files.summary)\n  3. \(StarterPipeline.Signing.sync.summary)\n"
                )
                if let signingReason { console.write("  (proposed: \(signingReason))\n") }
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
        console.write("signing:    \(starter.signing.summary)\(starter.team.map { ", team \($0)" } ?? "; no team: set the pipeline's 'team' variable (or pass --team)")\n")
        if let signingReason { console.write("why: signing \(starter.signing.rawValue): \(signingReason)\n") }
        if starter.signing == .sync {
            let settings = StarterPipeline.syncSigningOverrides.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            let project: String
            if let match = inspection.signing?.matchSpecifier {
                project =
                    "the project's own specifier '\(match)' names fastlane match's profiles, which signing.sync neither makes nor installs, so Xcode would not find them"
            } else if inspection.signing?.manual.isEmpty == false {
                project = "the project's own manual settings name profiles signing.sync does not install"
            } else {
                project = "the project's automatic signing would look for Xcode's own profiles, which only -allowProvisioningUpdates with an account makes"
            }
            console.write(
                "why: signing sync signs manually with what signing.sync installs: the archive sets \(settings) together and signing.sync makes and installs each bundle id's profile under that name (profile_name); \(project)\n"
            )
        }
        if starter.signing == .files, starter.archiveSignsWithKey {
            console.write(
                "why: signing files on a project that signs automatically in \(inspection.configuration): the archive signs automatically with the App Store Connect API key (-allowProvisioningUpdates and the key, which Xcode uses to fetch or make its development certificate and profiles; without them Xcode stops with 'Automatic signing is disabled and unable to generate a profile', since the run installs distribution profiles only), and the export signs manually with the installed certificate and profiles, so what ships is signed with your files\n"
            )
        }
        if starter.signing == .apiKey, starter.projectSigningConflicts {
            let settings = StarterPipeline.automaticSigningOverrides.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            console.write(
                "why: signing api-key kept on a project whose \(inspection.configuration) signing conflicts with Xcode-managed signing (\(Self.describe(inspection.signing))): the archive sets \(settings) together, so Xcode accepts automatic signing\n"
            )
        }
        console.write("TestFlight: group '\(starter.testflightGroup)' (release builds)\n")

        let ignoreNote: String?
        do {
            try FileManager.default.createDirectory(atPath: (directory as NSString).appendingPathComponent("Pipelines"), withIntermediateDirectories: true)
            let schemaPath = FilePath.absolute(starter.schemaPath, in: FilePath.parent(of: absolute))
            if !FileManager.default.fileExists(atPath: schemaPath) {
                try AtomicFile.write(PipelineSchema.text(registry: try StepRegistry.builtIn), to: schemaPath)
            }
            // Checked again just before writing: never replace a pipeline that appeared while we asked.
            guard !FileManager.default.fileExists(atPath: absolute) else {
                throw CommandFailure.failed("\(pipelinePath) appeared meanwhile; nothing was written")
            }
            try AtomicFile.write(starter.text, to: absolute)
            ignoreNote = try GitIgnore.ensureIgnored("build/", in: directory)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw .failed("cannot write \(pipelinePath): \(error)")
        }
        console.write("\nwrote \(pipelinePath) (its \"$schema\", release.schema.json, is for editors: 'release schema' makes it again)\n")
        if let ignoreNote { console.write(ignoreNote + "\n") }
        // A rehearsal stands in for the API key and tokens, not for a certificate and profiles kept as files.
        let standsIn =
            starter.signing == .files
            ? "'release run --rehearse' stands in for all but the certificate and profiles: set those \(starter.secrets.filter { $0.name.hasPrefix("CERTIFICATE_") || $0.name.contains("PROFILE") }.count) to real ones to rehearse signing with files"
            : "'release run --rehearse' stands in for them all"
        console.write("\nsecrets and settings a run reads (set them in your CI; \(standsIn)):\n")
        for (name, purpose) in starter.secrets { console.write("  \(name): \(purpose)\n") }
        console.write(
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
    package static func describe(_ signing: RepositoryInspection.Signing?) -> String {
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

    private func inspect(_ directory: String, _ answers: RepositoryInspection.Answers) throws(CommandFailure) -> RepositoryInspection {
        do {
            return try RepositoryInspection.inspect(directory, answers: answers)
        } catch let problem as RepositoryInspection.Problem {
            throw .usage("\(problem.description); nothing was written")
        } catch {
            throw CommandFailure(code: ExitCodes.stepFailed, cause: .underlying(error))
        }
    }

    private func usage(_ message: String) -> CommandFailure {
        .usage("\(message); nothing was written")
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
        console.write(
            """
            project:    \(inspection.project ?? "(none found)")\(inspection.workspace.map { " (workspace \($0))" } ?? "")
            app:        \(app?.target ?? "(unknown)") (\(app?.platform.name ?? "iOS")\(inspection.bundleIdentifier.map { ", \($0)" } ?? ""))\(inspection.team.map { ", team \($0)" } ?? "")
            version:    \(inspection.version ?? "-") (\(inspection.build ?? "-"))\(app?.versionDefinedAt.map { ", defined at \($0)" } ?? "")
            scheme:     \(inspection.scheme ?? "-") (archives in \(inspection.configuration))\(inspection.schemes.isEmpty ? "" : "; shared: \(inspection.schemeNames.count)")
            generation: \(generation.isEmpty ? "none" : generation.joined(separator: ", "))
            GitHub:     \(inspection.githubRepository ?? "(no GitHub remote)")

            """)
        for reason in inspection.reasons { console.write("why: \(reason)\n") }
        for note in inspection.notes { console.write("note: \(note)\n") }
    }

    /// Asks until the answer is `valid` or `-` (none, returned as nil), with `value` pre-filled (`-` when nil).
    private func ask(_ question: String, _ value: String?, valid: (String) -> Bool, what: String) -> String? {
        while true {
            let answer = ask(question, value ?? "-")
            if answer == "-" { return nil }
            if valid(answer) { return answer }
            console.write("'\(Echo.text(answer))' is not \(what)\n")
        }
    }

    /// Asks with `value` pre-filled: Enter keeps it.
    private func ask(_ question: String, _ value: String) -> String {
        console.write("\(question) [\(value)]: ")
        let answer = console.readAnswer()?.trimmingCharacters(in: .whitespaces) ?? ""
        return answer.isEmpty ? value : answer
    }
}
