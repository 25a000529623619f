import Foundation
import Testing
import Yams

@testable import ReleasePipeline
@testable import ReleasePlanning

/// Issue 37: the starter's export puts only what needs Xcode on a Mac and says why, and a pipeline with a step that
/// waits on Apple exports what resumes it (GitHub's schedule, dispatch and resume jobs; GitLab's rules, optional needs
/// and scheduled job); a pipeline without one exports none of it.
@Suite struct MacOSMinutesExportTests {
    static func starter(_ signing: StarterPipeline.Signing, generation: [StarterPipeline.Generation] = []) -> StarterPipeline {
        StarterPipeline(
            project: "Demo.xcodeproj", scheme: "Demo", appName: "Demo", bundleIdentifier: "com.example.demo", team: "ABCDE12345",
            generation: generation, signing: signing, githubRepository: "owner/demo")
    }

    static func actions(_ text: String) throws -> GitHubActionsWorkflow {
        try GitHubActionsWorkflow(
            pipeline: try TestPipelines.load(text), pipelinePath: "Pipelines/release.json", profile: nil,
            command: "release export github-actions", tool: GitHubActionsWorkflowTests.published.pinning(GitHubActionsWorkflowTests.sums))
    }

    static func gitlab(_ text: String) throws -> GitLabCIPipeline {
        try GitLabCIPipeline(
            pipeline: try TestPipelines.load(text), pipelinePath: "Pipelines/release.json", profile: nil,
            command: "release export gitlab-ci", tool: GitHubActionsWorkflowTests.published.pinning(GitHubActionsWorkflowTests.sums))
    }

    @Test(arguments: StarterPipeline.Signing.allCases)
    func theStarterRunsOnlyXcodeStepsOnTheMac(signing: StarterPipeline.Signing) throws {
        let starter = Self.starter(signing, generation: [.cocoapods(podfile: "Podfile")])
        let workflow = try Self.actions(starter.text)
        let jobs = workflow.partition.jobs
        #expect(jobs.map(\.id) == ["linux", "macos", "linux-2"])
        #expect(jobs.map(\.runner.description) == ["ubuntu-latest", "macos-15", "ubuntu-latest"])
        let mac: [String]
        switch signing {
        case .apiKey: mac = ["pods", "archive", "export"]
        case .files: mac = ["pods", "keychain", "profiles", "adhoc-profiles", "archive", "export"]
        case .sync: mac = ["pods", "signing", "archive", "export"]
        }
        #expect(jobs[1].steps == mac)
        // Gate, bump, commit and its push before the Mac; everything after it on Linux.
        #expect(jobs[0].steps == ["check-git", "bump", "commit", "notes", "push"])
        #expect(jobs[2].steps == ["check-ipa", "check-dsyms", "dsyms", "upload", "testflight", "tag", "push-tag", "publish", "publish-testers"])
        #expect(workflow.partition.everyJob == ["cleanup"])
        // The header says which jobs run on macOS and why.
        let text = workflow.text
        #expect(text.contains("# macOS minutes cost about ten Linux ones: only these jobs run on a Mac, for what needs one:\n"))
        #expect(text.contains("#   macos on macos-15: pods (when: os macos), "), "\(text.prefix(3000))")
        #expect(text.contains("archive (Xcode), export (Xcode)\n# Every other job (linux, linux-2) runs on ubuntu-latest.\n"))
        #expect(try Self.gitlab(starter.text).text.contains("#   macos on macos-15: pods (when: os macos), "))
    }

    @Test func theBumpIsPushedBeforeTheMacArchivesIt() throws {
        let pipeline = try TestPipelines.load(Self.starter(.apiKey).text)
        #expect(pipeline.definition.step("push")?.needs == ["commit"])
        #expect(pipeline.definition.runsOn == Runner(labels: ["ubuntu-latest"]))
        #expect(pipeline.definition.step("archive")?.runner == Runner(labels: ["macos-15"]))
    }

