import Foundation
import Testing

@testable import ReleasePlanning
@testable import ReleaseSteps

/// Issue 39: one neutral model of an exported pipeline, built once, that each engine's renderer only writes; the
/// traits it needs declared by the step kinds; one install script for every engine.
@Suite struct ExportedPipelineTests {
    func model(attest: Bool = false, tool: ToolSource = GitHubActionsWorkflowTests.published) throws -> ExportedPipeline {
        try ExportedPipeline(
            pipeline: try TestPipelines.load(GitHubActionsWorkflowTests.pipeline), pipelinePath: "Pipelines/app.json", profile: nil,
            command: "c", tool: tool, attest: attest)
    }

    @Test func jobsSayWhatTheyRunReadAndHandOn() throws {
        let model = try model(attest: true)
        #expect(model.jobs.map(\.id) == ["macos", "linux", "macos-2"])
        #expect(model.jobs.map(\.runs) == [["sign", "archive", "cleanup"], ["zip", "sums", "publish", "cleanup"], ["upload", "cleanup"]])
        #expect(model.jobs.map(\.ancestors) == [[], ["macos"], ["macos", "linux"]])
        #expect(model.jobs.map(\.inherits) == [[], ["macos"], ["macos", "linux"]])
        #expect(model.jobs.map(\.handsOnState) == [true, true, false])
        #expect(model.jobs.map(\.secrets) == [["CERT_PASSWORD"], ["GITHUB_TOKEN"], ["ALTOOL"]])
        // github.release writes the repository (its kind says so), and attests what it publishes.
        #expect(model.jobs.map(\.writesRepository) == [false, true, false])
        #expect(model.jobs.map(\.attestedFiles) == [[], ["dist/Demo-*.zip"], []])
        #expect(model.jobs[0].statePaths == [JournalLocation.gitFolder + "/", ".git/release-changes/", "build/"])
        #expect(model.jobs[2].waitingPaths == [JournalLocation.gitFolder + "/", ".git/release-changes/", "build/", "dist/", "SHA256SUMS"])
        #expect(model.jobs.allSatisfy { !$0.resumes } && model.rolloutGuard == nil)
        #expect(model.branches == ["release*", "hotfix/*"])
        #expect(model.command(of: model.jobs[2], temporary: "$T") == "release run \"$RELEASE_PIPELINE\" --resume --only upload --only cleanup")
        // Without --attest nothing is attested.
        #expect(try self.model().jobs.allSatisfy(\.attestedFiles.isEmpty))
    }

    @Test func theRunnerNoteComesFromTheStepsTraits() throws {
        let registry = try StepRegistry.builtIn
        #expect(registry["xcode.archive"]?.exportTraits.runner == .macOS("Xcode"))
        #expect(registry["archive.zip"]?.exportTraits.runner == .anywhere)
        #expect(registry["shell"]?.exportTraits == ExportTraits(writesUndeclaredFiles: true))
        #expect(registry["appstore.upload"]?.exportTraits.waitsOnApple == true)
        #expect(registry["github.release"]?.exportTraits.publishedFiles == "assets")
        // shell declares nothing: the runner note says what the pipeline says (`when: os macos`, `runs_on`).
        let model = try model()
        #expect(model.jobs[0].runnerReasons == ["runs_on macos-15", "runs_on macos-15"])
        #expect(model.jobs[2].runnerReasons == ["when: os macos"])
        #expect(model.runnerSummary.contains("  macos-2 on macos-latest: upload (when: os macos)"))
    }

    /// The one install script on each engine's shell: the same commands, in bash with GitHub's annotations and
    /// `$GITHUB_PATH`, or in POSIX sh with standard error and `export PATH`.
    @Test func oneInstallScriptRunsOnEachEnginesShell() throws {
        let install = ToolInstall(try GitHubActionsWorkflowTests.published.pinning(GitHubActionsWorkflowTests.sums))
        let github = install.script(on: GitHubActionsWorkflow.host)
        let gitlab = install.script(on: GitLabCIPipeline.host)
        #expect(github.first == "set -euo pipefail" && gitlab.first == "set -eu")
        #expect(github.last == "echo \"$bin\" >> \"$GITHUB_PATH\"" && gitlab.last == "export PATH=\"$bin:$PATH\"")
        let shared = ["mkdir -p \"$dir\"", "curl -fsSL --retry 3 -o \"$dir/release.tar.gz\" \"$url\"", "\"$bin/release\" --version"]
        for line in shared { #expect(github.contains(line) && gitlab.contains(line), "\(line)") }
        #expect(github.contains { $0.contains("::error::") } && !gitlab.contains { $0.contains("::error::") })
        #expect(!gitlab.contains { $0.contains("${RELEASE_TOOL_URL//") })
        #expect(install.environment.map(\.name) == ["RELEASE_TOOL_URL"] && install.cache == nil)
        let mint = ToolInstall(.mint(package: "acme/release", version: "0.1.0"))
        #expect(
            mint.script(on: GitLabCIPipeline.host) == [
                "set -eu", "command -v mint >/dev/null || brew install mint", "mint install acme/release@0.1.0", "export PATH=\"$HOME/.mint/bin:$PATH\"",
            ])
        #expect(mint.cache?.key == "mint-acme-release-0.1.0")
    }

    @Test func bothRenderersWriteTheSameModel() throws {
        let model = try model()
        let github = GitHubActionsWorkflow(model).text
        let gitlab = GitLabCIPipeline(model).text
        for job in model.jobs {
            let command = model.command(of: job, temporary: "unused")
            #expect(github.contains(command) && gitlab.contains(command), "\(command)")
        }
    }
}
