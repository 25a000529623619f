/// Which option of a step kind holds a `/bin/sh` script, and which one the command's environment: the script's
/// `${…}` references reach the shell as variables added to that environment, never as script text (see
/// `ShellScript` in Pipeline/). An argv in ``script`` whose program is a shell given `-c` (``ShellInvocation``) has its
/// script argument treated the same way.
package struct ShellScriptOption: Sendable, Equatable {
    /// The option whose value, when it is a string, is a script (`run`).
    package var script: String
    /// The option, an object of strings, that sets the command's environment (`env`).
    package var environment: String
    /// The bool option that must be true for a string in ``script`` to run as a script (`shell`); nil when a string
    /// always is one.
    package var enabledBy: String?
    /// Whether a string in ``script`` is a script at all; false for a kind whose command is only ever an argv (the
    /// option is declared for the argv case: `["sh", "-c", "…"]`, whose script gets its values the same way).
    package var acceptsString: Bool

    /// Creates a value from its parts.
    package init(script: String, environment: String, enabledBy: String? = nil, acceptsString: Bool = true) {
        self.script = script
        self.environment = environment
        self.enabledBy = enabledBy
        self.acceptsString = acceptsString
    }

    /// Why a string in ``script`` is refused while ``enabledBy`` is not true: `validate` and the step's `init` say the
    /// same thing.
    package var stringNeedsEnablingMessage: String {
        let enabling = enabledBy ?? "shell"
        return "'\(script)' is a string; give an argv array such as [\"make\", \"test\"], or set \"\(enabling)\": true to run it through /bin/sh"
    }
}