    @Test func aNotificationWithoutNeedsJoinsTheLastJobNotTheFirst() throws {
        let text = #"""
            {"version": 1, "runs_on": "ubuntu-latest", "steps": [
              {"id": "bump", "uses": "shell", "with": {"run": ["true"]}},
              {"id": "archive", "uses": "shell", "runs_on": "macos-15", "needs": ["bump"], "with": {"run": ["true"]}},
              {"id": "upload", "uses": "shell", "needs": ["archive"], "with": {"run": ["true"]}},
              {"id": "tell", "uses": "notify.slack", "with": {"webhook": "${secrets.SLACK}", "on": "success"}}
            ]}
            """#
        let jobs = try Self.actions(text).partition.jobs
        #expect(jobs.map(\.steps) == [["bump"], ["archive"], ["upload", "tell"]])
        #expect(jobs.last?.needs == ["linux", "macos"])
    }

    @Test func aWaitingStepExportsWhatResumesItOnGitHub() throws {
        let text = try Self.actions(Self.starter(.apiKey).text).text
        let object = try #require(try Yams.load(yaml: text) as? [String: Any])
        let triggers = try #require(object["on"] as? [String: Any])
        #expect(((triggers["schedule"] as? [[String: String]])?.first?["cron"]) == "*/30 * * * *")
        #expect((triggers["repository_dispatch"] as? [String: [String]])?["types"] == ["release-resume"])
        #expect(((triggers["workflow_dispatch"] as? [String: Any])?["inputs"] as? [String: Any])?["resume"] != nil)
        let jobs = try #require(object["jobs"] as? [String: [String: Any]])
        #expect(Set(jobs.keys) == ["linux", "macos", "linux-2", "open-releases", "find-linux-2", "resume-linux-2"])
        for id in ["linux", "macos", "linux-2"] {
            #expect(jobs[id]?["if"] as? String == GitHubActionsWorkflow.releaseRunCondition)
        }
        #expect(jobs["open-releases"]?["if"] as? String == "github.event_name == 'schedule' || github.event_name == 'repository_dispatch'")
        #expect((jobs["open-releases"]?["permissions"] as? [String: String])?["actions"] == "write")
        #expect(jobs["resume-linux-2"]?["needs"] as? [String] == ["find-linux-2"])
        #expect(jobs["resume-linux-2"]?["if"] as? String == "needs.find-linux-2.outputs.run != ''")
        // The waiting job runs with a report and keeps what it ran with when a step waits.
        let steps = try #require(jobs["linux-2"]?["steps"] as? [[String: Any]])
        let run = try #require(steps.first { $0["id"] as? String == "release-run" }?["run"] as? String)
        #expect(run.hasSuffix(#"--report "$RUNNER_TEMP/release-report.json""#))
        let keep = try #require(steps.first { $0["id"] as? String == "waiting" }?["run"] as? String)
        #expect(keep.contains(#"if grep -q '^  "waiting" *:' "$RUNNER_TEMP/release-report.json" 2>/dev/null; then"#))
        #expect(keep.contains(#"key="${RELEASE_JOURNAL_KEY:-github:$GITHUB_REPOSITORY:$GITHUB_RUN_ID}""#))
        #expect(keep.contains("for path in .git/release-journal .git/release-changes build; do"), "\(keep)")
        // Only the waiting job resumes, with its own secrets only.
        let resume = try #require(jobs["resume-linux-2"]?["steps"] as? [[String: Any]])
        let environment = try #require(resume.first { $0["id"] as? String == "release-run" }?["env"] as? [String: String])
        #expect(environment["APP_STORE_CONNECT_KEY"] == "${{ secrets.APP_STORE_CONNECT_KEY }}")
        #expect(environment["GITHUB_TOKEN"] == "${{ secrets.GITHUB_TOKEN }}")
        #expect((jobs["find-linux-2"]?["steps"] as? [[String: Any]])?.contains { ($0["run"] as? String)?.contains("GITHUB_TOKEN") == true } == false)
    }

    @Test func aWaitingStepExportsWhatResumesItOnGitLab() throws {
        let text = try Self.gitlab(Self.starter(.apiKey).text).text
        let object = try #require(try Yams.load(yaml: text) as? [String: Any])
        let rules = try #require((object["workflow"] as? [String: Any])?["rules"] as? [[String: String]])
        for source in ["schedule", "trigger", "pipeline"] {
            #expect(rules.contains { $0["if"] == "$CI_PIPELINE_SOURCE == \"\(source)\"" })
        }
        let before = try #require(object["linux"] as? [String: Any])
        #expect((before["rules"] as? [[String: String]])?.first?["if"] == #"$CI_PIPELINE_SOURCE == "schedule" || $RELEASE_RESUME == "true""#)
        let waiting = try #require(object["linux-2"] as? [String: Any])
        #expect((waiting["rules"] as? [[String: String]])?.first?["if"] == #"$CI_PIPELINE_SOURCE == "schedule""#)
        #expect((waiting["needs"] as? [[String: Any]])?.allSatisfy { $0["optional"] as? Bool == true } == true)
        #expect((waiting["artifacts"] as? [String: Any])?["paths"] as? [String] == [".git/release-waiting/"])
        let script = (waiting["script"] as? [String] ?? []).joined(separator: "\n")
        #expect(script.contains(#"if [ "${RELEASE_RESUME:-}" = true ]; then"#))
        #expect(script.contains("/jobs/artifacts/$ref/raw/.git/release-waiting/linux-2.tar.gz?job=linux-2"))
        let open = try #require(object["open-releases"] as? [String: Any])
        #expect((open["rules"] as? [[String: String]])?.first?["if"] == #"$CI_PIPELINE_SOURCE == "schedule""#)
        #expect(((open["script"] as? [String]) ?? []).joined().contains("case \"$branch\" in release/*) ;; *) continue ;; esac"))
    }

    @Test func aPipelineWithoutAWaitingStepExportsNoResume() throws {
        let text = try GitHubActionsWorkflowTests().workflow().text
        #expect(!text.contains("schedule:") && !text.contains("open-releases") && !text.contains("if: github.event_name"))
        let gitlab = try GitLabCIPipelineTests().configuration().text
        #expect(!gitlab.contains("RELEASE_RESUME") && !gitlab.contains("open-releases") && !gitlab.contains("when: never"))
    }

    @Test func uploadPatternsAndBranchGlobsBecomeShellWordsThatNeverRunAsCode() {
        #expect(WorkflowResume.pattern("build/") == "build")
        #expect(WorkflowResume.pattern("dist/*.zip") == "dist/*.zip")
        #expect(WorkflowResume.pattern("a b/$(x)/*") == "'a b/$(x)/'*")
        #expect(WorkflowResume.casePatterns(["release/**", "hot fix/*"]) == ["release/*", "'hot fix/'*"])
    }
}
