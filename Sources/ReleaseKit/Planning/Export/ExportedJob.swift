import ReleasePipeline

/// One release job of an ``ExportedPipeline``, as every CI engine needs it: where it runs, what it waits for, what it
/// runs, reads, hands on and may wait on. Built once from the pipeline; a renderer only writes it in its engine's words.
package struct ExportedJob: Sendable, Equatable {
    /// The job's key (``WorkflowJob/id``): `macos`, `linux-2`.
    package let id: String
    /// The runner its steps name (`runs_on`): its kind (``Runner/system``) and labels.
    package let runner: Runner
    /// Its own steps, in declaration order (what its name lists).
    package let steps: [String]
    /// What its `release run` names with `--only`: its steps, then the steps that end every job.
    package let runs: [String]
    /// The jobs that must finish first (direct), in job order.
    package let needs: [String]
    /// Every job it waits for, directly or not, in job order.
    package let ancestors: [String]
    /// The jobs among ``ancestors`` that hand their state on: the state it starts from.
    package let inherits: [String]
    /// Whether a later job starts from its state (it records and uploads it).
    package let handsOnState: Bool
    /// Whether one of its steps may end waiting on Apple (``ExportTraits/waitsOnApple``): a later run resumes it.
    package let resumes: Bool
    /// The secrets its steps read (``runs``), sorted: the only ones it gets.
    package let secrets: [String]
    /// The configuration variables (not secrets) its steps read, with those of the steps it takes from the journal,
    /// sorted.
    package let variables: [String]
    /// Whether it writes the repository's contents (``ExportTraits/writesRepository``) or holds GitHub's token.
    package let writesRepository: Bool
    /// The files it publishes whose provenance it attests (as upload globs); empty unless attesting.
    package let attestedFiles: [String]
    /// What its state holds (the journal, the changes, the folders its steps create), as upload paths.
    package let statePaths: [String]
    /// What it keeps while a step waits: its state paths and those of every job before it.
    package let waitingPaths: [String]
    /// Each step with why it runs on its runner (``ExportTraits/Runner``), for a header's note on macOS minutes.
    package let runnerReasons: [String]
}
