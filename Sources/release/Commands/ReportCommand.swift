import ArgumentParser
import Foundation
import ReleaseExecution
import ReleaseSupport

/// `release report --cost FILE… [--price KIND=USD]… [--json]`: runner minutes and their price from run reports.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Read run reports (release run --report FILE): minutes per runner kind and their price at list rates.",
        discussion: """
            Each report is one job (a workflow of several jobs writes one per job): its whole run, rounded up to \
            whole minutes as GitHub bills, on the runner kind it names (runner: macos, linux, …). Prices are \
            GitHub's list rates for the smallest hosted runners (linux 0.006, macos 0.062 USD a minute) unless \
            --price says otherwise.
            """
    )

    @Flag(help: "Add up runner minutes and their price (the one report there is today; required).")
    var cost = false

    @Argument(help: "Run reports written by release run --report.")
    var files: [String] = []

    @Option(name: .customLong("price"), help: "A runner kind's price in USD a minute, repeatable (macos=0.08).")
    var prices: [String] = []

    @Flag(help: "Print the result as JSON on standard output.")
    var json = false

    func validate() throws {
        guard cost else { throw ValidationError("release report needs --cost (minutes and their price)") }
        guard !files.isEmpty else { throw ValidationError("name at least one run report (release run --report FILE writes one)") }
    }

    func run() async throws {
        let summary: RunCost
        do {
            summary = try RunCost.read(files: files, prices: try RunCost.Prices(overrides: prices))
        } catch let error as RunCostError {
            Terminal.writeError("error: \(error)\n")
            if case .badPrice = error { throw ExitCode(ExitCodes.usage) }
            throw ExitCode(ExitCodes.stepFailed)
        }
        if json {
            Terminal.writeOutput((JSONWriter.text(summary.json, pretty: true) ?? "{}") + "\n")
        } else {
            Terminal.writeError(summary.text)
        }
    }
}
