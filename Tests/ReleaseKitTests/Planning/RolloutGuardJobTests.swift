import Foundation
import Testing
import Yams

@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps

/// Issue 38: `release export` gives a rollout guard its own scheduled job, on Linux, with only the secrets it reads;
/// the release's jobs do not run on the schedule.
@Suite struct RolloutGuardJobTests {
    static let pipeline = """
        {"version": 1, "name": "app", "runs_on": "macos-15",
         "steps": [
           {"id": "version", "uses": "version.read", "with": {"project": "Demo.xcodeproj"}},
           {"id": "archive", "uses": "shell", "needs": ["version"], "with": {"run": ["build", "${secrets.CERT_PASSWORD}"]}},
           {"id": "watch", "uses": "appstore.rollout",
            "with": {"action": "guard", "bundle_id": "com.example.demo", "version": "${steps.version.outputs.version}",
                     "sentry": {"organization": "acme", "project": "ios", "token": "${secrets.SENTRY_TOKEN}"},
                     "min_crash_free_sessions": 99.5, "schedule": "5 */2 * * *",
                     "key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}",
                     "key": "${secrets.APP_STORE_CONNECT_KEY}"}}
         ]}
        """

    @Test func theGuardGetsItsOwnScheduledLinuxJobWithOnlyItsSecrets() throws {
        let pipeline = try TestPipelines.load(Self.pipeline)
        let workflow = try GitHubActionsWorkflow(
            pipeline: pipeline, pipelinePath: "Pipelines/app.json", profile: nil, command: "c", tool: GitHubActionsWorkflowTests.published)
        #expect(workflow.partition.jobs.flatMap(\.steps) == ["version", "archive"])
        let text = workflow.text
        let object = try #require(try Yams.load(yaml: text, .basic) as? [String: Any], "\(text)")
        let on = try #require(object["on"] as? [String: Any])
        #expect(on["schedule"] as? [[String: String]] == [["cron": "5 */2 * * *"]])
        let jobs = try #require(object["jobs"] as? [String: Any])
        let release = try #require(jobs["macos"] as? [String: Any])
        #expect(release["if"] as? String == "github.event_name != 'schedule'")
        let guardJob = try #require(jobs["rollout-guard"] as? [String: Any])
        #expect(guardJob["if"] as? String == "github.event_name == 'schedule'")
        #expect(guardJob["runs-on"] as? String == "ubuntu-latest")
        #expect(guardJob["permissions"] as? [String: String] == ["contents": "write"])
        let steps = try #require(guardJob["steps"] as? [[String: Any]])
        let run = try #require(steps.last)
        #expect(run["run"] as? String == "release run \"$RELEASE_PIPELINE\" --only watch")
        let environment = try #require(run["env"] as? [String: String])
        #expect(
            environment == [
                "RELEASE_PIPELINE": "Pipelines/app.json", "SENTRY_TOKEN": "${{ secrets.SENTRY_TOKEN }}",
                "APP_STORE_CONNECT_KEY": "${{ secrets.APP_STORE_CONNECT_KEY }}", "APP_STORE_CONNECT_KEY_ID": "${{ vars.APP_STORE_CONNECT_KEY_ID }}",
                "APP_STORE_CONNECT_ISSUER_ID": "${{ vars.APP_STORE_CONNECT_ISSUER_ID }}",
            ])
    }

    @Test func gitLabRunsTheGuardOnlyInScheduledPipelines() throws {
        let pipeline = try TestPipelines.load(Self.pipeline)
        let text = try GitLabCIPipeline(
            pipeline: pipeline, pipelinePath: "Pipelines/app.json", profile: nil, command: "c",
            tool: try GitHubActionsWorkflowTests.published.pinning(GitHubActionsWorkflowTests.sums)
        ).text
        let object = try #require(try Yams.load(yaml: text, .basic) as? [String: Any], "\(text)")
        let workflowRules = ((object["workflow"] as? [String: Any])?["rules"] as? [[String: String]])?.map { $0["if"] ?? "" }
        #expect(workflowRules?.contains("$CI_PIPELINE_SOURCE == \"schedule\"") == true)
        let guardJob = try #require(object["rollout-guard"] as? [String: Any])
        #expect((guardJob["rules"] as? [[String: String]]) == [["if": "$CI_PIPELINE_SOURCE == \"schedule\""]])
        #expect(guardJob["image"] as? String == GitLabCIPipeline.linuxImage)
        #expect((guardJob["environment"] as? [String: String])?["name"] == "release/rollout-guard")
        #expect((guardJob["script"] as? [String])?.last == "release run \"$RELEASE_PIPELINE\" --only watch")
        let release = try #require(object["macos"] as? [String: Any])
        #expect((release["rules"] as? [[String: String]]) == [["if": "$CI_PIPELINE_SOURCE != \"schedule\""]])
        #expect(text.contains("# The rollout guard: create a pipeline schedule (CI/CD > Schedules) with cron '5 */2 * * *' (UTC)"))
    }

    /// distribute.json has both a guard and steps that wait on Apple: `on:` holds one `schedule:` list with both
    /// crons, and each scheduled job runs only on its own (GitHub names the cron that started a run in
    /// `github.event.schedule`; GitLab keeps schedules outside the file, so the guard's schedule carries a variable).
    @Test func aGuardBesideResumesSharesTheScheduleListAndRunsOnItsOwnCron() throws {
        let path = FixturePaths.root.appendingPathComponent("Pipelines/distribute.json").path
        let pipeline = try PipelineLoader().load(path: path, displayPath: "Pipelines/distribute.json")
        let text = try GitHubActionsWorkflow(
            pipeline: pipeline, pipelinePath: "Pipelines/distribute.json", profile: nil, command: "c", tool: GitHubActionsWorkflowTests.published
        ).text
        let object = try #require(try Yams.load(yaml: text, .basic) as? [String: Any], "\(text)")
        let on = try #require(object["on"] as? [String: Any])
        #expect(on["schedule"] as? [[String: String]] == [["cron": GitHubActionsWorkflow.resumeSchedule], ["cron": RolloutGuardJob.defaultSchedule]])
        #expect(text.components(separatedBy: "\n  schedule:\n").count == 2, "one schedule list: \(text)")
        let jobs = try #require(object["jobs"] as? [String: Any])
        let guardJob = try #require(jobs["rollout-guard"] as? [String: Any])
        #expect(guardJob["if"] as? String == "(github.event_name == 'schedule' && github.event.schedule == '\(RolloutGuardJob.defaultSchedule)')")
        let open = try #require(jobs["open-releases"] as? [String: Any])
        #expect(
            open["if"] as? String
                == "(github.event_name == 'schedule' && github.event.schedule == '\(GitHubActionsWorkflow.resumeSchedule)') || github.event_name == 'repository_dispatch'")
        for id in ["linux", "macos", "linux-2"] {
            #expect((jobs[id] as? [String: Any])?["if"] as? String == GitHubActionsWorkflow.releaseRunCondition, "\(id)")
        }

        let gitlab = try GitLabCIPipeline(
            pipeline: pipeline, pipelinePath: "Pipelines/distribute.json", profile: nil, command: "c",
            tool: try GitHubActionsWorkflowTests.published.pinning(GitHubActionsWorkflowTests.sums)
        ).text
        let config = try #require(try Yams.load(yaml: gitlab, .basic) as? [String: Any], "\(gitlab)")
        let guardRules = (config["rollout-guard"] as? [String: Any])?["rules"] as? [[String: String]]
        #expect(guardRules == [["if": "$CI_PIPELINE_SOURCE == \"schedule\" && $RELEASE_SCHEDULE == \"rollout-guard\""]])
        let openRules = (config["open-releases"] as? [String: Any])?["rules"] as? [[String: String]]
        #expect(openRules?.first == ["if": "$CI_PIPELINE_SOURCE == \"schedule\" && $RELEASE_SCHEDULE != \"rollout-guard\""])
        #expect(gitlab.contains("# Give that schedule the variable RELEASE_SCHEDULE=rollout-guard"))
        // Each release job has one rules list (the resumes'), which keeps it out of every scheduled pipeline.
        for id in ["linux", "macos", "linux-2"] {
            #expect(gitlab.components(separatedBy: "\n\(id):\n").count == 2, "\(id)")
            let rules = (config[id] as? [String: Any])?["rules"] as? [[String: String]]
            #expect(rules?.first?["if"]?.hasPrefix("$CI_PIPELINE_SOURCE == \"schedule\"") == true && rules?.first?["when"] == "never", "\(id)")
        }
    }

    @Test func aPipelineWithoutAGuardExportsAsBefore() throws {
        let pipeline = try TestPipelines.load(GitHubActionsWorkflowTests.pipeline)
        #expect(RolloutGuardJob(pipeline) == nil)
        let text = try GitHubActionsWorkflow(
            pipeline: pipeline, pipelinePath: "Pipelines/app.json", profile: nil, command: "c", tool: GitHubActionsWorkflowTests.published
        ).text
        #expect(!text.contains("schedule") && !text.contains("if: "))
    }

    @Test func aGuardsScheduleMustBeCron() throws {
        #expect(AppStoreRolloutStep.isCron("17 * * * *") && AppStoreRolloutStep.isCron("0 */6 * * 1-5"))
        #expect(!AppStoreRolloutStep.isCron("@hourly") && !AppStoreRolloutStep.isCron("17 * * *") && !AppStoreRolloutStep.isCron("17 * * * * '"))
    }
}
