import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleasePlanning

@Suite struct PlannerTests {
    static let pipeline = """
        {"version": 1,
         "variables": {"method": "app-store"},
         "profiles": {
           "release": {"when": {"branch": "release*"}},
           "beta": {"when": {"env": {"BETA": "1"}}, "variables": {"method": "ad-hoc"}},
           "adhoc": {"default": true, "variables": {"method": "ad-hoc"}}
         },
         "steps": [
           {"id": "build", "uses": "print", "with": {"message": "${method}"}},
           {"id": "publish", "uses": "print", "needs": ["build"], "when": {"profile": "release"}, "with": {"message": "publish"}},
           {"id": "announce", "uses": "print", "with": {"message": "${steps.publish.outputs.message}"}},
           {"id": "after", "uses": "print", "needs": ["publish"], "with": {"message": "after"}},
           {"id": "cleanup", "uses": "noop", "always": true}
         ]}
        """

    func plan(branch: String?, profile: String? = nil, environment: [String: String] = [:], only: [String] = []) async throws -> Plan {
        let pipeline = try TestPipelines.load(Self.pipeline)
        let options = RunOptions(
            workingDirectory: "/tmp", environment: environment, profile: profile, only: only,
            git: GitInfo(branch: branch, sha: "abc", commitCount: 1))
        return try await Planner().plan(pipeline, options: options)
    }

