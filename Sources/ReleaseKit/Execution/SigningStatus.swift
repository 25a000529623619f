import Foundation
import ReleaseAppStoreConnect
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport

/// `release signing status`: for every `signing.sync` step of a planned pipeline, which certificate and profiles a
/// release would use, when each expires, and what a sync would change. Read-only: only the GET requests of
/// ``SigningSynchronizer/assess()`` are sent, whatever the step's `create` and `readonly` say.
package struct SigningStatus: PipelineStatus {
    /// One `signing.sync` step.
    package struct Entry: Sendable {
        package var stepID: String
        package var type: String
        /// The platform signed for; nil when the step's options could not be read.
        package var platform: ApplePlatform?
        /// Whether the step would fail in preflight rather than make the changes (readonly, or create false).
        package var wouldRefuse: Bool
        /// Why the step runs not in this plan (a false `when`), if it does not.
        package var skipped: String?
        package var assessment: SigningAssessment?
        /// Why it could not be assessed (bad options, App Store Connect refused the key).
        package var error: String?
    }

    package var entries: [Entry]

    /// Assesses every `signing.sync` step of `plan`, in order.
    package static func assess(_ plan: Plan) async -> SigningStatus {
        var entries: [Entry] = []
        for planned in plan.steps where planned.kind.kind == SigningSyncStep.kind {
            var entry = Entry(stepID: planned.id, type: "", platform: nil, wouldRefuse: false)
            if case .skip(let reason) = planned.decision { entry.skipped = reason }
            do {
                let (step, context) = try plan.readOnlyStep(planned, as: SigningSyncStep.self)
                entry.type = step.options.type.rawValue
                entry.platform = step.options.platform.platform
                let assessment = try await step.assess(in: context)
                entry.assessment = assessment
                entry.wouldRefuse = step.refusal(assessment, context) != nil
            } catch {
                entry.error = plan.interpolator.masker.mask(String(describing: error))
            }
            entries.append(entry)
        }
        return SigningStatus(entries: entries)
    }

    /// Whether every step could be assessed.
    package var succeeded: Bool { entries.allSatisfy { $0.error == nil } }

    /// The report for people.
    package var text: String {
        guard !entries.isEmpty else { return "the pipeline has no signing.sync step\n" }
        var lines: [String] = []
        for entry in entries {
            lines.append(
                "signing.sync '\(entry.stepID)'" + (entry.type.isEmpty ? "" : " (\(entry.type), \(entry.platform?.signing ?? ""))")
                    + (entry.skipped.map { " — not run in this plan: \($0)" } ?? ""))
            if let error = entry.error {
                lines.append("  error: " + error.replacingOccurrences(of: "\n", with: "\n  "))
                continue
            }
            guard let assessment = entry.assessment else { continue }
            for line in SigningSyncStep.describe(assessment) where !line.hasPrefix("would ") { lines.append("  " + line) }
            if assessment.isComplete {
                lines.append("  a sync would change nothing")
            } else {
                lines.append("  a sync would change:")
                lines += assessment.changes.map { "    - \($0)" }
                if entry.wouldRefuse { lines.append("  (the step would fail in preflight: it may not make these changes; see its 'create' and 'readonly')") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report for programs (`--json`).
    package var json: [String: Any] {
        [
            "steps": entries.map { entry -> [String: Any] in
                var object: [String: Any] = ["id": entry.stepID, "type": entry.type, "platform": entry.platform?.signing ?? ""]
                if let skipped = entry.skipped { object["skipped"] = skipped }
                if let error = entry.error { object["error"] = error }
                guard let assessment = entry.assessment else { return object }
                if let certificate = assessment.certificate {
                    object["certificate"] = [
                        "id": certificate.id, "type": certificate.type, "serial_number": certificate.info.serialNumber,
                        "name": certificate.info.commonName, "expires": Timestamp.iso8601(certificate.info.notValidAfter),
                    ]
                } else {
                    object["certificate"] = NSNull()
                }
                if let note = assessment.certificateNote { object["certificate_note"] = note }
                object["bundle_ids"] = assessment.bundles.map { bundle -> [String: Any] in
                    var item: [String: Any] = ["bundle_id": bundle.identifier, "registered": bundle.resourceID != nil]
                    if let profile = bundle.profile {
                        item["profile"] = [
                            "name": profile.name, "uuid": profile.uuid, "state": profile.state,
                            "expires": profile.expires.map { Timestamp.iso8601($0) } ?? "",
                        ]
                    } else {
                        item["profile"] = NSNull()
                    }
                    if let problem = bundle.problem { item["problem"] = problem }
                    return item
                }
                object["changes"] = assessment.changes.map(\.json)
                object["complete"] = assessment.isComplete
                object["would_refuse"] = entry.wouldRefuse
                return object
            }
        ]
    }
}
