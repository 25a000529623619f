import ArgumentParser
import Foundation
import ReleaseExecution
import ReleaseSupport

/// `--log-format`.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case auto, plain, json, github

    /// What `auto` means here: GitHub Actions, a terminal, or plain lines.
    var resolved: LogFormat {
        guard self == .auto else { return self }
        if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" { return .github }
        return .auto
    }

    func reporter(masker: SecretMasker) -> any RunReporter {
        switch resolved {
        case .github: return GitHubActionsReporter()
        case .json: return JSONLinesReporter(masker: masker)
        case .plain: return ConsoleReporter(style: .plain)
        case .auto: return ConsoleReporter(style: Terminal.isTerminal(2) ? .terminal : .plain, colour: Terminal.allowsColour())
        }
    }
}
