/// `print`: prints a message, typically built from other steps' outputs.
package struct PrintStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the text to print; may span lines")
        package var message: String

        package init() {}
    }

    package static let kind = "print"
    package static let summary = "Print a message (for example a release's URL and assets)"
    package static let outputs: [StepDocumentation.Output] = [.init("message", "string", "the printed text")]
    package static let example = """
        {"id": "announce", "uses": "print", "needs": ["publish"], "with": {"message": "Published ${steps.publish.outputs.url}"}}
        """

    package let options: Options

    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    package var isReadOnly: Bool { true }

    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [.note("print: \(options.message)")], outputs: StepOutputs(["message": .string(options.message)]))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        for line in options.message.split(separator: "\n", omittingEmptySubsequences: false) {
            context.log(String(line))
        }
        return StepOutputs(["message": .string(options.message)])
    }
}
