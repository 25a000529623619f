import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleaseSupport

/// `release report --cost`: run reports carry each step's runner kind, and reports are priced per job, rounded up
/// to whole minutes, at list rates or the ones given.
struct RunCostTests {
    private func write(_ text: String, _ name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func directory() throws -> String {
        let path = TestTemporary.root + "/release-cost-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aRunReportGivesEveryStepItsRunnerAndDuration() throws {
        let result = RunResult(
            pipeline: "p", file: "p.json", profile: nil, branch: nil, dryRun: false, interrupted: false, preflightFailed: false,
            startedAt: Date(timeIntervalSince1970: 0), duration: 61.5,
            steps: [StepResult(id: "archive", kind: "xcode.archive", gate: false, status: .succeeded, duration: 60.25)], runner: "macos")
        let object = RunReport.object(result)
        #expect(object["runner"] as? String == "macos")
        let step = try #require((object["steps"] as? [[String: Any]])?.first)
        #expect(step["runner"] as? String == "macos" && step["duration"] as? Double == 60.25)
        // This machine's kind by default, through the platform seam.
        #expect(
            RunResult(
                pipeline: "p", file: "p.json", profile: nil, branch: nil, dryRun: false, interrupted: false, preflightFailed: false,
                startedAt: Date(), duration: 0, steps: []
            ).runner == Platform.systemKind)
        #expect(Condition.currentSystem == Platform.systemKind)
    }

    @Test func reportsArePricedPerJobRoundedUpToWholeMinutes() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = try write(
            #"{"runner": "macos", "duration": 841.2, "steps": [{"id": "archive", "runner": "macos", "duration": 720}, {"id": "export", "runner": "macos", "duration": 120.5}]}"#,
            "mac.json", in: folder)
        let linux = try write(#"{"runner": "linux", "duration": 59, "steps": [{"id": "upload", "runner": "linux", "duration": 58}]}"#, "linux.json", in: folder)
        let resume = try write(#"{"runner": "linux", "duration": 61, "steps": []}"#, "resume.json", in: folder)
        let cost = try RunCost.read(files: [mac, linux, resume])
        #expect(cost.jobs.map(\.minutes) == [15, 1, 2])
        #expect(cost.jobs.first?.stepSeconds == 840.5)
        #expect(cost.runners.map(\.kind) == ["linux", "macos"])
        #expect(cost.runners.map(\.minutes) == [3, 15])
        #expect(cost.runners.map(\.rate) == [0.006, 0.062])
        let total = try #require(cost.totalPrice)
        #expect(abs(total - (3 * 0.006 + 15 * 0.062)) < 1e-9)
        #expect(
            cost.text == """
                \(mac): macos, 14m01s -> 15 min
                \(linux): linux, 59s -> 1 min
                \(resume): linux, 1m01s -> 2 min
                linux: 3 min in 2 jobs at $0.006/min = $0.018
                macos: 15 min in 1 job at $0.062/min = $0.93
                total: $0.948

                """)
        let overridden = try RunCost.read(files: [mac], prices: try RunCost.Prices(overrides: ["macos=0.08"]))
        #expect(overridden.runners.first?.price == 15 * 0.08)
        let json = overridden.json
        #expect((json["runners"] as? [String: Any])?["macos"] as? [String: Any] != nil)
        #expect(JSONWriter.text(json) != nil)
    }

    @Test func aKindWithoutAPriceIsCountedAndLeftUnpriced() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let windows = try write(#"{"runner": "windows", "duration": 30, "steps": []}"#, "w.json", in: folder)
        let cost = try RunCost.read(files: [windows])
        #expect(cost.runners.first?.minutes == 1 && cost.runners.first?.price == nil && cost.totalPrice == nil)
        #expect(cost.text.contains("windows: 1 min in 1 job (no list price; pass --price windows=USD)"))
    }

    @Test(arguments: [
        ("[]", "$: not a JSON object (write one with release run --report FILE)"),
        (#"{"duration": 1, "steps": []}"#, "$.runner: missing: the report was written by a release before runner kinds, or is not a run report"),
        (#"{"runner": "Mac OS; rm", "duration": 1, "steps": []}"#, "$.runner: 'Mac OS; rm' is not a runner kind (macos, linux, …)"),
        (#"{"runner": "linux", "duration": "1m", "steps": []}"#, "$.duration: not a number of seconds"),
        (#"{"runner": "linux", "duration": true, "steps": []}"#, "$.duration: not a number of seconds"),
        (#"{"runner": "linux", "duration": -4, "steps": []}"#, "$.duration: -4 is not a duration in seconds (0 to one year)"),
        (#"{"runner": "linux", "duration": 1}"#, "$.steps: missing"),
        (#"{"runner": "linux", "duration": 1, "steps": [{"id": "a"}]}"#, "$.steps[0].duration: missing"),
        (#"{"runner": "linux", "duration": 1, "steps": [3]}"#, "$.steps[0]: not an object"),
        (#"{"runner": "linux", "duration": 1, "steps": [{"duration": 1, "runner": 5}]}"#, "$.steps[0].runner: not a runner kind"),
    ])
    func aReportThatIsNotOneIsNamedWithItsPath(text: String, message: String) throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try write(text, "bad.json", in: folder)
        #expect(throws: RunCostError.invalid(file: file, path: String(message.prefix { $0 != ":" }), reason: String(message.drop { $0 != ":" }.dropFirst(2)))) {
            try RunCost.read(files: [file])
        }
    }

    @Test func aMissingFileAndABadPriceSayWhich() throws {
        #expect(throws: RunCostError.self) { try RunCost.read(files: ["/nonexistent/report.json"]) }
        #expect(throws: RunCostError.badPrice("macos")) { try RunCost.Prices(overrides: ["macos"]) }
        #expect(throws: RunCostError.badPrice("macos=-1")) { try RunCost.Prices(overrides: ["macos=-1"]) }
        #expect(throws: RunCostError.badPrice("Mac=1")) { try RunCost.Prices(overrides: ["Mac=1"]) }
        #expect(RunCost.billedMinutes(0) == 1 && RunCost.billedMinutes(60) == 1 && RunCost.billedMinutes(60.001) == 2)
    }
}
