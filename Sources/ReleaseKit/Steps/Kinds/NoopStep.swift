/// `noop`: does nothing. A join point that other steps can need, or a placeholder while writing a pipeline.
package struct NoopStep: Step {
    /// No options: any key in `with` is unknown.
    package struct Options: StepOptions {
        package init() {}
    }

    package static let kind = "noop"
    package static let summary = "Do nothing: a join point for 'needs'"
    package static let outputs: [StepDocumentation.Output] = []
    package static let example = """
        {"id": "packaged", "uses": "noop", "needs": ["zip", "dsyms"]}
        """

    package init(options: Options) throws {}

    package var isReadOnly: Bool { true }

    package func plan(in context: StepContext) async throws -> StepPlan { StepPlan() }

    package func run(in context: StepContext) async throws -> StepOutputs { StepOutputs() }
}
