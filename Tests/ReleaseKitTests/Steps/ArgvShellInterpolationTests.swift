import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSupport

/// Issue 40 F1: an argv whose program is a shell given `-c` (`["sh", "-c", "echo ${x}"]`, also behind `env` or
/// `xcrun`) has a script argument, and a `${…}` value pasted into it ran as code (a commit message through `notes`,
/// a branch name). Its values now travel in `RELEASE_V_n` variables as in a `shell: true` string (`shell`,
/// `gate.command`), or `validate` refuses the reference naming the safe spelling where no environment reaches it.
@Suite struct ArgvShellInterpolationTests {
    static let branch = "release/$(touch${IFS}b1)`touch${IFS}b2`\"$(touch${IFS}b3)\"'$(touch${IFS}b4)'"

    static func pipeline(_ steps: String) -> String {
        #"{"version": 1, "steps": [\#(steps)]}"#
    }

    @Test(arguments: [
        (["sh", "-c", "x"], 2), (["/bin/bash", "-ec", "x", "name"], 2), (["bash", "-o", "pipefail", "-c", "x"], 4),
        (["env", "A=1", "zsh", "-c", "x"], 4), (["xcrun", "--sdk", "iphoneos", "dash", "-c", "x"], 5),
        (["/usr/bin/env", "sh", "-xc", "x"], 3), (["bash", "--norc", "-c", "x"], 3),
    ])
    func theScriptArgumentIsFound(argv: [String], index: Int) {
        #expect(ShellInvocation.match(argv) == .script(index: index))
    }

    @Test func argvWithoutAShellScriptIsNotMatched() {
        for argv in [["echo", "-c", "x"], ["sh", "script.sh", "-c"], ["sh", "-c"], ["shellcheck", "-c", "x"], ["env", "FOO=1"]] {
            #expect(ShellInvocation.match(argv) == nil, "\(argv)")
        }
        #expect(ShellInvocation.match(["env", "-i", "sh", "-c", "x"]) == .scriptWithoutEnvironment(index: 4))
    }

