import ReleaseSupport

/// What a step produced: named typed values and file artifacts.
package struct StepOutputs: Sendable, Equatable {
    package var values: [String: OutputValue]
    package var artifacts: [Artifact]

    package init(_ values: [String: OutputValue] = [:], artifacts: [Artifact] = []) {
        self.values = values
        self.artifacts = artifacts
    }

    package subscript(key: String) -> OutputValue? {
        get { values[key] }
        set { values[key] = newValue }
    }
}
