import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSupport

/// Issue 16: a step that reads a path another step creates runs after it without `needs` (DESIGN §4), and
/// validation reports every problem of every step at once.
@Suite struct ImplicitEdgeTests {
    /// The pipeline: `zip` reads build/Demo.xcarchive, which `archive` declares in `creates`, but forgot
    /// `needs`, and is declared first.
    static let forgottenNeeds = """
        {"version": 1,
         "variables": {"build_dir": "build"},
         "steps": [
           {"id": "bump", "uses": "noop"},
           {"id": "zip", "uses": "archive.zip",
            "with": {"source": "${build_dir}/Demo.xcarchive", "output": "build/Demo.xcarchive.zip"}},
           {"id": "archive", "uses": "shell", "needs": ["bump"],
            "with": {"run": ["mkdir", "-p", "build/Demo.xcarchive/Products"], "creates": ["./build/Demo.xcarchive"]}}
         ]}
        """

    @Test func aReaderOfACreatedPathNeedsItsCreator() throws {
        let pipeline = try TestPipelines.load(Self.forgottenNeeds)
        #expect(pipeline.graph.dependencies["zip"] == ["archive"])
        #expect(pipeline.pathNeeds["zip"] == ["archive": "build/Demo.xcarchive"])
        #expect(pipeline.graph.topologicalOrder() == ["bump", "archive", "zip"])
    }

    @Test func thePlanOrdersItAndSaysWhy() async throws {
        let pipeline = try TestPipelines.load(Self.forgottenNeeds)
        let options = RunOptions(
            workingDirectory: TestPipelines.temporaryDirectory(), environment: [:], jobs: 4,
            now: Date(timeIntervalSince1970: 0), git: TestPipelines.fixedGit)
        let plan = try await Planner().plan(pipeline, options: options, masker: SecretMasker())
        #expect(plan.steps.map(\.id) == ["bump", "archive", "zip"])
        #expect(PlanRenderer.text(plan).contains("needs: archive (reads build/Demo.xcarchive)"))
    }

    @Test func theRealRunNoLongerStartsTheReaderFirst() async throws {
        let (result, reporter) = try await TestPipelines.run(Self.forgottenNeeds) { $0.jobs = 4 }
        #expect(result.statuses == ["bump=ok", "archive=ok", "zip=ok"])
        #expect(reporter.started == ["bump", "archive", "zip"])
    }

    @Test func aReadInsideACreatedFolderCountsToo() throws {
        let pipeline = try TestPipelines.load(
            """
            {"version": 1, "steps": [
              {"id": "gate", "uses": "shell", "with": {"run": ["test", "-d", "build/Demo.xcarchive/dSYMs"]}},
              {"id": "archive", "uses": "shell", "with": {"run": ["true"], "creates": ["build/Demo.xcarchive"]}}
            ]}
            """)
        #expect(pipeline.graph.dependencies["gate"] == ["archive"])
    }

    @Test func anOrderAlreadyStatedIsKept() throws {
        // `clean` deletes the archive before `archive` makes it: reading it first is the point.
        let pipeline = try TestPipelines.load(
            """
            {"version": 1, "steps": [
              {"id": "clean", "uses": "shell", "with": {"run": ["rm", "-rf", "build/Demo.xcarchive"]}},
              {"id": "archive", "uses": "shell", "needs": ["clean"], "with": {"run": ["true"], "creates": ["build/Demo.xcarchive"]}}
            ]}
            """)
        #expect(pipeline.graph.dependencies["clean"] == [])
        #expect(pipeline.graph.dependencies["archive"] == ["clean"])
    }

    @Test func twoUnorderedCreatorsAreAnErrorNamingBoth() {
        let problems = TestPipelines.problems(
            """
            {"version": 1, "steps": [
              {"id": "zip", "uses": "archive.zip", "with": {"source": "build/Demo.xcarchive", "output": "build/Demo.zip"}},
              {"id": "archive", "uses": "shell", "with": {"run": ["true"], "creates": ["build/Demo.xcarchive"]}},
              {"id": "copy", "uses": "shell", "with": {"run": ["true"], "creates": ["build/Demo.xcarchive"]}}
            ]}
            """)
        #expect(
            problems == [
                "test.json:2:59: error: $.steps[0].needs: step 'zip' reads 'build/Demo.xcarchive', which both 'archive' and 'copy' create; add 'needs' to say which it waits for, or to order them"
            ])
    }

    @Test func orderedCreatorsAreNotAmbiguous() throws {
        let pipeline = try TestPipelines.load(
            """
            {"version": 1, "steps": [
              {"id": "zip", "uses": "archive.zip", "with": {"source": "build/Demo.xcarchive", "output": "build/Demo.zip"}},
              {"id": "archive", "uses": "shell", "with": {"run": ["true"], "creates": ["build/Demo.xcarchive"]}},
              {"id": "resign", "uses": "shell", "needs": ["archive"], "with": {"run": ["true"], "creates": ["build/Demo.xcarchive"]}}
            ]}
            """)
        #expect(pipeline.graph.dependencies["zip"] == ["resign"])
    }

    @Test func aMisspeltRequiredOptionHidesNothing() {
        // Before: only "missing required option 'source'"; four rounds of validate to see the rest.
        let problems = TestPipelines.problems(
            """
            {"version": 1, "steps": [
              {"id": "zip", "uses": "archive.zip",
               "with": {"sorce": "build/Demo.xcarchive", "output": "a.zip", "level": "high", "deterministic": "yes"}}
            ]}
            """)
        #expect(
            problems == [
                "test.json:3:13: error: $.steps[0].with.sorce: step 'zip': unknown option 'sorce' for archive.zip (did you mean 'source'?)",
                "test.json:3:74: error: $.steps[0].with.level: step 'zip' (archive.zip): expected a whole number, found 'high'",
                "test.json:3:99: error: $.steps[0].with.deterministic: step 'zip' (archive.zip): expected true or false, found a string 'yes'",
            ])
    }

    @Test func aMissingRequiredOptionWithoutAMisspellingIsStillReported() {
        let problems = TestPipelines.problems(
            """
            {"version": 1, "steps": [{"id": "zip", "uses": "archive.zip", "with": {"output": "a.zip", "levle": 3}}]}
            """)
        #expect(
            problems == [
                "test.json:1:71: error: $.steps[0].with: step 'zip' (archive.zip): missing required option 'source'",
                "test.json:1:91: error: $.steps[0].with.levle: step 'zip': unknown option 'levle' for archive.zip (did you mean 'level'?)",
            ])
    }

    @Test func schemaKeyIsAcceptedAndIgnored() throws {
        _ = try TestPipelines.load(
            """
            {"$schema": "https://example.com/release.schema.json", "version": 1, "steps": [{"id": "a", "uses": "noop"}]}
            """)
    }
}
