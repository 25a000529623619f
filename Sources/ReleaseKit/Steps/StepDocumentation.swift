/// What `release steps` prints for a step kind: its options (generated from its ``StepOptions`` declaration),
/// outputs and an example.
public struct StepDocumentation: Sendable, Codable, Equatable {
    /// One documented option of a step's `with` object, generated from its ``StepOption`` declaration.
    public struct Option: Sendable, Codable, Equatable {
        public var name: String
        public var type: String
        public var required: Bool
        /// The default as written in a pipeline file (`6`, `"origin"`); nil when there is none to show.
        public var defaultValue: String?
        /// The only words accepted, for an ``OptionChoice``.
        public var values: [String]?
        /// The smallest and largest numbers accepted, for a number option.
        public var minimum: Double?
        public var maximum: Double?
        public var description: String
        public init(
            _ name: String, _ type: String, required: Bool = false, defaultValue: String? = nil, values: [String]? = nil,
            _ description: String
        ) {
            self.name = name
            self.type = type
            self.required = required
            self.defaultValue = defaultValue
            self.values = values
            self.description = description
        }
    }

    /// One documented output of a step.
    public struct Output: Sendable, Codable, Equatable {
        public var name: String
        public var type: String
        public var description: String
        public init(_ name: String, _ type: String, _ description: String) {
            self.name = name
            self.type = type
            self.description = description
        }
    }

    public var options: [Option]
    public var outputs: [Output]
    /// Whether outputs beyond `outputs` may appear (the `shell` step's `$RELEASE_OUTPUT` file).
    public var dynamicOutputs: Bool
    /// A complete step object as it would appear in `steps`, as JSON text.
    public var example: String

    public init(options: [Option], outputs: [Output], dynamicOutputs: Bool = false, example: String) {
        self.options = options
        self.outputs = outputs
        self.dynamicOutputs = dynamicOutputs
        self.example = example
    }
}
