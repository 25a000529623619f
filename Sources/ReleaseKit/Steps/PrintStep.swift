/// `print`: prints a message, typically built from other steps' outputs.
public struct PrintStep: Step {
    /// The step's `with` object.
    public struct Options: StepOptions {
        @StepOption(help: "the text to print; may span lines")
        public var message: String

        public init() {}
    }

    public static let kind = "print"
    public static let summary = "Print a message (for example a release's URL and assets)"
    public static let outputs: [StepDocumentation.Output] = [.init("message", "string", "the printed text")]
    public static let example = """
        {"id": "announce", "uses": "print", "needs": ["publish"], "with": {"message": "Published ${steps.publish.outputs.url}"}}
        """

    public let options: Options

    public init(options: Options) throws {
        self.options = options
    }

    public var isReadOnly: Bool { true }

    public func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [.note("print: \(options.message)")], outputs: StepOutputs(["message": .string(options.message)]))
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        for line in options.message.split(separator: "\n", omittingEmptySubsequences: false) {
            context.log(String(line))
        }
        return StepOutputs(["message": .string(options.message)])
    }
}
