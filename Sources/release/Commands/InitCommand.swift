import ArgumentParser
import Foundation
import ReleaseExecution
import ReleaseSupport

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
        let request = InitService.Request(
            project: project, workspace: workspace, scheme: scheme, target: target, platform: platform, repository: repository,
            signing: signing, team: team, testflightGroup: testflightGroup, runner: runner, yes: yes)
        do {
            try InitService(directory: Platform.currentDirectory(), console: TerminalInitConsole()).run(request)
        } catch {
            throw error.exit()
        }
    }
}

/// The real terminal for ``InitService``: its lines and questions on standard error, answers on standard input.
struct TerminalInitConsole: InitConsole {
    var isInteractive: Bool { isatty(0) == 1 }

    func write(_ text: String) {
        Terminal.writeError(text)
    }

    func output(_ text: String) {
        Terminal.writeOutput(text)
    }

    func readAnswer() -> String? {
        readLine()
    }
}
