import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps

/// Issue 22 item 7: `${…}` values in `shell: true` scripts reach `/bin/sh` as environment variables, quoted for where
/// they land, so no value (a branch name, a version read from a project, a step output) runs as code; references
/// no quoting can make safe are refused by `validate`. Run with the real `/bin/sh`.
@Suite struct ShellInterpolationTests {
    /// Everything a shell would act on: spaces, a glob, command substitutions, quotes of both kinds, `;`, a
    /// parameter, a backslash.
    static let hostile = #"a  b * $(touch p1) `touch p2` ';touch p3;' ";touch p4" $HOME back\slash -n end"#

    /// `{"version": 1, "steps": [one shell: true step running `script`]}`, the script JSON-encoded.
    static func pipeline(_ script: String, env: String = "") -> String {
        let encoded = String(decoding: try! JSONSerialization.data(withJSONObject: [script], options: [.withoutEscapingSlashes]), as: UTF8.self).dropFirst().dropLast()
        return #"{"version": 1, "variables": {"v": "x"}, "steps": [{"id": "s", "uses": "shell", "with": {"shell": true, "run": \#(encoded)\#(env)}}]}"#
    }

    @Test func aHostileValueIsTextInEveryQuotingContext() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let script = """
            printf '[%s]\\n' ${v} "${v}" 'a${v}b' "a${v}b" x${v}y > out.txt
            cat <<EOF >> out.txt
            <${v}>
            EOF
            cat <<-END >> out.txt
            \ttab ${v}
            \tEND
            printf '%s\\n' "$(printf '(%s)' ${v})" >> out.txt
            printf '%s' ${v} # a comment ${v}
            """
        let (result, _) = try await TestPipelines.run(
            Self.pipeline(script),
            configure: { options in
                options.workingDirectory = directory
                options.variables = ["v": Self.hostile]
            })
        #expect(result.statuses == ["s=ok"], "\(result.steps.map { $0.message ?? "" })")
        let value = Self.hostile
        #expect(
            try String(contentsOfFile: directory + "/out.txt", encoding: .utf8) == """
                [\(value)]
                [\(value)]
                [a\(value)b]
                [a\(value)b]
                [x\(value)y]
                <\(value)>
                tab \(value)
                (\(value))

                """)
        #expect(result.step("s")?.outputs["stdout"] == .string(value))
        for name in ["p1", "p2", "p3", "p4"] {
            #expect(!FileManager.default.fileExists(atPath: directory + "/" + name), "\(name) was created: a value ran as code")
        }
    }

    /// A branch named `release/$(touch${IFS}x)` (git allows it) is text, inside the author's quotes too.
    @Test func aBranchNameNeverRuns() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let branch = "release/$(touch${IFS}x)'$(touch${IFS}y)'\"`touch z`\""
        let script = #"echo ${git.branch} > b.txt; echo "${git.branch}" >> b.txt; echo '${git.branch}' >> b.txt"#
        let (result, _) = try await TestPipelines.run(
            Self.pipeline(script),
            configure: { options in
                options.workingDirectory = directory
                options.git = GitInfo(branch: branch, sha: "0123456789abcdef0123456789abcdef01234567", commitCount: 1)
            })
        #expect(result.statuses == ["s=ok"], "\(result.steps.map { $0.message ?? "" })")
        #expect(try String(contentsOfFile: directory + "/b.txt", encoding: .utf8) == "\(branch)\n\(branch)\n\(branch)\n")
        for name in ["x", "y", "z"] { #expect(!FileManager.default.fileExists(atPath: directory + "/" + name), "\(name) was created") }
    }

    /// What reaches `/bin/sh`: the script with references to `RELEASE_V_n` quoted for their place, and the values in
    /// the step's `env` (merged with the author's).
    @Test func theScriptReferencesEnvironmentVariables() throws {
        let script = try ShellScript(parsing: #"echo ${a} "x${b}" 'y${a}' <<EOF"# + "\n${b}\nEOF\n")
        #expect(script.problems.isEmpty)
        let rendered = try #require(
            script.render { reference in
                guard case .variable(let name) = reference else { return "" }
                return name.uppercased()
            })
        #expect(rendered.script == #"echo "${RELEASE_V_1}" "x${RELEASE_V_2}" 'y'"${RELEASE_V_1}"'' <<EOF"# + "\n${RELEASE_V_2}\nEOF\n")
        #expect(rendered.environment == ["RELEASE_V_1": "A", "RELEASE_V_2": "B"])
    }

    @Test func theValuesJoinTheAuthorsEnvironment() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let (result, reporter) = try await TestPipelines.run(
            Self.pipeline(#"echo "$GREETING ${v}" > out.txt"#, env: #", "env": {"GREETING": "hi"}"#),
            configure: { options in
                options.workingDirectory = directory
            })
        #expect(result.statuses == ["s=ok"])
        #expect(try String(contentsOfFile: directory + "/out.txt", encoding: .utf8) == "hi x\n")
        // The logged command is the script as it runs: the value is not pasted into it.
        #expect(reporter.logLines.first == #"s: $ /bin/sh -c 'echo "$GREETING ${RELEASE_V_1}" > out.txt'"#, "\(reporter.logLines)")
    }

    @Test(arguments: [
        (#"echo `echo ${v}`"#, "'${v}' in the shell script is inside backquotes (`…`), where it cannot be quoted; use $(…) instead"),
        (#"echo "`echo ${v}`""#, "'${v}' in the shell script is inside backquotes (`…`), where it cannot be quoted; use $(…) instead"),
        (
            #"echo $(( ${v} + 1 ))"#,
            "'${v}' in the shell script is inside an arithmetic expression ($((…)) or ((…))), where the shell evaluates a value as an expression, and an expression can run commands"
        ),
        (
            #"(( ${v} > 1 )) && echo big"#,
            "'${v}' in the shell script is inside an arithmetic expression ($((…)) or ((…))), where the shell evaluates a value as an expression, and an expression can run commands"
        ),
        ("cat <<'EOF'\n${v}\nEOF", "'${v}' in the shell script is in a here-document whose delimiter is quoted (<<'EOF'), where nothing expands; write the delimiter unquoted"),
        (#"cat <<${v}"#, "'${v}' in the shell script is in a here-document's delimiter (after <<), which must be a fixed word"),
        (#"echo $'a${v}'"#, "'${v}' in the shell script is inside $'…' quotes, where it cannot be quoted; use \"…\" instead"),
        (#"echo \${v}"#, "'${v}' in the shell script is right after a backslash, which would escape the quoting put around the value"),
    ])
    func referencesNoQuotingMakesSafeAreRefusedAtValidate(script: String, message: String) {
        #expect(TestPipelines.problems(Self.pipeline(script)) == ["test.json:1:111: error: $.steps[0].with.run: step 's': \(message)"])
    }

    @Test func safePlacesAreAccepted() {
        for script in [
            #"echo ${v}"#, #"echo "${v}""#, #"echo '${v}'"#, "cat <<EOF\n${v}\nEOF", #"echo "$(echo ${v})""#,
            #"echo $((1 + 2)) ${v}"#, "echo `date` ${v}", #"echo $${HOME:-${v}}"#, "cat <<'EOF'\n$HOME\nEOF\necho ${v}",
        ] {
            #expect(TestPipelines.problems(Self.pipeline(script)).isEmpty, "\(script)")
        }
    }

    @Test func theValuesVariablesAreReservedInEnv() {
        #expect(
            TestPipelines.problems(Self.pipeline(#"echo ${v}"#, env: #", "env": {"RELEASE_V_1": "x"}"#)) == [
                "test.json:1:132: error: $.steps[0].with.env.RELEASE_V_1: step 's': 'RELEASE_V_1' is reserved for the values of the script's ${…} references (RELEASE_V_1, RELEASE_V_2, …)"
            ])
    }
}
