import Foundation

/// What a rollout guard remembers between runs: how many healthy checks in a row it has seen, whether the pause in
/// force is its own, and its last checks with the numbers behind them.
///
/// It lives in a git note on the release's tag (``RolloutGuardNote``), not in a file of the runner: a scheduled CI
/// job starts on a fresh machine every hour, and the note travels with the repository. The note is a value nobody
/// controls (anyone who can push may write one), so it is parsed as data only, bounded in size, and every error names
/// the note.
package struct RolloutGuardState: Sendable, Equatable, Codable {
    /// One check: when, what was decided and why, and the numbers.
    package struct Check: Sendable, Equatable, Codable {
        package var at: String
        package var decision: RolloutDecision.Kind
        package var reason: String
        package var phasedState: String
        package var day: Int
        /// Whether the guard changed the phased release (false in a dry run and for wait/none).
        package var acted: Bool
        package var health: RolloutHealth

        enum CodingKeys: String, CodingKey {
            case at, decision, reason, day, acted, health
            case phasedState = "phased_state"
        }
    }

    /// The format; a note of another format is refused rather than misread.
    package var format = 1
    /// Healthy checks in a row (reset by an unhealthy one, and by a resume).
    package var consecutiveHealthy = 0
    /// Whether the guard paused the phased release and has not resumed it: it resumes only its own pauses.
    package var pausedByGuard = false
    /// The newest checks, oldest first, at most ``maxChecks``.
    package var checks: [Check] = []

    enum CodingKeys: String, CodingKey {
        case format, checks
        case consecutiveHealthy = "consecutive_healthy"
        case pausedByGuard = "paused_by_guard"
    }

    package init() {}

    /// Checks kept; older ones are dropped.
    package static let maxChecks = 24
    /// The largest note read, in bytes.
    package static let maxBytes = 64 * 1024
    /// The longest reason kept, in characters.
    static let maxReason = 1000

    /// The last check, if any.
    package var last: Check? { checks.last }

    /// The state after `check`, with ``consecutiveHealthy`` and ``pausedByGuard`` already updated by the decision.
    mutating func record(_ check: Check) {
        var check = check
        if check.reason.count > Self.maxReason { check.reason = String(check.reason.prefix(Self.maxReason - 1)) + "…" }
        checks.append(check)
        if checks.count > Self.maxChecks { checks.removeFirst(checks.count - Self.maxChecks) }
    }

    /// The note's text: JSON, keys sorted, one line per check for a readable `git notes show`.
    package func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Parses a note's text.
    /// - Parameter note: how to name the note in errors (`git note refs/notes/release-rollout on tag 'v1.4.0'`).
    /// - Throws: ``StepError/failed(_:)`` naming the note: too large, not JSON of this shape, another format, or
    ///   numbers out of range.
    package static func parse(_ data: Data, note: String) throws -> RolloutGuardState {
        let fix = "; remove it (git notes --ref \(RolloutGuardNote.shortRef) remove <tag>) and the guard starts afresh"
        guard data.count <= maxBytes else {
            throw StepError.failed("\(note) is \(data.count) bytes; the guard writes at most \(maxBytes)\(fix)")
        }
        let state: RolloutGuardState
        do {
            state = try JSONDecoder().decode(RolloutGuardState.self, from: data)
        } catch {
            throw StepError.failed("\(note) is not the guard's state: \(Self.describe(error))\(fix)")
        }
        guard state.format == 1 else { throw StepError.failed("\(note) has format \(state.format); this release reads format 1\(fix)") }
        guard (0...100_000).contains(state.consecutiveHealthy), state.checks.count <= maxChecks * 4,
            state.checks.allSatisfy({ (0...7).contains($0.day) && $0.reason.count <= maxReason * 4 })
        else {
            throw StepError.failed("\(note) holds numbers out of range\(fix)")
        }
        return state
    }

    /// A decoding error in a line: the JSON path and what is wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ context: DecodingError.Context) -> String {
            "$" + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not JSON" : "\(path(context)): invalid value"
        case .keyNotFound(let key, let context): return "\(path(context)): missing '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)): wrong type"
        @unknown default: return "not JSON of this shape"
        }
    }
}

extension RolloutGuardState {
    /// Decodes every key with a default, so a state written by an older release still loads.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        consecutiveHealthy = try container.decodeIfPresent(Int.self, forKey: .consecutiveHealthy) ?? 0
        pausedByGuard = try container.decodeIfPresent(Bool.self, forKey: .pausedByGuard) ?? false
        checks = try container.decodeIfPresent([Check].self, forKey: .checks) ?? []
    }
}
