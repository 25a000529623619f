import Foundation

/// A kind of step a pipeline can use (`"uses": "archive.zip"`).
///
/// ## Implementation requirements
/// - `kind` is a stable dotted string, independent of the Swift type name; `summary` is one line.
/// - `Options` is a ``StepOptions`` struct of `@StepOption` properties, each declaring its key, type, default and help
///   once (see `StepOption.swift`). It is decoded from the step's `with` object at plan time by a decoder that
///   records every key the type asks for: keys it never asks for are reported as unknown, with a did-you-mean.
///   `release steps` documents the options from the same declarations; the step adds `outputs` and `example`.
/// - `init(options:)` rejects bad option *values* (throw ``StepError/invalidOption(_:_:)``): it runs
///   before anything runs, for every step.
/// - `verify` is read-only: it checks that `run` can succeed (files present, token accepted, tag free). It runs
///   for every step before any step runs, and in dry runs. A path that an upstream step promises to create
///   does not exist yet: use ``StepContext/requireFile(_:option:)``, which accepts promised paths.
/// - `plan` is read-only: it describes what `run` would change (commands, files with diffs, HTTP requests) and
///   promises the outputs `run` will produce, so downstream steps can be verified in a dry run.
/// - `run` does the work, only through `context` (processes, files, HTTP, clock, output), and returns outputs.
///   It must honour task cancellation (processes started through the context are killed on cancellation).
package protocol Step: Sendable {
    /// Typed options decoded from `with`.
    associatedtype Options: StepOptions

    /// The stable name used in pipelines, for example `archive.zip`.
    static var kind: String { get }
    /// One line for `release steps`.
    static var summary: String { get }
    /// The outputs `run` produces, for `release steps` and reference checking.
    static var outputs: [StepDocumentation.Output] { get }
    /// Whether outputs beyond `outputs` may appear (the `shell` step's `$RELEASE_OUTPUT` file). Default: false.
    static var dynamicOutputs: Bool { get }
    /// A complete step object as it would appear in `steps`, as JSON text; a test decodes it.
    static var example: String { get }
    /// The option that holds a `/bin/sh` script and the one that sets its environment (`shell`'s `run` and `env`), so
    /// `${…}` references in the script are passed as environment variables instead of pasted in. Default: nil.
    static var shellScript: ShellScriptOption? { get }
    /// What `release export` needs to know to place the step in a CI job: where it can run, whether it writes the
    /// repository, waits on Apple, publishes files or writes files it does not declare. Default: none of these.
    static var exportTraits: ExportTraits { get }

    /// Creates the step, rejecting bad option values before anything runs.
    init(options: Options) throws

    /// Read-only checks that `run` can succeed.
    func verify(in context: StepContext) async throws
    /// What `run` would change, and the outputs it promises.
    func plan(in context: StepContext) async throws -> StepPlan

    /// What a dry run shows when `plan` cannot answer because a secret is a placeholder (a key a remote service
    /// refuses): the effects and outputs known without asking. Default: nil (only a note is shown).
    func offlinePlan(in context: StepContext) -> StepPlan?
    /// Does the work.
    func run(in context: StepContext) async throws -> StepOutputs

    /// Whether `run` only reads (gates, inspections, `shell` with `read_only`): such steps really run in dry
    /// runs, once the steps they depend on have really run too. Default: false.
    var isReadOnly: Bool { get }
}

extension Step {
    package func verify(in context: StepContext) async throws {}
    package func offlinePlan(in context: StepContext) -> StepPlan? { nil }
    package var isReadOnly: Bool { false }
    package static var dynamicOutputs: Bool { false }
    package static var shellScript: ShellScriptOption? { nil }
    package static var exportTraits: ExportTraits { ExportTraits() }

    /// Options (from the `Options` declarations), outputs and example, for `release steps`. Not a requirement, so
    /// a step cannot document options other than those it decodes.
    package static var documentation: StepDocumentation {
        var documentation = StepDocumentation(options: Options.optionDocumentation, outputs: outputs, dynamicOutputs: dynamicOutputs, example: example)
        documentation.exclusions = Options.allExclusions.map(\.text)
        return documentation
    }
}