    /// Two alternative steps, one per profile, and a step reading whichever runs through a profile variable: it is
    /// skipped for neither, and the plan says which edge belongs to another profile.
    @Test func aStepReadsOnlyTheProducersItsProfileNamesThroughVariables() async throws {
        let pipeline = try TestPipelines.load(
            """
            {"version": 1,
             "profiles": {"release": {"when": {"branch": "release*"}, "variables": {"source": "${steps.a.outputs.message}"}},
                          "adhoc": {"default": true, "variables": {"source": "${steps.b.outputs.message}"}}},
             "steps": [
               {"id": "a", "uses": "print", "when": {"profile": "release"}, "with": {"message": "from a"}},
               {"id": "b", "uses": "print", "when": {"profile": "adhoc"}, "with": {"message": "from b"}},
               {"id": "use", "uses": "print", "with": {"message": "got ${source}"}},
               {"id": "both", "uses": "print", "with": {"message": "${steps.a.outputs.message} ${steps.b.outputs.message}"}}
             ]}
            """)
        for (branch, reads, skipped) in [("release/1.0", "a", "b"), ("develop", "b", "a")] {
            let plan = try await Planner().plan(
                pipeline,
                options: RunOptions(
                    workingDirectory: "/tmp", environment: [:],
                    git: GitInfo(branch: branch, sha: "abc", commitCount: 1)))
            #expect(plan.step("use")?.decision == .run)
            #expect(plan.step("use")?.reads == [reads])
            #expect(Set(plan.step("use")?.needs ?? []) == ["a", "b"], "the graph orders it after both, whatever the profile")
            #expect(plan.step("both")?.decision == .skip("uses outputs of '\(skipped)', which is skipped"))
            #expect(
                PlanRenderer.text(plan).contains(
                    "needs: a (uses its outputs\(reads == "a" ? "" : " under another profile")), b (uses its outputs\(reads == "b" ? "" : " under another profile"))"),
                "\(PlanRenderer.text(plan))")
        }
    }

    /// A step skipped because of what it reads names the root cause: the producer another system runs (with the
    /// `--os` that shows both) before one skipped only because it reads a skipped step, whatever their names.
    @Test func aSkippedStepNamesTheStepItIsSkippedBecauseOf() async throws {
        let pipeline = try TestPipelines.load(
            """
            {"version": 1,
             "steps": [
               {"id": "mac", "uses": "print", "when": {"os": "macos"}, "with": {"message": "mac"}},
               {"id": "arm", "uses": "print", "when": {"env": {"ARCH": "arm64"}}, "with": {"message": "arm"}},
               {"id": "combined", "uses": "print", "with": {"message": "${steps.mac.outputs.message} ${steps.arm.outputs.message}"}},
               {"id": "after", "uses": "print", "with": {"message": "${steps.combined.outputs.message}"}},
               {"id": "all", "uses": "print",
                "with": {"message": "${steps.after.outputs.message} ${steps.arm.outputs.message} ${steps.mac.outputs.message}"}}
             ]}
            """)
        let plan = try await Planner().plan(
            pipeline, options: RunOptions(workingDirectory: "/tmp", environment: [:], os: "linux", git: GitInfo(branch: "main", sha: "abc", commitCount: 1)))
        let macOS = "which runs on macos only; see both with --os macos"
        #expect(plan.step("combined")?.decision == .skip("uses outputs of 'mac', \(macOS)"))
        #expect(plan.step("after")?.decision == .skip("uses outputs of 'combined', \(macOS)"))
        #expect(plan.step("all")?.decision == .skip("uses outputs of 'mac', \(macOS)"), "not 'after' or 'arm', which sort first")
    }

    @Test func choosesTheFirstProfileWhoseConditionHolds() async throws {
        let release = try await plan(branch: "release/3.0.0", environment: ["BETA": "1"])
        #expect(release.profile == "release")
        #expect(release.profileReason == "when: branch matches 'release*'")
        let beta = try await plan(branch: "develop", environment: ["BETA": "1"])
        #expect(beta.profile == "beta")
        #expect(try beta.interpolator.variable("method") == "ad-hoc")
    }

    /// Issue 22 item 7: in a pull request event the branch is named by whoever opens the pull request (from a fork
    /// too), so no `branch` condition holds: a pull request from `release/evil` runs the default profile, and
    /// `${git.branch}` is GitHub's ref for it, never GITHUB_HEAD_REF.
    @Test(arguments: ["pull_request", "pull_request_target"])
    func aPullRequestNeverSelectsAProfileByItsBranch(event: String) async throws {
        let pipeline = try TestPipelines.load(Self.pipeline)
        let environment = ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_HEAD_REF": "release/evil", "GITHUB_REF_NAME": "42/merge"]
        // Not a git repository: the branch comes from the CI variables, as in a detached CI checkout.
        let options = RunOptions(workingDirectory: TestPipelines.temporaryDirectory(), environment: environment)
        let plan = try await Planner().plan(pipeline, options: options)
        #expect(plan.git.branch == "42/merge")
        #expect(plan.git.pullRequest)
        #expect(plan.profile == "adhoc")
        #expect(plan.profileReason == "default; a pull request event: no 'branch' condition holds")
        // Even when the checkout itself is on a branch named like a release.
        let named = RunOptions(
            workingDirectory: "/tmp", environment: environment,
            git: GitInfo(branch: "release/evil", sha: "abc", commitCount: 1, pullRequest: true))
        let checkedOut = try await Planner().plan(pipeline, options: named)
        #expect(checkedOut.profile == "adhoc")
        #expect(checkedOut.step("publish")?.decision == .skip("when: profile is 'release' is false"))
        // A push still selects by branch.
        let push = try await Planner().plan(
            pipeline,
            options: RunOptions(
                workingDirectory: TestPipelines.temporaryDirectory(),
                environment: ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_REF_NAME": "release/3.0.0"]))
        #expect(push.profile == "release")
    }

    /// Issue 40 F11: only GitHub's `pull_request[_target]` counted; a review event, or a Bitrise, CircleCI or
    /// Buildkite pull request from a branch named `release/evil`, chose the `release` profile.
    @Test(arguments: [
        ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request_review", "GITHUB_HEAD_REF": "release/evil", "GITHUB_REF_NAME": "42/merge"],
        ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request_review_comment", "GITHUB_HEAD_REF": "release/evil", "GITHUB_REF_NAME": "42/merge"],
        ["BITRISE_GIT_BRANCH": "release/evil", "BITRISE_PULL_REQUEST": "12"],
        ["CIRCLE_BRANCH": "release/evil", "CIRCLE_PULL_REQUEST": "https://github.com/o/r/pull/12"],
        ["BUILDKITE_BRANCH": "release/evil", "BUILDKITE_PULL_REQUEST": "12"],
    ])
    func aPullRequestOnAnotherEventOrCINeverSelectsAProfileByItsBranch(environment: [String: String]) async throws {
        let pipeline = try TestPipelines.load(Self.pipeline)
        let options = RunOptions(workingDirectory: TestPipelines.temporaryDirectory(), environment: environment)
        let plan = try await Planner().plan(pipeline, options: options)
        #expect(plan.git.pullRequest)
        #expect(plan.profile == "adhoc")
    }

    @Test func aBuildkiteBuildThatIsNotAPullRequestSelectsByBranch() async throws {
        let pipeline = try TestPipelines.load(Self.pipeline)
        let environment = ["BUILDKITE_BRANCH": "release/3.0.0", "BUILDKITE_PULL_REQUEST": "false"]
        let plan = try await Planner().plan(pipeline, options: RunOptions(workingDirectory: TestPipelines.temporaryDirectory(), environment: environment))
        #expect(!plan.git.pullRequest)
        #expect(plan.profile == "release")
    }

    @Test func fallsBackToTheDefaultProfile() async throws {
        let plan = try await plan(branch: "develop")
        #expect(plan.profile == "adhoc")
        #expect(plan.profileReason == "default")
    }

    @Test func theCommandLineProfileWins() async throws {
        let plan = try await plan(branch: "develop", profile: "release")
        #expect(plan.profile == "release")
        #expect(plan.profileReason == "--profile")
        await #expect(throws: UsageError("unknown profile 'relase' (did you mean 'release'?); profiles: release, beta, adhoc")) {
            try await self.plan(branch: "develop", profile: "relase")
        }
    }

    @Test func skipsStepsWhoseConditionIsFalseAndThoseThatNeedTheirOutputs() async throws {
        let plan = try await plan(branch: "develop")
        #expect(plan.step("publish")?.decision == .skip("when: profile is 'release' is false"))
        #expect(plan.step("announce")?.decision == .skip("uses outputs of 'publish', which is skipped"))
        // A step that only needs a skipped step (and not its outputs) still runs.
        #expect(plan.step("after")?.decision == .run)
        #expect(plan.step("build")?.decision == .run)
    }

    @Test func alwaysStepsWithoutNeedsComeLastAndWaitForEverything() async throws {
        let plan = try await plan(branch: "release/1.0")
        #expect(plan.steps.map(\.id) == ["build", "publish", "announce", "after", "cleanup"])
        #expect(plan.step("cleanup")?.needs == ["build", "publish", "announce", "after"])
    }

    @Test func onlySelectsStepsAndWhatTheyNeed() async throws {
        let plan = try await plan(branch: "release/1.0", only: ["publish"])
        #expect(plan.steps.filter(\.willRun).map(\.id) == ["build", "publish", "cleanup"])
        #expect(plan.step("after")?.decision == .skip("not selected by --only"))
        await #expect(throws: UsageError("--only names 'publsh', which is not a step (did you mean 'publish'?)")) {
            try await self.plan(branch: "release/1.0", only: ["publsh"])
        }
    }

    @Test func rendersTextJSONAndDot() async throws {
        let plan = try await plan(branch: "develop")
        let text = PlanRenderer.text(plan)
        #expect(text.contains("profile:  adhoc (default)"))
        #expect(text.contains("3. announce  print\n   needs: publish (uses its outputs)\n   skip:  uses outputs of 'publish', which is skipped"))
        #expect(text.contains("5. cleanup   noop  [always]\n   needs: after every other step"))
        let dot = PlanRenderer.dot(plan)
        #expect(dot.contains("\"build\" -> \"publish\";"))
        #expect(dot.contains("\"publish\" [label=\"publish\\nprint\", style=dashed];"))
        let json = PlanRenderer.json(plan)
        #expect(json["profile"] as? String == "adhoc")
        #expect((json["steps"] as? [[String: Any]])?.count == 5)
    }
}

