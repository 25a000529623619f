import ArgumentParser
import ReleaseSupport

/// `release completion bash|zsh|fish`: the shell completion script (ArgumentParser's generator). Pipeline
/// names, profiles and step ids are completed from the files in the current folder when Tab is pressed.
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            bash: release completion bash > /usr/local/etc/bash_completion.d/release (or source <(release completion bash))
            zsh:  release completion zsh > "${fpath[1]}/_release"
            fish: release completion fish > ~/.config/fish/completions/release.fish
            """
    )

    @Argument(help: ArgumentHelp("The shell.", valueName: "bash|zsh|fish"))
    var shell: String

    func validate() throws {
        guard CompletionShell(rawValue: shell) != nil else {
            throw ValidationError("unknown shell '\(shell)': choose bash, zsh or fish")
        }
    }

    func run() throws {
        guard let shell = CompletionShell(rawValue: shell) else { return }
        Terminal.writeOutput(Release.completionScript(for: shell))
    }
}
