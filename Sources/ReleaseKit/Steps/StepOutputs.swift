/// What a step produced: named typed values and file artifacts.
public struct StepOutputs: Sendable, Equatable {
    public var values: [String: OutputValue]
    public var artifacts: [Artifact]

    public init(_ values: [String: OutputValue] = [:], artifacts: [Artifact] = []) {
        self.values = values
        self.artifacts = artifacts
    }

    public subscript(key: String) -> OutputValue? {
        get { values[key] }
        set { values[key] = newValue }
    }
}
