import Foundation
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// What the command line (or a test) asks of a run or plan.
package struct RunOptions: Sendable {
    /// Relative paths in step options resolve against this folder.
    package var workingDirectory: String
    package var environment: [String: String]
    /// `--profile`.
    package var profile: String?
    /// `--var KEY=VALUE`, overriding pipeline and profile variables.
    package var variables: [String: String]
    /// `--jobs`: how many steps run at once.
    package var jobs: Int
    package var dryRun: Bool
    /// `--only`: run these steps and what they need.
    package var only: [String]
    package var resume: Bool
    package var keepGoing: Bool
    /// The run's instant; `${now:…}` uses it.
    package var now: Date
    package var os: String
    /// Where remote services are reached: the real ones, or `--rehearse`'s local stand-ins.
    package var endpoints: ServiceEndpoints
    /// Facts about the repository; read from git when nil.
    package var git: GitInfo?
    /// Where the resume journal lives; `.release/` under the working directory by default.
    package var journalDirectory: String?
    /// Steps the journal `--resume` reads records as succeeded (perhaps on another machine, in an earlier job of an
    /// exported workflow). With `--only`, the steps the selection only needs are taken from it as they are, whatever
    /// their `when` says on this machine.
    package var journaled: Set<String> = []
    /// Secrets a dry run or a rehearsal stands in for with placeholders (not set on this machine): in a dry run a step
    /// whose preflight fails while it uses one still shows what it would do, with a warning that it was not checked; in
    /// a rehearsal its failure names the secret to set.
    package var placeholderSecrets: Set<String> = []

    package init(
        workingDirectory: String = Platform.currentDirectory(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        profile: String? = nil,
        variables: [String: String] = [:],
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        dryRun: Bool = false,
        only: [String] = [],
        resume: Bool = false,
        keepGoing: Bool = false,
        now: Date = Date(),
        os: String = Condition.currentSystem,
        endpoints: ServiceEndpoints = .live,
        git: GitInfo? = nil,
        journalDirectory: String? = nil
    ) {
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.profile = profile
        self.variables = variables
        self.jobs = max(1, jobs)
        self.dryRun = dryRun
        self.only = only
        self.resume = resume
        self.keepGoing = keepGoing
        self.now = now
        self.os = os
        self.endpoints = endpoints
        self.git = git
        self.journalDirectory = journalDirectory
    }
}
