/// What the one install script (``ToolInstall/script(on:)``) asks of the shell a CI engine runs it in: each
/// renderer describes its own, and the script is written once.
package struct ScriptHost: Sendable {
    /// The script's first line: the shell's strict mode (`set -euo pipefail` in bash, `set -eu` in POSIX sh).
    package var strictMode: String
    /// Whether the script runs in bash, which substitutes the tarball URL's placeholders itself (`${…//…/…}`);
    /// otherwise it is POSIX sh (GitLab's images may have no bash) and `sed` does.
    package var bash: Bool
    /// The folder downloads go to, as the start of a double-quoted shell word (`$RUNNER_TEMP`).
    package var scratch: String
    /// A command that reports `message` (text for inside double quotes) as an error.
    package var error: @Sendable (_ message: String) -> String
    /// Lines that stop the script with `message` when the test `condition` holds.
    package var stop: @Sendable (_ condition: String, _ message: String) -> [String]
    /// A command that puts `folder` (text for inside double quotes) on the PATH of the job's commands after it.
    package var addToPath: @Sendable (_ folder: String) -> String
    /// Where Homebrew lives on the engine's Linux runners when it may not be on the PATH (GitHub's Ubuntu images);
    /// nil when it is, or is not there at all.
    package var homebrewFolder: String?
    /// Whether a `release` built from source is run once (`--version`) before it goes on the PATH.
    package var checksBuild: Bool
}
