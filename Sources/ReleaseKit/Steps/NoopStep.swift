/// `noop`: does nothing. A join point that other steps can need, or a placeholder while writing a pipeline.
public struct NoopStep: Step {
    /// No options: any key in `with` is unknown.
    public struct Options: StepOptions {
        public init() {}
    }

    public static let kind = "noop"
    public static let summary = "Do nothing: a join point for 'needs'"
    public static let outputs: [StepDocumentation.Output] = []
    public static let example = """
        {"id": "packaged", "uses": "noop", "needs": ["zip", "dsyms"]}
        """

    public init(options: Options) throws {}

    public var isReadOnly: Bool { true }

    public func plan(in context: StepContext) async throws -> StepPlan { StepPlan() }

    public func run(in context: StepContext) async throws -> StepOutputs { StepOutputs() }
}
