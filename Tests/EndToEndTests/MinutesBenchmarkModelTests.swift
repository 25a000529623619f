import Foundation
import Testing

/// `scripts/bench/minutes.py`, the model behind `scripts/bench-minutes.sh`: a small exported workflow and its
/// pipeline give the job reports the script's durations say (skipped steps free, waits ending their job, one resume
/// per wait, the lane polling through processing), and `release report --cost` prices them.
@Suite struct MinutesBenchmarkModelTests {
    static let workflow = """
        jobs:
          macos:
            runs-on: macos-15
            steps:
              - uses: actions/checkout@v5
              - run: release run "$RELEASE_PIPELINE" --resume --only archive --only export --only adhoc-only
          linux:
            runs-on: ubuntu-latest
            needs: [macos]
            steps:
              - run: |
                  release run "$RELEASE_PIPELINE" --resume --only upload --only testflight --only submit --only tag
        """
    static let pipeline = """
        {"version": 1, "name": "m", "profiles": {"release": {"when": {"branch": "release/*"}}, "adhoc": {"default": true}},
         "steps": [
          {"id": "archive", "uses": "xcode.archive", "when": {"os": "macos"}},
          {"id": "export", "uses": "xcode.export", "when": {"os": "macos"}},
          {"id": "adhoc-only", "uses": "shell", "when": {"profile": "adhoc"}},
          {"id": "upload", "uses": "appstore.upload", "when": {"profile": "release"}},
          {"id": "testflight", "uses": "testflight.distribute"},
          {"id": "submit", "uses": "appstore.submit"},
          {"id": "tag", "uses": "git.tag", "when": {"env": {"CI": "true"}}}]}
        """

    @Test func jobsAreCostedFromTheWorkflowAndTheScript() throws {
        let python = try #require(ReleaseBinary.tool("python3"), "python3 is not installed")
        let directory = ReleaseBinary.temporaryDirectory()
        try Self.workflow.write(toFile: directory + "/w.yml", atomically: true, encoding: .utf8)
        try Self.pipeline.write(toFile: directory + "/p.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/reports", withIntermediateDirectories: true)
        let script = ReleaseBinary.root.appendingPathComponent("scripts/bench/minutes.py").path
        let model = try ReleaseBinary.run(
            [script, "w.yml", "p.json", "reports", "m"], in: directory, executable: python)
        try #require(model.status == 0, "\(model.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(model.stdout.utf8)) as? [String: Any])
        #expect(summary["profile"] as? String == "release")
        #expect((summary["waiting_minutes"] as? [String: Double]) == ["ours": 0, "lane": 25])
        let jobs = try #require(summary["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["job"] as? String ?? "" } == ["macos", "linux", "linux (resumed after processing)", "linux (resumed after review)"])
        // The macOS job: a minute of set-up, archive 12, export 2; the ad-hoc step is skipped on a release run.
        #expect(jobs.map { $0["steps"] as? Int ?? -1 } == [2, 4, 1, 1])

        let ours = try ReleaseBinary.run(["report", "--cost", "--json"] + jobs.map { $0["report"] as? String ?? "" }, in: directory)
        try #require(ours.status == 0, "\(ours.stderr)")
        let oursCost = try #require(try JSONSerialization.jsonObject(with: Data(ours.stdout.utf8)) as? [String: Any])
        let runners = try #require(oursCost["runners"] as? [String: [String: Any]])
        // linux: 1 + 4 × 0.5 = 3, and two resumes of 1.5 → 2 each.
        #expect(runners["macos"]?["minutes"] as? Int == 15 && runners["linux"]?["minutes"] as? Int == 7)

        let lane = try ReleaseBinary.run(["report", "--cost", "--json", "reports/m-lane.json"], in: directory)
        let laneCost = try #require(try JSONSerialization.jsonObject(with: Data(lane.stdout.utf8)) as? [String: Any])
        // One Mac: set-up 1, archive 12, export 2, four steps of 0.5 and 25 minutes polling for processing.
        #expect((laneCost["runners"] as? [String: [String: Any]])?["macos"]?["minutes"] as? Int == 42)
    }
}
