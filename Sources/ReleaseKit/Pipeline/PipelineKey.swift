import ReleaseSteps

/// One key of the pipeline format itself (not a step kind's `with` options): its name, what its value must be
/// (type and, for a number, range), its default and a one-line help.
///
/// The format's keys are declared once, in ``all``: ``PipelineLoader`` takes the keys it accepts and the checks of
/// every simple value (booleans, text, numbers and their ranges) from it, ``PipelineSchema`` writes `release schema`
/// from it, and a test holds the key tables of `Pipelines/README.md` to it, so the three cannot drift apart.
package struct PipelineKey: Sendable, Equatable {
    /// Where a key is written.
    package enum Scope: String, Sendable, CaseIterable {
        /// The pipeline object (top level).
        case pipeline
        /// A `profiles` entry.
        case profile
        /// A `steps` entry.
        case step
    }

    /// What a key's value must be. The simple ones are checked by the loader from here; the structured ones have
    /// readers of their own (a condition, variables, runners…), and the schema describes them by name.
    package enum Value: Sendable, Equatable {
        /// A string; `nonEmpty`: at least one character.
        case text(nonEmpty: Bool)
        /// `true` or `false`.
        case boolean
        /// A number within `range`; `whole`: an integer.
        case number(whole: Bool, range: OptionRange)
        /// One of ``PipelineLoader/supportedVersions``.
        case version
        /// A step id, `[a-z0-9][a-z0-9-_]*`.
        case stepID
        /// A registered step kind.
        case stepKind
        /// A step id or an array of them.
        case stepIDs
        /// The step kind's options (an object).
        case options
        /// A condition (`{"branch": "release*"}`).
        /// Text that uses a step's outputs (`${steps.ID.outputs.NAME}`), resolved when the step is about to start.
        case outputTemplate
        case condition
        /// Names and string, number or boolean values.
        case variables
        /// A runner label or an array of them.
        case runner
        /// Step kinds and the executables that implement them.
        case plugins
        /// Where exported CI jobs get `release`.
        case tool
        /// Profile names and profiles.
        case profiles
        /// An array of steps.
        case steps
    }

    /// The key as written in the file.
    package let name: String
    /// Where it is written.
    package let scope: Scope
    /// What its value must be.
    package let value: Value
    /// Whether a file must have it.
    package let required: Bool
    /// The value the key has when absent, as JSON text; nil when absence means "none".
    package let defaultValue: String?
    /// One line for `release schema` descriptions.
    package let help: String

    init(_ name: String, _ scope: Scope, _ value: Value, required: Bool = false, default defaultValue: String? = nil, help: String) {
        self.name = name
        self.scope = scope
        self.value = value
        self.required = required
        self.defaultValue = defaultValue
        self.help = help
    }

    /// Every key of the format, in the order the documentation lists them.
    package static let all: [PipelineKey] = [
        PipelineKey("$schema", .pipeline, .text(nonEmpty: false), help: "accepted and ignored: where editors find this schema"),
        PipelineKey("version", .pipeline, .version, required: true, help: "the format version"),
        PipelineKey("name", .pipeline, .text(nonEmpty: true), help: "shown in output and reports (default: the file name)"),
        PipelineKey("description", .pipeline, .text(nonEmpty: false), help: "free text"),
        PipelineKey("variables", .pipeline, .variables, help: "names and string, number or boolean values"),
        PipelineKey("profiles", .pipeline, .profiles, help: "named profiles: a 'when', 'default' and 'variables' each"),
        PipelineKey("plugins", .pipeline, .plugins, help: "external step kinds: kind -> executable"),
        PipelineKey(
            "runs_on", .pipeline, .runner, default: "\"ubuntu-latest\"",
            help: "the runner steps without their own need when exported to CI"),
        PipelineKey(
            "tool", .pipeline, .tool,
            help: "where exported CI jobs get release (default: the pinned tarballs of this version from the repository scripts/package.sh stamped into the binary)"),
        PipelineKey(
            "attest", .pipeline, .boolean, default: "false",
            help: "exported workflows attest the provenance of published files"),
        PipelineKey("steps", .pipeline, .steps, required: true, help: "the steps, in declaration order"),

        PipelineKey("when", .profile, .condition, help: "the profile is chosen when this holds (and no --profile is given)"),
        PipelineKey("default", .profile, .boolean, default: "false", help: "chosen when no profile's 'when' holds; at most one"),
        PipelineKey("variables", .profile, .variables, help: "override the pipeline's variables"),
        PipelineKey("description", .profile, .text(nonEmpty: false), help: "free text"),

        PipelineKey("id", .step, .stepID, required: true, help: "unique among the steps"),
        PipelineKey("uses", .step, .stepKind, required: true, help: "the step kind ('release steps' lists them)"),
        PipelineKey("needs", .step, .stepIDs, help: "step ids that must finish first"),
        PipelineKey("with", .step, .options, default: "{}", help: "the step kind's options"),
        PipelineKey("when", .step, .condition, help: "the step is skipped when this does not hold"),
        PipelineKey(
            "gate", .step, .boolean, default: "false",
            help: "a validation gate: a rejection blocks everything downstream (exit 2)"),
        PipelineKey(
            "always", .step, .boolean, default: "false",
            help: "runs after its needs whatever their outcome, and after an interrupt"),
        PipelineKey(
            "retries", .step, .number(whole: true, range: OptionRange(0...100)), default: "0",
            help: "how many times a failed attempt is retried"),
        PipelineKey(
            "retry_delay", .step, .number(whole: false, range: OptionRange(0...3600)), default: "1",
            help: "seconds before the first retry, doubled for each further one"),
        PipelineKey(
            "timeout", .step, .number(whole: false, range: OptionRange(0.001...604_800)),
            help: "seconds before the step's processes are stopped and the step fails (default: no limit)"),
        PipelineKey(
            "continue_on_error", .step, .boolean, default: "false",
            help: "a failure is recorded but does not fail the run or block dependents"),
        PipelineKey(
            "skip_if", .step, .outputTemplate,
            help:
                "step outputs decided at run time, such as ${steps.bump.outputs.shipped}: the step is skipped when they resolve to true (steps reading its outputs are skipped with it)"
        ),
        PipelineKey(
            "runs_on", .step, .runner,
            help: "the runner the step needs when exported to CI (default: what its 'when' implies, else the pipeline's)"),
        PipelineKey("description", .step, .text(nonEmpty: false), help: "free text"),
    ]

    /// The keys written in `scope`, in documentation order.
    package static func keys(in scope: Scope) -> [PipelineKey] {
        all.filter { $0.scope == scope }
    }

    /// The key `name` of `scope`.
    package static func key(_ name: String, in scope: Scope) -> PipelineKey? {
        all.first { $0.scope == scope && $0.name == name }
    }

    /// The value as the key tables of `Pipelines/README.md` write it: `` `true`/`false` (default `false`) ``,
    /// `whole number from 0 to 100 (default 0)`.
    package var documentedValue: String {
        var text: String
        switch value {
        case .text(let nonEmpty): text = nonEmpty ? "non-empty text" : "text"
        case .outputTemplate: text = "text using `${steps.ID.outputs.NAME}`"
        case .boolean: text = "`true`/`false`"
        case .number(let whole, let range): text = (whole ? "whole number " : "number ") + range.text
        case .version: text = PipelineLoader.supportedVersions.map { "`\($0)`" }.joined(separator: ", ")
        case .stepID: text = "`\(PipelineLoader.idPattern)`"
        case .stepKind: text = "step kind"
        case .stepIDs: text = "step id or array of them"
        case .options: text = "object"
        case .condition: text = "condition"
        case .variables: text = "object of variables"
        case .runner: text = "runner label or array of them"
        case .plugins: text = "object of kinds and executables"
        case .tool: text = "object"
        case .profiles: text = "object of profiles"
        case .steps: text = "array of steps"
        }
        if required { text += ", required" }
        if let defaultValue { text += " (default `\(defaultValue)`)" }
        return text
    }
}
