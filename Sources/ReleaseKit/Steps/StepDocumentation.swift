/// What `release steps` prints for a step kind: its options (generated from its ``StepOptions`` declaration),
/// outputs and an example.
package struct StepDocumentation: Sendable, Codable, Equatable {
    /// One documented option of a step's `with` object, generated from its ``StepOption`` declaration.
    package struct Option: Sendable, Codable, Equatable {
        package var name: String
        package var type: String
        package var required: Bool
        /// The default as written in a pipeline file (`6`, `"origin"`); nil when there is none to show.
        package var defaultValue: String?
        /// The only words accepted, for an ``OptionChoice``.
        package var values: [String]?
        /// The smallest and largest numbers accepted, for a number option.
        package var minimum: Double?
        package var maximum: Double?
        /// What a text value must be beyond its type (``OptionConstraint/summary``): `not empty`, `owner/name`.
        package var constraints: [String]?
        /// JSON Schema keywords for a text value that keep the constraints (`minLength`, `pattern`).
        package var schema: [String: OptionConstraint.SchemaValue]?
        package var description: String
        package init(
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
    package struct Output: Sendable, Codable, Equatable {
        package var name: String
        package var type: String
        package var description: String
        package init(_ name: String, _ type: String, _ description: String) {
            self.name = name
            self.type = type
            self.description = description
        }
    }

    package var options: [Option]
    package var outputs: [Output]
    /// Whether outputs beyond `outputs` may appear (the `shell` step's `$RELEASE_OUTPUT` file).
    package var dynamicOutputs: Bool
    /// A complete step object as it would appear in `steps`, as JSON text.
    package var example: String
    /// The options that go together one at a time (``OptionExclusion/text``): `project | file (one at the most)`.
    package var exclusions: [String] = []

    package init(options: [Option], outputs: [Output], dynamicOutputs: Bool = false, example: String) {
        self.options = options
        self.outputs = outputs
        self.dynamicOutputs = dynamicOutputs
        self.example = example
    }
}
