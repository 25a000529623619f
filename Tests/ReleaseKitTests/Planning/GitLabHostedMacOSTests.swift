import Foundation
import Testing
import Yams

@testable import ReleasePlanning

/// Issue 35: a macOS job sent to GitLab.com's hosted macOS runners (`--runner-tags macos-15=saas-macos-medium-m1`)
/// runs in the VM image of its label's macOS and Xcode; a team's own Mac (the label as its tag) gets no image, and a
/// label GitLab has no image of is said, not guessed.
@Suite struct GitLabHostedMacOSTests {
    static func pipeline(runner: String) -> String {
        """
        {"version": 1, "name": "app", "runs_on": "ubuntu-latest",
         "steps": [
           {"id": "archive", "uses": "shell", "runs_on": "\(runner)", "with": {"run": ["xcodebuild", "archive"], "creates": ["build"]}},
           {"id": "upload", "uses": "shell", "needs": ["archive"], "with": {"run": ["true"]}}
         ]}
        """
    }

    static func export(runner: String, tags: [String: [String]]) throws -> (config: [String: Any], warnings: [String]) {
        let gitlab = try GitLabCIPipeline(
            pipeline: try TestPipelines.load(pipeline(runner: runner)), pipelinePath: "Pipelines/app.json", profile: nil, command: "c",
            tool: try GitHubActionsWorkflowTests.published.pinning(GitHubActionsWorkflowTests.sums), runnerTags: tags)
        let text = gitlab.text
        return (try #require(try Yams.load(yaml: text, .basic) as? [String: Any], "\(text)"), gitlab.warnings)
    }

    @Test func aHostedMacOSJobRunsInTheImageOfItsXcode() throws {
        let (config, warnings) = try Self.export(runner: "macos-15", tags: ["macos-15": ["saas-macos-medium-m1"]])
        let mac = try #require(config["macos"] as? [String: Any])
        #expect(mac["image"] as? String == "macos-15-xcode-16")
        #expect(mac["tags"] as? [String] == ["saas-macos-medium-m1"])
        #expect((config["linux"] as? [String: Any])?["image"] as? String == GitLabCIPipeline.linuxImage)
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func aTeamsOwnMacGetsNoImage() throws {
        let (config, warnings) = try Self.export(runner: "macos-15", tags: [:])
        let mac = try #require(config["macos"] as? [String: Any])
        #expect(mac["image"] == nil)
        #expect(mac["tags"] as? [String] == ["macos-15"])
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func aLabelGitLabHasNoImageOfIsSaid() throws {
        let (config, warnings) = try Self.export(runner: "macos-26", tags: ["macos-26": ["saas-macos-large-m2pro"]])
        #expect((config["macos"] as? [String: Any])?["image"] == nil)
        #expect(
            warnings == [
                "job macos runs on GitLab's hosted macOS runners, which have no image of macos-26 (they have macos-14-xcode-15, "
                    + "macos-15-xcode-16): it gets their default image and its Xcode"
            ])
    }
}