@Suite struct StepGraphTests {
    @Test func ordersByDependenciesThenDeclaration() {
        let graph = StepGraph(ids: ["d", "c", "b", "a"], dependencies: ["d": ["a"], "c": [], "b": ["c"], "a": []])
        #expect(graph.topologicalOrder() == ["c", "b", "a", "d"])
    }

    @Test func findsCyclesAsPaths() {
        let graph = StepGraph(ids: ["a", "b", "c", "d"], dependencies: ["a": ["c"], "b": ["a"], "c": ["b"], "d": []])
        #expect(graph.findCycle() == ["a", "b", "c", "a"])
        #expect(StepGraph(ids: ["a", "b"], dependencies: ["a": [], "b": ["a"]]).findCycle() == nil)
    }

    @Test func handlesLargeRandomGraphs() {
        var generator = SystemRandomNumberGenerator()
        let count = 2000
        let ids = (0..<count).map { "s\($0)" }
        var dependencies: [String: [String]] = [:]
        for index in 0..<count {
            dependencies[ids[index]] = index == 0 ? [] : (0..<3).map { _ in ids[Int.random(in: 0..<index, using: &generator)] }
        }
        let graph = StepGraph(ids: ids, dependencies: dependencies)
        #expect(graph.findCycle() == nil)
        let order = graph.topologicalOrder()
        #expect(order.count == count)
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        for (id, needs) in dependencies {
            for need in needs { #expect(position[need]! < position[id]!) }
        }
    }

    /// A 50,000-step `needs` chain, and the same chain closed into a cycle: the recursive search overflowed the
    /// stack (exit 139) on both.
    @Test func deepChainsAndCyclesDoNotOverflowTheStack() {
        let count = 50_000
        let ids = (0..<count).map { "s\($0)" }
        var chain: [String: [String]] = [:]
        for index in 0..<count { chain[ids[index]] = index == 0 ? [] : [ids[index - 1]] }
        let graph = StepGraph(ids: ids, dependencies: chain)
        #expect(graph.findCycle() == nil)
        #expect(graph.topologicalOrder() == ids)

        var cycle = chain
        cycle[ids[0]] = [ids[count - 1]]
        let found = StepGraph(ids: ids, dependencies: cycle).findCycle()
        #expect(found?.count == count + 1)
        #expect(found?.first == found?.last)
    }
}
