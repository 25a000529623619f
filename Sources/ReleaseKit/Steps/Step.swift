import Foundation

/// A kind of step a pipeline can use (`"uses": "archive.zip"`).
///
/// ## Implementation requirements
/// - `kind` is a stable dotted string, independent of the Swift type name; `summary` is one line.
/// - `Options` is decoded from the step's `with` object at plan time by a decoder that records every key
///   the type asks for: keys the type never asks for are reported as unknown, with a did-you-mean.
///   Synthesized `Decodable` does this (it asks for optional keys with `decodeIfPresent`); a hand-written
///   `init(from:)` must do the same, so the decoder learns every key you accept.
/// - `init(options:)` rejects bad option *values* (throw ``StepError/invalidOption(_:_:)``): it runs
///   before anything runs, for every step.
/// - `verify` is read-only: it checks that `run` can succeed (files present, token accepted, tag free). It runs
///   for every step before any step runs, and in dry runs. A path that an upstream step promises to create
///   does not exist yet: use ``StepContext/requireFile(_:option:)``, which accepts promised paths.
/// - `plan` is read-only: it describes what `run` would change (commands, files with diffs, HTTP requests) and
///   promises the outputs `run` will produce, so downstream steps can be verified in a dry run.
/// - `run` does the work, only through `context` (processes, files, HTTP, clock, output), and returns outputs.
///   It must honour task cancellation (processes started through the context are killed on cancellation).
public protocol Step: Sendable {
    /// Typed options decoded from `with`.
    associatedtype Options: Decodable & Sendable

    /// The stable name used in pipelines, for example `archive.zip`.
    static var kind: String { get }
    /// One line for `release steps`.
    static var summary: String { get }
    /// Options, outputs and an example, for `release steps` and the documentation tests.
    static var documentation: StepDocumentation { get }

    /// Creates the step, rejecting bad option values before anything runs.
    init(options: Options) throws

    /// Read-only checks that `run` can succeed.
    func verify(in context: StepContext) async throws
    /// What `run` would change, and the outputs it promises.
    func plan(in context: StepContext) async throws -> StepPlan
    /// Does the work.
    func run(in context: StepContext) async throws -> StepOutputs

    /// Whether `run` only reads (gates, inspections, `shell` with `read_only`): such steps really run in dry
    /// runs, once the steps they depend on have really run too. Default: false.
    var isReadOnly: Bool { get }
}

extension Step {
    public func verify(in context: StepContext) async throws {}
    public var isReadOnly: Bool { false }
}