    /// s4-injection: a branch named with `$(…)` and backquotes, through `shell`'s and `gate.command`'s argv.
    @Test func aBranchNameInAnArgvShellScriptNeverRuns() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let pipeline = Self.pipeline(
            #"""
            {"id": "s", "uses": "shell", "with": {"run": ["sh", "-c", "echo building ${git.branch} > a.txt; echo \"${git.branch}\" >> a.txt; echo '${git.branch}' >> a.txt"]}},
            {"id": "g", "uses": "gate.command", "gate": true, "needs": ["s"], "with": {"run": ["bash", "-c", "test -n '${git.branch}' && echo \"${git.branch}\" > g.txt"]}}
            """#)
        #expect(TestPipelines.problems(pipeline).isEmpty)
        let (result, _) = try await TestPipelines.run(
            pipeline,
            configure: { options in
                options.workingDirectory = directory
                options.git = GitInfo(branch: Self.branch, sha: "0123456789abcdef0123456789abcdef01234567", commitCount: 1)
            })
        #expect(result.statuses == ["s=ok", "g=ok"], "\(result.steps.map { $0.message ?? "" })")
        #expect(try String(contentsOfFile: directory + "/a.txt", encoding: .utf8) == "building \(Self.branch)\n\(Self.branch)\n\(Self.branch)\n")
        #expect(try String(contentsOfFile: directory + "/g.txt", encoding: .utf8) == "\(Self.branch)\n")
        for name in ["b1", "b2", "b3", "b4"] {
            #expect(!FileManager.default.fileExists(atPath: directory + "/" + name), "\(name) was created: a value ran as code")
        }
    }

    /// s24: a commit message through an output (here a variable holding it), quoted in the author's double quotes.
    @Test func aValueInTheAuthorsDoubleQuotesStaysText() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let message = #"fix: crash "$(touch MARK_NOTES)" `touch MARK_NOTES2`"#
        let (result, reporter) = try await TestPipelines.run(
            #"{"version": 1, "variables": {"text": "x"}, "steps": [{"id": "argvsh", "uses": "shell", "with": {"run": ["sh", "-c", "echo \"${text}\" > notes.txt"]}}]}"#,
            configure: { options in
                options.workingDirectory = directory
                options.variables = ["text": message]
            })
        #expect(result.statuses == ["argvsh=ok"], "\(result.steps.map { $0.message ?? "" })")
        #expect(try String(contentsOfFile: directory + "/notes.txt", encoding: .utf8) == message + "\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/MARK_NOTES"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/MARK_NOTES2"))
        #expect(reporter.logLines.first == #"argvsh: $ sh -c 'echo "${RELEASE_V_1}" > notes.txt'"#, "\(reporter.logLines)")
    }

    /// Where no environment variable can carry the value (a kind whose argv is not its command, `env -i`), the
    /// reference is refused at `validate`, naming the safe spelling.
    @Test func anArgvShellScriptNoEnvironmentReachesIsRefusedAtValidate() {
        let problems = TestPipelines.problems(
            Self.pipeline(#"{"id": "s", "uses": "shell", "with": {"run": ["env", "-i", "sh", "-c", "echo ${git.branch}"]}}"#))
        #expect(problems.count == 1)
        #expect(problems.first?.contains("$.steps[0].with.run[4]: step 's': '${git.branch}' is in a shell's -c script behind 'env -i'") == true, "\(problems)")
        #expect(problems.first?.contains(#"pass it as a positional argument (["sh", "-c", "echo \"$1\"", "sh", "${…}"])"#) == true, "\(problems)")
    }

    /// References outside the script (positional arguments) and in scripts without a shell are left as they were.
    @Test func positionalArgumentsStayArgv() {
        #expect(TestPipelines.problems(Self.pipeline(#"{"id": "s", "uses": "shell", "with": {"run": ["sh", "-c", "echo \"$1\"", "sh", "${git.branch}"]}}"#)).isEmpty)
        #expect(
            TestPipelines.problems(Self.pipeline(#"{"id": "s", "uses": "shell", "with": {"run": ["sh", "-c", "echo `echo ${git.branch}`"]}}"#)) == [
                "test.json:1:84: error: $.steps[0].with.run[2]: step 's': '${git.branch}' in the shell script is inside backquotes (`…`), where it cannot be quoted; use $(…) instead"
            ])
    }

    /// Issue 40 F4: inside a `shell: true` script, a value in an argument of a nested shell (`sh -c '…'`), `trap` or
    /// `eval` was quoted for the outer shell only, and the nested one ran it. `validate` now refuses it, naming the
    /// safe spelling (the nested shell inherits `env`).
    @Test(arguments: [
        (#"trap 'echo ${git.branch}' EXIT; true"#, "trap"), (#"sh -c 'echo ${git.branch}'"#, "sh -c"),
        (#"eval "echo ${git.branch}""#, "eval"), (#"find . -name x -exec bash -ec 'echo ${git.branch}' \;"#, "bash -c"),
        (#"true && /bin/sh -o errexit -c "echo ${git.branch}""#, "sh -c"), (#"ssh host "echo ${git.branch}""#, "ssh"),
    ])
    func aValueANestedShellReadsAgainIsRefused(script: String, command: String) {
        let encoded = String(decoding: try! JSONSerialization.data(withJSONObject: [script], options: [.withoutEscapingSlashes]), as: UTF8.self).dropFirst().dropLast()
        let problems = TestPipelines.problems(Self.pipeline(#"{"id": "s", "uses": "shell", "with": {"shell": true, "run": \#(encoded)}}"#))
        #expect(problems.count == 1, "\(problems)")
        #expect(
            problems.first?.hasSuffix(
                "step 's': '${git.branch}' in the shell script is an argument of '\(command)', which reads it again as code; set it in the step's env (\"env\": {\"VALUE\": \"${…}\"}) and write \"$VALUE\" in the inner script, which inherits the environment"
            ) == true, "\(problems)")
    }

    /// The same commands with the value where no nested shell reads it stay accepted.
    @Test func valuesBesideANestedShellAreAccepted() {
        for script in [
            #"echo ${git.branch}; sh -c 'echo "$X"'"#, #"trap 'rm -f x' EXIT; echo ${git.branch}"#, #"sh ./build.sh -config ${git.branch}"#,
            #"printf '%s\n' "${git.branch}" | sh -c 'cat'"#, #"echo "$(echo ${git.branch})""#,
        ] {
            let encoded = String(decoding: try! JSONSerialization.data(withJSONObject: [script], options: [.withoutEscapingSlashes]), as: UTF8.self).dropFirst().dropLast()
            #expect(TestPipelines.problems(Self.pipeline(#"{"id": "s", "uses": "shell", "with": {"shell": true, "run": \#(encoded)}}"#)).isEmpty, "\(script)")
        }
    }
}
