/// Which option of a step kind holds a `/bin/sh` script, and which one the command's environment: the script's
/// `${…}` references reach the shell as variables added to that environment, never as script text (see
/// `ShellScript` in Pipeline/).
public struct ShellScriptOption: Sendable, Equatable {
    /// The option whose value, when it is a string, is a script (`run`).
    public var script: String
    /// The option, an object of strings, that sets the command's environment (`env`).
    public var environment: String

    /// Creates a value from its parts.
    public init(script: String, environment: String) {
        self.script = script
        self.environment = environment
    }
}
