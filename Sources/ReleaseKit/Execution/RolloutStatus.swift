import Foundation
import ReleaseAppStoreConnect
import ReleasePlanning
import ReleaseSentry
import ReleaseSteps
import ReleaseSupport

/// `release rollout status`: for every `appstore.rollout` step with `action: guard` of a planned pipeline, where the
/// phased release is, the health numbers today, what the guard would decide with them, and the last decision it
/// recorded (the git note on the release's tag). Read-only: App Store Connect and Sentry are only read, nothing is
/// paused or resumed, and no note is written (the notes ref is fetched, a local copy of the remote's record).
package struct RolloutStatus: PipelineStatus {
    /// One guard step.
    package struct Entry: Sendable {
        package var stepID: String
        package var bundleID = ""
        package var version = ""
        /// Why the step runs not in this plan (a false `when`), if it does not.
        package var skipped: String?
        package var phasedState = ""
        package var day = 0
        package var health: RolloutHealth?
        /// What the guard would decide now, and why.
        package var wouldDecide: RolloutDecision.Kind?
        package var reason = ""
        package var tag: String?
        /// The last check the note records.
        package var last: RolloutGuardState.Check?
        package var consecutiveHealthy = 0
        package var pausedByGuard = false
        /// Why it could not be read (bad options, a refused token, a note that is not the guard's).
        package var error: String?
    }

    package var entries: [Entry]

    /// Looks at every guard step of `plan`, in order.
    package static func assess(_ plan: Plan) async -> RolloutStatus {
        var entries: [Entry] = []
        for planned in plan.steps where planned.kind.kind == AppStoreRolloutStep.kind {
            var entry = Entry(stepID: planned.id)
            if case .skip(let reason) = planned.decision { entry.skipped = reason }
            do {
                let (step, context) = try plan.readOnlyStep(planned, as: AppStoreRolloutStep.self)
                guard step.options.action == .guard else { continue }
                entry.bundleID = step.options.bundleID
                entry.version = step.options.version
                let outcome = try await step.check(in: context, act: false)
                entry.phasedState = outcome.status.phasedState
                entry.day = outcome.status.day
                entry.health = outcome.health
                entry.wouldDecide = outcome.decision
                entry.reason = outcome.reason
                entry.tag = outcome.tag
                entry.last = outcome.previous?.last
                entry.consecutiveHealthy = outcome.previous?.consecutiveHealthy ?? 0
                entry.pausedByGuard = outcome.previous?.pausedByGuard ?? false
            } catch {
                entry.error = plan.interpolator.masker.mask(String(describing: error))
            }
            entries.append(entry)
        }
        return RolloutStatus(entries: entries)
    }

    /// Whether every guard could be read.
    package var succeeded: Bool { entries.allSatisfy { $0.error == nil } }

    /// The report for people.
    package var text: String {
        guard !entries.isEmpty else { return "the pipeline has no appstore.rollout step with 'action: guard'\n" }
        var lines: [String] = []
        for entry in entries {
            lines.append(
                "rollout guard '\(entry.stepID)'" + (entry.bundleID.isEmpty ? "" : " (\(entry.bundleID) \(entry.version))")
                    + (entry.skipped.map { " — not run in this plan: \($0)" } ?? ""))
            if let error = entry.error {
                lines.append("  error: " + error.replacingOccurrences(of: "\n", with: "\n  "))
                continue
            }
            let phase = entry.phasedState.isEmpty ? "no phased release" : entry.phasedState
            lines.append(
                "  phased release: \(phase)"
                    + (entry.day > 0 ? ", day \(entry.day) of 7 (\(NumberText.string(RolloutThresholds.percent(onDay: entry.day)))% of users)" : ""))
            if let health = entry.health { lines.append("  health: \(health.summary)") }
            if let decision = entry.wouldDecide { lines.append("  would decide now: \(decision.rawValue): \(entry.reason)") }
            if let last = entry.last {
                lines.append("  last decision (\(last.at)): \(last.decision.rawValue)\(last.acted ? "" : " (nothing changed)"): \(last.reason)")
            } else {
                lines.append("  last decision: none recorded" + (entry.tag.map { " on tag '\($0)'" } ?? ""))
            }
            if entry.pausedByGuard { lines.append("  the guard paused it; \(entry.consecutiveHealthy) healthy check(s) in a row since") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report for programs (`--json`).
    package var json: [String: Any] {
        [
            "guards": entries.map { entry -> [String: Any] in
                var object: [String: Any] = ["id": entry.stepID, "bundle_id": entry.bundleID, "version": entry.version]
                if let skipped = entry.skipped { object["skipped"] = skipped }
                if let error = entry.error {
                    object["error"] = error
                    return object
                }
                object["phased_state"] = entry.phasedState
                object["day"] = entry.day
                object["health"] = entry.health.map(Self.json) ?? NSNull()
                object["would_decide"] = entry.wouldDecide.map { ["decision": $0.rawValue, "reason": entry.reason] as [String: Any] } ?? NSNull()
                object["tag"] = entry.tag ?? NSNull()
                object["last_decision"] =
                    entry.last.map { last -> [String: Any] in
                        ["at": last.at, "decision": last.decision.rawValue, "reason": last.reason, "acted": last.acted, "day": last.day]
                    } ?? NSNull()
                object["consecutive_healthy"] = entry.consecutiveHealthy
                object["paused_by_guard"] = entry.pausedByGuard
                return object
            }
        ]
    }

    /// The numbers as JSON (null for what is unknown).
    static func json(_ health: RolloutHealth) -> [String: Any] {
        var object: [String: Any] = [:]
        if let sentry = health.sentry {
            object["sentry"] =
                [
                    "sessions": sentry.sessions, "crash_free_sessions": sentry.crashFreeSessions ?? NSNull(),
                    "crash_free_users": sentry.crashFreeUsers ?? NSNull(),
                ] as [String: Any]
        }
        if let ratings = health.ratings {
            object["ratings"] = ["reviews": ratings.count, "average": ratings.average ?? NSNull()] as [String: Any]
        }
        return object
    }
}
