import Foundation
import ReleaseSupport

/// `wait` of the steps that wait on Apple (`appstore.upload`, `testflight.distribute`, `appstore.submit`): how long
/// this run may hold its runner for App Store Connect (DESIGN §5).
///
/// - a duration, `30s`, `5m`, `2h` or `1d`: wait at most that long, then end the step *waiting* (not failed): the run
///   exits 0, the steps after it wait too, and running the same pipeline on the same commit again continues from what
///   App Store Connect says;
/// - `until-done`: wait until App Store Connect is done (`wait_timeout` still fails a wait that never ends);
/// - one of the step's named states (`appstore.upload`: `none`, `uploaded`, `processed`): wait for that state within
///   the default budget, which is `5m` in CI (where a waiting runner is paid for; ``CIEnvironment/isCI(_:)``) and
///   `until-done` elsewhere (a laptop).
///
/// A duration or `until-done` waits for the step's last state (`processed` for an upload).
package enum WaitBudget: OptionValue, Equatable, Sendable {
    case state(String)
    case duration(Double)
    case untilDone

    /// The default budget in CI: long enough for a small build's processing, short against a macOS minute's price.
    package static let defaultInCI: Double = 300
    /// The longest duration accepted: a week, as `wait_timeout`.
    static let longest: Double = 604_800

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = Self.parse(text)
    }

    /// `text` as a budget: `until-done`, a duration, else a named state (checked by the step).
    static func parse(_ text: String) -> WaitBudget {
        if text == "until-done" { return .untilDone }
        if let seconds = seconds(text) { return .duration(seconds) }
        return .state(text)
    }

    /// `5m` → 300: a positive number of `s`, `m`, `h` or `d`; nil for anything else.
    static func seconds(_ text: String) -> Double? {
        guard let unit = text.last, let scale = ["s": 1.0, "m": 60, "h": 3600, "d": 86_400][String(unit)] else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number), value > 0 else {
            return nil
        }
        return value * scale
    }

    /// The named state waited for, when one is named.
    package var namedState: String? {
        if case .state(let name) = self { return name }
        return nil
    }

    /// Checks the value for a step whose named states are `states`: a state it knows, a duration within a week.
    /// A value still holding a `${…}` reference (validation before the run) is not judged.
    func check(states: [String]) throws {
        switch self {
        case .state(let name):
            guard !name.contains("${") else { return }
            guard states.contains(name) else {
                throw StepError.invalidOption(
                    "wait", "'\(Echo.text(name))' is not a duration (30s, 5m, 2h, 1d), 'until-done' or one of \(states.joined(separator: ", "))")
            }
        case .duration(let seconds):
            guard seconds <= Self.longest else { throw StepError.invalidOption("wait", "\(DurationFormat.string(seconds: seconds)) is longer than a week") }
        case .untilDone: break
        }
    }

    /// The seconds this run may wait before the step ends waiting; nil waits until done. A named state takes the
    /// default: ``defaultInCI`` in CI, until done elsewhere.
    func seconds(in environment: [String: String]) -> Double? {
        switch self {
        case .duration(let seconds): return seconds
        case .untilDone: return nil
        case .state: return CIEnvironment.isCI(environment) ? Self.defaultInCI : nil
        }
    }

    /// How the budget reads in a plan: `at most 5m00s, then the step waits`, `until done`.
    func describe(in environment: [String: String]) -> String {
        guard let seconds = seconds(in: environment) else { return "until done" }
        return "at most \(DurationFormat.string(seconds: seconds)), then the step ends waiting (not failed)"
    }

    package static func optionTypeName(_ format: OptionFormat) -> String { "string" }

    package var pipelineText: String? {
        switch self {
        case .state(let name): return name.pipelineText
        case .duration(let seconds):
            // In the largest unit that writes it whole, as a pipeline would: 1d, 2h, 5m, 90s.
            let unit = [("d", 86_400.0), ("h", 3600), ("m", 60)].first { seconds.truncatingRemainder(dividingBy: $0.1) == 0 } ?? ("s", 1)
            let count = seconds / unit.1
            return "\"\(count == count.rounded() ? String(Int(count)) : String(count))\(unit.0)\""
        case .untilDone: return "\"until-done\""
        }
    }
}
