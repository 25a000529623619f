import Foundation
import ReleaseSupport

/// `release report --cost FILE…`: runner minutes per runner kind, and their price at list rates, from run reports
/// (`release run --report`; a workflow of several jobs writes one per job).
///
/// Billing follows GitHub's: "GitHub rounds the minutes and partial minutes each job uses up to the nearest whole
/// minute" (docs.github.com, "Actions minute multipliers" / "Viewing job execution time": billable minutes "are
/// rounded up to the next minute"). So each report counts as one job held for its whole run (`duration`, wall clock:
/// steps that ran side by side held one runner), rounded up to whole minutes, on the runner kind the report
/// names (`runner`). The default rates are GitHub's list prices for the smallest hosted runners: Linux $0.006 and
/// macOS $0.062 a minute; ``Prices`` overrides them (`--price macos=0.08`), and a kind with no price is counted in
/// minutes and left unpriced.
package struct RunCost: Sendable, Equatable {
    /// One report: one job.
    package struct Job: Sendable, Equatable {
        package var file: String
        package var runner: String
        package var seconds: Double
        /// Whole minutes billed: the seconds rounded up (a job that started is at least one minute).
        package var minutes: Int
        /// Seconds each step ran (every step of one job ran on its runner).
        package var stepSeconds: Double
    }

    /// The minutes and price of one runner kind.
    package struct Runner: Sendable, Equatable {
        package var kind: String
        package var jobs: Int
        package var seconds: Double
        package var minutes: Int
        /// USD a minute; nil when unknown.
        package var rate: Double?
        package var price: Double? { rate.map { Double(minutes) * $0 } }
    }

    /// USD per minute by runner kind.
    package struct Prices: Sendable, Equatable {
        /// GitHub's list prices for the smallest hosted runners (Linux 2-core, macOS 3-core M1).
        package static let githubList: [String: Double] = ["linux": 0.006, "macos": 0.062]
        package var perMinute: [String: Double]

        package init(perMinute: [String: Double] = githubList) {
            self.perMinute = perMinute
        }

        /// The list prices with `overrides` (`KIND=USD`, e.g. `macos=0.08`) applied.
        /// - Throws: ``RunCostError/badPrice(_:)``.
        package init(overrides: [String]) throws {
            var prices = Self.githubList
            for text in overrides {
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, RunCost.isKind(parts[0]), let rate = Double(parts[1]), rate.isFinite, rate >= 0, rate < 1000 else {
                    throw RunCostError.badPrice(text)
                }
                prices[parts[0]] = rate
            }
            perMinute = prices
        }
    }

    /// The largest report read (a report lists every step's outputs and effects, but not megabytes of them).
    package static let maxReportSize = 32 << 20
    /// The longest run accepted: GitHub ends a job after 6 hours, a laptop run may take longer, none takes a year.
    static let maxSeconds = 366.0 * 24 * 3600

    package var jobs: [Job]
    package var runners: [Runner]

    package var totalPrice: Double? {
        runners.contains { $0.rate == nil } ? nil : runners.reduce(0) { $0 + ($1.price ?? 0) }
    }

    /// Reads and prices the reports at `files`.
    /// - Throws: ``RunCostError`` naming the file and JSON path of the first problem.
    package static func read(files: [String], prices: Prices = Prices()) throws -> RunCost {
        try RunCost(jobs: files.map(job), prices: prices)
    }

    package init(jobs: [Job], prices: Prices = Prices()) {
        self.jobs = jobs
        var runners: [String: Runner] = [:]
        for job in jobs {
            var runner = runners[job.runner] ?? Runner(kind: job.runner, jobs: 0, seconds: 0, minutes: 0, rate: prices.perMinute[job.runner])
            runner.jobs += 1
            runner.seconds += job.seconds
            runner.minutes += job.minutes
            runners[job.runner] = runner
        }
        self.runners = runners.values.sorted { $0.kind < $1.kind }
    }

    /// Whole minutes GitHub bills a job of `seconds`.
    package static func billedMinutes(_ seconds: Double) -> Int {
        max(1, Int((seconds / 60).rounded(.up)))
    }

    static func isKind(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
    }

    /// One report as a job.
    static func job(_ file: String) throws -> Job {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            if let size = attributes[.size] as? NSNumber, size.intValue > maxReportSize {
                throw RunCostError.unreadable(file: file, reason: "larger than \(ByteFormat.size(Int64(maxReportSize))); not a run report")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch let error as RunCostError {
            throw error
        } catch {
            throw RunCostError.unreadable(file: file, reason: "cannot be read (\((error as NSError).localizedDescription))")
        }
        guard JSONDepth.deepest(in: data) <= 64 else {
            throw RunCostError.invalid(file: file, path: "$", reason: "nested deeper than 64 levels; not a run report")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw RunCostError.invalid(file: file, path: "$", reason: "not a JSON object (write one with release run --report FILE)")
        }
        let runner: String
        switch object["runner"] {
        case let text as String where isKind(text): runner = text
        case nil:
            throw RunCostError.invalid(
                file: file, path: "$.runner", reason: "missing: the report was written by a release before runner kinds, or is not a run report")
        case let other?:
            throw RunCostError.invalid(file: file, path: "$.runner", reason: "'\(String(describing: other).prefix(40))' is not a runner kind (macos, linux, …)")
        }
        let seconds = try duration(object["duration"], file: file, path: "$.duration")
        guard let steps = object["steps"] as? [Any] else {
            throw RunCostError.invalid(file: file, path: "$.steps", reason: object["steps"] == nil ? "missing" : "not an array")
        }
        var stepSeconds = 0.0
        for (index, entry) in steps.enumerated() {
            guard let step = entry as? [String: Any] else {
                throw RunCostError.invalid(file: file, path: "$.steps[\(index)]", reason: "not an object")
            }
            if let kind = step["runner"], (kind as? String).map(isKind) != true {
                throw RunCostError.invalid(file: file, path: "$.steps[\(index)].runner", reason: "not a runner kind")
            }
            stepSeconds += try duration(step["duration"], file: file, path: "$.steps[\(index)].duration")
        }
        return Job(file: file, runner: runner, seconds: seconds, minutes: billedMinutes(seconds), stepSeconds: stepSeconds)
    }

    private static func duration(_ value: Any?, file: String, path: String) throws -> Double {
        // `is Bool` cannot tell `true` from 1 (every NSNumber casts to Bool on Linux): JSON booleans alone have the
        // `c` (char) type encoding.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else {
            throw RunCostError.invalid(file: file, path: path, reason: value == nil ? "missing" : "not a number of seconds")
        }
        let seconds = number.doubleValue
        guard seconds.isFinite, seconds >= 0, seconds <= maxSeconds else {
            throw RunCostError.invalid(file: file, path: path, reason: "\(NumberText.string(seconds)) is not a duration in seconds (0 to one year)")
        }
        return seconds
    }

    // MARK: Output

    /// For programs (`--json`).
    package var json: [String: Any] {
        [
            "jobs": jobs.map { job -> [String: Any] in
                ["file": job.file, "runner": job.runner, "seconds": job.seconds, "minutes": job.minutes]
            },
            "runners": Dictionary(
                uniqueKeysWithValues: runners.map { runner -> (String, Any) in
                    (
                        runner.kind,
                        [
                            "jobs": runner.jobs, "seconds": runner.seconds, "minutes": runner.minutes,
                            "rate": runner.rate ?? NSNull(), "price": runner.price ?? NSNull(),
                        ] as [String: Any]
                    )
                }),
            "total_price": totalPrice ?? NSNull(),
        ]
    }

    /// For people: a line per job, a line per runner kind, the total.
    package var text: String {
        var lines: [String] = []
        for job in jobs {
            lines.append("\(job.file): \(job.runner), \(DurationFormat.string(seconds: job.seconds)) -> \(job.minutes) min")
        }
        for runner in runners {
            let price = runner.rate.map { "at $\(Self.usd($0))/min = $\(Self.usd(Double(runner.minutes) * $0))" } ?? "(no list price; pass --price \(runner.kind)=USD)"
            lines.append("\(runner.kind): \(runner.minutes) min in \(runner.jobs) job\(runner.jobs == 1 ? "" : "s") \(price)")
        }
        if let total = totalPrice { lines.append("total: $\(Self.usd(total))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Dollars with up to three decimals (list rates are tenths of a cent).
    static func usd(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0"), !text.hasSuffix(".00") { text.removeLast() }
        return text
    }
}
