/// What `plan` returns: the effects `run` would have and the outputs it promises.
package struct StepPlan: Sendable, Equatable {
    package var effects: [PlannedEffect]
    /// Promised outputs: the values `run` will produce, where they can be known in advance (paths it will
    /// create, the version it will write). Downstream steps are resolved and verified against them.
    package var outputs: StepOutputs

    package init(effects: [PlannedEffect] = [], outputs: StepOutputs = StepOutputs()) {
        self.effects = effects
        self.outputs = outputs
    }
}
